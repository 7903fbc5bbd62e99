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

// fitStage runs the stage in four steps: the data in fold order
// (newStageData), the cross-validation of every (width, ridge) pair of
// every coordinate (sweep), the report of the choices (stageReport), and
// the refit of every coordinate on all n rows (refitStage). Results do not
// depend on the number of workers.
func fitStage(ctx context.Context, st stage, p *plan) (*derivModel, StageCV, error) {
	p.progress.begin(st.name)
	sd := newStageData(st.x, st.a, st.centers, st.part)
	if err := sd.distances(ctx, p.workers, st.x, st.centers); err != nil {
		return nil, StageCV{}, err
	}
	best := newBestSums(sd.b, sd.d)
	cells := make([]*kernelCell, max(1, p.workers))
	cellOf := func(w int) cell {
		if cells[w] == nil {
			cells[w] = &kernelCell{sd: sd, sums: newCoordSums(sd), cv: newCVScorer(sd.b, len(st.ridges)),
				ridges: st.ridges, best: best}
		}
		return cells[w]
	}
	choices, err := sweep(ctx, p, sd, st.widths, len(st.ridges), kernelT, cellOf)
	if err != nil {
		return nil, StageCV{}, err
	}
	cv, chosen, err := stageReport(st.name, st.widths, st.ridges, choices)
	if err != nil {
		return nil, StageCV{}, err
	}
	theta, err := refitStage(ctx, p.workers, st.name, sd, best, choices, st.ridges)
	if err != nil {
		return nil, StageCV{}, err
	}
	return newDerivModel(st.centers, theta, chosen), cv, nil
}

// stageData is the data of a stage in fold order: position p holds row
// order[p] of the data, so that every fold is a contiguous range.
type stageData struct {
	n, b, d int
	part    partition
	xT, aT  []float64  // d×n: coordinate j at position p is xT[j·n+p]; aT nil for a = 0
	cT      *mat.Dense // d×b: the centers, transposed
	d2      []float64  // b×n squared distances between centers and points
}

// newStageData lays out x (n×d) and a (n×d, or nil) in fold order.
func newStageData(x, a, centers *mat.Dense, part partition) *stageData {
	n, d := x.Dims()
	b, _ := centers.Dims()
	sd := &stageData{n: n, b: b, d: d, part: part, xT: make([]float64, d*n), cT: mat.DenseCopyOf(centers.T())}
	if a != nil {
		sd.aT = make([]float64, d*n)
	}
	for p, i := range part.order {
		for j := 0; j < d; j++ {
			sd.xT[j*n+p] = x.At(i, j)
			if a != nil {
				sd.aT[j*n+p] = a.At(i, j)
			}
		}
	}
	return sd
}

// distances sets sd.d2 to the squared distances between the rows of
// centers and of x, taken in fold order.
func (sd *stageData) distances(ctx context.Context, workers int, x, centers *mat.Dense) error {
	var err error
	sd.d2, err = sqDistT(ctx, workers, x, centers, sd.part.order)
	return err
}

// coordSums is the basis of one coordinate at one width and its per-fold
// sums: one goroutine's workspace.
type coordSums struct {
	psi    []float64   // b×n basis values ψ_kj, in fold order
	gf, hf [][]float64 // per fold: Σψψᵀ (lower triangle, b×b) and Σr (b)
	g, h   []float64   // their totals over the folds
}

func newCoordSums(sd *stageData) *coordSums {
	b, k := sd.b, sd.part.folds()
	c := &coordSums{psi: make([]float64, b*sd.n), gf: make([][]float64, k), hf: make([][]float64, k),
		g: make([]float64, b*b), h: make([]float64, b)}
	for f := range c.gf {
		c.gf[f], c.hf[f] = make([]float64, b*b), make([]float64, b)
	}
	return c
}

// fill sets the basis of coordinate j for the kernel matrix kt (see
// fillBasis for curv) and its per-fold and total sums.
func (c *coordSums) fill(sd *stageData, kt []float64, j int, curv float64) {
	n, b, part := sd.n, sd.b, sd.part
	var aj []float64
	if sd.aT != nil {
		aj = sd.aT[j*n : (j+1)*n]
	}
	fillBasis(c.psi, c.hf, kt, sd.cT.RawRowView(j), sd.xT[j*n:(j+1)*n], aj, curv, part.bounds)
	clear(c.g)
	clear(c.h)
	for f := 0; f < part.folds(); f++ {
		blas64.Syrk(blas.NoTrans, 1,
			blas64.General{Rows: b, Cols: part.size(f), Stride: n, Data: c.psi[part.bounds[f]:]},
			0, blas64.Symmetric{N: b, Stride: b, Uplo: blas.Lower, Data: c.gf[f]})
		for i := 0; i < b; i++ {
			gi, fi := c.g[i*b:i*b+i+1], c.gf[f][i*b:i*b+i+1]
			for col, v := range fi {
				gi[col] += v
			}
			c.h[i] += c.hf[f][i]
		}
	}
}

// bestSums holds, for every coordinate, the total sums at its best width so
// far, from which refitStage solves.
type bestSums struct {
	g, h [][]float64
}

func newBestSums(b, d int) *bestSums {
	s := &bestSums{g: make([][]float64, d), h: make([][]float64, d)}
	for j := range s.g {
		s.g[j], s.h[j] = make([]float64, b*b), make([]float64, b)
	}
	return s
}

// cell scores the (width, coordinate) cells of a stage on one goroutine.
type cell interface {
	// score sets row[l] to the mean held-out score of ridge l for
	// coordinate j, given the kernel matrix kt at width sigma.
	score(kt []float64, j int, sigma float64, row []float64)
	// keep records the sums of the last score as coordinate j's best.
	keep(j int)
}

// kernelCell is the cell of the paper's least-squares stages.
type kernelCell struct {
	sd     *stageData
	sums   *coordSums
	cv     *cvScorer
	ridges []float64
	best   *bestSums
}

func (c *kernelCell) score(kt []float64, j int, sigma float64, row []float64) {
	c.sums.fill(c.sd, kt, j, 1/(sigma*sigma))
	c.cv.scores(c.sd.part, c.sums.gf, c.sums.hf, c.sums.g, c.sums.h, c.ridges, row)
}

func (c *kernelCell) keep(j int) {
	copy(c.best.g[j], c.sums.g)
	copy(c.best.h[j], c.sums.h)
}

// choice is the cross-validation outcome of one coordinate.
type choice struct {
	scores []float64 // widths×ridges held-out scores, row-major
	best   float64   // the lowest score
	w, l   int       // its width and ridge indices; −1 if every candidate failed
}

// kernelFunc fills kt (b×n) with the kernel values at width sigma for the
// squared distances d2.
type kernelFunc func(ctx context.Context, workers int, kt, d2 []float64, b int, sigma float64) error

// sweep cross-validates every (width, ridge) pair of every coordinate: for
// each width it forms the b×n kernel matrix once and then, in parallel over
// the d coordinates, scores every ridge with the cell of the worker
// (cellOf(w) returns worker w's cell). The pair with the lowest mean score
// wins; ties go to the smaller width index, then to the smaller ridge
// index. Progress counts (width, coordinate) cells.
func sweep(ctx context.Context, p *plan, sd *stageData, widths []float64, L int, kernel kernelFunc, cellOf func(w int) cell) ([]choice, error) {
	W, d := len(widths), sd.d
	choices := make([]choice, d)
	for j := range choices {
		choices[j] = choice{scores: make([]float64, W*L), best: math.Inf(1), w: -1, l: -1}
	}
	rows := make([][]float64, max(1, p.workers))
	done, total := 0, W*d
	report := func() {
		done++
		p.progress.report(done, total)
	}
	kt := make([]float64, sd.b*sd.n)
	for w, sigma := range widths {
		if err := kernel(ctx, p.workers, kt, sd.d2, sd.b, sigma); err != nil {
			return nil, err
		}
		err := parallelFor(ctx, p.workers, d, func(wk, j int) error {
			if rows[wk] == nil {
				rows[wk] = make([]float64, L)
			}
			c, row := cellOf(wk), rows[wk]
			c.score(kt, j, sigma, row)
			ch := &choices[j]
			copy(ch.scores[w*L:(w+1)*L], row)
			improved := false
			for l, v := range row {
				if v < ch.best {
					ch.best, ch.w, ch.l, improved = v, w, l, true
				}
			}
			if improved {
				c.keep(j)
			}
			return nil
		}, report)
		if err != nil {
			return nil, err
		}
	}
	return choices, nil
}

// stageReport returns the StageCV of the choices and every coordinate's
// chosen width, or an ErrSingular error naming a coordinate for which every
// candidate failed.
func stageReport(name string, widths, ridges []float64, choices []choice) (StageCV, []float64, error) {
	W, L := len(widths), len(ridges)
	cv := StageCV{Name: name, Widths: widths, Ridges: ridges, Coords: make([]Selection, len(choices))}
	chosen := make([]float64, len(choices))
	for j, c := range choices {
		if c.w < 0 {
			return StageCV{}, nil, fmt.Errorf("%w: stage %q, coordinate %d: every (width, ridge) candidate failed", ErrSingular, name, j)
		}
		chosen[j] = widths[c.w]
		cv.Coords[j] = Selection{Width: widths[c.w], Ridge: ridges[c.l], Score: c.best, Scores: mat.NewDense(W, L, c.scores)}
	}
	return cv, chosen, nil
}

// refitStage solves every coordinate's problem on all n rows with its chosen
// ridge and returns θ̂ (b×d, column j for coordinate j).
func refitStage(ctx context.Context, workers int, name string, sd *stageData, best *bestSums, choices []choice, ridges []float64) (*mat.Dense, error) {
	theta := mat.NewDense(sd.b, sd.d, nil)
	scorers := make([]*cvScorer, max(1, workers))
	err := parallelFor(ctx, workers, sd.d, func(wk, j int) error {
		if scorers[wk] == nil {
			scorers[wk] = newCVScorer(sd.b, 1)
		}
		ridge := ridges[choices[j].l]
		th, ok := scorers[wk].refit(best.g[j], best.h[j], sd.n, ridge)
		if !ok {
			return fmt.Errorf("%w: stage %q, coordinate %d: refit with λ = %g failed", ErrSingular, name, j, ridge)
		}
		theta.SetCol(j, th)
		return nil
	}, nil)
	return theta, err
}
