package ngca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

// Defaults of IMAK's configuration fields (docs/imak.md gives the
// measurements that chose them).
const (
	defaultIMAKAlpha     = 0.5
	defaultIMAKMaxPasses = 50
	defaultIMAKTol       = 1e-9
)

// IMAK is iterative metric adaptation of radial kernel index functions,
// after Kawanabe, Sugiyama, Blanchard and Müller (Annals of the Institute
// of Statistical Mathematics 59, 2007). Of that method only its outline is
// confirmed (Shiino et al., ACML 2017, §1 and Table 1): it whitens the
// data, learns the index functions from the data in the form of radial
// kernel functions, and iterates. Everything below is this library's
// reconstruction on that outline, not the published algorithm; see
// docs/imak.md.
//
// It whitens the standardised data, y = W·(z − μ) with W = Σ^(−1/2) (as
// LSNGCA and MIPP), and uses the identity of Blanchard et al. (JMLR 2006)
// that for whitened data and any smooth g the vector E[y·g(y) − ∇g(y)]
// lies in the non-Gaussian index space. For the radial kernel
// h(y) = exp(−½yᵀMy) and g_j(y) = h(y)·y_j, j = 1…d, these vectors are
// the columns of
//
//	Ĝ = (I + M)·C − I,   C = Σᵢ hᵢyᵢyᵢᵀ / Σᵢ hᵢ,   hᵢ = h(yᵢ)
//
// (each column divided by the mean weight), an O(n·d²) weighted
// covariance. Each pass takes as estimate Û the Dim leading eigenvectors
// of ĜĜᵀ (the leading left singular vectors of Ĝ). The metric is adapted
// from pass to pass:
//
//	M = α·I (pass 1),   M = α·(ÛÛᵀ + ε_k·(I − ÛÛᵀ)) (pass k ≥ 2),
//
// so that with ε_k falling along Schedule the kernel comes to depend on
// the estimated non-Gaussian coordinates alone, which raises the
// effective sample size of the weights. The passes stop once Schedule is
// used up and ‖ÛÛᵀ − Û₋₁Û₋₁ᵀ‖_F ≤ Tol, or after MaxPasses. Fit returns W·Û,
// mapped back to the caller's coordinates and orthonormalised;
// Result.Eigenvalues are the eigenvalues of the last pass's ĜĜᵀ
// (whitened coordinates), and Result.Report is an *IMAKReport.
//
// Because Ĝ's columns lie in the index space for every metric, a metric
// that is not yet aligned with the index space causes no bias, and the
// passes converge. The symmetric second-order matrix of the first
// reconstruction, D̂ = sym(Ĝ·(I − M)), lacks this property: for
// a tilted metric its cross block between the index space and its
// complement is biased, and at α ≥ 0.5 and small ε the passes drift away
// from the fixed point. Ĝ with M = α·I is the reweighted PCA of Tan and
// Vershynin (COLT 2018): Gaussian directions have eigenvalue 1/(1 + α) in
// C.
//
// The fit is deterministic and, for any Src, exactly equivariant under
// invertible linear maps of the data, x ↦ A·x: whitening turns the map
// into a rotation, with which the kernels, the metric and Ĝ turn, so that
// the subspace becomes A⁻ᵀ times the one estimated from x, up to rounding.
// Fit returns an error wrapping ErrSamples when n < d + 2, d the data's
// columns, as MIPP does (d + 1 whitened rows have no shape left), and
// ErrSingular for a covariance that cannot be whitened or a last matrix
// with fewer than Dim nonzero eigenvalues; a column that is a copy or a
// linear combination of others is left out of the fit (Result.Dependent).
//
// The zero value (with Dim set) gives the defaults: α = 0.5, Schedule
// 0.5, 0.25, 0.1, 0.05, 0.02, 0, Tol = 1e-9, at most 50 passes.
type IMAK struct {
	// Dim is the dimension m of the non-Gaussian index space, 1 ≤ Dim < d.
	Dim int
	// Alpha is the scale α > 0 of the kernel metric; 0 means 0.5. With
	// the symmetric form, α = 1 is invalid (D̂ vanishes on the first pass).
	Alpha float64
	// Schedule lists the weight ε ∈ [0, 1] of the current noise estimate
	// in the metric of passes 2, 3, … (pass 1 is isotropic); passes
	// beyond the list use its last value. Empty means 0.5, 0.25, 0.1,
	// 0.05, 0.02, 0.
	Schedule []float64
	// MaxPasses caps the number of passes, at least 1 + len(Schedule);
	// 0 means max(50, 1 + len(Schedule)).
	MaxPasses int
	// Tol is the tolerance on the change ‖ÛÛᵀ − Û₋₁Û₋₁ᵀ‖_F of the
	// projector onto the estimate between passes, > 0; 0 means 1e-9.
	Tol float64
	// symmetric, if true, takes Û from the symmetric matrix
	// D̂ = sym(Ĝ·(I − M)) = C − M·C·M − (I − M) (its Dim eigenvectors of
	// largest |eigenvalue|) instead of ĜĜᵀ: the second-order form first
	// reconstructed, less accurate and not always convergent (see above).
	// The studies set it through probe.Settings.IMAKSymmetric.
	symmetric bool
	// Src is not used: the fit is deterministic.
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// serial. A pass hands the workers tasks of 2048 rows, so a fit of at
	// most 2048 rows is serial. Results are bit-identical for any value.
	Workers int
	// Progress, if not nil, is called from the goroutine that called Fit
	// after each pass, with Stage "imak"; Done counts passes out of Total =
	// MaxPasses, and jumps to Total when the passes converge.
	Progress func(Progress)
}

// IMAKReport is the Report of IMAK.
type IMAKReport struct {
	// MaxPasses is the cap on the passes the fit used (the default
	// resolved).
	MaxPasses int
	// Passes is the number of passes run; Converged reports whether the
	// last one changed the projector by at most Tol, after the Schedule
	// was used up (otherwise the fit stopped at MaxPasses).
	Passes    int
	Converged bool
	// Changes holds ‖ÛÛᵀ − Û₋₁Û₋₁ᵀ‖_F for the passes 2, …, Passes.
	Changes []float64
}

func (*IMAKReport) isReport() {}

// imakSettings are IMAK's own fields, checked, with the defaults resolved.
type imakSettings struct {
	symmetric bool
	alpha     float64
	schedule  []float64
	maxPasses int
	tol       float64
}

// defaultIMAKSchedule returns the default schedule of IMAK, the weight ε
// of the current noise estimate in the metric of passes 2, 3, …:
// 0.5, 0.25, 0.1, 0.05, 0.02, 0.
func defaultIMAKSchedule() []float64 { return []float64{0.5, 0.25, 0.1, 0.05, 0.02, 0} }

// settings checks IMAK's fields and fills in their defaults; symmetric
// (probe.Settings.IMAKSymmetric) selects the symmetric form, as
// im.symmetric does.
func (im *IMAK) settings(symmetric bool) (imakSettings, error) {
	s := imakSettings{symmetric: im.symmetric || symmetric, alpha: im.Alpha, schedule: im.Schedule, maxPasses: im.MaxPasses, tol: im.Tol}
	switch {
	case s.alpha == 0:
		s.alpha = defaultIMAKAlpha
	case !(s.alpha > 0) || math.IsInf(s.alpha, 1):
		return s, fmt.Errorf("%w: Alpha = %v, need a positive finite value", ErrParam, im.Alpha)
	case s.symmetric && s.alpha == 1:
		return s, fmt.Errorf("%w: Alpha = 1 with the symmetric form: D̂ vanishes", ErrParam)
	}
	if len(s.schedule) == 0 {
		s.schedule = defaultIMAKSchedule()
	} else {
		for k, e := range s.schedule {
			if !(e >= 0 && e <= 1) {
				return s, fmt.Errorf("%w: Schedule[%d] = %v, need a value in [0, 1]", ErrParam, k, e)
			}
		}
		s.schedule = append([]float64(nil), s.schedule...)
	}
	switch {
	case s.maxPasses == 0:
		s.maxPasses = max(defaultIMAKMaxPasses, 1+len(s.schedule))
	case s.maxPasses < 1+len(s.schedule):
		return s, fmt.Errorf("%w: MaxPasses = %d, need at least 1 + len(Schedule) = %d", ErrParam, im.MaxPasses, 1+len(s.schedule))
	}
	switch {
	case s.tol == 0:
		s.tol = defaultIMAKTol
	case !(s.tol > 0) || math.IsInf(s.tol, 1):
		return s, fmt.Errorf("%w: Tol = %v, need a positive finite value", ErrParam, im.Tol)
	}
	return s, nil
}

// Fit estimates the non-Gaussian index space of the rows of x (n×d). It
// returns an error wrapping one of the package's sentinels for invalid
// data or configuration, or the context's error if ctx is done. The
// Result's Report is an *IMAKReport.
func (im *IMAK) Fit(ctx context.Context, x mat.Matrix) (*Result, error) {
	sw := newStopwatch()
	pr, err := prepare(ctx, x, config{src: im.Src, workers: im.Workers, progress: im.Progress, steps: 1, rows: im.rows}, im.Dim, true)
	if err != nil {
		return nil, err
	}
	s, err := im.settings(probe.SettingsFrom(ctx).IMAKSymmetric)
	if err != nil {
		return nil, err
	}
	wh, err := newWhitening(pr.z)
	if err != nil {
		return nil, err
	}
	ip := newIMAKProblem(wh.apply(pr.z), s.alpha, pr.workers)
	sw.lap("prepare")

	pr.progress.begin("imak")
	u, eig, rep, err := ip.iterate(ctx, pr.workers, im.Dim, s, pr.progress)
	if err != nil {
		return nil, err
	}
	sw.lap("imak")
	basis, err := mapBack(u, func(b mat.Matrix) *mat.Dense { return pr.scale.unscale(wh.unwhiten(b)) })
	if err != nil {
		return nil, err
	}
	sw.lap("basis")
	return &Result{Method: methodIMAK, Basis: basis, Eigenvalues: eig, Mean: pr.scale.mean, Dependent: pr.dependent, Timings: sw.total(), Report: rep}, nil
}

// methodIMAK is the Result.Method of IMAK's fits.
const methodIMAK = "IMAK"

func init() { register(&IMAK{}) }

func (im *IMAK) method() string     { return methodIMAK }
func (im *IMAK) dim() int           { return im.Dim }
func (im *IMAK) equivariant() bool  { return true }
func (im *IMAK) newReport() Report  { return &IMAKReport{} }
func (im *IMAK) rows(d int) rowNeed { return whitenedRows(methodIMAK, d) }

func (im *IMAK) with(src rand.Source, workers int) Estimator {
	c := *im
	c.Src, c.Workers, c.Progress = src, workers, nil
	return &c
}

// iterate runs the passes and returns the final Û (whitened coordinates),
// the eigenvalue magnitudes of the last pass's matrix and the report.
func (ip *imakProblem) iterate(ctx context.Context, workers, dim int, s imakSettings, rep *reporter) (*mat.Dense, []float64, *IMAKReport, error) {
	r := &IMAKReport{MaxPasses: s.maxPasses}
	var u *mat.Dense
	var eig []float64
	for k := 1; k <= s.maxPasses; k++ {
		e := 1.0
		if k > 1 {
			e = s.schedule[min(k-2, len(s.schedule)-1)]
		}
		next, vals, err := ip.estimate(ctx, workers, dim, u, e, s.symmetric)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w in pass %d", err, k)
		}
		r.Passes, eig = k, vals
		if u != nil {
			c := projectorChange(u, next)
			r.Changes = append(r.Changes, c)
			r.Converged = k > len(s.schedule) && c <= s.tol
		}
		u = next
		if r.Converged {
			rep.report(s.maxPasses, s.maxPasses)
			break
		}
		rep.report(k, s.maxPasses)
	}
	return u, eig, r, nil
}

// estimate runs one pass with the metric given by u and e and returns the
// new estimate Û and the eigenvalue magnitudes of ĜĜᵀ (or D̂).
func (ip *imakProblem) estimate(ctx context.Context, workers, dim int, u *mat.Dense, e float64, symmetric bool) (*mat.Dense, []float64, error) {
	c, m, err := ip.weightedCov(ctx, workers, u, e)
	if err != nil {
		return nil, nil, err
	}
	a, name := firstOrder(c, m), "ĜĜᵀ"
	if symmetric {
		a, name = secondOrder(c, m), "D̂"
	}
	if checkFinite(name, a) != nil {
		return nil, nil, fmt.Errorf("%w: IMAK: %s is not finite", ErrSingular, name)
	}
	next, vals, ok := absEigen(a, dim)
	if !ok {
		return nil, nil, fmt.Errorf("%w: IMAK: eigendecomposition of %s did not converge", ErrSingular, name)
	}
	if d := len(vals); !(vals[dim-1] > float64(d)*eps*vals[0]) {
		return nil, nil, fmt.Errorf("%w: IMAK: %s has fewer than Dim = %d nonzero eigenvalues (%.3g)", ErrSingular, name, dim, vals)
	}
	return next, vals, nil
}
