// Package numtest holds the helpers that the numerical tests of several
// packages share (the root package's and internal/asm's): random Gram
// matrices, their lower-triangle storage, and agreement up to rounding.
// Only tests import it.
package numtest

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// RandomGram returns a b×b positive semi-definite matrix of rank r (r < b
// makes it singular) with entries of size scale, and a random vector of
// length b.
func RandomGram(rng *rand.Rand, b, r int, scale float64) (*mat.SymDense, []float64) {
	f := mat.NewDense(b, r, nil)
	for i := 0; i < b; i++ {
		for j := 0; j < r; j++ {
			f.Set(i, j, scale*rng.NormFloat64())
		}
	}
	var g mat.SymDense
	g.SymOuterK(1, f)
	h := make([]float64, b)
	for i := range h {
		h[i] = rng.NormFloat64()
	}
	return &g, h
}

// Lower returns the row-major lower-triangle storage of s (b×b, the
// upper triangle zero).
func Lower(s *mat.SymDense) []float64 {
	b := s.SymmetricDim()
	a := make([]float64, b*b)
	for i := 0; i < b; i++ {
		for j := 0; j <= i; j++ {
			a[i*b+j] = s.At(i, j)
		}
	}
	return a
}

// CloseTo reports whether a and b agree up to rounding: |a − b| ≤
// tol·(1 + |b|).
func CloseTo(a, b, tol float64) bool { return math.Abs(a-b) <= tol*(1+math.Abs(b)) }
