package ngca

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// partition is a random assignment of n rows to k folds whose sizes differ
// by at most one. Fold f holds the rows order[bounds[f]], …,
// order[bounds[f+1]−1].
type partition struct {
	order  []int
	bounds []int
}

// newPartition draws a partition of n rows into k folds from rng.
func newPartition(rng *rand.Rand, n, k int) partition {
	p := partition{order: rng.Perm(n), bounds: make([]int, k+1)}
	for f := range p.bounds {
		p.bounds[f] = f * n / k
	}
	return p
}

func (p partition) folds() int     { return len(p.bounds) - 1 }
func (p partition) size(f int) int { return p.bounds[f+1] - p.bounds[f] }

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
// A cvScorer holds the workspace for one goroutine.
type cvScorer struct {
	b, L  int
	path  *ridgePath
	a, r  []float64
	theta []float64 // b×L
	m     []float64 // b×L
	ok    []bool
	lin   *linWork
}

func newCVScorer(b, L int) *cvScorer {
	return &cvScorer{
		b: b, L: L,
		path:  newRidgePath(b, L),
		a:     make([]float64, b*b),
		r:     make([]float64, b),
		theta: make([]float64, b*L),
		m:     make([]float64, b*L),
		ok:    make([]bool, L),
	}
}

// linSums holds, for an optional unpenalised linear part aᵀℓ(x) of the
// model, ℓ(x) = (x₁, …, x_d, 1), the per-fold sums of ψℓᵀ (b×q), ℓℓᵀ (q×q)
// and of the linear term's r_ℓ (q), q = d+1, and their totals.
type linSums struct {
	q          int
	cf, lf, rf [][]float64
	cTot, lTot []float64
	rTot       []float64
}

// linWork is the workspace of the linear part of one solve.
type linWork struct {
	c, lm, rl []float64 // training means
	chol      mat.Cholesky
	a         []float64 // q×L coefficients of the linear part
	y         mat.Dense // b×q: C·U⁻¹
}

// scores sets out[l] to the mean held-out score of ridges[l]. gf[f] (lower
// triangle, b×b) and hf[f] are the sums of ψψᵀ and r over the rows of fold
// f; gTot and hTot are their totals. If lin is not nil the model has the
// unpenalised linear part aᵀℓ(x), profiled out of each training fit (the
// ridge path then runs on the Schur complement
// G − C·L⁻¹·Cᵀ, h − C·L⁻¹·r_ℓ) and included in the held-out score. A
// candidate whose solve failed in any fold scores +Inf.
func (s *cvScorer) scores(part partition, gf, hf [][]float64, gTot, hTot []float64, lin *linSums, ridges, out []float64) {
	b, L := s.b, len(ridges)
	n := part.bounds[len(part.bounds)-1]
	k := part.folds()
	clear(out)
	for f := 0; f < k; f++ {
		nf := float64(part.size(f))
		inv := 1 / (float64(n) - nf)
		g, h := gf[f], hf[f]
		for i := 0; i < b; i++ {
			for j := 0; j <= i; j++ {
				s.a[i*b+j] = (gTot[i*b+j] - g[i*b+j]) * inv
			}
			s.r[i] = (hTot[i] - h[i]) * inv
		}
		var lw *linWork
		if lin != nil {
			lw = s.profile(lin, f, inv)
			if lw == nil {
				for l := range out {
					out[l] = math.Inf(1)
				}
				return
			}
		}
		theta := s.theta[:b*L]
		s.path.solve(s.a, s.r, ridges, theta, s.ok)
		if lw != nil {
			s.linearCoefs(lin, lw, theta, L)
		}

		// Held-out score θᵀG_fθ/n_f + 2θᵀh_f/n_f (plus the linear part's
		// terms) for all λ at once.
		m := s.m[:b*L]
		blas64.Symm(blas.Left, 1,
			blas64.Symmetric{N: b, Stride: b, Uplo: blas.Lower, Data: g},
			blas64.General{Rows: b, Cols: L, Stride: L, Data: theta},
			0, blas64.General{Rows: b, Cols: L, Stride: L, Data: m})
		for l := 0; l < L; l++ {
			if !s.ok[l] {
				out[l] = math.Inf(1)
				continue
			}
			var v float64
			for i := 0; i < b; i++ {
				v += theta[i*L+l] * (m[i*L+l] + 2*h[i])
			}
			if lw != nil {
				v += linScore(lin, f, lw.a, theta, b, L, l)
			}
			out[l] += v / nf / float64(k)
		}
	}
	for l, v := range out {
		if math.IsNaN(v) {
			out[l] = math.Inf(1)
		}
	}
}

// profile forms the training means of the linear part for fold f (f < 0:
// all rows, with inv = 1/n), factorises ℓℓᵀ and replaces s.a and s.r by
// their Schur complements. It returns nil if ℓℓᵀ is singular.
func (s *cvScorer) profile(lin *linSums, f int, inv float64) *linWork {
	b, q := s.b, lin.q
	lw := s.lin
	if lw == nil {
		lw = &linWork{c: make([]float64, b*q), lm: make([]float64, q*q), rl: make([]float64, q), a: make([]float64, q*s.L)}
		s.lin = lw
	}
	sub := func(dst, tot []float64, fold [][]float64) {
		for i := range dst {
			v := tot[i]
			if f >= 0 {
				v -= fold[f][i]
			}
			dst[i] = v * inv
		}
	}
	sub(lw.c, lin.cTot, lin.cf)
	sub(lw.lm, lin.lTot, lin.lf)
	sub(lw.rl, lin.rTot, lin.rf)
	lsym := mat.NewSymDense(q, nil)
	var tr float64
	for i := 0; i < q; i++ {
		tr += lw.lm[i*q+i]
	}
	for i := 0; i < q; i++ {
		for j := i; j < q; j++ {
			v := lw.lm[i*q+j]
			if i == j {
				v += 1e-12 * tr // keeps collinear columns solvable
			}
			lsym.SetSym(i, j, v)
		}
	}
	if !lw.chol.Factorize(lsym) {
		return nil
	}
	// Y = L⁻ᵀ-free form: C·Lm⁻¹·Cᵀ = (C·U⁻¹)(C·U⁻¹)ᵀ with Lm = UᵀU.
	var u mat.TriDense
	lw.chol.UTo(&u)
	// Y = C·U⁻¹, which solves Y·U = C.
	var uinv mat.TriDense
	if err := uinv.InverseTri(&u); err != nil {
		return nil
	}
	y := &lw.y
	y.Reset()
	y.Mul(mat.NewDense(b, q, lw.c), &uinv)
	var z mat.VecDense // U⁻ᵀ r_ℓ
	z.MulVec(uinv.T(), mat.NewVecDense(q, lw.rl))
	for i := 0; i < b; i++ {
		yi := y.RawRowView(i)
		for j := 0; j <= i; j++ {
			yj := y.RawRowView(j)
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
	return lw
}

// linearCoefs sets lw.a (q×L) to the linear part a_λ = −Lm⁻¹(r_ℓ + Cᵀθ_λ)
// for every column of theta (b×L).
func (s *cvScorer) linearCoefs(lin *linSums, lw *linWork, theta []float64, L int) {
	b, q := s.b, lin.q
	rhs := mat.NewDense(q, L, nil)
	for c := 0; c < q; c++ {
		for l := 0; l < L; l++ {
			v := lw.rl[c]
			for i := 0; i < b; i++ {
				v += lw.c[i*q+c] * theta[i*L+l]
			}
			rhs.Set(c, l, -v)
		}
	}
	var sol mat.Dense
	if err := lw.chol.SolveTo(&sol, rhs); err != nil {
		clear(lw.a)
		return
	}
	for c := 0; c < q; c++ {
		for l := 0; l < L; l++ {
			lw.a[c*L+l] = sol.At(c, l)
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

// refit solves the all-rows problem for one ridge: g (lower) and h are the
// total sums over the n rows, lin (if not nil) the linear part's totals.
// It returns θ and the linear part's coefficients.
func (s *cvScorer) refit(g, h []float64, lin *linSums, n int, ridge float64) (theta, a []float64, ok bool) {
	b := s.b
	inv := 1 / float64(n)
	for i := 0; i < b; i++ {
		for j := 0; j <= i; j++ {
			s.a[i*b+j] = g[i*b+j] * inv
		}
		s.r[i] = h[i] * inv
	}
	var lw *linWork
	if lin != nil {
		if lw = s.profile(lin, -1, inv); lw == nil {
			return nil, nil, false
		}
	}
	theta = make([]float64, b)
	s.path.solve(s.a, s.r, []float64{ridge}, theta, s.ok[:1])
	if !s.ok[0] {
		return nil, nil, false
	}
	if lw != nil {
		s.linearCoefs(lin, lw, theta, 1)
		a = append([]float64(nil), lw.a[:lin.q]...)
	}
	return theta, a, true
}

// foldFit is the training fit of one fold for one ridge: θ, the linear
// part a (nil without one), and the null model's linear part a0 (the fit
// of the linear part alone; nil without a linear part, where the null
// model is f = 0).
type foldFit struct {
	theta, a, a0 []float64
	ok           bool
}

// foldFits returns the training fit of every fold for one ridge.
func (s *cvScorer) foldFits(part partition, gf, hf [][]float64, gTot, hTot []float64, lin *linSums, ridge float64) []foldFit {
	b := s.b
	n := part.bounds[len(part.bounds)-1]
	out := make([]foldFit, part.folds())
	for f := range out {
		inv := 1 / float64(n-part.size(f))
		for i := 0; i < b; i++ {
			for j := 0; j <= i; j++ {
				s.a[i*b+j] = (gTot[i*b+j] - gf[f][i*b+j]) * inv
			}
			s.r[i] = (hTot[i] - hf[f][i]) * inv
		}
		var lw *linWork
		if lin != nil {
			if lw = s.profile(lin, f, inv); lw == nil {
				continue
			}
			// The null model: a0 = −Lm⁻¹ r_ℓ.
			zero := make([]float64, b)
			s.linearCoefs(lin, lw, zero, 1)
			out[f].a0 = append([]float64(nil), lw.a[:lin.q]...)
		}
		theta := make([]float64, b)
		s.path.solve(s.a, s.r, []float64{ridge}, theta, s.ok[:1])
		if !s.ok[0] {
			continue
		}
		out[f].theta, out[f].ok = theta, true
		if lw != nil {
			s.linearCoefs(lin, lw, theta, 1)
			out[f].a = append([]float64(nil), lw.a[:lin.q]...)
		}
	}
	return out
}
