package ngca

import (
	"context"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// fantopeGame is the saddle-point problem behind SNGCA's semidefinite
// program (a reconstruction of Diederichs, Juditsky, Nemirovski and
// Spokoiny, Machine Learning 91, 2013; see docs/sngca.md):
//
//	min_{P ∈ 𝔽_m, |U_kl| ≤ λ}  max_{A ∈ Δ}  Φ(P, U, A) = ⟨Nᵀ(Ψᵀ(I − P)Ψ − U)N, A⟩,
//
// with Ψ a d×L matrix, N an L×k matrix with orthonormal columns, the
// Fantope 𝔽_m = {P = Pᵀ : 0 ⪯ P ⪯ I, tr P = m}, the box |U_kl| ≤ λ on
// L×L matrices and the spectraplex Δ = {A = Aᵀ ⪰ 0, tr A = 1} of k×k
// matrices. Writing C = NANᵀ, the inner maximum over A after the minimum
// over U is
//
//	max { ⟨I − P, ΨCΨᵀ⟩ − λ‖C‖₁ : C ⪰ 0, tr C = 1, range(C) ⊆ range(N) },
//
// the largest penalised residual of the combinations Ψc, c ∈ range(N),
// outside the subspace P; at λ = 0 the game's value is λ_{m+1}(ΨNNᵀΨᵀ).
//
// The solver is Euclidean extragradient (mirror-prox, Nemirovski 2004) on
// the bilinear game with the averaged iterates, stopped by the exact
// duality gap of the averages
//
//	gap = λ_max(Nᵀ(Ψᵀ(I − P̄)Ψ − Ū)N) − [tr S̄ − Σ_{i≤m} λ_i(S̄) − λ‖C̄‖₁],   S̄ = ΨC̄Ψᵀ,
//
// whose second term is the minimum of Φ(·, ·, Ā) (Ky Fan's maximum
// principle for the Fantope). The gap bounds the distance of both averages
// from optimal in objective value; it is never negative.
type fantopeGame struct {
	psi    *mat.Dense // Ψ, d×L
	null   *mat.Dense // N, L×k, orthonormal columns
	m      int        // trace of the Fantope, 1 ≤ m < d
	lambda float64    // λ ≥ 0
}

// errEigen reports a symmetric eigendecomposition that did not converge.
var errEigen = fmt.Errorf("%w: eigendecomposition did not converge", ErrSingular)

// fantopeRun configures a solve.
type fantopeRun struct {
	maxIter int     // iteration cap, at least 1
	tol     float64 // stop when gap ≤ tol·scale
	every   int     // evaluate the gap every so many iterations
}

// fantopeSolution is the averaged iterate of a solve.
type fantopeSolution struct {
	P          *mat.SymDense // averaged Fantope iterate, d×d
	C          *mat.SymDense // averaged N·A·Nᵀ, L×L
	Upper      float64       // max_A Φ(P̄, Ū, A), the worst residual of P̄
	Gap        float64       // the duality gap of the averages
	Iterations int
	Converged  bool // gap ≤ tol·scale was reached
}

// step returns the Lipschitz-safe step of the game: the operator's norm
// is at most ‖Ψ‖₂² + 1 (P against A through Ψ, U against A through N).
func (g fantopeGame) step() float64 {
	s := mat.Norm(g.psi, 2)
	return 1 / (s*s + 1)
}

// fantopeState is one point (P, U, A) of the game.
type fantopeState struct {
	p *mat.SymDense // d×d
	u *mat.SymDense // L×L
	a *mat.SymDense // k×k
}

// gradients returns the partial gradients of Φ at (P, U, A): −ΨCΨᵀ for P,
// −C for U and Nᵀ(Ψᵀ(I − P)Ψ − U)N for A, with C = NANᵀ.
func (g fantopeGame) gradients(s fantopeState) (gp, gu, ga *mat.SymDense) {
	c := g.lift(s.a)
	gp = g.congruence(c)
	gp.ScaleSym(-1, gp)
	gu = mat.NewSymDense(c.SymmetricDim(), nil)
	gu.ScaleSym(-1, c)
	return gp, gu, g.payoff(s.p, s.u)
}

// lift returns C = NANᵀ.
func (g fantopeGame) lift(a *mat.SymDense) *mat.SymDense {
	l, _ := g.null.Dims()
	c := mat.NewSymDense(l, nil)
	var na, full mat.Dense
	na.Mul(g.null, a)
	full.Mul(&na, g.null.T())
	symmetrise(c, &full)
	return c
}

// congruence returns ΨCΨᵀ.
func (g fantopeGame) congruence(c *mat.SymDense) *mat.SymDense {
	var pc, full mat.Dense
	pc.Mul(g.psi, c)
	full.Mul(&pc, g.psi.T())
	d, _ := g.psi.Dims()
	out := mat.NewSymDense(d, nil)
	symmetrise(out, &full)
	return out
}

// payoff returns Nᵀ(Ψᵀ(I − P)Ψ − U)N, the gradient in A.
func (g fantopeGame) payoff(p, u *mat.SymDense) *mat.SymDense {
	d, _ := g.psi.Dims()
	var ip, t, inner mat.Dense
	ip.Sub(eyeDense(d), p)
	t.Mul(&ip, g.psi)
	inner.Mul(g.psi.T(), &t)
	inner.Sub(&inner, u)
	var tn, full mat.Dense
	tn.Mul(&inner, g.null)
	full.Mul(g.null.T(), &tn)
	_, k := g.null.Dims()
	out := mat.NewSymDense(k, nil)
	symmetrise(out, &full)
	return out
}

// symmetrise sets dst to (a + aᵀ)/2.
func symmetrise(dst *mat.SymDense, a mat.Matrix) {
	n := dst.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dst.SetSym(i, j, (a.At(i, j)+a.At(j, i))/2)
		}
	}
}

func eyeDense(d int) *mat.Dense {
	e := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		e.Set(i, i, 1)
	}
	return e
}

// move returns the projected step from base along the gradients (descent
// in P and U, ascent in A).
func (g fantopeGame) move(base fantopeState, gp, gu, ga *mat.SymDense, eta float64) (fantopeState, error) {
	var next fantopeState
	var err error
	tp := mat.NewSymDense(base.p.SymmetricDim(), nil)
	tp.AddSym(base.p, scaled(-eta, gp))
	if next.p, err = projectFantope(tp, g.m); err != nil {
		return next, err
	}
	next.u = mat.NewSymDense(base.u.SymmetricDim(), nil)
	next.u.AddSym(base.u, scaled(-eta, gu))
	clipBox(next.u, g.lambda)
	ta := mat.NewSymDense(base.a.SymmetricDim(), nil)
	ta.AddSym(base.a, scaled(eta, ga))
	next.a, err = projectSpectraplex(ta)
	return next, err
}

func scaled(f float64, a *mat.SymDense) *mat.SymDense {
	out := mat.NewSymDense(a.SymmetricDim(), nil)
	out.ScaleSym(f, a)
	return out
}

// clipBox clips every entry of u to [−λ, λ].
func clipBox(u *mat.SymDense, lambda float64) {
	n := u.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			u.SetSym(i, j, math.Max(-lambda, math.Min(lambda, u.At(i, j))))
		}
	}
}

// solve runs extragradient from P = (m/d)·I, U = 0, A = I/k until the
// duality gap of the averaged iterates is at most run.tol times the value
// of the game at P = 0, U = 0 (λ_max(NᵀΨᵀΨN)), or run.maxIter iterations.
// It checks ctx between iterations.
func (g fantopeGame) solve(ctx context.Context, run fantopeRun) (fantopeSolution, error) {
	d, l := g.psi.Dims()
	_, k := g.null.Dims()
	cur := fantopeState{p: mat.NewSymDense(d, nil), u: mat.NewSymDense(l, nil), a: mat.NewSymDense(k, nil)}
	for i := 0; i < d; i++ {
		cur.p.SetSym(i, i, float64(g.m)/float64(d))
	}
	for i := 0; i < k; i++ {
		cur.a.SetSym(i, i, 1/float64(k))
	}
	scale, err := topEigenvalue(g.payoff(mat.NewSymDense(d, nil), mat.NewSymDense(l, nil)))
	if err != nil {
		return fantopeSolution{}, err
	}
	eta := g.step()
	sum := fantopeState{p: mat.NewSymDense(d, nil), u: mat.NewSymDense(l, nil), a: mat.NewSymDense(k, nil)}
	var sol fantopeSolution
	for it := 1; it <= run.maxIter; it++ {
		if err := checkContext(ctx); err != nil {
			return sol, err
		}
		gp, gu, ga := g.gradients(cur)
		half, err := g.move(cur, gp, gu, ga, eta)
		if err != nil {
			return sol, err
		}
		gp, gu, ga = g.gradients(half)
		if cur, err = g.move(cur, gp, gu, ga, eta); err != nil {
			return sol, err
		}
		sum.p.AddSym(sum.p, half.p)
		sum.u.AddSym(sum.u, half.u)
		sum.a.AddSym(sum.a, half.a)
		if it%run.every != 0 && it != run.maxIter {
			continue
		}
		avg := fantopeState{p: scaled(1/float64(it), sum.p), u: scaled(1/float64(it), sum.u), a: scaled(1/float64(it), sum.a)}
		if sol, err = g.evaluate(avg); err != nil {
			return sol, err
		}
		sol.Iterations = it
		if sol.Gap <= run.tol*scale {
			sol.Converged = true
			break
		}
	}
	return sol, nil
}

// evaluate returns the averaged point with its worst residual and duality
// gap.
func (g fantopeGame) evaluate(avg fantopeState) (fantopeSolution, error) {
	upper, err := topEigenvalue(g.payoff(avg.p, avg.u))
	if err != nil {
		return fantopeSolution{}, err
	}
	c := g.lift(avg.a)
	s := g.congruence(c)
	vals, _, err := eigenDesc(s)
	if err != nil {
		return fantopeSolution{}, err
	}
	lower := mat.Trace(s) - g.lambda*entrywiseL1(c)
	for i := 0; i < g.m; i++ {
		lower -= vals[i]
	}
	return fantopeSolution{P: avg.p, C: c, Upper: upper, Gap: math.Max(0, upper-lower)}, nil
}

func entrywiseL1(a *mat.SymDense) float64 {
	n := a.SymmetricDim()
	var s float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s += math.Abs(a.At(i, j))
		}
	}
	return s
}

// eigenDesc returns the eigenvalues of a in descending order and the
// matching eigenvectors as columns.
func eigenDesc(a mat.Symmetric) ([]float64, *mat.Dense, error) {
	var e mat.EigenSym
	if !e.Factorize(a, true) {
		return nil, nil, errEigen
	}
	asc := e.Values(nil)
	var vecs mat.Dense
	e.VectorsTo(&vecs)
	n := len(asc)
	vals := make([]float64, n)
	out := mat.NewDense(n, n, nil)
	for c := 0; c < n; c++ {
		vals[c] = asc[n-1-c]
		for i := 0; i < n; i++ {
			out.Set(i, c, vecs.At(i, n-1-c))
		}
	}
	return vals, out, nil
}

func topEigenvalue(a mat.Symmetric) (float64, error) {
	var e mat.EigenSym
	if !e.Factorize(a, false) {
		return 0, errEigen
	}
	v := e.Values(nil)
	return v[len(v)-1], nil
}

// rebuild returns V·diag(vals)·Vᵀ.
func rebuild(vecs *mat.Dense, vals []float64) *mat.SymDense {
	n := len(vals)
	out := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var s float64
			for c, v := range vals {
				if v != 0 {
					s += vecs.At(i, c) * v * vecs.At(j, c)
				}
			}
			out.SetSym(i, j, s)
		}
	}
	return out
}

// projectFantope returns the Frobenius-nearest point of the Fantope 𝔽_m to
// the symmetric matrix x: the eigenvalues g_i of x become clip(g_i − θ, 0,
// 1) with θ chosen by bisection so that they sum to m (Vu, Cho, Lei and
// Rohe, NIPS 2013, Lemma 4.1), the eigenvectors are kept.
func projectFantope(x *mat.SymDense, m int) (*mat.SymDense, error) {
	vals, vecs, err := eigenDesc(x)
	if err != nil {
		return nil, err
	}
	total := func(theta float64) float64 {
		var s float64
		for _, g := range vals {
			s += math.Max(0, math.Min(1, g-theta))
		}
		return s
	}
	lo, hi := vals[len(vals)-1]-1, vals[0] // total(lo) = d ≥ m, total(hi) = 0
	for i := 0; i < 200 && hi-lo > 0; i++ {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			break
		}
		if total(mid) >= float64(m) {
			lo = mid
		} else {
			hi = mid
		}
	}
	for i, g := range vals {
		vals[i] = math.Max(0, math.Min(1, g-lo))
	}
	return rebuild(vecs, vals), nil
}

// projectSpectraplex returns the Frobenius-nearest point of the
// spectraplex {A ⪰ 0, tr A = 1} to the symmetric matrix x: its eigenvalues
// projected onto the probability simplex, its eigenvectors kept.
func projectSpectraplex(x *mat.SymDense) (*mat.SymDense, error) {
	vals, vecs, err := eigenDesc(x)
	if err != nil {
		return nil, err
	}
	return rebuild(vecs, projectSimplex(vals)), nil
}

// projectSimplex returns the Euclidean projection of v onto {w ≥ 0, Σw = 1}:
// w_i = max(v_i − τ, 0) with the τ that makes them sum to 1.
func projectSimplex(v []float64) []float64 {
	s := append([]float64(nil), v...)
	sort.Sort(sort.Reverse(sort.Float64Slice(s)))
	var cum, tau float64
	for i, x := range s {
		cum += x
		if t := (cum - 1) / float64(i+1); x-t > 0 {
			tau = t
		}
	}
	w := make([]float64, len(v))
	for i, x := range v {
		w[i] = math.Max(0, x-tau)
	}
	return w
}
