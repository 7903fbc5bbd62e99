package ngca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

// MIPPReport is the Report of MIPP.
type MIPPReport struct {
	// KeptFunctions is the number of index functions whose normalised β
	// passed the signal-to-noise threshold, the vectors whose spread gives
	// the estimate.
	KeptFunctions int

	// The settings the fit used (the defaults resolved), and per family
	// of index functions what it kept (probe.RecordMIPP).
	iterations int
	threshold  float64
	families   []familyCount
}

func (*MIPPReport) isReport() {}

// familyCount reports what MIPP kept of one family of index functions.
type familyCount struct {
	// Family is the name of the family's kind (familyKind.String).
	Family string
	// Kept counts the functions whose normalised β passed the threshold,
	// out of Total, the number of functions in the family.
	Kept, Total int
	// Degenerate counts the functions dropped without a threshold test
	// because β vanished or was not finite during the iterations, or its
	// normaliser was not positive and finite. They are not in Kept.
	Degenerate int
}

// MIPP is multi-index projection pursuit (Blanchard, Kawanabe, Sugiyama,
// Spokoiny and Müller, JMLR 2006), as described in Shiino et al. (ACML 2017,
// §2.2, configured as in §4.1). It whitens the standardised data,
// y = W·(z − μ) with W = Σ^(−1/2) (as LSNGCA), and uses that for an index
// function h(y) = s(wᵀy) the vector
//
//	β = (1/n) Σᵢ [ yᵢ s(wᵀyᵢ) − s′(wᵀyᵢ) w ]
//
// estimates a vector of the non-Gaussian index space. For every function of
// every family it starts from a random unit vector w and repeats the
// FastICA-style step
//
//	w ← β/‖β‖
//
// Iterations − 1 times, then computes β once more from the final w. It
// normalises that β so that √n‖β‖ is its signal-to-noise ratio,
//
//	β ← β / √( (1/n) Σᵢ ‖yᵢ s(wᵀyᵢ) − s′(wᵀyᵢ) w‖² − ‖β‖² ),
//
// keeps it if √n‖β‖ > τ (Threshold), and returns W·B, mapped back to the
// caller's coordinates and orthonormalised, where B holds the Dim leading
// eigenvectors of (1/k) Σ β βᵀ over the k kept vectors. Result.Eigenvalues
// are the eigenvalues of that matrix (whitened coordinates), and the
// Result's Report is a *MIPPReport, whose Kept says how many functions of
// each family were kept.
//
// The start of each function is w = Yᵀg/‖Yᵀg‖, a combination of the
// whitened rows with n random signs g (drawn from Src family by family,
// parameter by parameter, ⌈n/64⌉ Uint64 values per function, bit i of
// word i/64 set meaning gᵢ = −1). Because YᵀY = (n−1)·I, Yᵀg has an
// isotropic covariance, so the starts are spread over all directions like
// normalised Gaussian vectors; unlike those, they turn with the data, so
// that for a given Src the estimate is equivariant under any invertible
// linear map of the data, x ↦ M·x (permutations, sign flips and rescalings
// of the columns, rotations): the subspace becomes M⁻ᵀ times the one
// estimated from x, up to rounding.
//
// Deviations from the authors' script: every β is normalised before the
// threshold test, as the paper says, whereas the script normalises only the
// familyGaussPow3 family (a bug); the random starts are drawn as above rather
// than independently of the data; and the whitening is that of LSNGCA, on
// standardised data. Iterations counts evaluations of β, as the script's
// loop does: its default of 10 is 9 updates of w and a 10th evaluation of
// β.
//
// If fewer than Dim functions pass the threshold (with a large Threshold or
// few index functions), or the kept vectors span fewer than Dim
// dimensions, Fit returns an error wrapping ErrSingular rather than a basis
// with arbitrary directions. On data without non-Gaussian structure many
// optimised functions still pass τ = 1.6 (hundreds of the 4000 on Gaussian
// data), so there the sign is the lack of a gap after the Dim-th of
// Result.Eigenvalues, not an error. A singular covariance is reported as
// ErrSingular; a column that is a copy or a linear combination of others
// is left out of the fit (Result.Dependent).
//
// Fit returns an error wrapping ErrSamples when n < d + 2, d the data's
// columns: whitening needs more rows than columns, and d + 1 rows whiten
// to the corners of a regular simplex whatever the data (they are the
// image of any other d + 1 rows under an affine map), which leaves an
// estimate that turns with the data no shape to find directions in.
//
// The zero value (with Dim set) gives the settings of the paper.
type MIPP struct {
	// Dim is the dimension m of the non-Gaussian index space, 1 ≤ Dim < d.
	Dim int
	// families lists the families of index functions; empty means the
	// paper's four families of 1000 functions each (defaultFamilies); the
	// studies set others through probe.Settings.Families.
	families []family
	// Iterations is the number of evaluations of β per index function
	// (Iterations − 1 updates of w, then the final β), at least 1; 0 means
	// 10, as the authors' script.
	Iterations int
	// Threshold is the cut-off τ > 0 on √n‖β‖ of the normalised β; 0
	// means 1.6.
	Threshold float64
	// Src is the source of randomness (the starts of the index functions).
	// Fit draws from it on the calling goroutine, so fitting twice
	// continues the stream; a Source must not be shared by concurrent fits.
	// nil means a new rand.NewPCG(0, 0) for every fit.
	// To repeat a fit, give each Fit a freshly seeded source.
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// serial. Results are bit-identical for any value.
	Workers int
	// Progress, if not nil, is called from the goroutine that called Fit
	// after each index function, with Stage "mipp"; Done and Total count
	// index functions.
	Progress func(Progress)
}

// Fit estimates the non-Gaussian index space of the rows of x (n×d). It
// returns an error wrapping one of the package's sentinels for invalid
// data or configuration, or the context's error if ctx is done.
func (m *MIPP) Fit(ctx context.Context, x mat.Matrix) (*Result, error) {
	sw := newStopwatch()
	pr, err := prepare(ctx, x, config{src: m.Src, workers: m.Workers, progress: m.Progress, steps: 1, rows: m.rows}, m.Dim, true)
	if err != nil {
		return nil, err
	}
	m, err = m.probed(ctx)
	if err != nil {
		return nil, err
	}
	fams, iters, tau, err := m.settings()
	if err != nil {
		return nil, err
	}
	wh, err := newWhitening(pr.z)
	if err != nil {
		return nil, err
	}
	y := wh.apply(pr.z)
	sw.lap("prepare")
	b, eig, kept, err := mippEstimate(ctx, y, m.Dim, fams, iters, tau, &pr.plan, sw)
	if err != nil {
		return nil, err
	}
	basis, err := mapBack(b, func(b mat.Matrix) *mat.Dense { return pr.scale.unscale(wh.unwhiten(b)) })
	if err != nil {
		return nil, err
	}
	sw.lap("eigen")
	rep := &MIPPReport{KeptFunctions: keptTotal(kept), iterations: iters, threshold: tau, families: kept}
	probe.RecordMIPP(ctx, rep, rep.probeDetail())
	return &Result{Method: methodMIPP, Basis: basis, Eigenvalues: eig, Mean: pr.scale.mean, Dependent: pr.dependent, Timings: sw.total(),
		Report: rep}, nil
}

// mippEstimate is MIPP on data already prepared: the whitened rows y
// (n×d). It runs the index functions of fams (iters evaluations of β each,
// threshold tau) with the random starts drawn from p.rng, on p.workers
// goroutines, reporting to p.progress as the stage "mipp", and laps "mipp"
// on sw. It returns the dim leading eigenvectors B of (1/k) Σ β βᵀ over
// the k kept vectors (d×dim, whitened coordinates), all d eigenvalues in
// descending order, and what was kept of each family.
func mippEstimate(ctx context.Context, y *mat.Dense, dim int, fams []mippFamily, iters int, tau float64, p *plan, sw *stopwatch) (*mat.Dense, []float64, []familyCount, error) {
	_, d := y.Dims()
	fns := indexFunctions(fams)
	pp := newMIPPProblem(y, iters, tau, p.rng, len(fns))
	p.progress.begin("mipp")
	betas, status, err := pp.runAll(ctx, p.workers, fns, p.progress)
	if err != nil {
		return nil, nil, nil, err
	}
	kept, rows := keptVectors(fams, fns, betas, status, d)
	sw.lap("mipp")
	k := len(rows) / d
	if k < dim {
		return nil, nil, nil, &fewKeptError{kept: k, total: len(fns), tau: tau, dim: dim}
	}
	b, eig, err := leadingBasis(mat.NewDense(k, d, rows), dim, "kept vectors β")
	if err != nil {
		return nil, nil, nil, err
	}
	return b, eig, kept, nil
}

// methodMIPP is the Result.Method of MIPP's fits.
const methodMIPP = "MIPP"

func init() { register(&MIPP{}) }

func (m *MIPP) method() string     { return methodMIPP }
func (m *MIPP) dim() int           { return m.Dim }
func (m *MIPP) equivariant() bool  { return true }
func (m *MIPP) newReport() Report  { return &MIPPReport{} }
func (m *MIPP) rows(d int) rowNeed { return whitenedRows(methodMIPP, d) }

func (m *MIPP) with(src rand.Source, workers int) Estimator {
	c := *m
	c.Src, c.Workers, c.Progress = src, workers, nil
	return &c
}

// keptTotal returns the number of functions kept over all families.
func keptTotal(counts []familyCount) int {
	n := 0
	for _, c := range counts {
		n += c.Kept
	}
	return n
}

// keptVectors counts, per family, the kept and degenerate functions, and
// returns the kept β in function order (k×d, row-major).
func keptVectors(fams []mippFamily, fns []indexFn, betas []float64, status []uint8, d int) ([]familyCount, []float64) {
	kept := make([]familyCount, len(fams))
	for i, f := range fams {
		kept[i] = familyCount{Family: f.kind.String(), Total: len(f.params)}
	}
	var rows []float64
	for f, fn := range fns {
		switch status[f] {
		case mippKept:
			kept[fn.family].Kept++
			rows = append(rows, betas[f*d:(f+1)*d]...)
		case mippDegenerate:
			kept[fn.family].Degenerate++
		}
	}
	return kept, rows
}

// probed returns a copy of m with the families that ctx's
// probe.Settings give, where m has none of its own.
func (m *MIPP) probed(ctx context.Context) (*MIPP, error) {
	c := *m
	if c.families != nil {
		return &c, nil
	}
	var err error
	c.families, err = familiesFrom(probe.SettingsFrom(ctx).Families)
	return &c, err
}

// probeDetail returns the report's settings and per-family counts for the
// studies (internal/probe).
func (r *MIPPReport) probeDetail() probe.MIPPDetail {
	d := probe.MIPPDetail{Iterations: r.iterations, Threshold: r.threshold}
	for _, c := range r.families {
		d.Families = append(d.Families, probe.FamilyCount{Family: c.Family, Kept: c.Kept, Total: c.Total, Degenerate: c.Degenerate})
	}
	return d
}

// settings checks MIPP's own fields and returns the families, the number of
// iterations and the threshold.
func (m *MIPP) settings() (fams []mippFamily, iters int, tau float64, err error) {
	switch iters = m.Iterations; {
	case iters == 0:
		iters = defaults.MIPPIterations
	case iters < 0:
		return nil, 0, 0, fmt.Errorf("%w: Iterations = %d", ErrParam, m.Iterations)
	}
	switch tau = m.Threshold; {
	case tau == 0:
		tau = defaults.MIPPThreshold
	case !(tau > 0) || math.IsInf(tau, 1):
		return nil, 0, 0, fmt.Errorf("%w: Threshold = %v, need a positive finite value", ErrParam, m.Threshold)
	}
	families := m.families
	if len(families) == 0 {
		families = defaultFamilies()
	}
	fams = make([]mippFamily, len(families))
	for i, f := range families {
		fams[i].kind = f.Kind
		if fams[i].params, err = f.params(i); err != nil {
			return nil, 0, 0, err
		}
	}
	return fams, iters, tau, nil
}

// fewKeptError reports that fewer index functions passed MIPP's threshold
// than Dim: the matrix Σββᵀ of the kept vectors has rank kept < Dim, so its
// eigenvalues from the (kept+1)-th on are zero. It wraps ErrSingular.
type fewKeptError struct {
	kept, total, dim int
	tau              float64
}

func (e *fewKeptError) Error() string {
	return fmt.Sprintf("%v: MIPP: only %d of %d index functions passed the threshold τ = %g, need at least Dim = %d; lower Threshold or check Dim",
		ErrSingular, e.kept, e.total, e.tau, e.dim)
}

func (e *fewKeptError) Unwrap() error { return ErrSingular }
