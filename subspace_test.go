package ngca_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
)

func TestSubspaceError(t *testing.T) {
	e12 := mat.NewDense(4, 2, []float64{1, 0, 0, 1, 0, 0, 0, 0})
	e34 := mat.NewDense(4, 2, []float64{0, 0, 0, 0, 1, 0, 0, 1})
	// Any invertible recombination of the columns spans the same space.
	mixed := mat.NewDense(4, 2, []float64{2, -1, 3, 5, 0, 0, 0, 0})
	// Half of the second direction turned by angle φ out of the space:
	// ε = sin²φ / 2.
	phi := 0.3
	tilted := mat.NewDense(4, 2, []float64{1, 0, 0, math.Cos(phi), 0, math.Sin(phi), 0, 0})
	tests := []struct {
		name        string
		truth, est  mat.Matrix
		want, delta float64
	}{
		{"same", e12, e12, 0, 0},
		{"same span", e12, mixed, 0, 1e-15},
		{"orthogonal", e12, e34, 1, 0},
		{"tilted", e12, tilted, math.Sin(phi) * math.Sin(phi) / 2, 1e-15},
		{"tilted, swapped", tilted, e12, math.Sin(phi) * math.Sin(phi) / 2, 1e-15},
	}
	for _, tc := range tests {
		if got := ngca.SubspaceError(tc.truth, tc.est); math.Abs(got-tc.want) > tc.delta {
			t.Errorf("%s: ε = %v, want %v", tc.name, got, tc.want)
		}
	}

	// Random bases: 0 ≤ ε ≤ 1 and symmetric.
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		a, b := mat.NewDense(7, 3, nil), mat.NewDense(7, 3, nil)
		for i := 0; i < 7; i++ {
			for j := 0; j < 3; j++ {
				a.Set(i, j, rng.NormFloat64())
				b.Set(i, j, rng.NormFloat64())
			}
		}
		ab, ba := ngca.SubspaceError(a, b), ngca.SubspaceError(b, a)
		if ab < 0 || ab > 1 || math.Abs(ab-ba) > 1e-14 {
			t.Errorf("ε(a, b) = %v, ε(b, a) = %v", ab, ba)
		}
	}

	// Tiny errors are resolved, not lost to cancellation.
	small := mat.NewDense(3, 1, []float64{1, 1e-7, 0})
	if got := ngca.SubspaceError(mat.NewDense(3, 1, []float64{1, 0, 0}), small); math.Abs(got-1e-14) > 1e-20 {
		t.Errorf("ε for a 1e-7 tilt = %v, want 1e-14", got)
	}

	// Degenerate input gives NaN.
	if got := ngca.SubspaceError(e12, mat.NewDense(4, 2, []float64{1, 2, 0, 0, 0, 0, 0, 0})); !math.IsNaN(got) {
		t.Errorf("rank-deficient estimate: ε = %v, want NaN", got)
	}
	if got := ngca.SubspaceError(e12, mat.NewDense(4, 2, []float64{math.NaN(), 0, 0, 1, 0, 0, 0, 0})); !math.IsNaN(got) {
		t.Errorf("NaN estimate: ε = %v, want NaN", got)
	}
}

func TestSubspaceErrorShapePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for bases of different shapes")
		}
	}()
	ngca.SubspaceError(mat.NewDense(4, 2, nil), mat.NewDense(4, 1, nil))
}
