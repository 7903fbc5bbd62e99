package asm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca/internal/numtest"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// TestTridiagonalizeDsytrd checks Tridiagonalize against gonum's Dsytrd
// (uplo = Lower): the same T, τ and reflectors up to rounding, relative to
// ‖A‖, on dense, singular, diagonal and block-diagonal matrices. The
// tridiagonal form of a singular matrix is ill-conditioned near its rank
// (the trailing columns are small and, beyond it, rounding noise), so for
// it only T's eigenvalues are compared; TestTridiagonalizeSimilar checks
// its Q.
func TestTridiagonalizeDsytrd(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	blockDiag := func(b int) *mat.SymDense {
		g := mat.NewSymDense(b, nil)
		for i := 0; i < b; i++ {
			for j := 0; j <= i; j++ {
				if i/7 == j/7 {
					g.SetSym(i, j, rng.NormFloat64())
				}
			}
			g.SetSym(i, i, g.At(i, i)+20)
		}
		return g
	}
	diag := func(b int) *mat.SymDense {
		g := mat.NewSymDense(b, nil)
		for i := 0; i < b; i++ {
			g.SetSym(i, i, rng.Float64())
		}
		return g
	}
	cases := []struct {
		name string
		g    *mat.SymDense
		rank int
	}{{"b=1", diag(1), 1}, {"b=2", diag(2), 2}, {"b=3 dense", nil, 3}, {"b=100 dense", nil, 100},
		{"b=100 rank 30", nil, 0}, {"b=100 diagonal", diag(100), 100}, {"b=60 block-diagonal", blockDiag(60), 60}}
	cases[2].g, _ = numtest.RandomGram(rng, 3, 3, 1)
	cases[3].g, _ = numtest.RandomGram(rng, 100, 100, 1)
	cases[4].g, _ = numtest.RandomGram(rng, 100, 30, 1)
	for _, tc := range cases {
		b := tc.g.SymmetricDim()
		norm := mat.Norm(tc.g, 2)
		want, got := numtest.Lower(tc.g), numtest.Lower(tc.g)
		wd, we, wt := make([]float64, b), make([]float64, b), make([]float64, b)
		gd, ge, gt := make([]float64, b), make([]float64, b), make([]float64, b)
		work := make([]float64, 64*b)
		impl.Dsytrd(blas.Lower, b, want, b, wd, we[:max(b-1, 0)], wt[:max(b-1, 0)], work, len(work))
		Tridiagonalize(b, got, gd, ge, gt, make([]float64, 3*b))
		tol := 1e-13 * norm
		if tc.rank == 0 {
			want, got := tridiagEigen(wd, we[:b-1]), tridiagEigen(gd, ge[:b-1])
			for i := range want {
				if math.Abs(got[i]-want[i]) > tol {
					t.Errorf("%s: eigenvalue %d of T %g, Dsytrd's %g", tc.name, i, got[i], want[i])
				}
			}
			continue
		}
		for i := 0; i < b; i++ {
			if math.Abs(gd[i]-wd[i]) > tol || math.Abs(ge[i]-we[i]) > tol {
				t.Errorf("%s: i=%d d %g/%g e %g/%g", tc.name, i, gd[i], wd[i], ge[i], we[i])
			}
			if i >= tc.rank-1 {
				continue
			}
			if math.Abs(gt[i]-wt[i]) > 1e-12 {
				t.Errorf("%s: τ_%d %g, Dsytrd %g", tc.name, i, gt[i], wt[i])
			}
		}
		for i := 0; i < b; i++ {
			for j := 0; j+1 < i && j < tc.rank-1; j++ {
				if math.Abs(got[j*b+i]-want[i*b+j]) > 1e-11 {
					t.Errorf("%s: reflector entry (%d,%d) %g, Dsytrd %g", tc.name, i, j, got[j*b+i], want[i*b+j])
				}
			}
		}
	}
}

// TestTridiagonalizeSimilar checks the defining property directly,
// Q·T·Qᵀ = A with Q applied by ApplyQ as package ngca's ridgePath does, and that ApplyQT
// inverts ApplyQ.
func TestTridiagonalizeSimilar(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ b, rank int }{{2, 2}, {5, 5}, {64, 64}, {100, 30}} {
		b := tc.b
		g, _ := numtest.RandomGram(rng, b, tc.rank, 1)
		a := numtest.Lower(g)
		d, e, tau := make([]float64, b), make([]float64, b-1), make([]float64, b-1)
		Tridiagonalize(b, a, d, e, tau, make([]float64, 3*b))
		// ApplyQ maps every row y of M to Q·y, that is M to M·Qᵀ: from
		// M = T, twice with a transpose between gives Q·T·Qᵀ.
		m := make([]float64, b*b)
		for i := 0; i < b; i++ {
			m[i*b+i] = d[i]
			if i+1 < b {
				m[(i+1)*b+i], m[i*b+i+1] = e[i], e[i]
			}
		}
		w := make([]float64, b)
		ApplyQ(b, b, a, tau, m, w)
		mt := mat.NewDense(b, b, m)
		var tr mat.Dense
		tr.CloneFrom(mt.T())
		copy(m, tr.RawMatrix().Data)
		ApplyQ(b, b, a, tau, m, w)
		for i := 0; i < b; i++ {
			for j := 0; j < b; j++ {
				if diff := math.Abs(m[i*b+j] - g.At(i, j)); diff > 1e-12*float64(b) {
					t.Fatalf("b=%d: (QTQᵀ)[%d,%d] = %g, A = %g", b, i, j, m[i*b+j], g.At(i, j))
				}
			}
		}
		z := make([]float64, b)
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		y := append([]float64(nil), z...)
		ApplyQT(b, a, tau, y)
		ApplyQ(b, 1, a, tau, y, w)
		for i := range z {
			if math.Abs(y[i]-z[i]) > 1e-13 {
				t.Fatalf("b=%d: Q·Qᵀz differs from z at %d: %g, %g", b, i, y[i], z[i])
			}
		}
	}
}

// tridiagEigen returns the eigenvalues, ascending, of the symmetric
// tridiagonal matrix with diagonal d and subdiagonal e.
func tridiagEigen(d, e []float64) []float64 {
	b := len(d)
	m := mat.NewSymDense(b, nil)
	for i := range d {
		m.SetSym(i, i, d[i])
		if i+1 < b {
			m.SetSym(i+1, i, e[i])
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(m, false) {
		panic("tridiagEigen: no convergence")
	}
	return eig.Values(nil)
}

// BenchmarkTridiagonalize compares Tridiagonalize with gonum's Dsytrd at
// the default b = 100 on a dense positive definite matrix.
func BenchmarkTridiagonalize(b *testing.B) {
	const n = 100
	g, _ := numtest.RandomGram(rand.New(rand.NewPCG(1, 1)), n, n, 1)
	src := numtest.Lower(g)
	a := make([]float64, n*n)
	d, e, tau, work := make([]float64, n), make([]float64, n-1), make([]float64, n-1), make([]float64, 64*n) // 64n: Dsytrd's too
	b.Run("Tridiagonalize", func(b *testing.B) {
		for b.Loop() {
			copy(a, src)
			Tridiagonalize(n, a, d, e, tau, work)
		}
	})
	b.Run("Dsytrd", func(b *testing.B) {
		for b.Loop() {
			copy(a, src)
			impl.Dsytrd(blas.Lower, n, a, n, d, e, tau, work, len(work))
		}
	})
}

// TestLarfg compares larfg with gonum's Dlarfg on vectors of ordinary
// size, on tiny and huge ones (where it is Dlarfg), and on zero ones.
func TestLarfg(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, tc := range []struct {
		n     int
		scale float64
	}{{1, 1}, {2, 1}, {7, 1}, {99, 1}, {30, 1e-100}, {30, 1e-160}, {30, 1e150}, {30, 1e200}, {5, 0}} {
		for _, alphaSign := range []float64{1, -1, 0} {
			x := make([]float64, tc.n)
			for i := range x {
				x[i] = tc.scale * rng.NormFloat64()
			}
			alpha := alphaSign * tc.scale * (1 + rng.Float64())
			want := append([]float64(nil), x...)
			wb, wt := impl.Dlarfg(tc.n+1, alpha, want, 1)
			gb, gt := larfg(alpha, x)
			close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-14*math.Max(math.Abs(a), math.Abs(b)) }
			if !close(gb, wb) || !close(gt, wt) {
				t.Fatalf("n %d, scale %g, alpha %g: β, τ = %g, %g, want %g, %g", tc.n, tc.scale, alpha, gb, gt, wb, wt)
			}
			for i := range x {
				if !close(x[i], want[i]) {
					t.Fatalf("n %d, scale %g, alpha %g: v[%d] = %g, want %g", tc.n, tc.scale, alpha, i, x[i], want[i])
				}
			}
		}
	}
}
