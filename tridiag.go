package ngca

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// tridiagonalize reduces the symmetric b×b matrix A, given in the lower
// triangle of a (row-major, stride b), to tridiagonal form by Householder
// similarity transforms,
//
//	A = Q·T·Qᵀ,   Q = H_0·H_1·⋯·H_{b−2},   H_k = I − τ_k·v_k·v_kᵀ,
//
// with the output of LAPACK's Dsytrd with uplo = Lower, up to rounding (Golub and
// Van Loan, Matrix Computations, 4th ed., Algorithm 8.3.1): d and e receive
// T's diagonal and subdiagonal, tau the τ_k, and a's lower triangle below
// the subdiagonal the vectors v_k (v_k has zeros in rows 0…k, a one in row
// k+1 and a[(k+2+i)·b+k] in row k+2+i), so that Dormqr on a's rows 1…b−1
// applies Q or Qᵀ. a's upper triangle is overwritten. v and p are
// workspace of length b.
//
// Step k computes H_k from column k of the current trailing matrix (Dlarfg),
// then applies it from both sides to the trailing (b−k−1)×(b−k−1) block
// A₂₂ as a rank-2 update,
//
//	p = τ·A₂₂·v,   w = p − ½τ(pᵀv)·v,   A₂₂ ← A₂₂ − v·wᵀ − w·vᵀ.
//
// Unlike gonum's Dsytrd, whose symmetric products (Dsymv, Dsyr2k) run as
// scalar Go loops, it keeps A in full storage, so that the product and the
// update are one Dgemv and two Dger calls on gonum's vectorised kernels:
// twice the flops of the symmetric form (2b³ against 4b³/3), and at b = 100
// about 2.5 times faster. A step whose column is already zero below the
// subdiagonal has τ = 0 and costs nothing; the Gram matrices of the
// narrowest widths are diagonal after flushTiny, so their reductions are
// nearly free.
func tridiagonalize(b int, a, d, e, tau, v, p []float64) {
	for i := 0; i < b; i++ {
		for j := 0; j < i; j++ {
			a[j*b+i] = a[i*b+j]
		}
	}
	for k := 0; k < b-1; k++ {
		n1 := b - k - 1
		// Row k right of the diagonal is column k below it (A is
		// symmetric), and is contiguous.
		row := a[k*b+k+1 : k*b+b]
		beta, t := impl.Dlarfg(n1, row[0], row[min(1, n1-1):], 1)
		d[k], e[k], tau[k] = a[k*b+k], beta, t
		if t != 0 {
			v[0] = 1
			copy(v[1:n1], row[1:])
			vv := blas64.Vector{N: n1, Inc: 1, Data: v}
			pv := blas64.Vector{N: n1, Inc: 1, Data: p}
			sub := blas64.General{Rows: n1, Cols: n1, Stride: b, Data: a[(k+1)*b+k+1:]}
			blas64.Gemv(blas.NoTrans, t, sub, vv, 0, pv)
			blas64.Axpy(-0.5*t*blas64.Dot(pv, vv), vv, pv)
			blas64.Ger(-1, vv, pv, sub)
			blas64.Ger(-1, pv, vv, sub)
		}
		for i := 1; i < n1; i++ {
			a[(k+1+i)*b+k] = row[i]
		}
	}
	d[b-1] = a[b*b-1]
}
