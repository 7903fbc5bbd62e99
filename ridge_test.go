package ngca

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/numtest"
	"gonum.org/v1/gonum/mat"
)

// TestRidgePathDirect compares the tridiagonal λ path with a direct
// Cholesky solve of (A + λI)θ = −r for every λ.
func TestRidgePathDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ridges := defaults.Ridges()
	for _, tc := range []struct{ b, rank int }{{1, 1}, {2, 2}, {7, 3}, {40, 40}, {100, 30}} {
		g, h := numtest.RandomGram(rng, tc.b, tc.rank, 1)
		L := len(ridges)
		theta := make([]float64, tc.b*L)
		ok := make([]bool, L)
		newRidgePath(tc.b, L).solve(numtest.Lower(g), h, ridges, theta, ok)
		for l, lam := range ridges {
			if !ok[l] {
				t.Errorf("b=%d rank=%d λ=%g: solve failed", tc.b, tc.rank, lam)
				continue
			}
			a := mat.NewSymDense(tc.b, nil)
			a.CopySym(g)
			for i := 0; i < tc.b; i++ {
				a.SetSym(i, i, a.At(i, i)+lam)
			}
			var ch mat.Cholesky
			if !ch.Factorize(a) {
				t.Fatal("Cholesky failed")
			}
			var want mat.VecDense
			if err := ch.SolveVecTo(&want, mat.NewVecDense(tc.b, h)); err != nil {
				t.Fatal(err)
			}
			// Relative to the solution's size; the condition number of
			// A + λI is at most ‖A‖/λ.
			tol := 1e-13 * (1 + mat.Norm(g, 2)/lam)
			for i := 0; i < tc.b; i++ {
				if got := theta[i*L+l]; math.Abs(got+want.AtVec(i)) > tol*math.Max(1, mat.Norm(&want, math.Inf(1))) {
					t.Fatalf("b=%d rank=%d λ=%g: θ[%d] = %v, want %v", tc.b, tc.rank, lam, i, got, -want.AtVec(i))
				}
			}
		}
	}
}

// TestRidgePathFailure checks that an indefinite system reports failure
// for its λ and leaves a zero column, while the others still solve.
func TestRidgePathFailure(t *testing.T) {
	const b = 5
	a := mat.NewSymDense(b, nil)
	for i := 0; i < b; i++ {
		a.SetSym(i, i, float64(i+1))
	}
	a.SetSym(0, 0, -2) // indefinite: λ < 2 fails, λ > 2 succeeds
	r := []float64{1, 2, 3, 4, 5}
	ridges := []float64{1, 10}
	theta := make([]float64, b*2)
	ok := make([]bool, 2)
	newRidgePath(b, 2).solve(numtest.Lower(a), r, ridges, theta, ok)
	if ok[0] || !ok[1] {
		t.Fatalf("ok = %v, want [false true]", ok)
	}
	for i := 0; i < b; i++ {
		if theta[i*2] != 0 {
			t.Errorf("failed column not zero: θ[%d] = %v", i, theta[i*2])
		}
	}
	if got, want := theta[0*2+1], -1/8.0; math.Abs(got-want) > 1e-14 {
		t.Errorf("θ₀ at λ=10: %v, want %v", got, want)
	}
}

// TestFlushTiny checks that flushing entries below ε·λ_min/b leaves the
// solution unchanged to working precision, on a matrix with entries
// spanning 300 orders of magnitude (as narrow kernels give).
func TestFlushTiny(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const b = 30
	g, h := numtest.RandomGram(rng, b, b, 1)
	for i := 0; i < b; i++ {
		for j := 0; j < i; j++ {
			g.SetSym(i, j, g.At(i, j)*math.Pow(10, -float64((i*j)%300)))
		}
	}
	for i := 0; i < b; i++ { // diagonally dominant, so positive definite
		var s float64
		for j := 0; j < b; j++ {
			if j != i {
				s += math.Abs(g.At(i, j))
			}
		}
		g.SetSym(i, i, s+math.Pow(10, -float64(3*(i%5))))
	}
	ridges := []float64{1e-5}
	theta := make([]float64, b)
	ok := make([]bool, 1)
	newRidgePath(b, 1).solve(numtest.Lower(g), h, ridges, theta, ok)
	a := mat.NewSymDense(b, nil)
	a.CopySym(g)
	for i := 0; i < b; i++ {
		a.SetSym(i, i, a.At(i, i)+ridges[0])
	}
	var want mat.VecDense
	var ch mat.Cholesky
	if !ok[0] || !ch.Factorize(a) || ch.SolveVecTo(&want, mat.NewVecDense(b, h)) != nil {
		t.Fatal("solve failed")
	}
	for i := 0; i < b; i++ {
		if math.Abs(theta[i]+want.AtVec(i)) > 1e-13*math.Max(1, math.Abs(want.AtVec(i))) {
			t.Errorf("θ[%d] = %v, want %v", i, theta[i], -want.AtVec(i))
		}
	}
}
