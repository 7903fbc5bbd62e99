package ngca

import (
	"context"
	"math"
	"slices"
	"sync/atomic"

	"github.com/ngca-go/ngca/internal/asm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// choice is the cross-validation outcome of one coordinate.
type choice struct {
	scores []float64 // widths×ridges held-out scores, row-major
	best   float64   // the lowest score
	w, l   int       // its width and ridge indices; −1 if every candidate failed
}

// sweep cross-validates every (width, ridge) pair of every coordinate of
// the stage: for each width and each pass of rows it forms the pass's
// kernel values once and adds them to every coordinate's sums with the
// cell of the worker (stageSweep.cellOf), which after the last pass scores
// every ridge. The pair with the lowest mean score wins; ties go to the
// smaller width index, then to the smaller ridge index. Progress counts
// (width, coordinate) cells.
//
// Each (width, pass) step is one parallelFor of fine tasks: a coordinate's
// blocks of one fold (sums of different folds are separate, so a
// coordinate's folds run in parallel; the blocks of a fold stay in order),
// the score of a coordinate run by the task that finishes its last fold,
// and last the kernel values of the next step in chunks of centers, into
// the other of two buffers (kernelPasses). Every sum is formed in the
// order of a serial sweep, so the results do not depend on the workers.
func sweep(ctx context.Context, p *plan, ss *stageSweep) ([]choice, error) {
	sd, widths, L := ss.sd, ss.st.widths, len(ss.st.ridges)
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
	kp := newKernelPasses(sd, ss.kernel, p.workers)
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
			c := ss.cellOf(wk)
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
			c.score(j, w, row)
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

// stageSweep is the state of one stage's sweep shared by its workers.
type stageSweep struct {
	st           *lsStage
	sd           *stageData
	kernel       kernelFunc
	lf           *linFeatures // nil without the linear part
	inKernel     []bool
	sums         []*coordSums // per coordinate
	lins         []*linSums   // per coordinate; nil without the linear part
	best         *bestSums
	bestC, bestR [][]float64 // the linear part's totals at the best width
	// fits are every coordinate's fold fits at its best candidate so far,
	// for the null test (nil if the stage has none).
	fits  [][]foldFit
	cells []*stageCell
	// Stage 2 of Algorithm 1 on stage 1's partition and basis takes stage
	// 1's fold Gram matrices and their reductions instead of forming its
	// own (foldStore).
	storeLink
}

func newStageSweep(st *lsStage, sd *stageData, workers int) *stageSweep {
	ss := &stageSweep{st: st, sd: sd, kernel: st.kernel(), inKernel: make([]bool, sd.d), sums: make([]*coordSums, sd.d),
		best: newBestSums(sd.b, sd.d), cells: make([]*stageCell, max(1, workers)), storeLink: st.link(sd, slices.Min(st.ridges))}
	for j := range ss.inKernel {
		ss.inKernel[j] = st.kernelCols == nil
		ss.sums[j] = newCoordSums(sd, ss.needsGram(j))
	}
	for _, c := range st.kernelCols {
		ss.inKernel[c] = true
	}
	if st.linear {
		lx := st.linX
		if lx == nil {
			lx = st.x
		}
		ss.lf = newLinFeatures(lx, sd.part)
		ss.lins = make([]*linSums, sd.d)
		ss.bestC, ss.bestR = make([][]float64, sd.d), make([][]float64, sd.d)
		for j := range ss.bestC {
			ss.lins[j] = ss.newLinSums()
			ss.bestC[j], ss.bestR[j] = make([]float64, sd.b*ss.lf.q), make([]float64, ss.lf.q)
		}
	}
	if st.testsNull() {
		ss.fits = make([][]foldFit, sd.d)
		for j := range ss.fits {
			ss.fits[j] = make([]foldFit, sd.part.folds())
			for f := range ss.fits[j] {
				ff := &ss.fits[j][f]
				ff.theta = make([]float64, sd.b)
				if ss.lf != nil {
					ff.a, ff.a0 = make([]float64, ss.lf.q), make([]float64, ss.lf.q)
				}
			}
		}
	}
	return ss
}

// newLinSums returns zero sums of the linear part of one coordinate.
func (ss *stageSweep) newLinSums() *linSums {
	b, q, k := ss.sd.b, ss.lf.q, ss.sd.part.folds()
	ls := &linSums{q: q, cf: make([][]float64, k), lf: ss.lf.lf, rf: make([][]float64, k),
		cTot: make([]float64, b*q), lTot: ss.lf.lTot, rTot: make([]float64, q)}
	for f := 0; f < k; f++ {
		ls.cf[f], ls.rf[f] = make([]float64, b*q), make([]float64, q)
	}
	return ls
}

// linearBest returns the linear part of the refit, or nil without the
// linear part.
func (ss *stageSweep) linearBest() *linearBest {
	if ss.lf == nil {
		return nil
	}
	return &linearBest{q: ss.lf.q, lTot: ss.lf.lTot, c: ss.bestC, r: ss.bestR}
}

// curv is asm.FillBasis's curv for coordinate j: 1/σ², or 0 for a
// coordinate outside the kernel's columns, on which k_k does not depend.
func (ss *stageSweep) curv(j int, sigma float64) float64 {
	if !ss.inKernel[j] {
		return 0
	}
	return 1 / (sigma * sigma)
}

// linSumsOf returns the linear part's sums of coordinate j, or nil
// without the linear part.
func (ss *stageSweep) linSumsOf(j int) *linSums {
	if ss.lins == nil {
		return nil
	}
	return ss.lins[j]
}

// stageCell is one worker's workspace of a stage's sweep: it adds a
// block's rows to a coordinate's sums (add), scores a coordinate's
// ridges from them (score) and records the best (keep).
type stageCell struct {
	ss   *stageSweep
	psi  []float64   // b×rows basis values of a block
	sums []float64   // b: coordSums.add's workspace
	g, h []float64   // the totals of the last scored coordinate
	lin  *linSums    // the linear sums of the last scored coordinate
	row  []float64   // the scores of the last scored coordinate
	used []foldEntry // the reductions it reused, if any
	cv   *cvScorer
	// The null test's workspace: the kernel matrix kt (b×n) at the width
	// index ktWidth (−1: none), shared by coordinates of the same width.
	kt      []float64
	ktWidth int
}

// cellOf returns worker w's cell.
func (ss *stageSweep) cellOf(w int) *stageCell {
	if ss.cells[w] == nil {
		sd, q, qlin := ss.sd, 1, 0
		if ss.lf != nil {
			q, qlin = ss.lf.q, ss.lf.q
		}
		c := &stageCell{ss: ss, psi: make([]float64, sd.b*sd.maxBlock()), sums: make([]float64, sd.b), g: make([]float64, sd.b*sd.b),
			h: make([]float64, sd.b), cv: newCVScorer(sd.b, len(ss.st.ridges), qlin), ktWidth: -1}
		if ss.fits != nil {
			c.cv.kept = newCellFits(sd.b, q, len(ss.st.ridges), sd.part.folds())
		}
		ss.cells[w] = c
	}
	return ss.cells[w]
}

// add adds the rows of a block to coordinate j's sums at width index w
// (width sigma), given the block's kernel values kt[k·ldk+p].
func (c *stageCell) add(kt []float64, ldk int, blk block, j, w int, sigma float64) {
	ss := c.ss
	ls := ss.linSumsOf(j)
	s := c.sums
	if ls != nil {
		s = nil // the linear sums need the block's basis values
	}
	ss.sums[j].add(ss.sd, c.psi, s, kt, ldk, blk, j, ss.curv(j, sigma), ss.reused(w, j) == nil)
	if ls != nil {
		c.linearSums(ls, blk, j)
	}
}

// score sets row to the held-out scores of coordinate j at every ridge
// from its sums at width index w, leaving the totals of its sums in c.g,
// c.h and c.lin and the scores in c.row for keep, and resets the sums for
// the next width. Fold sums that the stage's stores keep or serve go to
// or come from them.
func (c *stageCell) score(j, w int, row []float64) {
	ss := c.ss
	s, ls := ss.sums[j], ss.linSumsOf(j)
	keep, use := ss.keepIn.cell(w, j), ss.reused(w, j)
	c.used = nil
	if use != nil {
		c.used = use // keep forms G from them
	}
	s.totals(c.g, c.h, use == nil)
	c.lin, c.row = ls, row
	if ls != nil {
		ls.totals()
	}
	c.cv.scores(ss.sd.part, s.gf, s.hf, c.g, c.h, ss.st.ridges, row, keep, use, ls)
	s.reset()
	if ls != nil {
		ls.resetFolds()
	}
}

// keep records the sums of the last score as coordinate j's best, and the
// fold fits of its best ridge for the null test.
func (c *stageCell) keep(j int) {
	ss := c.ss
	if c.used != nil {
		clear(c.g)
		addLower(c.g, c.used)
	}
	copy(ss.best.g[j], c.g)
	copy(ss.best.h[j], c.h)
	if c.lin != nil {
		copy(ss.bestC[j], c.lin.cTot)
		copy(ss.bestR[j], c.lin.rTot)
	}
	if ss.fits != nil {
		// choice.update made the row's first minimum the choice.
		l := 0
		for i, v := range c.row {
			if v < c.row[l] {
				l = i
			}
		}
		for f, ff := range ss.fits[j] {
			c.cv.kept.copyFold(ff, f, l)
		}
	}
}

// linearSums adds the block's sums of ψℓᵀ and of the linear part's target
// term r_ℓ = ∂_jℓ + ℓ·a for coordinate j (ψ in c.psi) to ls.
func (c *stageCell) linearSums(ls *linSums, blk block, j int) {
	sd, lf := c.ss.sd, c.ss.lf
	n, b, q := sd.n, sd.b, ls.q
	lo, m := blk.lo, blk.rows()
	asm.AddDots(ls.cf[blk.fold], q, c.psi, m, b, lf.cols[lo:], n, q, m)
	rf := ls.rf[blk.fold]
	rf[j] += float64(m) // Σ ∂_j x_j
	if sd.aT != nil {
		aj := sd.aT[j*n : (j+1)*n]
		for p := lo; p < blk.hi; p++ {
			for col := 0; col < q; col++ {
				rf[col] += lf.rows[p*q+col] * aj[p]
			}
		}
	}
}

// storeLink is a stage's view of the foldStores it fills and reads.
type storeLink struct {
	keepIn *foldStore // receives the stage's fold sums (nil: none)
	reuse  *foldStore // serves them (nil: none)
	from   []int      // reuse's width index of every width (−1: none)
}

// link begins the stage's keep store, if any, and returns its storeLink;
// a stage with a linear part has none.
func (st *lsStage) link(sd *stageData, minRidge float64) storeLink {
	if st.linear {
		return storeLink{}
	}
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

// The sums a sweep adds up per fold, from which cvScorer scores and
// refitStage solves.

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

// linFeatures are the linear part's features ℓ(x) = (x, 1) in fold order
// (n×q) and the per-fold sums of ℓℓᵀ, which all coordinates and widths
// share.
type linFeatures struct {
	q    int
	rows []float64
	cols []float64 // rows transposed (q×n), for asm.AddDots
	lf   [][]float64
	lTot []float64
}

func newLinFeatures(lx *mat.Dense, part partition) *linFeatures {
	n, ld := lx.Dims()
	q, k := ld+1, part.folds()
	f := &linFeatures{q: q, rows: make([]float64, n*q), cols: make([]float64, q*n), lf: make([][]float64, k), lTot: make([]float64, q*q)}
	for p, i := range part.order {
		copy(f.rows[p*q:], lx.RawRowView(i))
		f.rows[p*q+ld] = 1
		for c, v := range f.rows[p*q : (p+1)*q] {
			f.cols[c*n+p] = v
		}
	}
	for fo := 0; fo < k; fo++ {
		f.lf[fo] = make([]float64, q*q)
		blk := blas64.General{Rows: part.size(fo), Cols: q, Stride: q, Data: f.rows[part.bounds[fo]*q:]}
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, blk, blk, 0, blas64.General{Rows: q, Cols: q, Stride: q, Data: f.lf[fo]})
		for i, v := range f.lf[fo] {
			f.lTot[i] += v
		}
	}
	return f
}

// linearBest is the linear part of a stage's refit: per coordinate j the
// totals of ψℓᵀ (c[j], b×q) and r_ℓ (r[j], q) at its chosen width, and
// the totals of ℓℓᵀ (lTot, q×q) that all coordinates share.
type linearBest struct {
	q    int
	lTot []float64
	c, r [][]float64
}
