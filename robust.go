package ngca

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// RobustPath names the estimates of the robust variant of WF-LSNGCA.
type RobustPath int

const (
	// RobustAdaptive computes both estimates and returns the equivariant
	// one only if it explains the data significantly better (the default).
	// If the equivariant estimate cannot be computed because the data are
	// numerically singular along some direction (its MIPP start whitens,
	// its frame refinement regresses on the data), the axes estimate is
	// returned and RobustReport.EquivariantErr says why.
	RobustAdaptive RobustPath = iota
	// RobustAxes computes and returns the axes estimate only.
	RobustAxes
	// RobustEquivariant computes and returns the equivariant estimate only.
	RobustEquivariant
)

// String returns "adaptive", "axes" or "equivariant".
func (p RobustPath) String() string {
	switch p {
	case RobustAdaptive:
		return "adaptive"
	case RobustAxes:
		return "axes"
	case RobustEquivariant:
		return "equivariant"
	}
	return fmt.Sprintf("RobustPath(%d)", int(p))
}

// RobustOptions configures the robust variant of WF-LSNGCA, designed and
// measured in docs/robust.md. It changes the faithful method in four ways,
// each aimed at a measured failure of the method as published:
//
//   - Conditioning. Stage 1 gives every coordinate an unpenalised linear
//     part, g_j(x) = θ_jᵀψ_j(x) + a_jᵀx + c_j: the Gaussian part of
//     ∇log p is linear, with slopes as large as the precision of the
//     thinnest direction, which a ridge-penalised kernel model cannot
//     follow. Its coefficients are profiled out of every fit exactly.
//   - Self-pairs. No kernel is paired with its own center's data row in
//     the fits: narrow kernels are otherwise spikes there that the training
//     objective inflates and cross-validation cannot see.
//   - Dimension. The axes estimate puts its kernels on the KernelCoords
//     coordinates whose kernel part is most significant in a first stage-1
//     fit on every second value of the grids (each coordinate keeps its
//     own model), and sets to zero every
//     coordinate of v whose kernel part does not beat the model without it
//     by NullZ standard errors of the per-row held-out loss difference.
//   - Orientation. The axes estimate relies on the non-Gaussian subspace
//     lying near coordinate axes. The equivariant estimate does not: from
//     a MIPP start it refines the frame: it fits the Dim frame coordinates'
//     scores with kernels on those coordinates only, regresses every other
//     coordinate's score on their kernel parts and a linear function (by
//     the same least-squares objective), and turns the frame by the
//     coefficients, Rounds times. The adaptive path fits both frames'
//     score models on the same folds and switches to the equivariant
//     estimate only if its per-row held-out loss is lower by more than
//     SwitchZ standard errors.
//
// On data whose non-Gaussian subspace lies exactly along coordinate axes,
// the null test typically sets every other coordinate of v to zero, so the
// estimate is exactly the axes: a sparse estimator recovering its support,
// not a measure of accuracy on oblique data.
//
// The zero value is the recommended setting.
type RobustOptions struct {
	// Path selects the estimates; the zero value is RobustAdaptive.
	Path RobustPath
	// KernelCoords is the number of coordinates the axes estimate's kernels
	// use, and the number of frame coordinates of the comparison model; 0
	// means Dim+2, and values above d mean d.
	KernelCoords int
	// NullZ is the z threshold of the null test; 0 means 3, and a
	// negative value turns the test off.
	NullZ float64
	// SwitchZ is the z threshold for switching to the equivariant
	// estimate; 0 means 4 (see docs/robust.md for the values of z on
	// aligned and on rotated data).
	SwitchZ float64
	// Rounds is the number of frame refinements of the equivariant
	// estimate; 0 means 2.
	Rounds int
	// StartFunctions is the number of MIPP index functions per family of
	// the equivariant estimate's start; 0 means 100.
	StartFunctions int
}

// RobustReport says what the robust variant of WF-LSNGCA did.
type RobustReport struct {
	// Path is the estimate returned: RobustAxes or RobustEquivariant.
	Path RobustPath
	// Z is the paired z-score of the per-row held-out loss difference
	// between the equivariant and the axes frame's score models (negative
	// favours the equivariant estimate); NaN if only one path ran.
	Z float64
	// KernelCoords are the axes estimate's kernel coordinates (0-based).
	KernelCoords []int
	// NullCoords are the coordinates whose v the null test set to zero.
	NullCoords []int
	// Axes and Equivariant are the two candidate bases in the caller's
	// coordinates (nil for a path that did not run).
	Axes, Equivariant *mat.Dense
	// EquivariantErr is why the equivariant path stopped, if it did in
	// the adaptive mode: its MIPP start or a frame refinement was
	// numerically singular (an ErrSingular), as on data whose covariance
	// is singular or nearly so. The axes estimate is then returned and Z
	// is NaN. It is nil otherwise.
	EquivariantErr error
}

// robustSettings is RobustOptions with the defaults filled in.
type robustSettings struct {
	path                   RobustPath
	k                      int
	nullZ, switchZ         float64
	rounds, startFunctions int
}

func (o *RobustOptions) resolve(dim, d int) (robustSettings, error) {
	s := robustSettings{path: o.Path, k: o.KernelCoords, nullZ: o.NullZ, switchZ: o.SwitchZ,
		rounds: o.Rounds, startFunctions: o.StartFunctions}
	switch {
	case s.path < RobustAdaptive || s.path > RobustEquivariant:
		return s, fmt.Errorf("%w: Robust.Path = %d", ErrParam, int(o.Path))
	case s.k < 0:
		return s, fmt.Errorf("%w: Robust.KernelCoords = %d", ErrParam, o.KernelCoords)
	case s.k == 0:
		s.k = dim + 2
	case s.k < dim:
		return s, fmt.Errorf("%w: Robust.KernelCoords = %d is below Dim = %d", ErrParam, o.KernelCoords, dim)
	}
	s.k = min(s.k, d)
	if s.nullZ == 0 {
		s.nullZ = 3
	}
	if s.nullZ < 0 {
		s.nullZ = 0
	}
	switch {
	case s.switchZ == 0:
		s.switchZ = 4
	case !(s.switchZ > 0) || math.IsInf(s.switchZ, 1):
		return s, fmt.Errorf("%w: Robust.SwitchZ = %v", ErrParam, o.SwitchZ)
	}
	switch {
	case s.rounds == 0:
		s.rounds = 2
	case s.rounds < 0:
		return s, fmt.Errorf("%w: Robust.Rounds = %d", ErrParam, o.Rounds)
	}
	switch {
	case s.startFunctions == 0:
		s.startFunctions = 100
	case s.startFunctions < 0:
		return s, fmt.Errorf("%w: Robust.StartFunctions = %d", ErrParam, o.StartFunctions)
	}
	if math.IsNaN(s.nullZ) || math.IsInf(s.nullZ, 0) {
		return s, fmt.Errorf("%w: Robust.NullZ = %v", ErrParam, o.NullZ)
	}
	return s, nil
}

// robustFit is the outcome of fitRobust, in standardised coordinates.
type robustFit struct {
	axes   *mat.Dense // the axes estimate, d×dim (nil if not computed)
	basis  *mat.Dense // d×dim
	eig    []float64  // nil for the equivariant estimate
	cv     []StageCV
	report *RobustReport
}

// fitRobust runs the robust variant on the standardised data of pr. The
// random draws happen here, on the calling goroutine, in a fixed order:
// the selection partition, the two stage partitions, the MIPP start, one
// partition per refinement round.
func fitRobust(ctx context.Context, pr *prepared, dim int, o robustSettings, sw *stopwatch) (*robustFit, error) {
	n, d := pr.n, pr.d
	centers := pr.centersFrom(pr.z, nil)
	out := &robustFit{report: &RobustReport{Z: math.NaN()}}
	var lossAxes []float64
	var bAxes *mat.Dense
	var compare partition

	if o.path != RobustEquivariant {
		// Select the kernel coordinates: the most significant kernel parts
		// of a stage-1 fit in the data's axes.
		// Ranking needs less resolution than fitting: every second value
		// of the grids.
		z := make([]float64, d)
		sel := newPartition(pr.rng, n, pr.folds)
		_, cvSel, err := fitStage(ctx, stage{name: "select", x: pr.z, centers: centers, widths: everyOther(pr.widths),
			ridges: everyOther(pr.ridges), part: sel, linear: true, noSelf: true, zOut: z}, &pr.plan)
		if err != nil {
			return nil, err
		}
		cols := mostNegative(z, o.k)
		sw.lap("select")

		part1 := newPartition(pr.rng, n, pr.folds)
		part2 := newPartition(pr.rng, n, pr.folds)
		compare = part1
		lossAxes = make([]float64, n)
		g, cv1, err := fitStage(ctx, stage{name: "lsldg", x: pr.z, centers: centers, widths: pr.widths, ridges: pr.ridges,
			part: part1, linear: true, noSelf: true, kernelCols: cols, nullZ: o.nullZ, lossOut: lossAxes}, &pr.plan)
		if err != nil {
			return nil, err
		}
		a := mat.NewDense(n, d, nil)
		if err := g.eval(ctx, pr.workers, pr.z, mat.NewDense(n, d, nil), a); err != nil {
			return nil, err
		}
		sw.lap("lsldg")
		v, cv2, err := fitStage(ctx, stage{name: "v", x: pr.z, a: a, centers: centers, widths: pr.vWidths,
			ridges: pr.vRidges, part: part2, noSelf: true, kernelCols: cols, nullZ: o.nullZ}, &pr.plan)
		if err != nil {
			return nil, err
		}
		vals := mat.NewDense(n, d, nil)
		if err := v.eval(ctx, pr.workers, pr.z, vals, nil); err != nil {
			return nil, err
		}
		sw.lap("v")
		var eig []float64
		bAxes, eig, err = leadingEigen(vals, dim)
		if err != nil {
			return nil, err
		}
		out.basis, out.eig, out.axes = bAxes, eig, bAxes
		out.cv = []StageCV{cvSel, cv1, cv2}
		out.report.Path, out.report.KernelCoords = RobustAxes, cols
		for j := 0; j < d; j++ {
			if mat.Norm(vals.ColView(j), math.Inf(1)) == 0 {
				out.report.NullCoords = append(out.report.NullCoords, j)
			}
		}
		if o.path == RobustAxes {
			return out, nil
		}
	}

	// The equivariant estimate: a MIPP start, then frame refinements.
	fams := DefaultFamilies()
	for i := range fams {
		fams[i].L = o.startFunctions
	}
	// keepAxes reports whether a failure of the equivariant path leaves
	// the axes estimate standing: in the adaptive mode, when the data are
	// (numerically) singular along some direction, as MIPP's whitening
	// and the frame refinement's regression need them not to be.
	keepAxes := func(err error) bool {
		if o.path == RobustAdaptive && ctx.Err() == nil && errors.Is(err, ErrSingular) {
			out.report.EquivariantErr = err
			return true
		}
		return false
	}
	start, err := (&MIPP{Dim: dim, Families: fams, Src: pr.rng, Workers: pr.workers, Progress: pr.progress}).Fit(ctx, pr.z)
	if err != nil {
		err = fmt.Errorf("robust WF-LSNGCA: equivariant start: %w", err)
		if keepAxes(err) {
			return out, nil
		}
		return nil, err
	}
	bEq := start.Basis
	sw.lap("start")
	for r := 0; r < o.rounds; r++ {
		var cv StageCV
		if bEq, cv, err = alignStep(ctx, pr, completeFrame(bEq), dim, fmt.Sprintf("align %d", r+1)); err != nil {
			if keepAxes(err) {
				return out, nil
			}
			return nil, err
		}
		out.cv = append(out.cv, cv)
	}
	bEq, _ = orthonormal(bEq)
	sw.lap("align")
	if o.path == RobustEquivariant {
		out.basis, out.eig = bEq, nil
		out.report.Path = RobustEquivariant
		return out, nil
	}

	// Compare the two frames' score models on the same folds, with the
	// same null test: the minimum of a cross-validation grid is an
	// optimistic estimate, and a test applied to one model only would
	// hand that optimism to the other.
	u := completeFrame(bEq)
	var y mat.Dense
	y.Mul(pr.z, u)
	first := make([]int, o.k)
	for i := range first {
		first[i] = i
	}
	lossEq := make([]float64, n)
	_, cvCmp, err := fitStage(ctx, stage{name: "compare", x: &y, centers: pr.centersFrom(&y, inFrame(u, d)), widths: pr.widths,
		ridges: pr.ridges, part: compare, linear: true, noSelf: true, kernelCols: first, nullZ: o.nullZ,
		lossOut: lossEq}, &pr.plan)
	if err != nil {
		return nil, err
	}
	out.cv = append(out.cv, cvCmp)
	sw.lap("compare")
	out.report.Z = pairedZ(lossEq, lossAxes)
	out.report.Equivariant = bEq
	if out.report.Z < -o.switchZ {
		out.basis, out.eig = bEq, nil
		out.report.Path = RobustEquivariant
	}
	return out, nil
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
	part := newPartition(pr.rng, n, pr.folds)
	g, cv, err := fitStage(ctx, stage{name: name, x: yu, centers: pr.centersFrom(yu, inFrame(u, dim)), widths: pr.widths,
		ridges: pr.ridges, part: part, linear: true, linX: &y, noSelf: true}, &pr.plan)
	if err != nil {
		return nil, cv, err
	}
	g.lin = nil // the kernel parts h(y_U)
	h := mat.NewDense(n, dim, nil)
	if err := g.eval(ctx, pr.workers, yu, h, nil); err != nil {
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
	idx := make([]int, len(z))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return z[idx[a]] < z[idx[b]] })
	out := append([]int(nil), idx[:k]...)
	sort.Ints(out)
	return out
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
