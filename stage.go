package ngca

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/ngca-go/ngca/internal/asm"
	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

// lsStage describes one least-squares fit of d per-coordinate models
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
type lsStage struct {
	name           string
	x              *mat.Dense // n×d points
	a              *mat.Dense // n×d, or nil for a = 0
	centers        *mat.Dense // b×d
	widths, ridges []float64
	part           partition
	// keep, if not nil, receives the stage's fold Gram matrices and
	// reductions; reuse, if not nil, holds those of an earlier stage on
	// the same points, centers and partition (see foldStore).
	keep, reuse *foldStore
}

// fitStage runs the stage in four steps: the data in fold order
// (newStageData), the cross-validation of every (width, ridge) pair of
// every coordinate (sweep), the report of the choices (stageReport), and
// the refit of every coordinate on all n rows (refitStage). Results do not
// depend on the number of workers.
func fitStage(ctx context.Context, st lsStage, p *plan) (*derivModel, stageCV, error) {
	p.progress.begin(st.name)
	sd, err := newStageData(ctx, p.workers, st.x, st.a, st.centers, st.x, st.centers, st.part)
	if err != nil {
		return nil, stageCV{}, err
	}
	minRidge := slices.Min(st.ridges)
	ks := &kernelStage{sd: sd, ridges: st.ridges, best: newBestSums(sd.b, sd.d), storeLink: st.link(sd, minRidge),
		cells: make([]*kernelCell, max(1, p.workers))}
	ks.sums = make([]*coordSums, sd.d)
	for j := range ks.sums {
		ks.sums[j] = newCoordSums(sd, ks.needsGram(j))
	}
	choices, err := sweep(ctx, p, sd, st.widths, len(st.ridges), kernelT, ks.cellOf)
	if err != nil {
		return nil, stageCV{}, err
	}
	cv, chosen, err := stageReport(st.name, st.widths, st.ridges, choices)
	if err != nil {
		return nil, stageCV{}, err
	}
	theta, _, err := refitStage(ctx, p.workers, st.name, sd, ks.best, choices, st.ridges, nil, nil)
	if err != nil {
		return nil, stageCV{}, err
	}
	return newDerivModel(st.centers, theta, chosen), cv, nil
}

// coordSums are one coordinate's per-fold sums at one width: Σψψᵀ (lower
// triangle, b×b; nil if not needed) and Σr (b), added up block by block.
type coordSums struct {
	gf, hf [][]float64
}

func newCoordSums(sd *stageData, gram bool) *coordSums {
	b, k := sd.b, sd.part.folds()
	c := &coordSums{hf: make([][]float64, k)}
	if gram {
		c.gf = make([][]float64, k)
	}
	for f := range c.hf {
		c.hf[f] = make([]float64, b)
		if gram {
			c.gf[f] = make([]float64, b*b)
		}
	}
	return c
}

// add adds the rows of the block to the sums of coordinate j, with the
// kernel values kt (kt[k·ldk+p] for the block's p-th row) and curv as in
// asm.FillBasis; psi (b×rows) is workspace. The Gram matrix is summed only
// if gram is set. With workspace s (b) and asm.FusedGram(b), the basis
// values are formed and added chunk by chunk (asm.AddBasisGram), and psi
// then holds only the last chunk's; with s nil, psi holds the block's basis
// values afterwards (if gram is set).
func (c *coordSums) add(sd *stageData, psi, s, kt []float64, ldk int, blk block, j int, curv float64, gram bool) {
	n, b, m := sd.n, sd.b, blk.rows()
	var aj []float64
	if sd.aT != nil {
		aj = sd.aT[j*n+blk.lo : j*n+blk.hi]
	}
	if gram && s != nil && asm.FusedGram(b) {
		asm.AddBasisGram(c.gf[blk.fold], c.hf[blk.fold], psi, s, kt, ldk, sd.cT.RawRowView(j), sd.xT[j*n+blk.lo:j*n+blk.hi], aj, curv)
		return
	}
	if gram {
		psi = psi[:b*m]
	} else {
		psi = nil
	}
	asm.FillBasis(psi, c.hf[blk.fold], kt, ldk, sd.cT.RawRowView(j), sd.xT[j*n+blk.lo:j*n+blk.hi], aj, curv)
	if psi != nil {
		asm.AddGram(c.gf[blk.fold], psi, b, m)
	}
}

// totals sets h, and g (lower triangle) if gram is set, to the sums over
// the folds.
func (c *coordSums) totals(g, h []float64, gram bool) {
	clear(h)
	for _, hf := range c.hf {
		for i, v := range hf {
			h[i] += v
		}
	}
	if !gram {
		return
	}
	b := len(h)
	clear(g)
	for _, gf := range c.gf {
		for i := 0; i < b; i++ {
			gi, fi := g[i*b:i*b+i+1], gf[i*b:i*b+i+1]
			for col, v := range fi {
				gi[col] += v
			}
		}
	}
}

// reset clears the sums for the next width.
func (c *coordSums) reset() {
	for f := range c.hf {
		clear(c.hf[f])
		if c.gf != nil {
			clear(c.gf[f])
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
	// add adds the rows of a block to coordinate j's sums at width index
	// w (width sigma), given the block's kernel values kt[k·ldk+p].
	add(kt []float64, ldk int, blk block, j, w int, sigma float64)
	// score sets row[l] to the mean held-out score of ridge l for
	// coordinate j from its sums at width index w, and clears the sums.
	score(j, w int, sigma float64, row []float64)
	// keep records the sums of the last score as coordinate j's best.
	keep(j int)
}

// kernelStage is the state of one of the paper's least-squares stages
// shared by its workers.
type kernelStage struct {
	sd     *stageData
	ridges []float64
	sums   []*coordSums // per coordinate
	best   *bestSums
	storeLink
	cells []*kernelCell
}

func (ks *kernelStage) cellOf(w int) cell {
	if ks.cells[w] == nil {
		sd := ks.sd
		ks.cells[w] = &kernelCell{ks: ks, cv: newCVScorer(sd.b, len(ks.ridges), 0), psi: make([]float64, sd.b*sd.maxBlock()),
			sums: make([]float64, sd.b), g: make([]float64, sd.b*sd.b), h: make([]float64, sd.b)}
	}
	return ks.cells[w]
}

// kernelCell is one worker's workspace of a kernelStage.
type kernelCell struct {
	ks   *kernelStage
	cv   *cvScorer
	psi  []float64   // b×rows basis values of a block
	sums []float64   // b: coordSums.add's workspace
	g, h []float64   // the totals of the last scored coordinate
	used []foldEntry // the reductions it reused, if any
}

func (c *kernelCell) add(kt []float64, ldk int, blk block, j, w int, sigma float64) {
	c.ks.sums[j].add(c.ks.sd, c.psi, c.sums, kt, ldk, blk, j, 1/(sigma*sigma), c.ks.reused(w, j) == nil)
}

func (c *kernelCell) score(j, w int, sigma float64, row []float64) {
	ks := c.ks
	s := ks.sums[j]
	c.used = ks.reused(w, j)
	s.totals(c.g, c.h, c.used == nil)
	c.cv.scores(ks.sd.part, s.gf, s.hf, c.g, c.h, ks.ridges, row, ks.keepIn.cell(w, j), c.used, nil)
	s.reset()
}

func (c *kernelCell) keep(j int) {
	if c.used != nil {
		clear(c.g)
		addLower(c.g, c.used)
	}
	copy(c.ks.best.g[j], c.g)
	copy(c.ks.best.h[j], c.h)
}

// choice is the cross-validation outcome of one coordinate.
type choice struct {
	scores []float64 // widths×ridges held-out scores, row-major
	best   float64   // the lowest score
	w, l   int       // its width and ridge indices; −1 if every candidate failed
}

// sweep cross-validates every (width, ridge) pair of every coordinate:
// for each width and each pass of rows it forms the pass's kernel values
// once and adds them to every coordinate's sums with the cell of the
// worker (cellOf(w) returns worker w's cell), which after the last pass
// scores every ridge. The pair with the lowest mean score wins; ties go to
// the smaller width index, then to the smaller ridge index. Progress
// counts (width, coordinate) cells.
//
// Each (width, pass) step is one parallelFor of fine tasks: a coordinate's
// blocks of one fold (sums of different folds are separate, so a
// coordinate's folds run in parallel; the blocks of a fold stay in order),
// the score of a coordinate run by the task that finishes its last fold,
// and last the kernel values of the next step in chunks of centers, into
// the other of two buffers (kernelPasses). Every sum is formed in the
// order of a serial sweep, so the results do not depend on the workers.
func sweep(ctx context.Context, p *plan, sd *stageData, widths []float64, L int, kernel kernelFunc, cellOf func(w int) cell) ([]choice, error) {
	W, d, P := len(widths), sd.d, len(sd.passes)
	choices := make([]choice, d)
	for j := range choices {
		choices[j] = choice{scores: make([]float64, W*L), best: math.Inf(1), w: -1, l: -1}
	}
	rows := make([][]float64, max(1, p.workers))
	var scored atomic.Int64
	reported, total := 0, W*d
	report := func() {
		for s := int(scored.Load()); reported < s; {
			reported++
			p.progress.report(reported, total)
		}
	}
	kp := newKernelPasses(sd, kernel, p.workers)
	err := parallelFor(ctx, p.workers, kp.tasks, func(wk, t int) error {
		return kp.fill(ctx, wk, t, 0, sd.passes[0], widths[0])
	}, nil)
	if err != nil {
		return nil, err
	}
	pending := make([]atomic.Int32, d)
	passRuns := make([][][]block, P)
	for i, ps := range sd.passes {
		passRuns[i] = foldRuns(ps)
	}
	for s := 0; s < W*P; s++ {
		w, i := s/P, s%P
		sigma, ps, runs := widths[w], sd.passes[i], passRuns[i]
		last, span, kt := i == P-1, passSpan(ps), kp.kt[s%2]
		nAdd, nFill := d*len(runs), 0
		if s+1 < W*P {
			nFill = kp.tasks
		}
		for j := range pending {
			pending[j].Store(int32(len(runs)))
		}
		err := parallelFor(ctx, p.workers, nAdd+nFill, func(wk, t int) error {
			if t >= nAdd {
				next := s + 1
				return kp.fill(ctx, wk, t-nAdd, next, sd.passes[next%P], widths[next/P])
			}
			j, r := t/len(runs), t%len(runs)
			c := cellOf(wk)
			for _, blk := range runs[r] {
				c.add(kt[blk.lo-ps[0].lo:], span, blk, j, w, sigma)
			}
			if !last || pending[j].Add(-1) != 0 {
				return nil
			}
			if rows[wk] == nil {
				rows[wk] = make([]float64, L)
			}
			row := rows[wk]
			c.score(j, w, sigma, row)
			choices[j].update(w, row, func() { c.keep(j) })
			scored.Add(1)
			return nil
		}, report)
		if err != nil {
			return nil, err
		}
	}
	return choices, nil
}

// update records the scores of width index w and, if one of them beats
// the best so far, makes it the choice and calls keep.
func (ch *choice) update(w int, row []float64, keep func()) {
	L := len(row)
	copy(ch.scores[w*L:(w+1)*L], row)
	improved := false
	for l, v := range row {
		if v < ch.best {
			ch.best, ch.w, ch.l, improved = v, w, l, true
		}
	}
	if improved {
		keep()
	}
}

// stageReport returns the stageCV of the choices and every coordinate's
// chosen width, or an ErrSingular error naming a coordinate for which every
// candidate failed.
func stageReport(name string, widths, ridges []float64, choices []choice) (stageCV, []float64, error) {
	W, L := len(widths), len(ridges)
	cv := stageCV{Name: name, Widths: widths, Ridges: ridges, Coords: make([]cvChoice, len(choices))}
	chosen := make([]float64, len(choices))
	for j, c := range choices {
		if c.w < 0 {
			return stageCV{}, nil, fmt.Errorf("%w: stage %q, coordinate %d: every (width, ridge) candidate failed", ErrSingular, name, j)
		}
		chosen[j] = widths[c.w]
		cv.Coords[j] = cvChoice{Width: widths[c.w], Ridge: ridges[c.l], Score: c.best, Scores: mat.NewDense(W, L, c.scores)}
	}
	return cv, chosen, nil
}

// linearBest is the linear part of a stage's refit: per coordinate j the
// totals of ψℓᵀ (c[j], b×q) and r_ℓ (r[j], q) at its chosen width, and
// the totals of ℓℓᵀ (lTot, q×q) that all coordinates share.
type linearBest struct {
	q    int
	lTot []float64
	c, r [][]float64
}

// refitStage solves every coordinate's problem on all n rows with its chosen
// ridge and returns θ̂ (b×d, column j for coordinate j) and, with the
// linear part (lb not nil), its coefficients (d×q, row j for coordinate
// j). A coordinate whose zeroed entry is set (zeroed may be nil) gets θ̂_j = 0
// and, with the linear part, the null model's.
func refitStage(ctx context.Context, workers int, name string, sd *stageData, best *bestSums, choices []choice, ridges []float64,
	lb *linearBest, zeroed []bool) (*mat.Dense, []float64, error) {
	theta := mat.NewDense(sd.b, sd.d, nil)
	var lin []float64
	q := 0
	if lb != nil {
		q = lb.q
		lin = make([]float64, sd.d*q)
	}
	scorers := make([]*cvScorer, max(1, workers))
	err := parallelFor(ctx, workers, sd.d, func(wk, j int) error {
		if scorers[wk] == nil {
			scorers[wk] = newCVScorer(sd.b, 1, q)
		}
		sc, ridge := scorers[wk], ridges[choices[j].l]
		null := zeroed != nil && zeroed[j]
		var ls *linSums
		if lb != nil {
			ls = &linSums{q: q, cTot: lb.c[j], lTot: lb.lTot, rTot: lb.r[j]}
		}
		th, a, ok := sc.refit(best.g[j], best.h[j], ls, sd.n, ridge)
		if ok && ls != nil && null {
			if a0 := sc.nullRefit(ls, sd.n); a0 != nil {
				a = a0
			}
		}
		if !ok {
			return fmt.Errorf("%w: stage %q, coordinate %d: refit with λ = %g failed", ErrSingular, name, j, ridge)
		}
		if null {
			clear(th)
		}
		theta.SetCol(j, th)
		if lin != nil {
			copy(lin[j*q:(j+1)*q], a)
		}
		return nil
	}, nil)
	return theta, lin, err
}

// storeLink is a stage's view of the foldStores it fills and reads.
type storeLink struct {
	keepIn *foldStore // receives the stage's fold sums (nil: none)
	reuse  *foldStore // serves them (nil: none)
	from   []int      // reuse's width index of every width (−1: none)
}

// link begins the stage's keep store, if any, and returns its storeLink.
func (st *lsStage) link(sd *stageData, minRidge float64) storeLink {
	if st.keep != nil {
		st.keep.begin(sd.b, sd.d, sd.part.folds(), st.widths, minRidge)
	}
	return storeLink{keepIn: st.keep, reuse: st.reuse, from: st.reuse.lookup(st.widths, minRidge)}
}

// reused returns the stored entries of coordinate j at width index w, or
// nil.
func (sl *storeLink) reused(w, j int) []foldEntry {
	if sl.reuse == nil {
		return nil
	}
	return sl.reuse.kept(sl.from[w], j)
}

// needsGram reports whether coordinate j forms a Gram matrix at some width.
func (sl *storeLink) needsGram(j int) bool {
	if sl.reuse == nil || j >= sl.reuse.coords {
		return true
	}
	return slices.Contains(sl.from, -1)
}

// wfStages returns the two stages of Algorithm 1 on the standardised data
// with the given centers. It draws stage 1's partition from pr.rng, and
// stage 2's too if newPart is set; otherwise stage 2 uses stage 1's, and
// with it the fold Gram matrices and reductions that stage 1 keeps for it
// (fitStage). The robust variant's axes estimate calls it too, with one
// partition, and keeps only the Gram matrices of the widths its stage 2
// uses (robust_axes.go).
func (pr *prepared) wfStages(centers *mat.Dense, newPart bool) (s1, s2 lsStage) {
	s1 = lsStage{name: "lsldg", x: pr.z, centers: centers, widths: pr.widths, ridges: pr.ridges,
		part: newPartition(pr.rng, pr.n, pr.folds)}
	s2 = lsStage{name: "v", x: pr.z, centers: centers, widths: pr.vWidths, ridges: pr.vRidges, part: s1.part}
	if newPart {
		s2.part = newPartition(pr.rng, pr.n, pr.folds)
	} else {
		s1.keep = &foldStore{}
		s2.reuse = s1.keep
	}
	return s1, s2
}

// stageFitter fits one least-squares stage.
type stageFitter func(ctx context.Context, st lsStage) (rowModel, stageCV, error)

// twoStages runs the two stages of Algorithm 1 on the standardised data
// pr.z: fit1 estimates g ≈ ∇log p from s1; with aᵢⱼ = ∇g_j(xᵢ)ᵀxᵢ, fit2
// estimates v from s2 (whose a it sets). It returns v̂(xᵢ) (n×d) and the
// stages' cross-validation reports.
func twoStages(ctx context.Context, pr *prepared, s1, s2 lsStage, fit1, fit2 stageFitter, sw *stopwatch) (*mat.Dense, []stageCV, error) {
	g, cv1, err := fit1(ctx, s1)
	if err != nil {
		return nil, nil, err
	}
	a := mat.NewDense(pr.n, pr.d, nil)
	if err := evalRows(ctx, pr.workers, g, pr.z, mat.NewDense(pr.n, pr.d, nil), a); err != nil {
		return nil, nil, err
	}
	sw.lap("lsldg")
	s2.a = a
	v, cv2, err := fit2(ctx, s2)
	if err != nil {
		return nil, nil, err
	}
	vals := mat.NewDense(pr.n, pr.d, nil)
	if err := evalRows(ctx, pr.workers, v, pr.z, vals, nil); err != nil {
		return nil, nil, err
	}
	sw.lap("v")
	return vals, []stageCV{cv1, cv2}, nil
}

// stageDetails returns the name and grid of widths of every stage of cv,
// for the studies (internal/probe).
func stageDetails(cv []stageCV) []probe.StageDetail {
	var out []probe.StageDetail
	for _, st := range cv {
		out = append(out, probe.StageDetail{Name: st.Name, Widths: st.Widths})
	}
	return out
}

// record records the fit's stages in ctx's probe.Recorder, if it carries
// one.
func (r *LSReport) record(ctx context.Context) { probe.RecordStages(ctx, r, stageDetails(r.cv)) }
