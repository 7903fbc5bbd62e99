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
	// linear adds to every f_j an unpenalised linear part a_jᵀ(ℓ, 1) with
	// ℓ the row of linX (nil: of x); output j of x is then column j of
	// linX, so linX must hold x's columns first.
	linear bool
	linX   *mat.Dense
	// noSelf leaves every center's own data row out of its kernel in the
	// fit (see kernelT).
	noSelf bool
	// kernelCols, if not nil, restricts the kernels' distances to these
	// columns; every output keeps its own ramp (c_kj − x_j).
	kernelCols []int
	// lossOut, if not nil (length n), receives every row's held-out loss
	// summed over the coordinates, for the chosen candidates (the null
	// model where nullZ rejected the kernel part).
	lossOut []float64
	// zOut, if not nil (length d), receives every coordinate's paired
	// z-score of the held-out loss difference between its fitted model and
	// its null model (negative: the kernel part helps).
	zOut []float64
	// nullZ, if positive, keeps a coordinate's kernel part only if its
	// held-out loss beats the null model's (the linear part alone, or
	// f_j = 0 without one) by nullZ standard errors of the per-sample
	// paired difference; otherwise θ_j = 0.
	nullZ float64
}

// coordFit is the running cross-validation state of one coordinate.
type coordFit struct {
	scores []float64 // widths×ridges, row-major
	best   float64
	bw, bl int       // indices of the best pair so far, −1 if none
	g, h   []float64 // total sums at the best width (g lower triangle)
	c, r   []float64 // and of the linear part: Σψℓᵀ (b×q), Σr_ℓ (q)
}

// stageScratch is the workspace of one goroutine of fitStage.
type stageScratch struct {
	psi    []float64   // b×n basis values
	gf, hf [][]float64 // per-fold sums
	g, h   []float64   // totals
	row    []float64   // one row of scores
	cv     *cvScorer
	lin    *linSums // per-coordinate sums of the linear part

	// kt and ktWidth cache the null check's b×n kernel matrix at the
	// width index ktWidth (−1: none yet), so that coordinates that chose
	// the same width share one matrix per worker.
	kt      []float64
	ktWidth int
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
	// The linear part's features ℓ(x) = (x, 1) in fold order, and the
	// per-fold sums of ℓℓᵀ, which all coordinates and widths share.
	lx := st.linX
	if lx == nil {
		lx = st.x
	}
	_, ld := lx.Dims()
	q := ld + 1
	var lrows []float64
	var lf [][]float64
	var lTot []float64
	if st.linear {
		lrows = make([]float64, n*q)
		for p, i := range order {
			copy(lrows[p*q:], lx.RawRowView(i))
			lrows[p*q+ld] = 1
		}
		lf = make([][]float64, k)
		lTot = make([]float64, q*q)
		for f := 0; f < k; f++ {
			lf[f] = make([]float64, q*q)
			blk := blas64.General{Rows: st.part.size(f), Cols: q, Stride: q, Data: lrows[bounds[f]*q:]}
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, blk, blk, 0, blas64.General{Rows: q, Cols: q, Stride: q, Data: lf[f]})
			for i, v := range lf[f] {
				lTot[i] += v
			}
		}
	}
	inKernel := make([]bool, d)
	for j := range inKernel {
		inKernel[j] = st.kernelCols == nil
	}
	for _, c := range st.kernelCols {
		inKernel[c] = true
	}
	kx, kc := st.x, st.centers
	if st.kernelCols != nil {
		kx, kc = columns(st.x, st.kernelCols), columns(st.centers, st.kernelCols)
	}
	d2, err := sqDistT(ctx, p.workers, kx, kc, order)
	if err != nil {
		return nil, StageCV{}, err
	}
	kt := make([]float64, b*n)

	coords := make([]coordFit, d)
	for j := range coords {
		coords[j] = coordFit{scores: make([]float64, W*L), best: math.Inf(1), bw: -1, bl: -1,
			g: make([]float64, b*b), h: make([]float64, b)}
		if st.linear {
			coords[j].c, coords[j].r = make([]float64, b*q), make([]float64, q)
		}
	}
	scratch := make([]*stageScratch, max(1, p.workers))
	newScratch := func() *stageScratch {
		s := &stageScratch{psi: make([]float64, b*n), gf: make([][]float64, k), hf: make([][]float64, k),
			g: make([]float64, b*b), h: make([]float64, b), row: make([]float64, L), cv: newCVScorer(b, L)}
		for f := range s.gf {
			s.gf[f], s.hf[f] = make([]float64, b*b), make([]float64, b)
		}
		if st.linear {
			s.lin = &linSums{q: q, cf: make([][]float64, k), lf: lf, rf: make([][]float64, k),
				cTot: make([]float64, b*q), lTot: lTot, rTot: make([]float64, q)}
			for f := 0; f < k; f++ {
				s.lin.cf[f], s.lin.rf[f] = make([]float64, b*q), make([]float64, q)
			}
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
		if err := kernelT(ctx, p.workers, kt, d2, b, sigma, st.noSelf); err != nil {
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
			fillBasis(s.psi, s.hf, kt, cT.RawRowView(j), xT[j*n:(j+1)*n], aj, sigma, bounds, inKernel[j])
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
			if st.linear {
				s.linearSums(st.part, lrows, aj, j, b, n)
			}
			s.cv.scores(st.part, s.gf, s.hf, s.g, s.h, s.lin, st.ridges, s.row)

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
				if st.linear {
					copy(c.c, s.lin.cTot)
					copy(c.r, s.lin.rTot)
				}
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
	var lin []float64
	if st.linear {
		lin = make([]float64, d*q)
	}
	_ = ld
	isNull := make([]bool, d)
	if st.nullZ > 0 || st.lossOut != nil || st.zOut != nil {
		nc := &nullChecker{st: st, n: n, b: b, q: q, order: order, xT: xT, aT: aT, cT: cT, d2: d2,
			inKernel: inKernel, lrows: lrows, lf: lf, lTot: lTot, newScratch: newScratch}
		losses := make([][]float64, d)
		err := parallelFor(ctx, p.workers, d, func(wk, j int) error {
			if scratch[wk] == nil {
				scratch[wk] = newScratch()
			}
			model, null := nc.perSample(scratch[wk], j, coords[j].bw, coords[j].bl)
			z := pairedZ(model, null)
			if st.zOut != nil {
				st.zOut[j] = z
			}
			if st.nullZ > 0 {
				isNull[j] = !(z < -st.nullZ)
			}
			if isNull[j] {
				losses[j] = null
			} else {
				losses[j] = model
			}
			return nil
		}, nil)
		if err != nil {
			return nil, StageCV{}, err
		}
		if st.lossOut != nil {
			clear(st.lossOut)
			for j := 0; j < d; j++ {
				for pp, i := range order {
					st.lossOut[i] += losses[j][pp]
				}
			}
		}
	}
	scorers := make([]*cvScorer, max(1, p.workers))
	err = parallelFor(ctx, p.workers, d, func(wk, j int) error {
		if scorers[wk] == nil {
			scorers[wk] = newCVScorer(b, 1)
		}
		c := &coords[j]
		var ls *linSums
		if st.linear {
			ls = &linSums{q: q, cTot: c.c, lTot: lTot, rTot: c.r}
		}
		th, a, ok := scorers[wk].refit(c.g, c.h, ls, n, st.ridges[c.bl])
		if ok && isNull[j] {
			// The null model: no kernel part; the linear part alone.
			clear(th)
			if ls != nil {
				zero := make([]float64, b)
				sc := scorers[wk]
				inv := 1 / float64(n)
				if lw := sc.profile(ls, -1, inv); lw != nil {
					sc.linearCoefs(ls, lw, zero, 1)
					a = append(a[:0], lw.a[:q]...)
				}
			}
		}
		if !ok {
			return fmt.Errorf("%w: stage %q, coordinate %d: refit with λ = %g failed", ErrSingular, st.name, j, st.ridges[c.bl])
		}
		theta.SetCol(j, th)
		if st.linear {
			copy(lin[j*q:(j+1)*q], a)
		}
		return nil
	}, nil)
	if err != nil {
		return nil, StageCV{}, err
	}
	m := newDerivModel(st.centers, theta, chosen)
	m.lin = lin
	if st.kernelCols != nil {
		m.kcols = make([]bool, d)
		for _, c := range st.kernelCols {
			m.kcols[c] = true
		}
	}
	return m, cv, nil
}

// linearSums sets the per-fold sums of ψℓᵀ and of the linear term
// r_ℓ = ∂_jℓ + ℓ·a for coordinate j (ψ in s.psi, aj nil for a = 0).
func (s *stageScratch) linearSums(part partition, lrows, aj []float64, j, b, n int) {
	q := s.lin.q
	clear(s.lin.cTot)
	clear(s.lin.rTot)
	for f := 0; f < part.folds(); f++ {
		lo, m := part.bounds[f], part.size(f)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: b, Cols: m, Stride: n, Data: s.psi[lo:]},
			blas64.General{Rows: m, Cols: q, Stride: q, Data: lrows[lo*q:]},
			0, blas64.General{Rows: b, Cols: q, Stride: q, Data: s.lin.cf[f]})
		rf := s.lin.rf[f]
		clear(rf)
		rf[j] = float64(m) // Σ ∂_j x_j
		if aj != nil {
			for p := lo; p < lo+m; p++ {
				for c := 0; c < q; c++ {
					rf[c] += lrows[p*q+c] * aj[p]
				}
			}
		}
		for i, v := range s.lin.cf[f] {
			s.lin.cTot[i] += v
		}
		for i, v := range rf {
			s.lin.rTot[i] += v
		}
	}
}

// columns returns the given columns of a.
func columns(a *mat.Dense, cols []int) *mat.Dense {
	r, _ := a.Dims()
	out := mat.NewDense(r, len(cols), nil)
	for i := 0; i < r; i++ {
		for k, c := range cols {
			out.Set(i, k, a.At(i, c))
		}
	}
	return out
}

// nullChecker computes, for one coordinate and its chosen (width, ridge),
// the z-score of the per-sample paired difference between the held-out
// losses of the fitted model and of the null model.
type nullChecker struct {
	st         stage
	n, b, q    int
	order      []int
	xT, aT, d2 []float64
	cT         *mat.Dense
	inKernel   []bool
	lrows      []float64
	lf         [][]float64
	lTot       []float64
	newScratch func() *stageScratch
}

// perSample returns, in fold order, every row's held-out loss
// f² + 2(∂_j f + f·a) under the model with the chosen (width, ridge) and
// under the null model, each row predicted by the fit without its fold.
func (nc *nullChecker) perSample(s *stageScratch, j, w, l int) (model, null []float64) {
	st, n, b, q := nc.st, nc.n, nc.b, nc.q
	sigma := st.widths[w]
	model, null = make([]float64, n), make([]float64, n)
	if s.kt == nil {
		s.kt, s.ktWidth = make([]float64, b*n), -1
	}
	kt := s.kt
	if s.ktWidth != w {
		s.ktWidth = -1
		if kernelT(context.Background(), 1, kt, nc.d2, b, sigma, st.noSelf) != nil {
			return model, null
		}
		s.ktWidth = w
	}
	var aj []float64
	if nc.aT != nil {
		aj = nc.aT[j*n : (j+1)*n]
	}
	xj := nc.xT[j*n : (j+1)*n]
	cj := nc.cT.RawRowView(j)
	fillBasis(s.psi, s.hf, kt, cj, xj, aj, sigma, st.part.bounds, nc.inKernel[j])
	clear(s.g)
	clear(s.h)
	k := st.part.folds()
	bounds := st.part.bounds
	for f := 0; f < k; f++ {
		blas64.Syrk(blas.NoTrans, 1,
			blas64.General{Rows: b, Cols: st.part.size(f), Stride: n, Data: s.psi[bounds[f]:]},
			0, blas64.Symmetric{N: b, Stride: b, Uplo: blas.Lower, Data: s.gf[f]})
		for i := 0; i < b; i++ {
			for c := 0; c <= i; c++ {
				s.g[i*b+c] += s.gf[f][i*b+c]
			}
			s.h[i] += s.hf[f][i]
		}
	}
	if st.linear {
		s.linearSums(st.part, nc.lrows, aj, j, b, n)
	}
	fits := s.cv.foldFits(st.part, s.gf, s.hf, s.g, s.h, s.lin, st.ridges[l])

	// Per-sample held-out losses: f² + 2(∂_j f + f·a) for the model and
	// for the null model, on every row (each is held out once).
	inv := 1 / (sigma * sigma)
	if !nc.inKernel[j] {
		inv = 0
	}
	for f := 0; f < k; f++ {
		ff := fits[f]
		if !ff.ok {
			return model, null
		}
		for p := bounds[f]; p < bounds[f+1]; p++ {
			var fv, df float64
			for c := 0; c < b; c++ {
				kv := kt[c*n+p]
				if kv == 0 || ff.theta[c] == 0 {
					continue
				}
				diff := cj[c] - xj[p]
				fv += ff.theta[c] * diff * kv
				df += ff.theta[c] * (diff*diff*inv - 1) * kv
			}
			var f0, df0 float64
			if st.linear {
				row := nc.lrows[p*q : (p+1)*q]
				for c, v := range row {
					fv += ff.a[c] * v
					f0 += ff.a0[c] * v
				}
				df += ff.a[j]
				df0 += ff.a0[j]
			}
			av := 0.0
			if aj != nil {
				av = aj[p]
			}
			model[p] = fv*fv + 2*(df+fv*av)
			null[p] = f0*f0 + 2*(df0+f0*av)
		}
	}
	return model, null
}

// pairedZ is the z-score of the mean of a − b over rows.
func pairedZ(a, b []float64) float64 {
	n := float64(len(a))
	var sum, sumSq float64
	for i := range a {
		dlt := a[i] - b[i]
		sum += dlt
		sumSq += dlt * dlt
	}
	mean := sum / n
	vr := (sumSq/n - mean*mean) / (n - 1)
	if !(vr > 0) {
		return 0
	}
	return mean / math.Sqrt(vr)
}
