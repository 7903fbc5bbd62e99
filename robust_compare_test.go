package ngca

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestComparisonFrameAxes: an estimate along axes, in any basis of its
// span, gives exactly those axes, the axes model's most significant other
// kernel coordinates next, and the remaining axes.
func TestComparisonFrameAxes(t *testing.T) {
	const d = 8
	c, s := math.Cos(0.5), math.Sin(0.5)
	b := mat.NewDense(d, 2, nil)
	b.Set(0, 0, 3*c) // span(e0, e2) in a turned, scaled basis
	b.Set(2, 0, 3*s)
	b.Set(0, 1, -s)
	b.Set(2, 1, c)
	cols := []int{0, 1, 2, 3, 5, 7}
	z := []float64{-9, -2, -8, -1, 0, -5, 0, -3} // outside {0, 2}: 5, 7, 1, 3
	u, err := comparisonFrame(b, cols[:4+0], z)
	if err != nil {
		t.Fatal(err)
	}
	checkFrame(t, u, []int{0, 2, 1, 3, 4, 5, 6, 7})
	u, err = comparisonFrame(b, cols, z) // k = 6: the four of lowest z after 0, 2
	if err != nil {
		t.Fatal(err)
	}
	checkFrame(t, u, []int{0, 2, 1, 3, 5, 7, 4, 6})
}

func checkFrame(t *testing.T, u *mat.Dense, axes []int) {
	t.Helper()
	for c, j := range axes {
		for i := range axes {
			want := 0.0
			if i == j {
				want = 1
			}
			if got := u.At(i, c); math.Abs(got-want) > 1e-14 {
				t.Fatalf("u[%d][%d] = %v, want %v (column %d should be e%d)", i, c, got, want, c, j)
			}
		}
	}
}

// TestComparisonFrameSmooth is finding 12 of docs/reliability.md: the
// frame must be orthonormal, start with a basis of span(b), and move by
// rounding only when b does, or when b's basis of the same span changes.
// completeFrame's complement, the eigenvectors of a degenerate projector,
// turned by O(1) under such changes.
func TestComparisonFrameSmooth(t *testing.T) {
	const d, m = 10, 2
	rng := rand.New(rand.NewPCG(3, 4))
	cols := []int{1, 2, 6, 9}
	z := make([]float64, d)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	for trial := 0; trial < 20; trial++ {
		b := mat.NewDense(d, m, nil)
		for i := 0; i < d; i++ {
			for k := 0; k < m; k++ {
				b.Set(i, k, rng.NormFloat64())
			}
		}
		u, err := comparisonFrame(b, cols, z)
		if err != nil {
			t.Fatal(err)
		}
		var utu mat.Dense
		utu.Mul(u.T(), u)
		if dist := maxAbsDiff(&utu, eye(d)); dist > 1e-13 {
			t.Fatalf("trial %d: |UᵀU − I| = %g", trial, dist)
		}
		if e := SubspaceError(b, u.Slice(0, d, 0, m)); e > 1e-13 {
			t.Fatalf("trial %d: the first %d columns are not span(b): ε = %g", trial, m, e)
		}
		// Rounding-size change of one entry, and another basis of span(b).
		b2 := mat.DenseCopyOf(b)
		b2.Set(3, 1, b2.At(3, 1)*(1+1e-15))
		var b3 mat.Dense
		b3.Mul(b, mat.NewDense(m, m, []float64{2, 1, -0.5, 3}))
		for name, bb := range map[string]*mat.Dense{"perturbed": b2, "rebased": &b3} {
			u2, err := comparisonFrame(bb, cols, z)
			if err != nil {
				t.Fatal(err)
			}
			if dist := maxAbsDiff(u, u2); dist > 1e-12 {
				t.Fatalf("trial %d, %s: the frame moved by %g", trial, name, dist)
			}
		}
	}
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}

func eye(n int) *mat.Dense {
	e := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		e.Set(i, i, 1)
	}
	return e
}
