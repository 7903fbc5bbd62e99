package ngca

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Defaults of DimOptions: Alpha = 0 means defaultDimAlpha, Bootstrap = 0
// means defaultDimBootstrap.
const (
	defaultDimAlpha     = 0.05
	defaultDimBootstrap = 39
)

// DimOptions configure EstimateDim. The zero value gives the documented
// defaults: α = 0.05, B = 39, every dimension up to d − 1.
type DimOptions struct {
	// Alpha is the significance level of every test, 0 < Alpha < 1; 0
	// means 0.05.
	Alpha float64
	// Bootstrap is the number B of Monte Carlo replicates (Gaussian data
	// sets, a parametric bootstrap) per test; 0 means 39. A test can
	// reject only if 1/(B + 1) ≤ Alpha.
	Bootstrap int
	// MaxDim is the largest dimension the search answers, 1 ≤ MaxDim < d;
	// 0 means d − 1. Dim = MaxDim when the test of MaxDim − 1 was
	// rejected.
	MaxDim int
	// Src is the source of randomness of the replicates; EstimateDim
	// draws from it on the calling goroutine. nil means a new
	// rand.NewPCG(0, 0).
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// serial. Replicates run in parallel, one per goroutine, each from its
	// own source drawn from Src in order; results are bit-identical for
	// any value.
	Workers int
	// Progress, if not nil, is called from the goroutine that called
	// EstimateDim: Stage "k=0", "k=3", "k=2", … for each test, in the
	// order run, and "rest" for the test of the remainder, with Done and
	// Total counting replicates. Steps bounds the number of stages; the
	// search usually needs fewer.
	Progress func(Progress)
	// KeepFarRows keeps the rows that FarRows sets aside. By default
	// (false) EstimateDim tests the other rows and names those in
	// DimReport.SetAside: one far row stretches the whitening in its
	// direction, which then looks non-Gaussian to any index.
	KeepFarRows bool
}

// DimReport is the outcome of EstimateDim.
//
// How to read it: Tests[i] tests the hypothesis "exactly K non-Gaussian
// dimensions" (the data's other d − K directions are jointly Gaussian and
// independent of them). Its Statistic is the non-Gaussianity index of the
// most non-Gaussian direction a projection pursuit finds outside the K
// most significant directions found, and Null the median of the same on
// Gaussian data of d − K columns: Statistic ≫ Null with PValue = 1/(B + 1) is a
// clear rejection, a PValue well above Alpha a clear acceptance. Dim is the
// K at which the tests turn from rejected to accepted.
//
// Dim counts the directions that the tests can resolve one by one;
// Remainder says whether the d − Dim directions left are jointly Gaussian,
// and FewRows whether the rows are few for the columns. Dim = 0 with
// Remainder rejected means non-Gaussian structure that no single direction
// showed: with FewRows, more rows may resolve it.
type DimReport struct {
	// Dim is the estimated dimension of the non-Gaussian index space: the
	// number of non-Gaussian directions resolved. 0 means none was.
	Dim int
	// FewRows reports that the data have fewer rows n than max(2d², 32d),
	// d the number of columns: fewer rows than a weak symmetric signal in a
	// direction that mixes the columns needs to be resolved, so Dim may undercount (signals along the columns and
	// skewed or strongly non-Gaussian ones are still found). The pursuit
	// starts from fourth moments, whose matrix (FOBI's) carries noise of
	// spread about q·√(2/n) per direction for q columns: a direction of
	// excess kurtosis κ stands out of it above 2q²/κ² rows, 2d² for |κ| = 1
	// (a uniform signal has −1.2). And the index J of the best of q
	// Gaussian directions grows about as 3q, while a uniform direction's
	// is 0.13·n: below about 32 rows per column it does not stand out
	// (the larger bound below d = 16).
	FewRows bool
	// Index holds the non-Gaussianity index J of each direction the
	// deflation found, the most significant first (by J over its median on
	// Gaussian data), as far as the search went. The test of K looks
	// outside the first K of them.
	Index []float64
	// Tests holds the tests run, by ascending K: the search tests its
	// guess and the K below it, and more only when they disagree with
	// it, so that it runs a few tests, not Dim + 1.
	Tests []DimTest
	// Remainder tests whether the d − Dim directions left are jointly
	// Gaussian by all of their fourth moments at once (the squared
	// Frobenius norm of FOBI's matrix net of its Gaussian value; Columns
	// and ColumnsNull are 0), with all B replicates. Rejected means
	// non-Gaussian structure beyond the Dim directions, too weak or too
	// spread to be resolved direction by direction.
	Remainder DimTest
	// SetAside holds the indices, ascending, of the rows of x that
	// FarRows set aside and the tests left out (nil with
	// DimOptions.KeepFarRows).
	SetAside []int

	// The settings used, the defaults resolved (opts), and a description
	// of the test's fixed settings; the command reads them through
	// studyhook.DimDetails.
	settings             string
	alpha                float64
	bootstrap, maxDim, d int
}

// DimTest is the test of one hypothesis "K non-Gaussian dimensions".
type DimTest struct {
	// K is the tested dimension.
	K int
	// Statistic is the index J of the most non-Gaussian direction the
	// pursuit finds outside the K most significant directions found
	// (DimReport.Index), and Null its median over the replicates.
	Statistic, Null float64
	// Columns is the largest J of the data's columns outside the K
	// directions (unrefined: a second statistic, for signals that lie
	// along the columns), and ColumnsNull its median over the replicates.
	Columns, ColumnsNull float64
	// Replicates is the number of replicates run (fewer than Bootstrap
	// when the test stopped early, see EstimateDim).
	Replicates int
	// PValue is the Monte Carlo p-value: (1 + e)/(Replicates + 1) after
	// all B replicates, e the number of replicates at least as extreme as
	// the data; after an early stop the larger of e/Replicates and
	// (1 + e)/(B + 1).
	PValue float64
	// Rejected reports PValue ≤ Alpha.
	Rejected bool

	exceed int // the replicates at least as extreme as the data
}

// EstimateDim estimates the dimension m of the non-Gaussian index space of
// the rows of x (n×d, n > d): the number of directions in which the data
// are not Gaussian, when the rest are jointly Gaussian and independent of
// them.
//
// The data are whitened (centred, with sample covariance I), which turns
// the Gaussian part of any covariance into isotropic noise, and a
// deflationary projection pursuit finds one direction after another, each
// the most non-Gaussian outside those before it by the index
//
//	J(u) = n·[ m₁²/v₁ + (m₂ − 1/√2)²/v₂ ],  m₁, m₂ the means of
//	       yᵤ·exp(−yᵤ²/2) and exp(−yᵤ²/2) over the rows, yᵤ = u·y,
//
// a robust approximation of negentropy (Hyvärinen 1997) scaled so that J
// of one fixed direction is asymptotically χ²₂ on Gaussian data. The
// search for each direction starts from the eigenvectors at both ends of
// FOBI's fourth-moment matrix (Cardoso 1989), separated by FastICA
// (Hyvärinen 1999) whose steps climb J, from the skewness vector and from
// the data's columns;
// a column's own direction is taken when it stands further above its
// Gaussian median than the pursuit's best. This is the deflation-based
// non-Gaussian projection pursuit of Nordhausen, Oja, Tyler and Virta
// (2017, R package ICtest's NGPPsim), with a robust index and more starts.
//
// The hypothesis "exactly k non-Gaussian dimensions" is tested on the
// d − k directions outside the k most significant directions found (by
// how far J lies above its Gaussian median; below d² rows the pursuit may
// find a weak signal only after a direction of noise). Under it they are Gaussian, so
// two statistics of a pursuit there (the largest J found, and the largest
// J of the data's columns) are compared with their values on B Gaussian
// data sets of n rows and d − k columns, whitened and searched the same
// way (the columns as the same fixed directions). Each data set is judged
// by the larger of its two ranks (the test of the minimum p-value, exact
// by exchangeability), and p = (1 + E)/(B + 1) with E the replicates at
// least as extreme. For k = 0 the test is exact (the whitened data of any
// Gaussian are distributed as the replicates); for k > 0 it treats the k
// directions as known, which makes it slightly conservative (the
// deflation took the most non-Gaussian-looking directions out). A test
// stops early (Besag and Clifford, 1991) once both statistics have been
// reached by h = ⌊Alpha·(B + 1)⌋ replicates: it can then no longer
// reject. Replicates run in parallel over Workers, each from its own PCG
// source seeded from Src before the test, and the stop is decided in
// their order, so the report is the same for any number of workers.
//
// The search tests k = 0 first: accepted, Dim = 0, so that Gaussian data
// are called non-Gaussian with probability α exactly. Otherwise it
// deflates until five directions in a row stand less than three spreads
// above their Gaussian median (the replicates of k = 0 give median and
// spread), guesses m as the number of directions above, tests the guess
// and the k below it, gallops up from the last rejected k (k, k + 1,
// k + 3, …) while no test above it is accepted, or down from the first
// accepted k (k − 1, k − 2, k − 4, …) until one is rejected, and bisects
// between the last rejected and the first accepted k. Dim is a k whose
// test is accepted while that of k − 1 was rejected (MaxDim if that of
// MaxDim − 1 was). The answer overshoots m only if a test at some k ≥ m
// is rejected: at k = m with probability α, above m with less
// (conservative tests); it undershoots where the pursuit cannot resolve a
// signal (see DimReport.FewRows). Remainder then tests
// the d − Dim directions left by FOBI's matrix as a whole.
//
// Unless opts.KeepFarRows, the rows that FarRows sets aside are left out
// first and named in DimReport.SetAside; n is then the number of rows
// left.
//
// The cost is one pursuit per direction found and per replicate, each
// O(n·q²) for q columns left: about Dim + 5 pursuits of the data and three
// to a few tests of B replicates (fewer for accepted tests); see
// docs/dim.md for calibration, power and timings. Errors wrap ErrShape,
// ErrDim (d < 2 or MaxDim out of range), ErrSamples (n < d + 2: the
// test whitens the data, and d + 1 whitened rows are the corners of a
// regular simplex whatever the data, as for MIPP),
// ErrNonFinite, ErrConstant, ErrSingular, ErrParam (Alpha, Bootstrap,
// Workers) or the context's error.
func EstimateDim(ctx context.Context, x mat.Matrix, opts DimOptions) (*DimReport, error) {
	s, err := newDimSearch(ctx, x, opts)
	if err != nil {
		return nil, err
	}
	return s.run(ctx)
}

// dimSearch is the state of one EstimateDim call.
type dimSearch struct {
	pr   *prepared
	opts DimOptions
	rep  *DimReport
	// y0 is the whitened data and cols0 the directions of its columns
	// (d×d); the deflation (dim_deflate.go) finds directions one by one
	// and ranks them, and runs holds the test of each k tried.
	y0, cols0 *mat.Dense
	deflation
	runs map[int]*dimRun
}

// newDimSearch checks the data and options, standardises and whitens the
// data.
func newDimSearch(ctx context.Context, x mat.Matrix, opts DimOptions) (*dimSearch, error) {
	if opts.Alpha == 0 {
		opts.Alpha = defaultDimAlpha
	}
	if opts.Bootstrap == 0 {
		opts.Bootstrap = defaultDimBootstrap
	}
	switch {
	case !(opts.Alpha > 0 && opts.Alpha < 1):
		return nil, fmt.Errorf("%w: Alpha = %v, need 0 < Alpha < 1", ErrParam, opts.Alpha)
	case opts.Bootstrap < 1:
		return nil, fmt.Errorf("%w: Bootstrap = %d", ErrParam, opts.Bootstrap)
	case 1/float64(opts.Bootstrap+1) > opts.Alpha:
		return nil, fmt.Errorf("%w: Bootstrap = %d is too small to reject at Alpha = %v: need B + 1 ≥ 1/Alpha", ErrParam, opts.Bootstrap, opts.Alpha)
	}
	var aside []int
	if !opts.KeepFarRows {
		if err := checkContext(ctx); err != nil {
			return nil, err
		}
		scr, err := fitScreen(x)
		if err != nil {
			return nil, err
		}
		if aside = scr.RowsOf(x); len(aside) > 0 {
			x = withoutRows(x, aside)
		}
	}
	pr, err := prepare(ctx, x, config{src: opts.Src, workers: opts.Workers, rows: dimRows}, 0, false)
	if err != nil {
		return nil, err
	}
	if pr.d < 2 {
		return nil, fmt.Errorf("%w: data have %d column, need at least 2", ErrDim, pr.d)
	}
	if opts.MaxDim == 0 {
		opts.MaxDim = pr.d - 1
	}
	if opts.MaxDim < 1 || opts.MaxDim >= pr.d {
		return nil, fmt.Errorf("%w: MaxDim = %d, need 1 ≤ MaxDim ≤ %d for %d columns", ErrDim, opts.MaxDim, pr.d-1, pr.d)
	}
	y, cols, err := dimWhiten(pr.z)
	if err != nil {
		return nil, fmt.Errorf("ngca: EstimateDim: %w", err)
	}
	pr.progress = &reporter{fn: opts.Progress, steps: dimSearchBound(opts.MaxDim) + 1}
	return &dimSearch{pr: pr, opts: opts, y0: y, cols0: cols, deflation: newDeflation(y, cols), runs: map[int]*dimRun{},
		rep: &DimReport{
			settings: fmt.Sprintf("projection pursuit by a robust negentropy index from FOBI's %d + %d extreme eigenvectors "+
				"(FastICA, %d steps), the skewness vector and the columns, the %d best and the best of each kind refined by %d steps; Gaussian replicates",
				dimSub, dimSuper, dimSubSteps, dimKeep, dimRefine),
			alpha: opts.Alpha, bootstrap: opts.Bootstrap, maxDim: opts.MaxDim, d: pr.d, FewRows: pr.n < dimEnoughRows(pr.d),
			SetAside: aside,
		}}, nil
}

// dimRows returns EstimateDim's fewest rows for d columns, d + 2: it
// whitens the data (see whitenedRows).
func dimRows(d int) rowNeed { return whitenedRows("EstimateDim", d) }

// dimEnoughRows returns max(2d², 32d), the rows below which the report
// of d columns sets FewRows (see DimReport.FewRows).
func dimEnoughRows(d int) int {
	return max(2*d*d, 32*d)
}

// dimSearchBound bounds the stages of the search for 0 ≤ Dim ≤ maxDim:
// k = 0, the guess and the k below it, ⌈log₂⌉ probes up and as many
// bisection steps.
func dimSearchBound(maxDim int) int {
	return 3 + 2*bits.Len(uint(maxDim))
}

// dimWhiten whitens the standardised data z (n×d) with the 1/n
// covariance and returns it with the unit directions of z's columns in
// the whitened coordinates (d×d, one per column): column j of z is, up to
// scale, the projection of the whitened rows on the j-th direction.
func dimWhiten(z *mat.Dense) (*mat.Dense, *mat.Dense, error) {
	n, _ := z.Dims()
	wh, err := newWhitening(z)
	if err != nil {
		return nil, nil, err
	}
	y := wh.apply(z)
	y.Scale(math.Sqrt(float64(n)/float64(n-1)), y)
	var root mat.Dense // Σ^(1/2) = W⁻¹: its column j is column j's direction
	if err := root.Inverse(wh.w); err != nil {
		return nil, nil, fmt.Errorf("%w: the covariance cannot be inverted", ErrSingular)
	}
	normaliseCols(&root)
	return y, &root, nil
}

// run runs the search and the test of the remainder.
func (s *dimSearch) run(ctx context.Context) (*DimReport, error) {
	dim, err := s.search(ctx)
	if err != nil {
		return nil, err
	}
	s.rep.Dim = dim
	if s.rep.Remainder, err = s.remainder(ctx, dim); err != nil {
		return nil, err
	}
	var keys []int
	for k, r := range s.runs {
		if r.test != nil {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		s.rep.Tests = append(s.rep.Tests, *s.runs[k].test)
	}
	for _, i := range s.ranked() {
		s.rep.Index = append(s.rep.Index, s.found[i].index)
	}
	return s.rep, nil
}

// search finds a k whose test is accepted while that of k − 1 is rejected
// (or MaxDim when the test of MaxDim − 1 is rejected). It tests k = 0
// first, so that data are called non-Gaussian only by the exact test; then
// it keeps lo ≤ Dim ≤ hi, with the test of lo − 1 rejected and that of hi
// accepted: it probes the guess and the k below it, gallops up from lo
// (lo, lo + 1, lo + 3, …) while no test above has been accepted, or else
// down from hi (hi − 1, hi − 2, hi − 4, …) until one is rejected, then
// bisects.
func (s *dimSearch) search(ctx context.Context) (int, error) {
	lo, hi := 0, s.opts.MaxDim
	probe := func(k int) error {
		if k < lo || k >= hi {
			return nil
		}
		t, err := s.test(ctx, k)
		if err != nil {
			return err
		}
		if t.Rejected {
			lo = k + 1
		} else {
			hi = k
		}
		return nil
	}
	if err := probe(0); err != nil || hi == 0 {
		return 0, err
	}
	guess, err := s.guess(ctx)
	if err != nil {
		return 0, err
	}
	if err := probe(guess); err != nil {
		return 0, err
	}
	if err := probe(guess - 1); err != nil {
		return 0, err
	}
	if hi == s.opts.MaxDim {
		// Nothing accepted above the guess: gallop up.
		for step := 1; lo < hi && hi == s.opts.MaxDim; step *= 2 {
			if err := probe(min(lo+step-1, hi-1)); err != nil {
				return 0, err
			}
		}
	} else {
		// The guess was too high: gallop down until a test is rejected.
		for step, top := 1, hi; lo < hi; step *= 2 {
			from := lo
			if err := probe(max(top-step, lo)); err != nil {
				return 0, err
			}
			if lo != from {
				break
			}
		}
	}
	for lo < hi {
		if err := probe(lo + (hi-lo)/2); err != nil {
			return 0, err
		}
	}
	return lo, nil
}

// dimGuessScore and dimGuessRun are the guess's threshold on the
// directions' scores and the number of directions below it that end the
// guess.
const (
	dimGuessScore = 3
	dimGuessRun   = 5
)

// guess deflates the data until dimGuessRun directions in a row score
// below dimGuessScore (their index lies less than that many spreads above
// its median on Gaussian data, as the replicates of the test of k = 0 give
// them) and returns the number of directions above it. It only orders the
// search's probes: a wrong guess costs tests, not accuracy.
func (s *dimSearch) guess(ctx context.Context) (int, error) {
	r := s.runs[0]
	index := make([]float64, len(r.reps))
	columns := make([]float64, len(r.reps))
	for i, p := range r.reps {
		index[i], columns[i] = p.index, p.columns
	}
	s.null, s.colNull = [2]float64{median(index), stdDev(index)}, [2]float64{median(columns), stdDev(columns)}
	above, below := 0, 0
	for k := 0; k < s.opts.MaxDim && below < dimGuessRun; k++ {
		if err := s.extend(ctx, k+1); err != nil {
			return 0, err
		}
		if s.found[k].score > dimGuessScore {
			above, below = above+1, 0
		} else {
			below++
		}
	}
	return above, nil
}
