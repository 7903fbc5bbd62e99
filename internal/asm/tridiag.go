package asm

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
)

// Tridiagonalize reduces the symmetric b×b matrix A, given in the lower
// triangle of a (row-major, stride b), to tridiagonal form by Householder
// similarity transforms,
//
//	A = Q·T·Qᵀ,   Q = H_0·H_1·⋯·H_{b−2},   H_k = I − τ_k·v_k·v_kᵀ,
//
// with the output of LAPACK's Dsytrd with uplo = Lower, up to rounding (Golub
// and Van Loan, Matrix Computations, 4th ed., Algorithm 8.3.1): d and e
// receive T's diagonal and subdiagonal, tau the τ_k, and row k of a's upper
// triangle, from column k+1 on, the vector v_k without its leading zeros
// (v_k is zero in rows 0…k and one in row k+1), where ApplyQ and ApplyQT
// read it. Dsytrd keeps v_k in column k below the subdiagonal instead,
// strided in row-major storage. a's lower triangle is overwritten with the
// last trailing matrices. work is workspace of length 3b.
//
// Step k computes H_k from column k of the current trailing matrix (Dlarfg),
// then applies it from both sides to the trailing (b−k−1)×(b−k−1) block
// A₂₂ as a rank-2 update,
//
//	p = τ·A₂₂·v,   w = p − ½τ(pᵀv)·v,   A₂₂ ← A₂₂ − v·wᵀ − w·vᵀ.
//
// Unlike gonum's Dsytrd, whose symmetric products (Dsymv, Dsyr2k) run as
// scalar Go loops, it keeps A in full storage, so that the product is one
// call of gonum's vectorised Dgemv and the update one pass of rank2dot
// (AVX2 and FMA; two Dger calls without): twice the flops of the symmetric
// form (2b³ against 4b³/3), and at b = 100 about three times faster
// (BenchmarkTridiagonalize). A step whose column is already zero below the
// subdiagonal has τ = 0 and costs nothing; the Gram matrices of the
// narrowest widths are diagonal after package ngca flushes their tiny
// entries, so their reductions are nearly free.
func Tridiagonalize(b int, a, d, e, tau, work []float64) {
	for i := 0; i < b; i++ {
		for j := 0; j < i; j++ {
			a[j*b+i] = a[i*b+j]
		}
	}
	p, q, u := work[:b], work[b:2*b], work[2*b:3*b]
	ready := false // H_k and p = τ_k·A₂₂·v_k came with step k−1's update
	for k := 0; k < b-1; k++ {
		n1 := b - k - 1
		row := a[k*b+k+1 : k*b+b]
		if !ready {
			householder(a, b, k, d, e, tau)
			if tau[k] != 0 {
				sub := blas64.General{Rows: n1, Cols: n1, Stride: b, Data: a[(k+1)*b+k+1:]}
				blas64.Gemv(blas.NoTrans, tau[k], sub, blas64.Vector{N: n1, Inc: 1, Data: row}, 0, blas64.Vector{N: n1, Inc: 1, Data: p})
			}
		}
		ready = false
		t := tau[k]
		if t == 0 {
			continue
		}
		vv, pv := blas64.Vector{N: n1, Inc: 1, Data: row}, blas64.Vector{N: n1, Inc: 1, Data: p}
		blas64.Axpy(-0.5*t*blas64.Dot(pv, vv), vv, pv)
		// A₂₂ ← A₂₂ − v·wᵀ − w·vᵀ (w in p): its first row first, which
		// gives H_{k+1}; then the other rows, each followed at once by its
		// product with v_{k+1}, which is step k+1's p.
		sub := a[(k+1)*b+k+1:]
		first := sub[:n1]
		v0, w0 := row[0], p[0]
		for c := range first {
			first[c] -= v0*p[c] + w0*row[c]
		}
		if n1 == 1 {
			continue
		}
		householder(a, b, k+1, d, e, tau)
		u[0] = 0
		copy(u[1:n1], first[1:])
		rank2dot(sub[b:], b, n1-1, n1, row, p, u, q)
		for i, x := range q[:n1-1] {
			p[i] = tau[k+1] * x
		}
		ready = true
	}
	d[b-1] = a[b*b-1]
}

// householder computes H_k from row k of a right of its diagonal (column
// k below it), as Dlarfg: d[k], e[k] and tau[k] receive the diagonal
// entry, β and τ, and the row the vector v_k with its leading one.
func householder(a []float64, b, k int, d, e, tau []float64) {
	row := a[k*b+k+1 : k*b+b]
	beta, t := larfg(row[0], row[1:])
	d[k], e[k], tau[k] = a[k*b+k], beta, t
	row[0] = 1
}

// larfg is LAPACK's Dlarfg for the vector (alpha, x) with unit stride: it
// returns β and τ of the reflector H = I − τ·(1, v)(1, v)ᵀ with
// H·(alpha, x) = (β, 0) and overwrites x with v. ‖x‖ comes from a plain
// sum of squares (one vectorised dot product) where that sum can neither
// overflow nor lose precision to underflow; otherwise, and when x is zero,
// it is gonum's Dlarfg, whose scaled norm costs about three times as much.
// The two differ only by rounding (TestLarfg).
func larfg(alpha float64, x []float64) (beta, tau float64) {
	if len(x) == 0 {
		return alpha, 0
	}
	xv := blas64.Vector{N: len(x), Inc: 1, Data: x}
	ss := blas64.Dot(xv, xv)
	if !(ss > 1e-280 && ss < 1e280) {
		return impl.Dlarfg(len(x)+1, alpha, x, 1)
	}
	// |β| ≥ ‖x‖ > 1e-140, far above the range where Dlarfg rescales.
	beta = -math.Copysign(math.Hypot(alpha, math.Sqrt(ss)), alpha)
	tau = (beta - alpha) / beta
	blas64.Scal(1/(alpha-beta), xv)
	return beta, tau
}

// ApplyQT overwrites z (length b) with Qᵀz for the Q of Tridiagonalize
// (a and tau as it left them): H_k·z for k = 0, …, b−2 in turn.
func ApplyQT(b int, a, tau, z []float64) {
	for k := 0; k < b-1; k++ {
		t := tau[k]
		if t == 0 {
			continue
		}
		v, zk := a[k*b+k+1:(k+1)*b], z[k+1:b]
		var s float64
		for i, x := range v {
			s += x * zk[i]
		}
		s *= t
		for i, x := range v {
			zk[i] -= s * x
		}
	}
}

// ApplyQ overwrites the rows of yt (L×b, row-major) with their images
// under Q for the Q of Tridiagonalize (a and tau as it left them): H_k from k = b−2 down to 0, each by
// one Dgemv (w = Y·v_k over the trailing columns) and one Dger
// (Y ← Y − τ_k·w·v_kᵀ). w is workspace of length L.
func ApplyQ(b, L int, a, tau, yt, w []float64) {
	for k := b - 2; k >= 0; k-- {
		t := tau[k]
		if t == 0 {
			continue
		}
		n1 := b - k - 1
		v := blas64.Vector{N: n1, Inc: 1, Data: a[k*b+k+1:]}
		wv := blas64.Vector{N: L, Inc: 1, Data: w}
		sub := blas64.General{Rows: L, Cols: n1, Stride: b, Data: yt[k+1:]}
		blas64.Gemv(blas.NoTrans, 1, sub, v, 0, wv)
		blas64.Ger(-t, wv, v, sub)
	}
}

// impl is gonum's pure-Go LAPACK (larfg's fallback, and the reference of
// the tests).
var impl gonum.Implementation
