package ngca

import (
	"context"
	"math"
	"slices"

	"github.com/ngca-go/ngca/internal/asm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// robustStage is a least-squares stage (stage.go) with the robust
// variant's extensions. Its kernels never pair a center with its own data
// row (kernelNoSelf); the other extensions are optional.
type robustStage struct {
	lsStage
	// linear adds to every f_j an unpenalised linear part a_jᵀ(ℓ, 1) with
	// ℓ the row of linX (nil: of x), profiled out exactly (cvScorer's linear part, cv.go).
	// Output j of x is then column j of linX, so linX must hold x's
	// columns first.
	linear bool
	linX   *mat.Dense
	// kernelCols, if not nil, restricts the kernels' distances to these
	// columns (in increasing order); every output keeps its own ramp
	// (c_kj − x_j).
	kernelCols []int
	// nullZ, if positive, keeps a coordinate's kernel part only if its
	// held-out loss beats the null model's (the linear part alone, or
	// f_j = 0 without one) by nullZ standard errors of the per-row paired
	// difference; otherwise θ_j = 0.
	nullZ float64
	// minKept is the fewest coordinates whose kernel part the null test
	// keeps: if fewer pass, those with the lowest z are kept too.
	minKept int
	// zOut, if not nil (length d), receives every coordinate's paired
	// z-score of the held-out loss difference between its fitted model and
	// its null model (negative: the kernel part helps).
	zOut []float64
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

// robustSweep is the state of one robust stage shared by its workers.
type robustSweep struct {
	st           *robustStage
	sd           *stageData
	lf           *linFeatures // nil without the linear part
	inKernel     []bool
	sums         []*coordSums // per coordinate
	lins         []*linSums   // per coordinate; nil without the linear part
	best         *bestSums
	bestC, bestR [][]float64 // the linear part's totals at the best width
	// fits are every coordinate's fold fits at its best candidate so far,
	// for the null test (nil if the stage has none).
	fits  [][]foldFit
	cells []*robustCell
	// The axes stage 1 keeps its fold Gram matrices G_f (saveGram) and
	// stage 2, on the same partition and basis, forms none of its own.
	storeLink
}

func newRobustSweep(st *robustStage, sd *stageData, workers int) *robustSweep {
	rs := &robustSweep{st: st, sd: sd, inKernel: make([]bool, sd.d), sums: make([]*coordSums, sd.d),
		best: newBestSums(sd.b, sd.d), cells: make([]*robustCell, max(1, workers)), storeLink: st.link(sd, slices.Min(st.ridges))}
	for j := range rs.inKernel {
		rs.inKernel[j] = st.kernelCols == nil
		rs.sums[j] = newCoordSums(sd, rs.needsGram(j))
	}
	for _, c := range st.kernelCols {
		rs.inKernel[c] = true
	}
	if st.linear {
		lx := st.linX
		if lx == nil {
			lx = st.x
		}
		rs.lf = newLinFeatures(lx, sd.part)
		rs.lins = make([]*linSums, sd.d)
		rs.bestC, rs.bestR = make([][]float64, sd.d), make([][]float64, sd.d)
		for j := range rs.bestC {
			rs.lins[j] = rs.newLinSums()
			rs.bestC[j], rs.bestR[j] = make([]float64, sd.b*rs.lf.q), make([]float64, rs.lf.q)
		}
	}
	if st.testsNull() {
		rs.fits = make([][]foldFit, sd.d)
		for j := range rs.fits {
			rs.fits[j] = make([]foldFit, sd.part.folds())
			for f := range rs.fits[j] {
				ff := &rs.fits[j][f]
				ff.theta = make([]float64, sd.b)
				if rs.lf != nil {
					ff.a, ff.a0 = make([]float64, rs.lf.q), make([]float64, rs.lf.q)
				}
			}
		}
	}
	return rs
}

// testsNull reports whether the stage runs the null test: for its
// decision or its z-scores.
func (st *robustStage) testsNull() bool {
	return st.nullZ > 0 || st.zOut != nil
}

// newLinSums returns zero sums of the linear part of one coordinate.
func (rs *robustSweep) newLinSums() *linSums {
	b, q, k := rs.sd.b, rs.lf.q, rs.sd.part.folds()
	ls := &linSums{q: q, cf: make([][]float64, k), lf: rs.lf.lf, rf: make([][]float64, k),
		cTot: make([]float64, b*q), lTot: rs.lf.lTot, rTot: make([]float64, q)}
	for f := 0; f < k; f++ {
		ls.cf[f], ls.rf[f] = make([]float64, b*q), make([]float64, q)
	}
	return ls
}

// curv is asm.FillBasis's curv for coordinate j: 1/σ², or 0 for a
// coordinate outside the kernel's columns, on which k_k does not depend.
func (rs *robustSweep) curv(j int, sigma float64) float64 {
	if !rs.inKernel[j] {
		return 0
	}
	return 1 / (sigma * sigma)
}

// robustCell is one worker's workspace of a robust stage.
type robustCell struct {
	rs   *robustSweep
	psi  []float64   // b×rows basis values of a block
	sums []float64   // b: coordSums.add's workspace
	g, h []float64   // the totals of the last scored coordinate
	lin  *linSums    // the linear sums of the last scored coordinate
	row  []float64   // the scores of the last scored coordinate
	gf   [][]float64 // the fold Gram matrices of a reused cell
	cv   *cvScorer
	// The null test's workspace: the kernel matrix kt (b×n) at the width
	// index ktWidth (−1: none), shared by coordinates of the same width.
	kt      []float64
	ktWidth int
}

func (rs *robustSweep) cellOf(w int) cell {
	if rs.cells[w] == nil {
		sd, q, qlin := rs.sd, 1, 0
		if rs.lf != nil {
			q, qlin = rs.lf.q, rs.lf.q
		}
		c := &robustCell{rs: rs, psi: make([]float64, sd.b*sd.maxBlock()), sums: make([]float64, sd.b), g: make([]float64, sd.b*sd.b),
			h: make([]float64, sd.b), cv: newCVScorer(sd.b, len(rs.st.ridges), qlin), ktWidth: -1}
		if rs.fits != nil {
			c.cv.kept = newCellFits(sd.b, q, len(rs.st.ridges), sd.part.folds())
		}
		rs.cells[w] = c
	}
	return rs.cells[w]
}

// linSumsOf returns the linear part's sums of coordinate j, or nil
// without the linear part.
func (rs *robustSweep) linSumsOf(j int) *linSums {
	if rs.lins == nil {
		return nil
	}
	return rs.lins[j]
}

func (c *robustCell) add(kt []float64, ldk int, blk block, j, w int, sigma float64) {
	ls := c.rs.linSumsOf(j)
	var s []float64 // the linear sums need the block's basis values
	if ls == nil {
		s = c.sums
	}
	c.rs.sums[j].add(c.rs.sd, c.psi, s, kt, ldk, blk, j, c.rs.curv(j, sigma), c.rs.reused(w, j) == nil)
	if ls != nil {
		c.linearSums(ls, blk, j)
	}
}

// score sets row to the held-out scores of coordinate j at every ridge,
// leaving the totals of its sums in c.g, c.h and c.lin and the scores in
// c.row for keep, and resets the sums for the next width.
func (c *robustCell) score(j, w int, sigma float64, row []float64) {
	rs := c.rs
	s, ls := rs.sums[j], rs.linSumsOf(j)
	gf := s.gf
	if used := rs.reused(w, j); used != nil {
		gf = c.gf[:0]
		for _, e := range used {
			gf = append(gf, e.m)
		}
		c.gf = gf
		s.totals(c.g, c.h, false)
		clear(c.g)
		addLower(c.g, used)
	} else {
		s.totals(c.g, c.h, true)
		for f, e := range rs.keepIn.cell(w, j) {
			e.saveGram(gf[f])
		}
	}
	c.lin, c.row = ls, row
	if ls != nil {
		ls.totals()
	}
	c.cv.scores(rs.sd.part, gf, s.hf, c.g, c.h, rs.st.ridges, row, nil, nil, ls)
	s.reset()
	if ls != nil {
		ls.resetFolds()
	}
}

func (c *robustCell) keep(j int) {
	rs := c.rs
	copy(rs.best.g[j], c.g)
	copy(rs.best.h[j], c.h)
	if c.lin != nil {
		copy(rs.bestC[j], c.lin.cTot)
		copy(rs.bestR[j], c.lin.rTot)
	}
	if rs.fits != nil {
		// choice.update made the row's first minimum the choice.
		l := 0
		for i, v := range c.row {
			if v < c.row[l] {
				l = i
			}
		}
		for f, ff := range rs.fits[j] {
			c.cv.kept.copyFold(ff, f, l)
		}
	}
}

// linearSums adds the block's sums of ψℓᵀ and of the linear part's target
// term r_ℓ = ∂_jℓ + ℓ·a for coordinate j (ψ in c.psi) to ls.
func (c *robustCell) linearSums(ls *linSums, blk block, j int) {
	sd, lf := c.rs.sd, c.rs.lf
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

// meanZ is the z-score of the mean of dlt: the mean over its standard
// error.
func meanZ(dlt []float64) float64 {
	mean, vr := stat.MeanVariance(dlt, nil) // two-pass: no cancellation
	vr /= float64(len(dlt))
	if !(vr > 0) {
		return 0
	}
	return mean / math.Sqrt(vr)
}

// kernelNoSelf is kernelT with every zero distance, a center's own data
// row, given kernel value zero. Without that, a narrow kernel is a spike at
// a data row, where ψ_kj = 0 but ∂_jψ_kj = −1; the training objective then
// drives θ_k to about 1/(nλ), while held-out points never see the spike, so
// cross-validation cannot reject it.
func kernelNoSelf(ctx context.Context, workers int, kt, d2 []float64, b int, sigma float64) error {
	if err := kernelT(ctx, workers, kt, d2, b, sigma); err != nil {
		return err
	}
	for i, v := range d2 {
		if v == 0 {
			kt[i] = 0
		}
	}
	return nil
}
