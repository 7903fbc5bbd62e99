package ngca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

// RobustWFLSNGCA is a robust variant of WF-LSNGCA (WFLSNGCA), designed
// and measured in this project (docs/robust.md); it is not a published
// method. It computes two estimates and returns the one it can trust:
//
//   - The axes estimate is WF-LSNGCA with three changes, each aimed at a
//     measured failure of the method as published. Conditioning: the
//     score model of stage 1 is g_j(x) = θ_jᵀψ_j(x) − (Σ̂⁻¹x)_j, the kernel
//     part on top of the Gaussian score of the sample covariance Σ̂, whose
//     slopes along thin directions a ridge-penalised kernel model cannot
//     follow. Self-pairs: no kernel is paired with its own center's data
//     row, where a narrow kernel is a spike that the training objective
//     inflates and cross-validation cannot see. Dimension: the kernels use
//     only the Dim+2 coordinates whose kernel part is most significant in
//     two screens (a stage-1 fit with kernels on all coordinates, and one
//     per coordinate with a kernel on that coordinate alone; each
//     coordinate keeps its own model), and every
//     coordinate of v whose kernel part does not beat the model without it
//     by 3 standard errors of the per-row held-out loss difference is
//     set to zero; at least Dim coordinates are kept. On data whose index
//     space lies along coordinate axes it is exact: a sparse estimator
//     recovering its support. Elsewhere it is as wrong as the faithful
//     method.
//   - The equivariant estimate starts from MIPP (its default settings) and
//     refines the frame twice in whitened coordinates: it fits the Dim
//     frame coordinates' scores with kernels on those coordinates and a
//     linear part, regresses every other coordinate's score on their
//     kernel parts h and a linear function by the same least-squares
//     objective, g_j = Δ_jᵀh(y_U) + a_jᵀy + c_j, and turns the frame by
//     the tilt Δ. That regression is the efficient score's for the tilt
//     (docs/robust.md measures the estimate against the efficiency
//     bound). The refined frame is the estimate when it moved MIPP's start
//     by more than its own sampling error (the Wald statistic of the tilt
//     at the start exceeds its degrees of freedom, the mean of its χ²);
//     otherwise MIPP's start is kept. It is equivariant
//     under any invertible linear map of the data, and its last
//     regression gives the covariance of Δ̂ where the frame is the index
//     space, Cov(vec Δ̂) = (S_g ⊗ (G⁻¹)_hh)/n: S_g the second moments of
//     the fitted scores of the other coordinates and (G⁻¹)_hh the h block
//     of the inverse Gram matrix of (h, y, 1), since there those scores
//     are linear and independent of the frame coordinates.
//   - The adaptive path (the default) decides between them, with the
//     burden of proof on the axes estimate, whose error is unbounded when
//     the index space is not along the axes: it returns the axes estimate
//     only if one more refinement step at its own frame finds no tilt
//     (the Wald statistic W = Δ̂ᵀ Cov(Δ̂)⁻¹ Δ̂ does not reject at level 0.01
//     against χ² with (d − Dim)·Dim degrees of freedom, as it follows χ²
//     if the axes estimate is the index space) and the two candidates
//     agree or, where they do not, the other misses more: that test sees
//     small tilts, not a direction the axes estimate misses altogether,
//     so the axes estimate must also lie within a Wald distance of 4 per
//     degree of freedom of the equivariant estimate (RobustReport.Distance,
//     a bound measured in the orientation study, not a test), or else the evidence
//     that the equivariant estimate misses structure in the directions by
//     which the axes estimate leaves it must exceed the converse by 3 in
//     paired z-scores of a kernel model of those directions' scores
//     against their Gaussian score (if a candidate is the index space,
//     those directions are standard normal and independent of its
//     coordinates). Otherwise the equivariant
//     estimate is returned.
//
// Fit returns an error wrapping ErrSamples when
//
//	n < max(k, ⌈k(d + 1)/(k − 1)⌉),   k = Folds,
//
// d the data's columns, as WFLSNGCA does: every fold of its
// cross-validated fits, whose linear parts have d + 1 coefficients, holds
// out at least one row and leaves more than d to fit on; that is more than
// the d + 2 rows of MIPP's start. It needs a covariance matrix that can be
// inverted (ErrSingular otherwise), as MIPP does, and leaves out a column
// that is a linear combination of others (Result.Dependent), as every
// estimator does. With few rows, or on data
// whose structure is spread over many columns, the null test zeroes
// coordinates that carry signal: the axes
// estimate then acts as feature selection, which the test usually
// rejects. RobustReport.NullCoords says which were zeroed.
//
// The zero value (with Dim set) is the recommended setting.
type RobustWFLSNGCA struct {
	// Dim is the dimension m of the non-Gaussian index space, 1 ≤ Dim < d.
	Dim int
	// NumCenters, Centers, Widths, Ridges, VWidths, VRidges and Folds are
	// as in WFLSNGCA. The coordinate selection and the frame refinements
	// use every second value of Widths and Ridges, and the axes estimate's
	// stage 2 every second value of VWidths (each stage's stageCV lists
	// its grids).
	NumCenters       int
	Centers          mat.Matrix
	Widths, Ridges   []float64
	VWidths, VRidges []float64
	Folds            int

	// path selects the estimates (the zero value: adaptive) and nullZ is
	// the z threshold of the axes estimate's null test (0 means 3, a
	// negative value turns the test off); the studies set them through
	// probe.Settings.
	path  robustPath
	nullZ float64

	// Src is the source of randomness (centers, partitions and the MIPP
	// start), as in WFLSNGCA.
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// serial. Results are bit-identical for any value.
	Workers int
	// Progress, if not nil, is called from the goroutine that called Fit.
	// The stages, in order, are "select", "lsldg" and "v" (the axes
	// estimate), "mipp", "align 1" and "align 2" (the equivariant
	// estimate), and on the adaptive path "test" (the test of the axes
	// estimate); a path runs only its own, and Progress.Steps counts them.
	Progress func(Progress)
}

// probed returns a copy of w with the path and the null test's threshold
// that ctx's probe.Settings give, where w has none of its own.
func (w *RobustWFLSNGCA) probed(ctx context.Context) (*RobustWFLSNGCA, error) {
	ps := probe.SettingsFrom(ctx)
	c := *w
	if c.nullZ == 0 {
		c.nullZ = ps.RobustNullZ
	}
	if c.path != robustAdaptive || ps.RobustPath == "" {
		return &c, nil
	}
	p := slices.Index(robustPaths[:], ps.RobustPath)
	if p < 0 {
		return w, fmt.Errorf("%w: unknown robust path %q (want adaptive, axes or equivariant)", ErrParam, ps.RobustPath)
	}
	c.path = robustPath(p)
	return &c, nil
}

// settings checks the variant's own fields and fills in their defaults.
func (w *RobustWFLSNGCA) settings() (robustSettings, error) {
	s := robustSettings{path: w.path, nullZ: w.nullZ}
	if s.path < robustAdaptive || s.path > robustEquivariant {
		return s, fmt.Errorf("%w: path = %d", ErrParam, int(w.path))
	}
	switch {
	case math.IsNaN(s.nullZ) || math.IsInf(s.nullZ, 0):
		return s, fmt.Errorf("%w: null test threshold %v", ErrParam, w.nullZ)
	case s.nullZ == 0:
		s.nullZ = defaults.RobustNullZ
	case s.nullZ < 0:
		s.nullZ = 0
	}
	return s, nil
}

func (w *RobustWFLSNGCA) config(s robustSettings) config {
	return config{kernel: true, numCenters: w.NumCenters, centers: w.Centers, widths: w.Widths, ridges: w.Ridges,
		vWidths: w.VWidths, vRidges: w.VRidges,
		folds: w.Folds, src: w.Src, workers: w.Workers, progress: w.Progress, steps: s.steps(), rows: w.rows}
}

// Fit estimates the non-Gaussian index space of the rows of x (n×d). It
// returns an error wrapping one of the package's sentinels for invalid
// data or configuration, or the context's error if ctx is done. The
// Result's Report is a *RobustReport; its Eigenvalues are those of the
// estimate returned: the axes estimate's, or for the equivariant estimate
// those of its MIPP start (see Result.Eigenvalues).
//
// The random draws happen on the calling goroutine in a fixed order: the
// centers, the screens' rows (only if n > 50000), the selection
// partition, the stage partition, the MIPP start, one partition per
// refinement round, then on the adaptive path the test's partition and,
// if the comparison runs, one partition for each of its two fits.
func (w *RobustWFLSNGCA) Fit(ctx context.Context, x mat.Matrix) (*Result, error) {
	sw := newStopwatch()
	w, errProbe := w.probed(ctx)
	o, errSettings := w.settings()
	if errProbe != nil {
		errSettings = errProbe
	}
	pr, err := prepare(ctx, x, w.config(o), w.Dim, true)
	if err != nil {
		return nil, err
	}
	if errSettings != nil {
		return nil, errSettings
	}
	wh, err := newWhitening(pr.z)
	if err != nil {
		return nil, fmt.Errorf("robust WF-LSNGCA: %w", err)
	}
	sw.lap("prepare")
	rep := &RobustReport{P: math.NaN(), Distance: math.NaN(), NumCenters: pr.b, Folds: pr.folds}
	rep.detail.MissedAxes, rep.detail.MissedEquivariant, rep.detail.Wald = math.NaN(), math.NaN(), math.NaN()
	basis, err := fitRobust(ctx, pr, wh, w.Dim, o, rep, sw)
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
	res := &Result{Method: methodRobust, Mean: pr.scale.mean, Dependent: pr.dependent, Report: rep}
	if res.Basis, err = mapBack(basis, pr.scale.unscale); err != nil {
		return nil, err
	}
	res.Eigenvalues = rep.detail.StartEigenvalues
	if rep.Estimate == robustAxes.String() {
		res.Eigenvalues = rep.detail.AxesEigenvalues
	}
	rep.detail.Axes, rep.detail.Equivariant = back(rep.detail.Axes), back(rep.detail.Equivariant)
	if kept := pr.scale.kept; kept != nil {
		for _, cs := range [][]int{rep.detail.KernelCoords, rep.NullCoords} {
			for i, c := range cs {
				cs[i] = kept[c]
			}
		}
		for _, zs := range []*[]float64{&rep.detail.SelectZ, &rep.detail.MarginalZ} {
			if *zs == nil {
				continue
			}
			full := make([]float64, len(pr.scale.mean))
			for j := range full {
				full[j] = math.NaN()
			}
			for i, c := range kept {
				full[c] = (*zs)[i]
			}
			*zs = full
		}
	}
	res.Timings = sw.total()
	rep.record(ctx)
	return res, nil
}

// screenRows draws robustScreenRows of the n row indices uniformly
// without replacement, in increasing order, or returns nil, drawing
// nothing, if n is not larger.
func screenRows(rng *rand.Rand, n int) []int {
	if n <= robustScreenRows {
		return nil
	}
	idx := drawRows(rng, n, robustScreenRows)
	slices.Sort(idx)
	return idx
}

// methodRobust is the Result.Method of RobustWFLSNGCA's fits.
const methodRobust = "WF-LSNGCA robust"

func init() { register(&RobustWFLSNGCA{}) }

func (w *RobustWFLSNGCA) method() string     { return methodRobust }
func (w *RobustWFLSNGCA) dim() int           { return w.Dim }
func (w *RobustWFLSNGCA) equivariant() bool  { return false }
func (w *RobustWFLSNGCA) newReport() Report  { return &RobustReport{} }
func (w *RobustWFLSNGCA) rows(d int) rowNeed { return foldRows(methodRobust, d, foldsOf(w.Folds)) }

func (w *RobustWFLSNGCA) with(src rand.Source, workers int) Estimator {
	c := *w
	c.Src, c.Workers, c.Progress = src, workers, nil
	return &c
}

// refitsOf returns the estimator whose refits Check compares with res: w
// with its path set to the estimate res returned (RobustReport.Estimate), so
// that Check measures that estimate's sampling error and not how often the
// adaptive decision goes the other way; w itself if its path is not
// adaptive or res holds no such report.
func (w *RobustWFLSNGCA) refitsOf(res *Result) Estimator {
	rep, ok := res.Report.(*RobustReport)
	if w.path != robustAdaptive || !ok {
		return w
	}
	c := *w
	switch rep.Estimate {
	case robustAxes.String():
		c.path = robustAxes
	case robustEquivariant.String():
		c.path = robustEquivariant
	default:
		return w
	}
	return &c
}

// fitRobust runs the variant's path on the standardised data of pr, whose
// whitening is wh, and returns the chosen basis in standardised
// coordinates; rep receives the candidate bases (standardised) and the
// diagnostics. On the adaptive path it computes both candidates and
// keepAxes decides between them.
func fitRobust(ctx context.Context, pr *prepared, wh whitening, dim int, o robustSettings, rep *RobustReport, sw *stopwatch) (*mat.Dense, error) {
	sub := screenRows(pr.rng, pr.n)
	rep.detail.ScreenRows = pr.n
	if sub != nil {
		rep.detail.ScreenRows = len(sub)
	}
	var axes *mat.Dense
	if o.path != robustEquivariant {
		var err error
		if axes, err = axesEstimate(ctx, pr, wh, dim, o.nullZ, sub, rep, sw); err != nil {
			return nil, err
		}
		rep.detail.Axes, rep.Estimate = axes, robustAxes.String()
		if o.path == robustAxes {
			return axes, nil
		}
	}
	eq, err := equivariantEstimate(ctx, pr, wh, dim, sub, rep, sw)
	if err != nil {
		return nil, err
	}
	rep.detail.Equivariant, rep.detail.Refined = eq.basis, eq.refined
	if o.path == robustEquivariant {
		rep.Estimate = robustEquivariant.String()
		return eq.basis, nil
	}

	keep, err := keepAxes(ctx, eq, axes, dim, rep)
	if err != nil {
		return nil, err
	}
	sw.lap("test")
	if !keep {
		rep.Estimate = robustEquivariant.String()
		return eq.basis, nil
	}
	return axes, nil
}

// keepAxes is the adaptive decision between the axes estimate axes and the
// equivariant estimate eq (standardised coordinates; docs/robust.md, "How
// it works"): the axes estimate is kept only if the test at its frame
// (axesTest) does not reject at defaults.RobustLevel and it lies within
// defaults.RobustMaxDistance of the equivariant estimate, or beyond that when the
// equivariant estimate misses more structure than it does by
// defaults.RobustMissedMargin (missedBoth). It fills rep's Distance and P and the
// detail of each check that ran.
func keepAxes(ctx context.Context, eq *eqFit, axes *mat.Dense, dim int, rep *RobustReport) (bool, error) {
	rep.detail.Level, rep.detail.MaxDistance, rep.detail.MissedMargin = defaults.RobustLevel, defaults.RobustMaxDistance, defaults.RobustMissedMargin
	if eq.unrefinable {
		// No covariance to measure the axes estimate's distance by: the
		// burden of proof stays on it.
		rep.Distance = math.Inf(1)
		return false, nil
	}
	w, df := eq.wald(axes)
	rep.Distance = w / float64(df)
	aw, err := eq.wh.toWhitened(axes)
	if err != nil {
		return false, err
	}
	if err := axesTest(ctx, eq, axes, aw, dim, df, rep); err != nil || !(rep.P >= defaults.RobustLevel) {
		return false, err
	}
	if rep.Distance <= defaults.RobustMaxDistance {
		return true, nil
	}
	if err := missedBoth(ctx, eq.yw, eq.wh, eq.basis, aw, rep); err != nil {
		return false, err
	}
	return rep.detail.MissedEquivariant < rep.detail.MissedAxes-defaults.RobustMissedMargin, nil
}
