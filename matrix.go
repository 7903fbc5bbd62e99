package ngca

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Helpers on gonum matrices shared by the estimators.

// rowsOf returns the rows idx of x as a new matrix, or x itself if idx
// is nil.
func rowsOf(x *mat.Dense, idx []int) *mat.Dense {
	if idx == nil {
		return x
	}
	_, d := x.Dims()
	y := mat.NewDense(len(idx), d, nil)
	for k, i := range idx {
		y.SetRow(k, x.RawRowView(i))
	}
	return y
}

// columns returns the given columns of a.
func columns(a *mat.Dense, cols []int) *mat.Dense {
	r, _ := a.Dims()
	out := mat.NewDense(r, len(cols), nil)
	for i := 0; i < r; i++ {
		for k, c := range cols {
			out.Set(i, k, a.At(i, c))
		}
	}
	return out
}

// blasVec views v as a BLAS vector of unit increment.
func blasVec(v []float64) blas64.Vector { return blas64.Vector{N: len(v), Inc: 1, Data: v} }

func dot(a, b []float64) float64 { return blas64.Dot(blasVec(a), blasVec(b)) }
