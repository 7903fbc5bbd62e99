package ngca

import (
	"math"
	"slices"

	"github.com/ngca-go/ngca/internal/asm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// cvScorer computes held-out scores of the ridge path of one
// cross-validation cell (one width and one output coordinate). The
// least-squares objective of every estimator here has the form
//
//	J(θ) = θᵀGθ + 2θᵀh + λ‖θ‖²,   θ̂ = −(G + λI)⁻¹h,
//
// with G and h means over rows (G = (1/n)Σψψᵀ; h = (1/n)Σr). For fold f, θ̂
// is fitted on the other folds and scored on fold f by θ̂ᵀG_fθ̂ + 2θ̂ᵀh_f;
// the scores are averaged over the folds. The training means are formed by
// subtraction from the totals, G_{−f} = (ΣG − ΣG_f)/(n − n_f), so the data
// are summed once per cell, never once per fold.
//
// With a linear part (linSums, below) every model gains an unpenalised
// term aᵀℓ(x) that each training fit profiles out; lin then holds its
// workspace. A cvScorer holds the workspace for one goroutine.
type cvScorer struct {
	b, L  int
	path  *ridgePath
	a, r  []float64 // training means of G (lower triangle) and h
	theta []float64 // b×L, column l = θ̂ for ridge l
	m     []float64 // b×L: G_f·θ̂_l in column l
	full  []float64 // b×b: G_f in full storage
	v     []float64 // L held-out sums of one fold
	ok    []bool
	zero  []float64 // b×b zeros: the fold sums of "no fold"
	lin   *linWork  // the linear part's workspace (nil: no linear part)
	kept  *cellFits // if not nil, scores leaves every fold's fits here
}

// newCVScorer returns a scorer of b basis functions and L ridges, with the
// workspace of a linear part of q features if q > 0.
func newCVScorer(b, L, q int) *cvScorer {
	s := &cvScorer{
		b: b, L: L,
		path:  newRidgePath(b, L),
		a:     make([]float64, b*b),
		r:     make([]float64, b),
		theta: make([]float64, b*L),
		m:     make([]float64, b*L),
		full:  make([]float64, b*b),
		v:     make([]float64, L),
		ok:    make([]bool, L),
		zero:  make([]float64, b*b),
	}
	if q > 0 {
		s.lin = newLinWork(b, L, q)
	}
	return s
}

// means sets s.a (lower triangle) and s.r to (gTot − g)·inv and
// (hTot − h)·inv: the training means of fold f's complement when g and h
// are the sums over fold f and inv = 1/(n − n_f), or the means over all
// rows when g and h are zero and inv = 1/n.
func (s *cvScorer) means(gTot, hTot, g, h []float64, inv float64) {
	b := s.b
	for i := 0; i < b; i++ {
		for j := 0; j <= i; j++ {
			s.a[i*b+j] = (gTot[i*b+j] - g[i*b+j]) * inv
		}
		s.r[i] = (hTot[i] - h[i]) * inv
	}
}

// heldOut sets s.v[l] to the sum over one fold of the held-out objective
// of θ̂_l (row l of s.path.yt, as solveReduced left it),
//
//	v_l = θ̂_lᵀ·G_f·θ̂_l + 2θ̂_lᵀh_f,
//
// for l < L, with g (lower triangle) and h the fold's sums of ψψᵀ and r.
// G_f is copied into full storage once, so that the products G_f·θ̂_l of
// all L candidates are one call of asm.AddDots. A candidate whose solve
// failed (s.ok false) gets +Inf.
func (s *cvScorer) heldOut(g, h []float64, L int) {
	b, full, m := s.b, s.full, s.m[:s.b*L]
	for i := 0; i < b; i++ {
		for j, v := range g[i*b : i*b+i+1] {
			full[i*b+j], full[j*b+i] = v, v
		}
	}
	clear(m)
	asm.AddDots(m, L, full, b, b, s.path.yt, b, L, b) // m[i·L+l] = (G_f·θ̂_l)_i
	for l := 0; l < L; l++ {
		if !s.ok[l] {
			s.v[l] = math.Inf(1)
			continue
		}
		var v float64
		for i, yi := range s.path.yt[l*b : (l+1)*b] {
			v += yi * (m[i*L+l] + 2*h[i])
		}
		s.v[l] = v
	}
}

// scores sets out[l] to the mean held-out score of ridges[l]: for every
// fold f, θ̂ is solved from the training means for all ridges at once
// (ridgePath) and scored by heldOut on fold f; the per-fold means are
// averaged. gf[f] (lower triangle, b×b) and hf[f] are the sums of ψψᵀ and
// r over the rows of fold f; gTot and hTot are their totals. A candidate
// whose solve failed in any fold, or whose score is NaN, scores +Inf.
//
// If keep is not nil, every fold's G_f and reduction are saved in it. If
// use is not nil, they are taken from it instead, and gf and gTot are not
// read: the results are those of gf and gTot equal to the saved ones.
//
// With lin not nil (the scorer then has a linear part), every training fit
// profiles the linear part out and the held-out score adds its terms
// (addLinScores); if ℓℓᵀ is singular on some training set, every candidate
// scores +Inf. keep and use must then be nil. If s.kept is not nil, every
// fold's fits are left in it.
func (s *cvScorer) scores(part partition, gf, hf [][]float64, gTot, hTot, ridges, out []float64, keep, use []foldEntry, lin *linSums) {
	L, k, n := len(ridges), part.folds(), part.rows()
	minRidge := slices.Min(ridges)
	clear(out)
	for f := 0; f < k; f++ {
		nf := float64(part.size(f))
		inv := 1 / (float64(n) - nf)
		var g []float64
		if use != nil {
			for i := range s.r {
				s.r[i] = (hTot[i] - hf[f][i]) * inv
			}
			restoreFold(use[f], s.a, s.path)
			g = use[f].m
		} else {
			g = gf[f]
			s.means(gTot, hTot, gf[f], hf[f], inv)
			if lin != nil {
				if !s.profile(lin, f, inv) {
					for l := range out {
						out[l] = math.Inf(1)
					}
					return
				}
				if s.kept != nil {
					s.linearCoefs(lin, s.zero[:s.b], 1) // the null model: a0 = −Lm⁻¹ r_ℓ
					copy(s.kept.a0[f], s.lin.coef[:lin.q])
				}
			}
			s.path.reduce(s.a, minRidge)
			if keep != nil {
				saveFold(keep[f], gf[f], s.a, s.path)
			}
		}
		theta := s.theta[:s.b*L]
		s.path.solveReduced(s.a, s.r, ridges, theta, s.ok)
		if lin != nil {
			s.linearCoefs(lin, theta, L)
		}
		s.heldOut(g, hf[f], L)
		if lin != nil {
			s.addLinScores(lin, f, theta, L)
		}
		for l, v := range s.v[:L] {
			out[l] += v / nf / float64(k)
		}
		if s.kept != nil {
			copy(s.kept.theta[f], theta)
			if lin != nil {
				copy(s.kept.a[f], s.lin.coef[:lin.q*L])
			}
		}
	}
	infForNaN(out)
}

// infForNaN replaces every NaN of v by +Inf, so that a failed candidate
// loses every comparison.
func infForNaN(v []float64) {
	for i, x := range v {
		if math.IsNaN(x) {
			v[i] = math.Inf(1)
		}
	}
}

// refit solves the all-rows problem for one ridge from the totals g
// (lower triangle) and h over n rows: θ̂, and with lin not nil the linear
// part's coefficients a (ok is false if ℓℓᵀ or the solve is singular;
// without a linear part θ̂ is returned all the same).
func (s *cvScorer) refit(g, h []float64, lin *linSums, n int, ridge float64) (theta, a []float64, ok bool) {
	inv := 1 / float64(n)
	s.means(g, h, s.zero, s.zero[:s.b], inv)
	if lin != nil && !s.profile(lin, -1, inv) {
		return nil, nil, false
	}
	theta = make([]float64, s.b)
	s.path.solve(s.a, s.r, []float64{ridge}, theta, s.ok[:1])
	if lin == nil {
		return theta, nil, s.ok[0]
	}
	if !s.ok[0] {
		return nil, nil, false
	}
	s.linearCoefs(lin, theta, 1)
	return theta, append([]float64(nil), s.lin.coef[:lin.q]...), true
}

// saveFold records a fold in e: g (lower triangle) is G_f, a and p hold
// the reduction of its training mean (ridgePath.reduce).
func saveFold(e foldEntry, g, a []float64, p *ridgePath) {
	b := len(e.d)
	for i := 0; i < b; i++ {
		copy(e.m[i*b:i*b+i+1], g[i*b:i*b+i+1])
		copy(e.m[i*b+i+1:(i+1)*b], a[i*b+i+1:(i+1)*b])
	}
	copy(e.d, p.d)
	copy(e.e, p.e)
	copy(e.tau, p.tau)
}

// restoreFold puts the reduction saved in e into a (upper triangle, as
// asm.Tridiagonalize left it) and p, ready for ridgePath.solveReduced.
func restoreFold(e foldEntry, a []float64, p *ridgePath) {
	b := len(e.d)
	for i := 0; i < b; i++ {
		copy(a[i*b+i+1:(i+1)*b], e.m[i*b+i+1:(i+1)*b])
	}
	copy(p.d, e.d)
	copy(p.e, e.e)
	copy(p.tau, e.tau)
}

// The linear-part option of cvScorer, which the robust variant's stages
// use: every model gains an unpenalised term aᵀℓ(x),
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

// linWork is a cvScorer's workspace for the linear part.
type linWork struct {
	c, lm, rl []float64 // training means of the linear part
	lsym      *mat.SymDense
	chol      mat.Cholesky
	u         mat.TriDense
	coef      []float64 // q×L coefficients of the linear part
	yp, z     []float64 // b×q', q' = q rounded up to 4: C·U⁻¹; q: U⁻ᵀr_ℓ
	lt        []float64 // q×L: addLinScores's workspace
}

func newLinWork(b, L, q int) *linWork {
	return &linWork{lsym: mat.NewSymDense(q, nil),
		c: make([]float64, b*q), lm: make([]float64, q*q), rl: make([]float64, q), coef: make([]float64, q*L),
		yp: make([]float64, b*((q+3)&^3)), z: make([]float64, q), lt: make([]float64, q*L)}
}

// cellFits are the training fits of every fold of one cell for every
// ridge, as cvScorer.scores leaves them: theta[f] (b×L), and with the
// linear part a[f] (q×L) and the null model's linear part a0[f] (q).
type cellFits struct {
	L            int
	theta, a, a0 [][]float64
}

func newCellFits(b, q, L, k int) *cellFits {
	c := &cellFits{L: L, theta: make([][]float64, k), a: make([][]float64, k), a0: make([][]float64, k)}
	for f := 0; f < k; f++ {
		c.theta[f], c.a[f], c.a0[f] = make([]float64, b*L), make([]float64, q*L), make([]float64, q)
	}
	return c
}

// copyFold sets dst to the fits of fold f for ridge index l; dst.a and
// dst.a0 are left alone when they are nil (no linear part).
func (c *cellFits) copyFold(dst foldFit, f, l int) {
	for i := range dst.theta {
		dst.theta[i] = c.theta[f][i*c.L+l]
	}
	for i := range dst.a {
		dst.a[i] = c.a[f][i*c.L+l]
	}
	copy(dst.a0, c.a0[f])
}

// profile forms the training means of the linear part for fold f (f < 0:
// all rows, with inv = 1/n), factorises ℓℓᵀ and replaces s.a and s.r by
// their Schur complements. It reports false if ℓℓᵀ is singular.
//
// With Lm = UᵀU, C·Lm⁻¹·Cᵀ = Y·Yᵀ for Y = C·U⁻¹ (b×q), whose lower triangle
// asm.AddGram forms (Y padded with zero columns to a multiple of four, in
// s.full, which heldOut overwrites later).
func (s *cvScorer) profile(lin *linSums, f int, inv float64) bool {
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
	sub(s.lin.c, lin.cTot, lin.cf)
	sub(s.lin.lm, lin.lTot, lin.lf)
	sub(s.lin.rl, lin.rTot, lin.rf)
	var tr float64
	for i := 0; i < q; i++ {
		tr += s.lin.lm[i*q+i]
	}
	for i := 0; i < q; i++ {
		for j := i; j < q; j++ {
			v := s.lin.lm[i*q+j]
			if i == j {
				v += 1e-12 * tr // keeps collinear columns solvable
			}
			s.lin.lsym.SetSym(i, j, v)
		}
	}
	if !s.lin.chol.Factorize(s.lin.lsym) {
		return false
	}
	s.lin.chol.UTo(&s.lin.u)
	u := s.lin.u.RawTriangular()
	// Y = C·U⁻¹ and z = U⁻ᵀr_ℓ by triangular solves, as linearCoefs.
	qp := (q + 3) &^ 3
	y := s.lin.yp[:b*qp]
	for i := 0; i < b; i++ {
		copy(y[i*qp:i*qp+q], s.lin.c[i*q:(i+1)*q])
	}
	blas64.Trsm(blas.Right, blas.NoTrans, 1, u, blas64.General{Rows: b, Cols: q, Stride: qp, Data: y})
	copy(s.lin.z, s.lin.rl)
	blas64.Trsv(blas.Trans, u, blas64.Vector{N: q, Inc: 1, Data: s.lin.z})
	t := s.full
	for i := 0; i < b; i++ {
		clear(t[i*b : i*b+i+1])
	}
	asm.AddGram(t, y, b, qp)
	for i := 0; i < b; i++ {
		ai, ti := s.a[i*b:i*b+i+1], t[i*b:i*b+i+1]
		for j, v := range ti {
			ai[j] -= v
		}
		var dz float64
		for c, v := range y[i*qp : i*qp+q] {
			dz += v * s.lin.z[c]
		}
		s.r[i] -= dz
	}
	return true
}

// linearCoefs sets s.lin.coef (q×L) to the linear part a_λ = −Lm⁻¹(r_ℓ + Cᵀθ_λ)
// for every column of theta (b×L), after a successful profile: two
// triangular solves with its Cholesky factor, as Dpotrs.
func (s *cvScorer) linearCoefs(lin *linSums, theta []float64, L int) {
	b, q := s.b, lin.q
	coef := blas64.General{Rows: q, Cols: L, Stride: L, Data: s.lin.coef[:q*L]}
	for c := 0; c < q; c++ {
		for l := 0; l < L; l++ {
			coef.Data[c*L+l] = -s.lin.rl[c]
		}
	}
	blas64.Gemm(blas.Trans, blas.NoTrans, -1, blas64.General{Rows: b, Cols: q, Stride: q, Data: s.lin.c},
		blas64.General{Rows: b, Cols: L, Stride: L, Data: theta}, 1, coef)
	u := s.lin.u.RawTriangular()
	blas64.Trsm(blas.Left, blas.Trans, 1, u, coef)
	blas64.Trsm(blas.Left, blas.NoTrans, 1, u, coef)
}

// addLinScores adds to s.v[l], for every candidate l < L that solved, the
// linear part's contribution to its held-out score on fold f,
// 2θᵀC_f a + aᵀL_f a + 2aᵀr_f (sums over the fold), with θ in theta (b×L)
// and a in s.lin.coef (q×L).
func (s *cvScorer) addLinScores(lin *linSums, f int, theta []float64, L int) {
	b, q := s.b, lin.q
	// t = 2·C_fᵀΘ + L_f·A (q×L); the score is Σ_c a_c·(t_c + 2r_f,c).
	t := blas64.General{Rows: q, Cols: L, Stride: L, Data: s.lin.lt[:q*L]}
	a := blas64.General{Rows: q, Cols: L, Stride: L, Data: s.lin.coef[:q*L]}
	blas64.Gemm(blas.Trans, blas.NoTrans, 2, blas64.General{Rows: b, Cols: q, Stride: q, Data: lin.cf[f]},
		blas64.General{Rows: b, Cols: L, Stride: L, Data: theta}, 0, t)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: q, Cols: q, Stride: q, Data: lin.lf[f]}, a, 1, t)
	rf := lin.rf[f]
	for l := 0; l < L; l++ {
		if !s.ok[l] {
			continue
		}
		var v float64
		for c := 0; c < q; c++ {
			v += a.Data[c*L+l] * (t.Data[c*L+l] + 2*rf[c])
		}
		s.v[l] += v
	}
}

// nullRefit returns the linear part of the null model fitted on all rows
// (no kernel part), a = −Lm⁻¹r_ℓ, or nil if ℓℓᵀ is singular.
func (s *cvScorer) nullRefit(lin *linSums, n int) []float64 {
	if !s.profile(lin, -1, 1/float64(n)) {
		return nil
	}
	s.linearCoefs(lin, s.zero[:s.b], 1)
	return append([]float64(nil), s.lin.coef[:lin.q]...)
}

// foldFit is the training fit of one fold for one ridge: θ, the linear
// part a (nil without one), and the null model's linear part a0 (the fit
// of the linear part alone; nil without a linear part, where the null
// model is f = 0).
type foldFit struct {
	theta, a, a0 []float64
}
