package ngca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Defaults of DimOptions: Alpha = 0 means DefaultDimAlpha, Bootstrap = 0
// means DefaultDimBootstrap.
const (
	DefaultDimAlpha     = 0.05
	DefaultDimBootstrap = 39
)

// DimMethod selects the estimator whose spectrum EstimateDim tests.
type DimMethod int

const (
	// DimMIPP tests the spectrum of MIPP with 50 index functions per
	// family (the paper's four families, 10 iterations, τ = 1.6): it
	// needs no tuning, so every bootstrap refit is the same estimator as
	// the fit to the data, and being affine equivariant its null
	// distribution on Gaussian data does not depend on the covariance.
	// It is the default.
	DimMIPP DimMethod = iota
	// DimWFLSNGCA tests the spectrum of WF-LSNGCA: a first fit with
	// cross-validation (the paper's grids) chooses the widths and ridges,
	// and the tested fits cross-validate (2 folds) over the few values
	// chosen, per stage. A refit costs about a third of a default fit, so
	// this is several times slower than DimMIPP.
	DimWFLSNGCA
	// DimLSNGCA tests the spectrum of LSNGCA, tuned as DimWFLSNGCA.
	DimLSNGCA
)

// String returns the name of the estimator: "MIPP", "WF-LSNGCA" or "LSNGCA".
func (m DimMethod) String() string {
	switch m {
	case DimMIPP:
		return methodMIPP
	case DimWFLSNGCA:
		return methodWFLSNGCA
	case DimLSNGCA:
		return methodLSNGCA
	}
	return fmt.Sprintf("DimMethod(%d)", int(m))
}

// DimOptions configure EstimateDim. The zero value gives the documented
// defaults: MIPP's spectrum, α = 0.05, B = 39, every dimension up to d − 1.
type DimOptions struct {
	// Method is the estimator whose spectrum is tested; the zero value is
	// DimMIPP.
	Method DimMethod
	// Alpha is the significance level of every test, 0 < Alpha < 1; 0
	// means 0.05.
	Alpha float64
	// Bootstrap is the number B of bootstrap replicates per test; 0 means
	// 39. A test can reject only if 1/(B + 1) ≤ Alpha.
	Bootstrap int
	// MaxDim is the largest dimension the search answers, 1 ≤ MaxDim < d;
	// 0 means d − 1. Dim = MaxDim when every k < MaxDim was rejected.
	MaxDim int
	// Src is the source of randomness (the estimator's random draws and
	// the bootstrap); EstimateDim draws from it on the calling goroutine.
	// nil means a new rand.NewPCG(0, 0).
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// serial. Bootstrap replicates run in parallel, one fit per goroutine;
	// results are bit-identical for any value.
	Workers int
	// Progress, if not nil, is called from the goroutine that called
	// EstimateDim: Stage "fit" (Step 1) for the fits to the data, then
	// Stage "k=0", "k=1", … (Step k + 2 of MaxDim + 1) with Done and
	// Total counting bootstrap replicates. The search usually stops
	// before the last step.
	Progress func(Progress)
}

// DimReport is the outcome of EstimateDim.
//
// How to read it: Tests[k] tests the hypothesis "exactly k non-Gaussian
// dimensions" (the data's last d − k directions are Gaussian). Its
// Statistic T_k is the (k+1)-th largest eigenvalue of the tested
// estimator's matrix; Null is the median of the same statistic on data
// that satisfy the hypothesis, so T_k/Null ≫ 1 with PValue = 1/(B + 1) is
// a clear rejection, and a PValue well above Alpha a clear acceptance. Dim
// is the first k not rejected. Separation, λ_Dim/λ_{Dim+1}, is the
// eigenvalue-ratio heuristic of Result.Separation for the answer.
type DimReport struct {
	// Dim is the estimated dimension of the non-Gaussian index space; 0
	// means that no non-Gaussian structure was found.
	Dim int
	// Method names the tested estimator ("MIPP", "WF-LSNGCA", "LSNGCA") and
	// Settings its fixed settings.
	Method, Settings string
	// Alpha, Bootstrap and MaxDim are the settings used (defaults
	// resolved).
	Alpha     float64
	Bootstrap int
	MaxDim    int
	// Eigenvalues is the tested estimator's spectrum on the data (all d,
	// descending).
	Eigenvalues []float64
	// Separation is λ_Dim/λ_{Dim+1} of Eigenvalues, skipping exact zeros
	// (see Result.Separation); NaN when Dim is 0.
	Separation float64
	// Tests holds one entry per tested k = 0, 1, …, in order: the last
	// is the accepted one unless every k < MaxDim was rejected.
	Tests []DimTest
}

// DimTest is the bootstrap test of one hypothesis "k non-Gaussian
// dimensions".
type DimTest struct {
	// K is the tested dimension.
	K int
	// Statistic is T_K = λ_{K+1}, the (K+1)-th largest eigenvalue of the
	// tested estimator's matrix on the data.
	Statistic float64
	// Null is the median of T_K over the bootstrap replicates.
	Null float64
	// Replicates is the number of bootstrap replicates run (fewer than
	// Bootstrap when the test stopped early, see EstimateDim) and Exceed
	// how many had T*_K ≥ T_K.
	Replicates, Exceed int
	// PValue is the Monte Carlo p-value: (1 + Exceed)/(Replicates + 1)
	// after all B replicates, Exceed/Replicates after an early stop.
	PValue float64
	// Rejected reports PValue ≤ Alpha.
	Rejected bool
}

// EstimateDim estimates the dimension m of the non-Gaussian index space of
// the rows of x (n×d, n > d) by a forward search of bootstrap tests: for
// k = 0, 1, …, MaxDim − 1 it tests the hypothesis that exactly k
// dimensions are non-Gaussian and answers the first k not rejected
// (MaxDim if all are).
//
// Every test compares the statistic T_k = λ_{k+1} of the tested estimator
// (DimOptions.Method) on the standardised data z with its values on B
// bootstrap data sets that satisfy the hypothesis, built as the "B1"
// bootstrap of Nordhausen, Oja, Tyler and Virta (ICtest, 2017), adapted to
// whitening-free estimators: with Ê_k the estimator's k-dimensional
// subspace, S the sample covariance of z, P = SÊ(ÊᵀSÊ)⁻¹Êᵀ and
// C = S − SÊ(ÊᵀSÊ)⁻¹ÊᵀS, a replicate keeps the signal part of rows drawn
// with replacement and redraws the rest from the conditional Gaussian:
//
//	z*ᵢ = P·z_{jᵢ} + C^(1/2)·gᵢ,   gᵢ ~ N(0, I),
//
// so that Êᵀz* has the data's distribution and the rest is exactly
// Gaussian, with the data's covariance. The p-value is
// (1 + #{T* ≥ T})/(B + 1). A test stops early (Besag and Clifford, 1991)
// once h = ⌊Alpha·(B + 1)⌋ replicates have reached T: it cannot reject any
// more, and the p-value is then #{T* ≥ T}/b after b replicates. Replicates
// run in batches of 8, in parallel over Workers; replicate i of test k
// draws from its own PCG source seeded from Src before the batch starts,
// so the report is the same for any number of workers.
//
// The cost is about B·(Dim + 1) fits of the tested estimator (fewer for
// the accepted k); see docs/dim.md for calibration, power and timings.
// Errors wrap ErrShape, ErrDim (d < 2 or MaxDim out of range),
// ErrSamples (n ≤ d), ErrNonFinite, ErrConstant, ErrSingular, ErrParam
// (Alpha, Bootstrap, Workers, Method) or the context's error.
func EstimateDim(ctx context.Context, x mat.Matrix, opts DimOptions) (*DimReport, error) {
	s, err := newDimSearch(ctx, x, opts)
	if err != nil {
		return nil, err
	}
	return s.run(ctx)
}

// dimSearch is the state of one EstimateDim call.
type dimSearch struct {
	pr      *prepared
	opts    DimOptions
	tester  *dimTester
	fitSeed [2]uint64 // the source of every fit to the data
	rep     *DimReport
	fits    map[int]*Result // the fits to the data by Dim
}

// newDimSearch checks the data and options and standardises the data.
func newDimSearch(ctx context.Context, x mat.Matrix, opts DimOptions) (*dimSearch, error) {
	if opts.Alpha == 0 {
		opts.Alpha = DefaultDimAlpha
	}
	if opts.Bootstrap == 0 {
		opts.Bootstrap = DefaultDimBootstrap
	}
	switch {
	case !(opts.Alpha > 0 && opts.Alpha < 1):
		return nil, fmt.Errorf("%w: Alpha = %v, need 0 < Alpha < 1", ErrParam, opts.Alpha)
	case opts.Bootstrap < 1:
		return nil, fmt.Errorf("%w: Bootstrap = %d", ErrParam, opts.Bootstrap)
	case 1/float64(opts.Bootstrap+1) > opts.Alpha:
		return nil, fmt.Errorf("%w: Bootstrap = %d is too small to reject at Alpha = %v: need B + 1 ≥ 1/Alpha", ErrParam, opts.Bootstrap, opts.Alpha)
	case opts.Method < DimMIPP || opts.Method > DimLSNGCA:
		return nil, fmt.Errorf("%w: unknown Method %d", ErrParam, int(opts.Method))
	}
	pr, err := prepare(ctx, x, config{src: opts.Src, workers: opts.Workers}, 0, false)
	if err != nil {
		return nil, err
	}
	switch {
	case pr.d < 2:
		return nil, fmt.Errorf("%w: data have %d column, need at least 2", ErrDim, pr.d)
	case pr.n <= pr.d:
		return nil, fmt.Errorf("%w: %d rows for %d columns; EstimateDim needs more rows than columns", ErrSamples, pr.n, pr.d)
	}
	if opts.MaxDim == 0 {
		opts.MaxDim = pr.d - 1
	}
	if opts.MaxDim < 1 || opts.MaxDim >= pr.d {
		return nil, fmt.Errorf("%w: MaxDim = %d, need 1 ≤ MaxDim ≤ %d for %d columns", ErrDim, opts.MaxDim, pr.d-1, pr.d)
	}
	pr.progress = &reporter{fn: opts.Progress, steps: opts.MaxDim + 1}
	s := &dimSearch{pr: pr, opts: opts, fits: map[int]*Result{}}
	s.fitSeed = [2]uint64{pr.rng.Uint64(), pr.rng.Uint64()}
	s.rep = &DimReport{Method: opts.Method.String(), Alpha: opts.Alpha, Bootstrap: opts.Bootstrap, MaxDim: opts.MaxDim, Separation: math.NaN()}
	return s, nil
}

// run tunes the tested estimator and runs the forward search.
func (s *dimSearch) run(ctx context.Context) (*DimReport, error) {
	s.pr.progress.begin("fit")
	var err error
	if s.tester, err = newDimTester(ctx, s.opts.Method, s.pr); err != nil {
		return nil, err
	}
	s.rep.Settings = s.tester.settings
	first, err := s.dataFit(ctx, 1)
	if err != nil {
		return nil, err
	}
	s.rep.Eigenvalues = first.Eigenvalues
	s.rep.Dim = s.opts.MaxDim
	for k := 0; k < s.opts.MaxDim; k++ {
		t, err := s.test(ctx, k)
		if err != nil {
			return nil, err
		}
		s.rep.Tests = append(s.rep.Tests, t)
		if !t.Rejected {
			s.rep.Dim = k
			break
		}
	}
	if s.rep.Dim > 0 {
		s.rep.Separation = separation(s.rep.Eigenvalues, s.rep.Dim)
	}
	return s.rep, nil
}

// dataFit fits the tested estimator with the given Dim to the data, always
// from the same source, so that every fit has the same spectrum.
func (s *dimSearch) dataFit(ctx context.Context, dim int) (*Result, error) {
	if r, ok := s.fits[dim]; ok {
		return r, nil
	}
	est := s.tester.make(dim, rand.NewPCG(s.fitSeed[0], s.fitSeed[1]), s.pr.workers, s.pr.progress.forward())
	r, err := est.Fit(ctx, s.pr.z)
	if err != nil {
		return nil, fmt.Errorf("ngca: EstimateDim: %s with Dim = %d on the data: %w", s.tester.label, dim, err)
	}
	if len(r.Eigenvalues) != s.pr.d {
		return nil, fmt.Errorf("%w: EstimateDim: %s returned no spectrum", ErrSingular, s.tester.label)
	}
	s.fits[dim] = r
	return r, nil
}
