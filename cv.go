package ngca

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
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

// scores sets out[l] to the mean held-out score of ridges[l]. gf[f] (lower
// triangle, b×b) and hf[f] are the sums of ψψᵀ and r over the rows of fold
// f; gTot and hTot are their totals. A candidate whose solve failed in any
// fold scores +Inf.
func (s *cvScorer) scores(part partition, gf, hf [][]float64, gTot, hTot, ridges, out []float64) {
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
		theta := s.theta[:b*L]
		s.path.solve(s.a, s.r, ridges, theta, s.ok)

		// Held-out score θᵀG_fθ/n_f + 2θᵀh_f/n_f for all λ at once.
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
			out[l] += v / nf / float64(k)
		}
	}
	for l, v := range out {
		if math.IsNaN(v) {
			out[l] = math.Inf(1)
		}
	}
}
