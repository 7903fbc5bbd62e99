//go:build netlib

package ngca

// With the build tag netlib, the package runs gonum's BLAS calls, its own
// and those of gonum's LAPACK (the tridiagonal reductions), on a C BLAS
// such as OpenBLAS through gonum.org/v1/netlib (cgo), and forms the fold
// Gram matrices by Dgemm, which OpenBLAS runs several times faster than
// Dsyrk at these sizes. This sets the BLAS of the whole program
// (blas64.Use). Results agree with the default pure-Go build up to
// rounding. docs/speed.md says how to build and what it gains:
//
//	CGO_LDFLAGS=-lopenblas OPENBLAS_NUM_THREADS=1 go test -tags netlib -bench WFLSNGCA

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() {
	blas64.Use(netlib.Implementation{})
	addGram = func(g, psi []float64, b, m int) {
		p := blas64.General{Rows: b, Cols: m, Stride: m, Data: psi}
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, p, p, 1, blas64.General{Rows: b, Cols: b, Stride: b, Data: g})
	}
}
