package ngca

import (
	"context"
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// axesFit is the outcome of the robust variant's axes estimate, in
// standardised coordinates.
type axesFit struct {
	basis *mat.Dense // d×dim
	loss  []float64  // per-row held-out loss of its stage-1 score model
	part  partition  // the stage-1 partition, on which the frames are compared
	cols  []int      // the kernel coordinates, in increasing order
	selZ  []float64  // every coordinate's z in the selection stage
}

// axesEstimate selects the kernel coordinates (the most significant kernel
// parts of a stage-1 fit in the data's axes, on every second value of the
// grids: ranking needs less resolution than fitting) and runs Algorithm 1's
// two stages with the variant's extensions: a linear part in stage 1,
// kernels on the selected coordinates and the null test in both.
func axesEstimate(ctx context.Context, pr *prepared, dim int, o robustSettings, rep *RobustReport, sw *stopwatch) (*axesFit, error) {
	centers := pr.centersFrom(pr.z, nil)
	z := make([]float64, pr.d)
	sel := robustStage{stage: stage{name: "select", x: pr.z, centers: centers, widths: everyOther(pr.widths),
		ridges: everyOther(pr.ridges), part: newPartition(pr.rng, pr.n, pr.folds)}, linear: true, zOut: z}
	_, cvSel, err := fitRobustStage(ctx, sel, &pr.plan)
	if err != nil {
		return nil, err
	}
	cols := mostNegative(z, o.k)
	sw.lap("select")

	// One partition for both stages: stage 2's basis is stage 1's (the
	// same centers, kernel coordinates and widths), so it takes stage 1's
	// fold Gram matrices (foldStore) instead of forming its own. It
	// reduces them itself: stage 1 reduced the Schur complement of its
	// linear part. Stage 2 runs on every second width: its v only feeds
	// the null test and the leading eigenvectors (docs/speed.md).
	s1, s2 := pr.wfStages(centers, false)
	s2.widths = everyOther(s2.widths)
	*s1.keep = foldStore{only: s2.widths, gramOnly: true}
	ax := &axesFit{loss: make([]float64, pr.n), part: s1.part, cols: cols, selZ: z}
	fit1 := func(ctx context.Context, st stage) (rowModel, StageCV, error) {
		return fitRobustStage(ctx, robustStage{stage: st, linear: true, kernelCols: cols, nullZ: o.nullZ, lossOut: ax.loss}, &pr.plan)
	}
	fit2 := func(ctx context.Context, st stage) (rowModel, StageCV, error) {
		return fitRobustStage(ctx, robustStage{stage: st, kernelCols: cols, nullZ: o.nullZ, minKept: dim}, &pr.plan)
	}
	v, cvs, err := twoStages(ctx, pr, s1, s2, fit1, fit2, sw)
	if err != nil {
		return nil, err
	}
	if ax.basis, rep.AxesEigenvalues, err = leadingEigen(v, dim); err != nil {
		return nil, err
	}
	rep.Axes, rep.Path, rep.KernelCoords = ax.basis, RobustAxes, cols
	rep.CV = append([]StageCV{cvSel}, cvs...)
	for j := 0; j < pr.d; j++ {
		if mat.Norm(v.ColView(j), 1) == 0 {
			rep.NullCoords = append(rep.NullCoords, j)
		}
	}
	return ax, nil
}

// equivariantEstimate starts from MIPP on the standardised data and
// refines the frame o.rounds times (alignStep). It returns the
// orthonormal estimate; errors from a singular start or refinement wrap
// ErrSingular.
func equivariantEstimate(ctx context.Context, pr *prepared, dim int, o robustSettings, rep *RobustReport, sw *stopwatch) (*mat.Dense, error) {
	fams := DefaultFamilies()
	for i := range fams {
		fams[i].L = o.startFunctions
	}
	pr.progress.begin("mipp")
	start, err := (&MIPP{Dim: dim, Families: fams, Src: pr.rng, Workers: pr.workers, Progress: pr.progress.forward()}).Fit(ctx, pr.z)
	if err != nil {
		return nil, fmt.Errorf("robust WF-LSNGCA: equivariant start: %w", err)
	}
	b := start.Basis
	sw.lap("start")
	for r := 0; r < o.rounds; r++ {
		var cv StageCV
		if b, cv, err = alignStep(ctx, pr, completeFrame(b), dim, fmt.Sprintf("align %d", r+1)); err != nil {
			return nil, err
		}
		rep.CV = append(rep.CV, cv)
	}
	q, ok := orthonormal(b)
	if !ok {
		return nil, fmt.Errorf("%w: robust WF-LSNGCA: the refined frame lost rank", ErrSingular)
	}
	sw.lap("align")
	return q, nil
}

// alignStep refines the frame u (d×d orthonormal; its first dim columns
// span the current estimate): in y = z·u it fits the first dim
// coordinates' scores with kernels on those coordinates only and a linear
// part in all of y, then fits every other coordinate's score by the same
// objective as g_j = Δ_jᵀh(y_U) + a_jᵀy + c_j, h the first fit's kernel
// parts. To first order in the frame's error, the score of coordinate j
// is exactly of that form with Δ_j the tilt of the index space toward
// coordinate j, so it returns the corrected basis u·[I; Δ] (d×dim).
func alignStep(ctx context.Context, pr *prepared, u *mat.Dense, dim int, name string) (*mat.Dense, StageCV, error) {
	var y mat.Dense
	y.Mul(pr.z, u)
	n, d := y.Dims()
	yu := mat.DenseCopyOf(y.Slice(0, n, 0, dim))
	st := robustStage{stage: stage{name: name, x: yu, centers: pr.centersFrom(yu, inFrame(u, dim)), widths: everyOther(pr.widths),
		ridges: everyOther(pr.ridges), part: newPartition(pr.rng, n, pr.folds)}, linear: true, linX: &y}
	g, cv, err := fitRobustStage(ctx, st, &pr.plan)
	if err != nil {
		return nil, cv, err
	}
	h := mat.NewDense(n, dim, nil) // the kernel parts h(y_U)
	if err := g.kern.eval(ctx, pr.workers, yu, h, nil); err != nil {
		return nil, cv, err
	}
	// One Gram matrix of the features F = (h, y, 1) serves every row; the
	// objective's linear term for row j is E[∂_j F] = e_j in the y block.
	q := dim + d + 1
	f := mat.NewDense(n, q, nil)
	for i := 0; i < n; i++ {
		row := f.RawRowView(i)
		copy(row, h.RawRowView(i))
		copy(row[dim:], y.RawRowView(i))
		row[dim+d] = 1
	}
	var gram mat.SymDense
	gram.SymOuterK(1/float64(n), f.T())
	var ch mat.Cholesky
	if !ch.Factorize(&gram) {
		return nil, cv, fmt.Errorf("%w: robust WF-LSNGCA: frame refinement is singular", ErrSingular)
	}
	corr := mat.NewDense(d, dim, nil)
	for k := 0; k < dim; k++ {
		corr.Set(k, k, 1)
	}
	rhs := mat.NewVecDense(q, nil)
	var beta mat.VecDense
	for j := dim; j < d; j++ {
		rhs.Zero()
		rhs.SetVec(dim+j, 1)
		if err := ch.SolveVecTo(&beta, rhs); err != nil {
			return nil, cv, fmt.Errorf("%w: robust WF-LSNGCA: frame refinement is singular", ErrSingular)
		}
		for k := 0; k < dim; k++ {
			corr.Set(j, k, -beta.AtVec(k))
		}
	}
	var b mat.Dense
	b.Mul(u, corr)
	return &b, cv, nil
}

// mostNegative returns the indices of the k smallest values of z, in
// increasing index order (ties to the smaller index).
func mostNegative(z []float64, k int) []int {
	out := append([]int(nil), ascending(z)[:k]...)
	sort.Ints(out)
	return out
}

// ascending returns the indices of z in increasing order of value (ties to
// the smaller index).
func ascending(z []float64) []int {
	idx := make([]int, len(z))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return z[idx[a]] < z[idx[b]] })
	return idx
}

// everyOther returns the values of v at even indices (v itself if it has
// fewer than three values).
func everyOther(v []float64) []float64 {
	if len(v) < 3 {
		return v
	}
	var out []float64
	for i := 0; i < len(v); i += 2 {
		out = append(out, v[i])
	}
	return out
}

// inFrame returns the map of explicit (standardised) centers into the
// first k coordinates of the frame y = z·u.
func inFrame(u *mat.Dense, k int) func(*mat.Dense) *mat.Dense {
	return func(c *mat.Dense) *mat.Dense {
		d, _ := u.Dims()
		var out mat.Dense
		out.Mul(c, u.Slice(0, d, 0, k))
		return &out
	}
}
