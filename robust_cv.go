package ngca

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// This file extends the core cross-validation (cv.go) with the robust
// variant's unpenalised linear part: every model gains a term aᵀℓ(x),
// ℓ(x) = (x₁, …, x_q−1, 1), which is profiled out of each training fit
// exactly. With C = mean of ψℓᵀ (b×q), Lm = mean of ℓℓᵀ and r_ℓ the mean of
// the linear part's target term, the kernel coefficients solve the ridge
// path on the Schur complement
//
//	(G − C·Lm⁻¹·Cᵀ + λI)·θ = −(h − C·Lm⁻¹·r_ℓ),
//
// and a = −Lm⁻¹(r_ℓ + Cᵀθ).

// linSums holds the per-fold sums of ψℓᵀ (b×q), ℓℓᵀ (q×q) and r_ℓ (q) of
// one coordinate, and their totals.
type linSums struct {
	q          int
	cf, lf, rf [][]float64
	cTot, lTot []float64
	rTot       []float64
}

// totals sets cTot and rTot to the sums over the folds.
func (ls *linSums) totals() {
	clear(ls.cTot)
	clear(ls.rTot)
	for f := range ls.cf {
		for i, v := range ls.cf[f] {
			ls.cTot[i] += v
		}
		for i, v := range ls.rf[f] {
			ls.rTot[i] += v
		}
	}
}

// resetFolds clears the per-fold sums for the next width.
func (ls *linSums) resetFolds() {
	for f := range ls.cf {
		clear(ls.cf[f])
		clear(ls.rf[f])
	}
}

// linScorer is a cvScorer for models with the linear part. It holds the
// workspace for one goroutine.
type linScorer struct {
	*cvScorer
	c, lm, rl []float64 // training means of the linear part
	chol      mat.Cholesky
	coef      []float64 // q×L coefficients of the linear part
	y         mat.Dense // b×q: C·U⁻¹
}

func newLinScorer(b, L, q int) *linScorer {
	return &linScorer{cvScorer: newCVScorer(b, L),
		c: make([]float64, b*q), lm: make([]float64, q*q), rl: make([]float64, q), coef: make([]float64, q*L)}
}

// scores is cvScorer.scores for the model with the linear part: the
// held-out score adds the linear part's terms (linScore). If ℓℓᵀ is
// singular on some training set, every candidate scores +Inf.
func (s *linScorer) scores(part partition, gf, hf [][]float64, gTot, hTot []float64, lin *linSums, ridges, out []float64) {
	L, k, n := len(ridges), part.folds(), part.rows()
	clear(out)
	for f := 0; f < k; f++ {
		nf := float64(part.size(f))
		inv := 1 / (float64(n) - nf)
		s.means(gTot, hTot, gf[f], hf[f], inv)
		if !s.profile(lin, f, inv) {
			for l := range out {
				out[l] = math.Inf(1)
			}
			return
		}
		theta := s.theta[:s.b*L]
		s.path.solve(s.a, s.r, ridges, theta, s.ok)
		s.linearCoefs(lin, theta, L)
		s.heldOut(gf[f], hf[f], L)
		for l, v := range s.v[:L] {
			if s.ok[l] {
				v += linScore(lin, f, s.coef, theta, s.b, L, l)
			}
			out[l] += v / nf / float64(k)
		}
	}
	infForNaN(out)
}

// profile forms the training means of the linear part for fold f (f < 0:
// all rows, with inv = 1/n), factorises ℓℓᵀ and replaces s.a and s.r by
// their Schur complements. It reports false if ℓℓᵀ is singular.
func (s *linScorer) profile(lin *linSums, f int, inv float64) bool {
	b, q := s.b, lin.q
	sub := func(dst, tot []float64, fold [][]float64) {
		for i := range dst {
			v := tot[i]
			if f >= 0 {
				v -= fold[f][i]
			}
			dst[i] = v * inv
		}
	}
	sub(s.c, lin.cTot, lin.cf)
	sub(s.lm, lin.lTot, lin.lf)
	sub(s.rl, lin.rTot, lin.rf)
	lsym := mat.NewSymDense(q, nil)
	var tr float64
	for i := 0; i < q; i++ {
		tr += s.lm[i*q+i]
	}
	for i := 0; i < q; i++ {
		for j := i; j < q; j++ {
			v := s.lm[i*q+j]
			if i == j {
				v += 1e-12 * tr // keeps collinear columns solvable
			}
			lsym.SetSym(i, j, v)
		}
	}
	if !s.chol.Factorize(lsym) {
		return false
	}
	// C·Lm⁻¹·Cᵀ = (C·U⁻¹)(C·U⁻¹)ᵀ with Lm = UᵀU.
	var u, uinv mat.TriDense
	s.chol.UTo(&u)
	if err := uinv.InverseTri(&u); err != nil {
		return false
	}
	s.y.Reset()
	s.y.Mul(mat.NewDense(b, q, s.c), &uinv)
	var z mat.VecDense // U⁻ᵀ r_ℓ
	z.MulVec(uinv.T(), mat.NewVecDense(q, s.rl))
	for i := 0; i < b; i++ {
		yi := s.y.RawRowView(i)
		for j := 0; j <= i; j++ {
			yj := s.y.RawRowView(j)
			var dot float64
			for c := range yi {
				dot += yi[c] * yj[c]
			}
			s.a[i*b+j] -= dot
		}
		var dz float64
		for c, v := range yi {
			dz += v * z.AtVec(c)
		}
		s.r[i] -= dz
	}
	return true
}

// linearCoefs sets s.coef (q×L) to the linear part a_λ = −Lm⁻¹(r_ℓ + Cᵀθ_λ)
// for every column of theta (b×L), after a successful profile.
func (s *linScorer) linearCoefs(lin *linSums, theta []float64, L int) {
	b, q := s.b, lin.q
	rhs := mat.NewDense(q, L, nil)
	for c := 0; c < q; c++ {
		for l := 0; l < L; l++ {
			v := s.rl[c]
			for i := 0; i < b; i++ {
				v += s.c[i*q+c] * theta[i*L+l]
			}
			rhs.Set(c, l, -v)
		}
	}
	var sol mat.Dense
	if err := s.chol.SolveTo(&sol, rhs); err != nil {
		clear(s.coef)
		return
	}
	for c := 0; c < q; c++ {
		for l := 0; l < L; l++ {
			s.coef[c*L+l] = sol.At(c, l)
		}
	}
}

// linScore is the linear part's contribution to the held-out score of
// column l on fold f: 2θᵀC_f a + aᵀL_f a + 2aᵀr_f (sums over the fold).
func linScore(lin *linSums, f int, a, theta []float64, b, L, l int) float64 {
	q := lin.q
	cf, lf, rf := lin.cf[f], lin.lf[f], lin.rf[f]
	var v float64
	for c := 0; c < q; c++ {
		ac := a[c*L+l]
		if ac == 0 {
			continue
		}
		var ct float64
		for i := 0; i < b; i++ {
			ct += cf[i*q+c] * theta[i*L+l]
		}
		var la float64
		for e := 0; e < q; e++ {
			la += lf[c*q+e] * a[e*L+l]
		}
		v += ac * (2*ct + la + 2*rf[c])
	}
	return v
}

// refit solves the all-rows problem for one ridge, as cvScorer.refit, and
// returns θ̂ and the linear part's coefficients a.
func (s *linScorer) refit(g, h []float64, lin *linSums, n int, ridge float64) (theta, a []float64, ok bool) {
	inv := 1 / float64(n)
	s.means(g, h, s.zero, s.zero[:s.b], inv)
	if !s.profile(lin, -1, inv) {
		return nil, nil, false
	}
	theta = make([]float64, s.b)
	s.path.solve(s.a, s.r, []float64{ridge}, theta, s.ok[:1])
	if !s.ok[0] {
		return nil, nil, false
	}
	s.linearCoefs(lin, theta, 1)
	return theta, append([]float64(nil), s.coef[:lin.q]...), true
}

// nullRefit returns the linear part of the null model fitted on all rows
// (no kernel part), a = −Lm⁻¹r_ℓ, or nil if ℓℓᵀ is singular.
func (s *linScorer) nullRefit(lin *linSums, n int) []float64 {
	if !s.profile(lin, -1, 1/float64(n)) {
		return nil
	}
	s.linearCoefs(lin, s.zero[:s.b], 1)
	return append([]float64(nil), s.coef[:lin.q]...)
}

// foldFit is the training fit of one fold for one ridge: θ, the linear
// part a (nil without one), and the null model's linear part a0 (the fit
// of the linear part alone; nil without a linear part, where the null
// model is f = 0).
type foldFit struct {
	theta, a, a0 []float64
	ok           bool
}

// foldFits returns the training fit of every fold for one ridge; lin is
// nil for a model without the linear part.
func (s *linScorer) foldFits(part partition, gf, hf [][]float64, gTot, hTot []float64, lin *linSums, ridge float64) []foldFit {
	n := part.rows()
	out := make([]foldFit, part.folds())
	for f := range out {
		inv := 1 / float64(n-part.size(f))
		s.means(gTot, hTot, gf[f], hf[f], inv)
		if lin != nil {
			if !s.profile(lin, f, inv) {
				continue
			}
			s.linearCoefs(lin, s.zero[:s.b], 1) // the null model: a0 = −Lm⁻¹ r_ℓ
			out[f].a0 = append([]float64(nil), s.coef[:lin.q]...)
		}
		theta := make([]float64, s.b)
		s.path.solve(s.a, s.r, []float64{ridge}, theta, s.ok[:1])
		if !s.ok[0] {
			continue
		}
		out[f].theta, out[f].ok = theta, true
		if lin != nil {
			s.linearCoefs(lin, theta, 1)
			out[f].a = append([]float64(nil), s.coef[:lin.q]...)
		}
	}
	return out
}
