package ngca

import (
	"math"
	"slices"

	"github.com/ngca-go/ngca/internal/asm"
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
// A cvScorer holds the workspace for one goroutine.
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
}

func newCVScorer(b, L int) *cvScorer {
	return &cvScorer{
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
func (s *cvScorer) scores(part partition, gf, hf [][]float64, gTot, hTot, ridges, out []float64, keep, use []foldEntry) {
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
			s.means(gTot, hTot, gf[f], hf[f], inv)
			s.path.reduce(s.a, minRidge)
			if keep != nil {
				saveFold(keep[f], gf[f], s.a, s.path)
			}
			g = gf[f]
		}
		s.path.solveReduced(s.a, s.r, ridges, s.theta[:s.b*L], s.ok)
		s.heldOut(g, hf[f], L)
		for l, v := range s.v[:L] {
			out[l] += v / nf / float64(k)
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

// refit solves the all-rows problem for one ridge: g (lower triangle) and
// h are the total sums over the n rows. It returns θ̂, or ok = false if
// G + λI was not numerically positive definite.
func (s *cvScorer) refit(g, h []float64, n int, ridge float64) (theta []float64, ok bool) {
	s.means(g, h, s.zero, s.zero[:s.b], 1/float64(n))
	theta = make([]float64, s.b)
	s.path.solve(s.a, s.r, []float64{ridge}, theta, s.ok[:1])
	return theta, s.ok[0]
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
