package ngca

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// stage describes one least-squares fit of d per-coordinate models
// f_j(x) = θ_jᵀψ_j(x) in the Gaussian-derivative basis (kernels.go), each
// minimising
//
//	(1/n) Σᵢ [ f_j(xᵢ)² + 2 ∂_j f_j(xᵢ) + 2 f_j(xᵢ)·a_ij ] + λ_j‖θ_j‖²,
//	θ_j = −(G_j + λ_j I)⁻¹ h_j,  G_j = (1/n)Σᵢ ψ_j(xᵢ)ψ_j(xᵢ)ᵀ,
//	h_j = (1/n)Σᵢ [∂_jψ_j(xᵢ) + ψ_j(xᵢ)·a_ij],
//
// with (σ_j, λ_j) chosen by k-fold cross-validation on the held-out value of
// the same objective. With a = 0 this is LSLDG (Sasaki et al., 2014), whose
// f_j estimates ∂_j log p. With a_ij = ∇ĝ_j(xᵢ)ᵀxᵢ it is stage 2 of
// WF-LSNGCA (Shiino et al., ACML 2017, §3.2), whose f_j estimates
// v_j(x) = ∂_j log p(x) − (∇∂_j log p(x))ᵀx.
type stage struct {
	name           string
	x              *mat.Dense // n×d points
	a              *mat.Dense // n×d, or nil for a = 0
	centers        *mat.Dense // b×d
	widths, ridges []float64
	part           partition
}

// coordFit is the running cross-validation state of one coordinate.
type coordFit struct {
	scores []float64 // widths×ridges, row-major
	best   float64
	bw, bl int       // indices of the best pair so far, −1 if none
	g, h   []float64 // total sums at the best width (g lower triangle)
}

// stageScratch is the workspace of one goroutine of fitStage.
type stageScratch struct {
	psi    []float64   // b×n basis values
	gf, hf [][]float64 // per-fold sums
	g, h   []float64   // totals
	row    []float64   // one row of scores
	cv     *cvScorer
}

// fitStage runs the stage: for every width it forms the b×n kernel matrix
// once and then, in parallel over the d coordinates, the basis, its per-fold
// sums, and the held-out scores of every ridge. The pair with the lowest
// mean score wins (ties go to the smaller width index, then to the smaller
// ridge index) and θ_j is refitted on all n rows. Results do not depend on
// the number of workers.
func fitStage(ctx context.Context, st stage, p *plan) (*derivModel, StageCV, error) {
	n, d := st.x.Dims()
	b, _ := st.centers.Dims()
	W, L, k := len(st.widths), len(st.ridges), st.part.folds()
	order, bounds := st.part.order, st.part.bounds

	// Data in fold order, one contiguous row per coordinate.
	xT := make([]float64, d*n)
	var aT []float64
	if st.a != nil {
		aT = make([]float64, d*n)
	}
	for p, i := range order {
		for j := 0; j < d; j++ {
			xT[j*n+p] = st.x.At(i, j)
			if aT != nil {
				aT[j*n+p] = st.a.At(i, j)
			}
		}
	}
	cT := mat.DenseCopyOf(st.centers.T())
	d2, err := sqDistT(ctx, p.workers, st.x, st.centers, order)
	if err != nil {
		return nil, StageCV{}, err
	}
	kt := make([]float64, b*n)

	coords := make([]coordFit, d)
	for j := range coords {
		coords[j] = coordFit{scores: make([]float64, W*L), best: math.Inf(1), bw: -1, bl: -1,
			g: make([]float64, b*b), h: make([]float64, b)}
	}
	scratch := make([]*stageScratch, max(1, p.workers))
	newScratch := func() *stageScratch {
		s := &stageScratch{psi: make([]float64, b*n), gf: make([][]float64, k), hf: make([][]float64, k),
			g: make([]float64, b*b), h: make([]float64, b), row: make([]float64, L), cv: newCVScorer(b, L)}
		for f := range s.gf {
			s.gf[f], s.hf[f] = make([]float64, b*b), make([]float64, b)
		}
		return s
	}

	done, total := 0, W*d
	report := func() {
		done++
		if p.progress != nil {
			p.progress(Progress{Stage: st.name, Done: done, Total: total})
		}
	}
	for w, sigma := range st.widths {
		if err := kernelT(ctx, p.workers, kt, d2, b, sigma); err != nil {
			return nil, StageCV{}, err
		}
		err := parallelFor(ctx, p.workers, d, func(wk, j int) error {
			if scratch[wk] == nil {
				scratch[wk] = newScratch()
			}
			s := scratch[wk]
			var aj []float64
			if aT != nil {
				aj = aT[j*n : (j+1)*n]
			}
			fillBasis(s.psi, s.hf, kt, cT.RawRowView(j), xT[j*n:(j+1)*n], aj, sigma, bounds)
			clear(s.g)
			clear(s.h)
			for f := 0; f < k; f++ {
				blas64.Syrk(blas.NoTrans, 1,
					blas64.General{Rows: b, Cols: st.part.size(f), Stride: n, Data: s.psi[bounds[f]:]},
					0, blas64.Symmetric{N: b, Stride: b, Uplo: blas.Lower, Data: s.gf[f]})
				for i := 0; i < b; i++ {
					gi, fi := s.g[i*b:i*b+i+1], s.gf[f][i*b:i*b+i+1]
					for c, v := range fi {
						gi[c] += v
					}
					s.h[i] += s.hf[f][i]
				}
			}
			s.cv.scores(st.part, s.gf, s.hf, s.g, s.h, st.ridges, s.row)

			c := &coords[j]
			copy(c.scores[w*L:(w+1)*L], s.row)
			improved := false
			for l, v := range s.row {
				if v < c.best {
					c.best, c.bw, c.bl, improved = v, w, l, true
				}
			}
			if improved {
				copy(c.g, s.g)
				copy(c.h, s.h)
			}
			return nil
		}, report)
		if err != nil {
			return nil, StageCV{}, err
		}
	}

	// Refit every coordinate on all n rows with its chosen pair.
	theta := mat.NewDense(b, d, nil)
	chosen := make([]float64, d)
	cv := StageCV{Name: st.name, Widths: st.widths, Ridges: st.ridges, Coords: make([]Selection, d)}
	for j, c := range coords {
		if c.bw < 0 {
			return nil, StageCV{}, fmt.Errorf("%w: stage %q, coordinate %d: every (width, ridge) candidate failed", ErrSingular, st.name, j)
		}
		chosen[j] = st.widths[c.bw]
		cv.Coords[j] = Selection{Width: st.widths[c.bw], Ridge: st.ridges[c.bl], Score: c.best,
			Scores: mat.NewDense(W, L, c.scores)}
	}
	paths := make([]*ridgePath, max(1, p.workers))
	err = parallelFor(ctx, p.workers, d, func(wk, j int) error {
		if paths[wk] == nil {
			paths[wk] = newRidgePath(b, 1)
		}
		c := &coords[j]
		inv := 1 / float64(n)
		for i := range c.g {
			c.g[i] *= inv
		}
		for i := range c.h {
			c.h[i] *= inv
		}
		th := make([]float64, b)
		var ok [1]bool
		paths[wk].solve(c.g, c.h, []float64{st.ridges[c.bl]}, th, ok[:])
		if !ok[0] {
			return fmt.Errorf("%w: stage %q, coordinate %d: refit with λ = %g failed", ErrSingular, st.name, j, st.ridges[c.bl])
		}
		theta.SetCol(j, th)
		return nil
	}, nil)
	if err != nil {
		return nil, StageCV{}, err
	}
	return newDerivModel(st.centers, theta, chosen), cv, nil
}
