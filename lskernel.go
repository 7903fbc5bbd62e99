package ngca

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// The Go versions of the least-squares kernels; on amd64 with AVX2 and FMA
// lskernel_amd64.go runs assembly in their place, and lskernel_other.go
// calls these.

// gaussRowGo sets dst[i] = gauss(c·src[i]) (gaussRow without assembly).
func gaussRowGo(dst, src []float64, c float64) {
	for i, v := range src {
		dst[i] = gauss(c * v)
	}
}

// rank2dotGo is rank2dot by two Dger calls and a Dgemv (lskernel_*.go).
func rank2dotGo(a []float64, lda, rows, n int, v, w, u, out []float64) {
	if rows == 0 {
		return
	}
	blk := blas64.General{Rows: rows, Cols: n, Stride: lda, Data: a}
	blas64.Ger(-1, blas64.Vector{N: rows, Inc: 1, Data: v[1:]}, blas64.Vector{N: n, Inc: 1, Data: w}, blk)
	blas64.Ger(-1, blas64.Vector{N: rows, Inc: 1, Data: w[1:]}, blas64.Vector{N: n, Inc: 1, Data: v}, blk)
	blas64.Gemv(blas.NoTrans, 1, blk, blas64.Vector{N: n, Inc: 1, Data: u}, 0, blas64.Vector{N: rows, Inc: 1, Data: out})
}

// basisRow computes fillBasis's values for one row k over the points of
// xj: prow[p] = (c_kj − x_pj)·k_k(x_p) unless prow is nil, and returns s
// plus the row's terms r_kj(x_p), added in the order of p.
//
// The conversions to float64 keep the compiler from fusing a product with
// a sum (as the Go specification allows, and GOAMD64=v3 does): every
// operation is rounded on its own, as in basis4AVX.
func basisRow(prow, krow, xj, a []float64, ck, curv, s float64) float64 {
	krow = krow[:len(xj)]
	switch {
	case prow != nil && a == nil:
		prow = prow[:len(xj)]
		for p, kv := range krow {
			diff := ck - xj[p]
			prow[p] = diff * kv
			s += float64((float64(diff*diff*curv) - 1) * kv)
		}
	case prow != nil:
		prow = prow[:len(xj)]
		for p, kv := range krow {
			diff := ck - xj[p]
			prow[p] = diff * kv
			s += float64((float64(diff*diff*curv) - 1 + float64(diff*a[p])) * kv)
		}
	case a != nil:
		for p, kv := range krow {
			diff := ck - xj[p]
			s += float64((float64(diff*diff*curv) - 1 + float64(diff*a[p])) * kv)
		}
	default:
		for p, kv := range krow {
			diff := ck - xj[p]
			s += float64((float64(diff*diff*curv) - 1) * kv)
		}
	}
	return s
}

// gauss returns exp(t) for t ≤ 0, flushed to zero below e⁻³⁴⁵ ≈ 1e-150.
// Products of two such values (the Gram matrices) would otherwise fall into
// the subnormal range, where floating-point arithmetic is about a hundred
// times slower; every term dropped is below 1e-300 and cannot change a
// result.
func gauss(t float64) float64 {
	if t < -345 {
		return 0
	}
	return math.Exp(t)
}
