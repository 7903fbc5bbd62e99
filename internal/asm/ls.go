package asm

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// The Go versions of the least-squares kernels; on amd64 with AVX2 and FMA
// ls_amd64.go runs assembly in their place, and ls_other.go calls these.

// gaussRowGo sets dst[i] = Gauss(c·src[i]) (GaussRow without assembly).
func gaussRowGo(dst, src []float64, c float64) {
	for i, v := range src {
		dst[i] = Gauss(c * v)
	}
}

// rank2dotGo is rank2dot by two Dger calls and a Dgemv (ls_*.go).
func rank2dotGo(a []float64, lda, rows, n int, v, w, u, out []float64) {
	if rows == 0 {
		return
	}
	blk := blas64.General{Rows: rows, Cols: n, Stride: lda, Data: a}
	blas64.Ger(-1, blas64.Vector{N: rows, Inc: 1, Data: v[1:]}, blas64.Vector{N: n, Inc: 1, Data: w}, blk)
	blas64.Ger(-1, blas64.Vector{N: rows, Inc: 1, Data: w[1:]}, blas64.Vector{N: n, Inc: 1, Data: v}, blk)
	blas64.Gemv(blas.NoTrans, 1, blk, blas64.Vector{N: n, Inc: 1, Data: u}, 0, blas64.Vector{N: rows, Inc: 1, Data: out})
}

// Gauss returns exp(t) for t ≤ 0, flushed to zero below e⁻³⁴⁵ ≈ 1e-150:
// the Gaussian kernel's value at exponent t.
// Products of two such values (the Gram matrices) would otherwise fall into
// the subnormal range, where floating-point arithmetic is about a hundred
// times slower; every term dropped is below 1e-300 and cannot change a
// result.
func Gauss(t float64) float64 {
	if t < -345 {
		return 0
	}
	return math.Exp(t)
}
