package ngca

import (
	"context"
	"slices"

	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

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
	rep, err := s.run(ctx)
	if err == nil {
		probe.RecordDim(ctx, rep, rep.probeDetail())
	}
	return rep, err
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

// probeDetail returns the run's settings, the defaults resolved, for the
// studies and the command (internal/probe).
func (r *DimReport) probeDetail() probe.DimDetail {
	return probe.DimDetail{Settings: r.settings, Alpha: r.alpha, Bootstrap: r.bootstrap, MaxDim: r.maxDim, EnoughRows: dimEnoughRows(r.d)}
}
