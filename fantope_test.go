package ngca

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randomSym(rng *rand.Rand, n int, scale float64) *mat.SymDense {
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, scale*rng.NormFloat64())
		}
	}
	return s
}

func symInner(a, b mat.Matrix) float64 {
	n, _ := a.Dims()
	var s float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s += a.At(i, j) * b.At(i, j)
		}
	}
	return s
}

// TestProjectFantope checks that the projection lands in the Fantope, is
// idempotent, and satisfies the variational inequality of a Euclidean
// projection onto a convex set, ⟨X − Π(X), Y − Π(X)⟩ ≤ 0 for Y in the set.
func TestProjectFantope(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		d, m := 2+trial%6, 1+trial%2
		if m >= d {
			m = 1
		}
		x := randomSym(rng, d, 2)
		p, err := projectFantope(x, m)
		if err != nil {
			t.Fatal(err)
		}
		vals, _, _ := eigenDesc(p)
		if math.Abs(mat.Trace(p)-float64(m)) > 1e-10 || vals[0] > 1+1e-10 || vals[d-1] < -1e-10 {
			t.Fatalf("d=%d m=%d: eigenvalues %v, trace %v", d, m, vals, mat.Trace(p))
		}
		again, _ := projectFantope(p, m)
		if !mat.EqualApprox(again, p, 1e-9) {
			t.Errorf("not idempotent")
		}
		for k := 0; k < 10; k++ {
			y, _ := projectFantope(randomSym(rng, d, 3), m)
			var a, b mat.Dense
			a.Sub(x, p)
			b.Sub(y, p)
			if v := symInner(&a, &b); v > 1e-9 {
				t.Errorf("d=%d m=%d: ⟨X − Π(X), Y − Π(X)⟩ = %v > 0", d, m, v)
			}
		}
	}
}

func TestProjectSpectraplex(t *testing.T) {
	if w := projectSimplex([]float64{0.5, 0.2, -1}); math.Abs(w[0]-0.65) > 1e-15 || math.Abs(w[1]-0.35) > 1e-15 || w[2] != 0 {
		t.Errorf("simplex projection of (0.5, 0.2, −1) = %v, want (0.65, 0.35, 0)", w)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		n := 1 + trial%7
		x := randomSym(rng, n, 1)
		a, err := projectSpectraplex(x)
		if err != nil {
			t.Fatal(err)
		}
		vals, _, _ := eigenDesc(a)
		if math.Abs(mat.Trace(a)-1) > 1e-12 || vals[n-1] < -1e-12 {
			t.Fatalf("eigenvalues %v", vals)
		}
		for k := 0; k < 10; k++ {
			y, _ := projectSpectraplex(randomSym(rng, n, 2))
			var p, q mat.Dense
			p.Sub(x, a)
			q.Sub(y, a)
			if v := symInner(&p, &q); v > 1e-9 {
				t.Errorf("n=%d: ⟨X − Π(X), Y − Π(X)⟩ = %v > 0", n, v)
			}
		}
	}
}

// waterLevel returns the θ with Σᵢ max(0, 1 − θ/gᵢ) = m (gᵢ > 0, by
// bisection): the value of min over the Fantope 𝔽_m of max_i gᵢ(1 − Pᵢᵢ).
func waterLevel(g []float64, m int) float64 {
	lo, hi := 0.0, g[0]
	for _, v := range g {
		hi = math.Max(hi, v)
	}
	for i := 0; i < 200; i++ {
		th := (lo + hi) / 2
		var s float64
		for _, v := range g {
			s += math.Max(0, 1-th/v)
		}
		if s > float64(m) {
			lo = th
		} else {
			hi = th
		}
	}
	return lo
}

// TestFantopeClosedForm checks the solver against the closed form at λ = 0,
// where the game depends only on G = ΨNNᵀΨᵀ with eigenvalues gᵢ: its value
// is the water level θ of Σᵢ max(0, 1 − θ/gᵢ) = m (at most λ_{m+1}(G),
// the value over projectors: the Fantope relaxation is not tight), and an
// optimal P has G's eigenvectors with eigenvalues max(0, 1 − θ/gᵢ), so
// that its leading m eigenvectors are G's.
func TestFantopeClosedForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const d, l, m = 5, 12, 2
	psi := mat.NewDense(d, l, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < l; j++ {
			// Two strong directions, three weak ones.
			psi.Set(i, j, rng.NormFloat64()*[]float64{1, 0.8, 0.2, 0.15, 0.1}[i])
		}
	}
	psi.Scale(1/mat.Norm(psi, 2), psi)
	gamma := mat.NewDense(l, 3, nil)
	for i := range gamma.RawMatrix().Data {
		gamma.RawMatrix().Data[i] = rng.NormFloat64()
	}
	null := nullBasis(gamma)
	var pn mat.Dense
	pn.Mul(psi, null)
	var g mat.SymDense
	g.SymOuterK(1, &pn)
	vals, vecs, _ := eigenDesc(&g)

	game := fantopeGame{psi: psi, null: null, m: m}
	sol, err := game.solve(context.Background(), fantopeRun{maxIter: 20000, tol: 5e-4, every: 10})
	if err != nil {
		t.Fatal(err)
	}
	theta := waterLevel(vals, m)
	t.Logf("%d iterations, gap %.2e, value %.6f, θ = %.6f, λ₃(G) = %.6f", sol.Iterations, sol.Gap, sol.Upper, theta, vals[m])
	if !sol.Converged {
		t.Errorf("no convergence: gap %.3g after %d iterations", sol.Gap, sol.Iterations)
	}
	if math.Abs(sol.Upper-theta) > 5e-4*vals[0] {
		t.Errorf("value %.6f, want θ = %.6f", sol.Upper, theta)
	}
	_, pvecs, _ := eigenDesc(sol.P)
	if e := SubspaceError(vecs.Slice(0, d, 0, m), pvecs.Slice(0, d, 0, m)); e > 1e-3 {
		t.Errorf("leading eigenvectors of P̄ are ε = %.3g from those of G", e)
	}
}

// TestFantopeDiagonal checks a case with λ > 0 and a known solution: Ψ =
// diag(σ), N = I. For diagonal P the inner maximum is maxᵢ σᵢ²(1 − Pᵢᵢ) − λ
// (attained at C = eᵢeᵢᵀ, as ‖C‖₁ ≥ tr C = 1), and sign flips show that a
// diagonal P is optimal, so the value is θ − λ, θ = waterLevel(σ²), with
// Pᵢᵢ = max(0, 1 − θ/σᵢ²).
func TestFantopeDiagonal(t *testing.T) {
	sigma := []float64{1, 0.9, 0.6, 0.3}
	const m, lambda = 2, 0.05
	d := len(sigma)
	psi := mat.NewDense(d, d, nil)
	for i, s := range sigma {
		psi.Set(i, i, s)
	}
	sq := make([]float64, d)
	for i, v := range sigma {
		sq[i] = v * v
	}
	lo := waterLevel(sq, m)
	game := fantopeGame{psi: psi, null: eyeDense(d), m: m, lambda: lambda}
	sol, err := game.solve(context.Background(), fantopeRun{maxIter: 20000, tol: 2e-4, every: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d iterations, gap %.2e, value %.6f, want θ − λ = %.6f", sol.Iterations, sol.Gap, sol.Upper, lo-lambda)
	if !sol.Converged || math.Abs(sol.Upper-(lo-lambda)) > 3e-4 {
		t.Errorf("value %.6f (converged %v), want %.6f", sol.Upper, sol.Converged, lo-lambda)
	}
	for i, s := range sigma {
		if want := math.Max(0, 1-lo/(s*s)); math.Abs(sol.P.At(i, i)-want) > 1e-2 {
			t.Errorf("P[%d][%d] = %.4f, want %.4f", i, i, sol.P.At(i, i), want)
		}
	}
}

// TestFantopeCancel checks that a done context stops the solver.
func TestFantopeCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	game := fantopeGame{psi: eyeDense(3), null: eyeDense(3), m: 1}
	if _, err := game.solve(ctx, fantopeRun{maxIter: 10, tol: 1e-6, every: 1}); err == nil {
		t.Error("no error after cancel")
	}
}
