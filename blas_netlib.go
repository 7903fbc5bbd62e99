//go:build netlib

package ngca

// With the build tag netlib, the package runs gonum's BLAS calls (its own
// Dgemv, Dger, Ddot and Daxpy calls, and those inside gonum's LAPACK) on a C
// BLAS such as OpenBLAS through gonum.org/v1/netlib (cgo). Where AVX2 is
// missing it also forms the fold Gram matrices by Dgemm, which OpenBLAS
// runs several times faster than gonum's kernels; with AVX2 the package's
// own Gram tiles (gram.go) are faster than OpenBLAS's Dgemm at these sizes
// and stay. This sets the BLAS of the whole program (blas64.Use). Results
// agree with the default pure-Go build up to rounding. docs/speed.md says
// how to build and what it gains (since issue 15's kernels, nothing on an
// AVX2 machine):
//
//	CGO_LDFLAGS=-lopenblas OPENBLAS_NUM_THREADS=1 go test -tags netlib -bench WFLSNGCA

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() {
	blas64.Use(netlib.Implementation{})
	if useAVX {
		return
	}
	addGram = func(g, psi []float64, b, m int) {
		p := blas64.General{Rows: b, Cols: m, Stride: m, Data: psi}
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, p, p, 1, blas64.General{Rows: b, Cols: b, Stride: b, Data: g})
	}
}
