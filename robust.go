package ngca

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

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

// RobustWFLSNGCA is a robust variant of WF-LSNGCA (WFLSNGCA), designed
// and measured in this project (docs/robust.md); it is not a published
// method. It changes the paper's method in four ways, each aimed at a
// measured failure of the method as published:
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
//     own model), and sets to zero every coordinate of v whose kernel part
//     does not beat the model without it by NullZ standard errors of the
//     per-row held-out loss difference; it always keeps at least Dim
//     coordinates (if fewer pass, those closest to passing), so that no
//     basis vector is an arbitrary direction of a zero eigenspace.
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
// not a measure of accuracy on oblique data. With few rows, or on data
// whose structure is spread over many columns, the same test zeroes
// coordinates that carry signal: the variant then acts as feature
// selection (on scikit-learn's wine data, 178 rows, it keeps 2 or 3 of 13
// columns; docs/default-method.md). RobustReport.NullCoords says which
// were zeroed; NullZ < 0 turns the test off.
//
// Rank-deficient data (a column that is a copy of another, up to scale and
// shift, or a linear combination of others) are an ErrSingular error
// naming the column when there are more rows than columns, as for
// WFLSNGCA. With no more rows than columns, which the variant accepts, the
// data are rank-deficient whatever their columns and the check is not
// made: a copied column can then be taken for a non-Gaussian direction.
// The linear part has d+1 coefficients per coordinate, so the time of a
// fit grows as d⁴: keep d to a few hundred.
//
// The zero value (with Dim set) is the recommended setting.
type RobustWFLSNGCA struct {
	// Dim is the dimension m of the non-Gaussian index space, 1 ≤ Dim < d.
	Dim int
	// NumCenters, Centers, Widths, Ridges, VWidths, VRidges and Folds are
	// as in WFLSNGCA. The coordinate selection, the frame refinements and
	// the comparison use every second value of Widths and Ridges, and the
	// axes estimate's stage 2 every second value of VWidths (each stage's
	// StageCV lists its grids).
	NumCenters       int
	Centers          mat.Matrix
	Widths, Ridges   []float64
	VWidths, VRidges []float64
	Folds            int

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

	// Src is the source of randomness (centers, partitions and the MIPP
	// start), as in WFLSNGCA.
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// serial. Results are bit-identical for any value.
	Workers int
	// Progress, if not nil, is called from the goroutine that called Fit.
	// The stages, in order, are "select", "lsldg" and "v" (the axes
	// estimate), "mipp" and "align 1" … "align R" (the equivariant
	// estimate) and "compare" (the adaptive path); a path runs only its
	// own, and Progress.Steps counts them.
	Progress func(Progress)
}

// RobustReport is the Report of RobustWFLSNGCA: what the variant did.
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
	// AxesEigenvalues are the d eigenvalues of the axes estimate's
	// (1/n)Σv(xᵢ)v(xᵢ)ᵀ, in descending order (nil if it did not run).
	AxesEigenvalues []float64
	// EquivariantErr is why the equivariant path stopped, if it did in
	// the adaptive mode: its MIPP start or a frame refinement was
	// numerically singular (an ErrSingular), as on data whose covariance
	// is singular or nearly so, or the data have no more rows than
	// columns, which MIPP's whitening needs (an ErrSamples). The axes
	// estimate is then returned and Z is NaN. It is nil otherwise.
	EquivariantErr error
	// NumCenters and Folds are the number of kernel centers and of
	// cross-validation folds the fit used.
	NumCenters, Folds int
	// CV reports the cross-validation of every stage that ran, in order
	// (see Progress for their names).
	CV []StageCV
}

// robustSettings are the variant's settings with the defaults filled in.
type robustSettings struct {
	path                   RobustPath
	k                      int
	nullZ, switchZ         float64
	rounds, startFunctions int
}

// settings checks the variant's own fields and fills in their defaults
// (KernelCoords is capped at d later).
func (w *RobustWFLSNGCA) settings() (robustSettings, error) {
	s := robustSettings{path: w.Path, k: w.KernelCoords, nullZ: w.NullZ, switchZ: w.SwitchZ,
		rounds: w.Rounds, startFunctions: w.StartFunctions}
	switch {
	case s.path < RobustAdaptive || s.path > RobustEquivariant:
		return s, fmt.Errorf("%w: Path = %d", ErrParam, int(w.Path))
	case s.k < 0:
		return s, fmt.Errorf("%w: KernelCoords = %d", ErrParam, w.KernelCoords)
	case s.k == 0:
		s.k = w.Dim + 2
	case s.k < w.Dim:
		return s, fmt.Errorf("%w: KernelCoords = %d is below Dim = %d", ErrParam, w.KernelCoords, w.Dim)
	}
	switch {
	case math.IsNaN(s.nullZ) || math.IsInf(s.nullZ, 0):
		return s, fmt.Errorf("%w: NullZ = %v", ErrParam, w.NullZ)
	case s.nullZ == 0:
		s.nullZ = 3
	case s.nullZ < 0:
		s.nullZ = 0
	}
	switch {
	case s.switchZ == 0:
		s.switchZ = 4
	case !(s.switchZ > 0) || math.IsInf(s.switchZ, 1):
		return s, fmt.Errorf("%w: SwitchZ = %v", ErrParam, w.SwitchZ)
	}
	switch {
	case s.rounds == 0:
		s.rounds = 2
	case s.rounds < 0:
		return s, fmt.Errorf("%w: Rounds = %d", ErrParam, w.Rounds)
	}
	switch {
	case s.startFunctions == 0:
		s.startFunctions = 100
	case s.startFunctions < 0:
		return s, fmt.Errorf("%w: StartFunctions = %d", ErrParam, w.StartFunctions)
	}
	return s, nil
}

// steps is the number of progress stages of a fit on the path.
func (s robustSettings) steps() int {
	switch s.path {
	case RobustAxes:
		return 3
	case RobustEquivariant:
		return 1 + s.rounds
	}
	return 3 + 1 + s.rounds + 1
}

func (w *RobustWFLSNGCA) config(s robustSettings) config {
	return config{kernel: true, numCenters: w.NumCenters, centers: w.Centers, widths: w.Widths, ridges: w.Ridges,
		vWidths: w.VWidths, vRidges: w.VRidges,
		folds: w.Folds, src: w.Src, workers: w.Workers, progress: w.Progress, steps: s.steps()}
}

// Fit estimates the non-Gaussian index space of the rows of x (n×d). It
// returns an error wrapping one of the package's sentinels for invalid
// data or configuration, or the context's error if ctx is done. The
// Result's Report is a *RobustReport; its Eigenvalues are nil when the
// equivariant estimate is returned.
//
// The random draws happen on the calling goroutine in a fixed order: the
// centers, the selection partition, the two stage partitions, the MIPP
// start, one partition per refinement round.
func (w *RobustWFLSNGCA) Fit(ctx context.Context, x mat.Matrix) (*Result, error) {
	sw := newStopwatch()
	o, errSettings := w.settings()
	pr, err := prepare(ctx, x, w.config(o), w.Dim, true)
	if err != nil {
		return nil, err
	}
	if errSettings != nil {
		return nil, errSettings
	}
	o.k = min(o.k, pr.d)
	sw.lap("prepare")
	rep := &RobustReport{Z: math.NaN(), NumCenters: pr.b, Folds: pr.folds}
	basis, err := fitRobust(ctx, pr, w.Dim, o, rep, sw)
	if err != nil {
		return nil, err
	}
	back := func(b *mat.Dense) *mat.Dense {
		if b == nil {
			return nil
		}
		q, _ := mapBack(b, pr.scale.unscale)
		return q
	}
	res := &Result{Method: "WF-LSNGCA robust", Mean: pr.scale.mean, Report: rep}
	if res.Basis, err = mapBack(basis, pr.scale.unscale); err != nil {
		return nil, err
	}
	if rep.Path == RobustAxes {
		res.Eigenvalues = rep.AxesEigenvalues
	}
	rep.Axes, rep.Equivariant = back(rep.Axes), back(rep.Equivariant)
	res.Timings = sw.total()
	return res, nil
}

// fitRobust runs the variant's path on the standardised data of pr and
// returns the chosen basis in standardised coordinates; rep receives the
// candidate bases (standardised) and the diagnostics.
func fitRobust(ctx context.Context, pr *prepared, dim int, o robustSettings, rep *RobustReport, sw *stopwatch) (*mat.Dense, error) {
	var ax *axesFit
	if o.path != RobustEquivariant {
		var err error
		if ax, err = axesEstimate(ctx, pr, dim, o, rep, sw); err != nil {
			return nil, err
		}
		if o.path == RobustAxes {
			return ax.basis, nil
		}
	}
	bEq, err := equivariantEstimate(ctx, pr, dim, o, rep, sw)
	switch {
	case err != nil && o.path == RobustAdaptive && ctx.Err() == nil && (errors.Is(err, ErrSingular) || errors.Is(err, ErrSamples)):
		// The data are (numerically) singular along some direction, or
		// have no more rows than columns, as MIPP's whitening and the
		// frame refinement need them not to be: the axes estimate stands.
		rep.EquivariantErr = err
		return ax.basis, nil
	case err != nil:
		return nil, err
	}
	rep.Equivariant = bEq
	if o.path == RobustEquivariant {
		rep.Path = RobustEquivariant
		return bEq, nil
	}
	if rep.Z, err = compareFrames(ctx, pr, bEq, o, ax, rep, sw); err != nil {
		return nil, err
	}
	if rep.Z < -o.switchZ {
		rep.Path = RobustEquivariant
		return bEq, nil
	}
	return ax.basis, nil
}
