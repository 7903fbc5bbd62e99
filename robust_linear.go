package ngca

import (
	"math"

	"github.com/ngca-go/ngca/internal/asm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
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
	lsym      *mat.SymDense
	chol      mat.Cholesky
	u         mat.TriDense
	coef      []float64 // q×L coefficients of the linear part
	yp, z     []float64 // b×q', q' = q rounded up to 4: C·U⁻¹; q: U⁻ᵀr_ℓ
	lt        []float64 // q×L: addLinScores's workspace
	kept      *cellFits // if not nil, scores leaves every fold's fits here
}

func newLinScorer(b, L, q int) *linScorer {
	return &linScorer{cvScorer: newCVScorer(b, L), lsym: mat.NewSymDense(q, nil),
		c: make([]float64, b*q), lm: make([]float64, q*q), rl: make([]float64, q), coef: make([]float64, q*L),
		yp: make([]float64, b*((q+3)&^3)), z: make([]float64, q), lt: make([]float64, q*L)}
}

// scores is cvScorer.scores for the robust stages: with lin not nil, the
// model has the linear part and the held-out score adds its terms
// (addLinScores); if ℓℓᵀ is singular on some training set, every candidate
// scores +Inf. If s.kept is not nil, every fold's fits are left in it.
func (s *linScorer) scores(part partition, gf, hf [][]float64, gTot, hTot []float64, lin *linSums, ridges, out []float64) {
	L, k, n := len(ridges), part.folds(), part.rows()
	clear(out)
	for f := 0; f < k; f++ {
		nf := float64(part.size(f))
		inv := 1 / (float64(n) - nf)
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
				copy(s.kept.a0[f], s.coef[:lin.q])
			}
		}
		theta := s.theta[:s.b*L]
		s.path.solve(s.a, s.r, ridges, theta, s.ok)
		if lin != nil {
			s.linearCoefs(lin, theta, L)
		}
		s.heldOut(gf[f], hf[f], L)
		if lin != nil {
			s.addLinScores(lin, f, theta, L)
		}
		for l, v := range s.v[:L] {
			out[l] += v / nf / float64(k)
		}
		if s.kept != nil {
			copy(s.kept.theta[f], theta)
			if lin != nil {
				copy(s.kept.a[f], s.coef[:lin.q*L])
			}
		}
	}
	infForNaN(out)
}

// cellFits are the training fits of every fold of one cell for every
// ridge, as linScorer.scores leaves them: theta[f] (b×L), and with the
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
			s.lsym.SetSym(i, j, v)
		}
	}
	if !s.chol.Factorize(s.lsym) {
		return false
	}
	s.chol.UTo(&s.u)
	u := s.u.RawTriangular()
	// Y = C·U⁻¹ and z = U⁻ᵀr_ℓ by triangular solves, as linearCoefs.
	qp := (q + 3) &^ 3
	y := s.yp[:b*qp]
	for i := 0; i < b; i++ {
		copy(y[i*qp:i*qp+q], s.c[i*q:(i+1)*q])
	}
	blas64.Trsm(blas.Right, blas.NoTrans, 1, u, blas64.General{Rows: b, Cols: q, Stride: qp, Data: y})
	copy(s.z, s.rl)
	blas64.Trsv(blas.Trans, u, blas64.Vector{N: q, Inc: 1, Data: s.z})
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
			dz += v * s.z[c]
		}
		s.r[i] -= dz
	}
	return true
}

// linearCoefs sets s.coef (q×L) to the linear part a_λ = −Lm⁻¹(r_ℓ + Cᵀθ_λ)
// for every column of theta (b×L), after a successful profile: two
// triangular solves with its Cholesky factor, as Dpotrs.
func (s *linScorer) linearCoefs(lin *linSums, theta []float64, L int) {
	b, q := s.b, lin.q
	coef := blas64.General{Rows: q, Cols: L, Stride: L, Data: s.coef[:q*L]}
	for c := 0; c < q; c++ {
		for l := 0; l < L; l++ {
			coef.Data[c*L+l] = -s.rl[c]
		}
	}
	blas64.Gemm(blas.Trans, blas.NoTrans, -1, blas64.General{Rows: b, Cols: q, Stride: q, Data: s.c},
		blas64.General{Rows: b, Cols: L, Stride: L, Data: theta}, 1, coef)
	u := s.u.RawTriangular()
	blas64.Trsm(blas.Left, blas.Trans, 1, u, coef)
	blas64.Trsm(blas.Left, blas.NoTrans, 1, u, coef)
}

// addLinScores adds to s.v[l], for every candidate l < L that solved, the
// linear part's contribution to its held-out score on fold f,
// 2θᵀC_f a + aᵀL_f a + 2aᵀr_f (sums over the fold), with θ in theta (b×L)
// and a in s.coef (q×L).
func (s *linScorer) addLinScores(lin *linSums, f int, theta []float64, L int) {
	b, q := s.b, lin.q
	// t = 2·C_fᵀΘ + L_f·A (q×L); the score is Σ_c a_c·(t_c + 2r_f,c).
	t := blas64.General{Rows: q, Cols: L, Stride: L, Data: s.lt[:q*L]}
	a := blas64.General{Rows: q, Cols: L, Stride: L, Data: s.coef[:q*L]}
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
}
