package ngca

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/ngca-go/ngca/internal/defaults"
	"gonum.org/v1/gonum/mat"
)

// When the refits hold fewer than d² rows (CheckReport.FewRows), the
// agreement limit leaves the reference's Spread out:
//
//	Distance ≤ checkAgreeFactor·Spread + checkAgreeFloor.
//
// The references are blind to the columns' orientation, and such an
// estimate needs about d² rows for a symmetric signal; refits below that
// are in a harder regime than the reference's fit to all n rows, so their
// Spread overstates its error, and a limit widened by it would let a
// biased fit pass. The reference's error then counts as none, which keeps
// the burden of proof with the fit.

// CheckOptions configure Check. The zero value means the defaults.
type CheckOptions struct {
	// Refits is the number B of refits on random subsamples of the rows,
	// of the fit's estimator and of each reference; 0 means 4. It must be
	// at least 2.
	Refits int
	// Share is the share q of the rows in each subsample, which holds
	// s = ⌊q·n⌋ rows drawn without replacement; 0 means 0.75.
	// It must lie in (0, 1) and leave at least 2 rows in and 1 out.
	Share float64
	// Src is the source of randomness (the subsamples and the seeds of the
	// refits); nil means a fixed default, as for the estimators.
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// no concurrency. Up to Workers refits run at a time; with fewer fits
	// in a round than workers, the workers are shared out among them. The
	// memory in use grows with Workers. The report does not depend on it.
	Workers int
	// Progress, if not nil, is called on the calling goroutine as the
	// fits finish (one stage, "check", whose units are fits).
	Progress func(Progress)
}

// Check judges a fit that est made to x: whether its subspace can be
// trusted without a second opinion. It is meant for data whose true
// subspace nobody knows; it never modifies est, x or res.
//
// The evidence is of two kinds.
//
//   - Stability: est is refitted to B random subsamples of s = ⌊q·n⌋ of
//     the n rows (B = 4, q = 3/4 by default), and the subspace error ε
//     between each refit and res.Basis is recorded. Their median scaled
//     by s/(n − s), Spread, estimates the fit's sampling error: the
//     same quantity whatever n, d and q. The fit is unstable when
//     Spread > 0.05 (CheckReport.SpreadLimit).
//
//   - Agreement: a fit of an estimator whose result can depend on the
//     orientation of the columns (WFLSNGCA, LSNGCA, RobustWFLSNGCA, or an
//     Estimator of another type) is compared
//     with estimates of another kind that do not depend on how the data's
//     columns are oriented (IMAK, and MIPP when IMAK disagrees), each with
//     its own refits on the same subsamples. The fit agrees with a reference
//     when
//
//     ε(fit, reference) ≤ 2·(Spread + Spread_ref) + 0.01
//
//     and the reference is itself stable enough to vouch for it,
//     Spread_ref ≤ 0.15. ε is a squared distance, so two
//     sound estimates differ by about the sum of their errors, which the
//     two Spreads estimate; a fit that is stable but biased, such as the
//     published least-squares methods on data whose subspace is not along
//     the columns, lies farther from every reference than that. When the
//     refits hold fewer than d² rows (FewRows), the references' refits
//     overstate their error, and Spread_ref is left out of the limit.
//
//   - Rows: est is refitted without the rows farthest from the rest by
//     FarRows' distance (those FarRows sets aside, and ⌈n/100⌉ at least),
//     and without as many rows drawn at random. A fit that moves by more
//     than min(2·Spread + 0.01, 0.1) without the farthest rows, and by
//     more than twice as far as without the others (plus 0.01), is
//     decided by a few rows (CheckReport.RowsDecide): the reasons name
//     them and advise leaving them out, not more rows.
//
// The fit is Doubtful when a few rows decide it, when it is unstable, or
// when it agrees with no reference.
// Fits of the equivariant estimators (MIPP, IMAK, SNGCA) are judged by
// their stability alone: they have no orientation to be biased by, and on
// the fits the thresholds were chosen on a reference caught no wrong fit
// that stability missed. Separation is reported and named in the reasons
// when it is below WeakSeparation, but it does not decide the verdict
// (docs/check.md gives the evidence for both choices).
//
// A fit of RobustWFLSNGCA's adaptive path is refitted on the path it took
// (RobustReport.Estimate: the axes or the equivariant estimate), so that
// Spread is that estimate's sampling error, not the chance that the
// decision between the two goes the other way on fewer rows; the
// agreement with the references then guards an axes estimate against
// bias, as for WFLSNGCA.
//
// A package estimator is refitted with its own settings, a share of the
// workers, and a source seeded from opts.Src for each refit, so the report
// depends only on opts.Src, whatever opts.Workers. An Estimator of another
// type is refitted as given, one refit at a time, and the report is then
// reproducible only if its fits are. Check returns an error if x or res is
// unusable (ErrShape, ErrNonFinite), if est's Dim differs from the fit's
// (ErrDim) or res was made by another package estimator (ErrParam), if
// opts.Refits or opts.Share is out of range (ErrParam), if a refit of a
// package estimator would have fewer rows than its Fit accepts (ErrSamples;
// the message says how many rows the check needs), if no refit succeeds
// (the error of the first, wrapped), or if ctx is done.
func Check(ctx context.Context, est Estimator, x mat.Matrix, res *Result, opts CheckOptions) (*CheckReport, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	data, m, err := checkInputs(est, x, res)
	if err != nil {
		return nil, err
	}
	n, d := data.Dims()
	b, s, err := refitSizes(opts, n)
	if err != nil {
		return nil, err
	}
	if err := refitRows(est, n, d, s, opts.Share); err != nil {
		return nil, err
	}
	plan, err := config{src: opts.Src, workers: opts.Workers, progress: opts.Progress, steps: 1}.resolve(data.RawMatrix().Rows, data.RawMatrix().Cols)
	if err != nil {
		return nil, err
	}
	sw := newStopwatch()
	subs := drawSubsamples(plan.rng, n, s, b)
	refs := checkReferences(est, m)
	own := newCheckRun(refitEstimator(est, res), false, b, plan.rng)
	runs := make([]*checkRun, len(refs))
	for i, r := range refs {
		runs[i] = newCheckRun(r, true, b, plan.rng)
		runs[i].bare = true
	}
	rowsRun, farRows, setAside := newRowsRun(own.est, data, plan.rng)

	total := b + len(refs)*(b+1)
	if rowsRun != nil {
		total++
	}
	done := 0
	plan.progress.begin("check")
	tick := func() { done++; plan.progress.report(done, total) }
	plan.progress.report(0, total)

	rep := &CheckReport{Method: res.Method, Separation: res.Separation()}
	first := []*checkRun{own}
	if len(runs) > 0 {
		first = append(first, runs[0])
	}
	if rowsRun != nil {
		first = append(first, rowsRun)
	}
	if err := runFits(ctx, plan.workers, first, data, subs, tick); err != nil {
		return nil, err
	}
	scale := float64(s) / float64(n-s)
	rep.RefitRows = s
	rep.Refits, rep.RefitsFailed, err = own.refitErrors(res.Basis)
	if rep.RefitsFailed == b {
		return nil, fmt.Errorf("ngca: Check: every refit on %d of the %d rows failed: %w", s, n, err)
	}
	if err != nil {
		rep.RefitError = err.Error()
	}
	rep.Spread = min(1, median(rep.Refits)*scale)
	rep.Directions = directionSpreads(res.Basis, own.refits(), scale)
	rep.SpreadLimit = checkStable
	rep.FewRows = s < d*d
	if rowsRun != nil {
		rep.FarRows, rep.FarRowsSetAside = farRows, setAside
		rep.judgeRows(rowsRun, res.Basis)
	}
	if rep.Agreements, err = compareReferences(ctx, plan.workers, runs, data, subs, tick, res.Basis, rep.Spread, scale, rep.FewRows, sw); err != nil {
		return nil, err
	}
	plan.progress.report(total, total)
	eq := false
	if e, ok := est.(estimator); ok {
		eq = e.equivariant()
	}
	rep.judge(b, n, d, eq)
	rep.Timings = sw.total()
	return rep, nil
}

// refitSizes returns the number of refits B and the rows s of each refit
// that opts ask for on n rows, or ErrParam.
func refitSizes(opts CheckOptions, n int) (b, s int, err error) {
	b = opts.Refits
	switch {
	case b == 0:
		b = defaults.CheckRefits
	case b < 2:
		return 0, 0, fmt.Errorf("%w: Refits = %d, need at least 2", ErrParam, opts.Refits)
	}
	q := opts.Share
	if q == 0 {
		q = defaults.CheckShare
	}
	s = int(q * float64(n))
	switch {
	case !(q > 0 && q < 1):
		return 0, 0, fmt.Errorf("%w: Share = %g, want a share of the rows in (0, 1)", ErrParam, opts.Share)
	case s < 2 || s >= n:
		return 0, 0, fmt.Errorf("%w: Share = %g leaves %d of the %d rows per refit, need at least 2 and fewer than all", ErrParam, opts.Share, s, n)
	}
	return b, s, nil
}

// refitEstimator returns the estimator whose refits Check compares with
// res: est itself, or for an estimator that chooses between estimates of
// its own, the one that computes the estimate res returned.
func refitEstimator(est Estimator, res *Result) Estimator {
	if p, ok := est.(pathChooser); ok {
		return p.refitsOf(res)
	}
	return est
}

// compareReferences compares the fit's basis, whose Spread is spread, with
// the references of runs in turn and stops at the first that agrees. The
// first reference was fitted with the fit's refits; each later one is
// fitted here, on the same subsamples. scale is s/(n − s); few reports
// that the refits hold fewer than d² rows.
func compareReferences(ctx context.Context, workers int, runs []*checkRun, data *mat.Dense, subs [][]int, tick func(),
	basis *mat.Dense, spread, scale float64, few bool, sw *stopwatch) ([]Agreement, error) {
	var out []Agreement
	for i, r := range runs {
		if i > 0 {
			if err := runFits(ctx, workers, []*checkRun{r}, data, subs, tick); err != nil {
				return nil, err
			}
		}
		a := agreementWith(r, basis, spread, scale, few)
		out = append(out, a)
		if i == 0 {
			sw.lap("refits and " + a.Method)
		} else {
			sw.lap(a.Method)
		}
		if a.Agrees {
			break
		}
	}
	return out, nil
}

// pathChooser is an estimator whose fits choose between estimates of its
// own (RobustWFLSNGCA): refitsOf returns the estimator Check refits, the
// one that computes the estimate res returned.
type pathChooser interface {
	refitsOf(res *Result) Estimator
}

// checkInputs validates Check's arguments and returns x as a dense copy
// and the fit's dimension.
func checkInputs(est Estimator, x mat.Matrix, res *Result) (*mat.Dense, int, error) {
	if est == nil {
		return nil, 0, fmt.Errorf("%w: nil estimator", ErrParam)
	}
	if res == nil || res.Basis == nil || res.Basis.IsEmpty() {
		return nil, 0, fmt.Errorf("%w: no fitted basis to check", ErrShape)
	}
	n, d, err := checkData(x, 2)
	if err != nil {
		return nil, 0, err
	}
	bd, m := res.Basis.Dims()
	if bd != d {
		return nil, 0, fmt.Errorf("%w: basis has %d rows for %d columns of data", ErrShape, bd, d)
	}
	if err := checkDim(m, d); err != nil {
		return nil, 0, err
	}
	if err := checkFinite("basis", res.Basis); err != nil {
		return nil, 0, err
	}
	if e, ok := est.(estimator); ok {
		if e.dim() != m {
			return nil, 0, fmt.Errorf("%w: estimator has Dim = %d, the fit %d", ErrDim, e.dim(), m)
		}
		if res.Method != "" && res.Method != e.method() {
			return nil, 0, fmt.Errorf("%w: the result is a fit of %q, not of the estimator given (%s)", ErrParam, res.Method, e.method())
		}
	}
	data := mat.NewDense(n, d, nil)
	data.Copy(x)
	return data, m, nil
}

// checkReferences returns the reference estimators for a fit of est, in
// the order Check tries them: an estimate of another kind than the fit's.
func checkReferences(est Estimator, m int) []Estimator {
	if e, ok := est.(estimator); ok && e.equivariant() {
		return nil // judged by stability alone
	}
	return []Estimator{&IMAK{Dim: m}, &MIPP{Dim: m}}
}

// refitRows returns nil if Check can refit est on s of the n rows of d
// columns, and otherwise an error wrapping ErrSamples that says how many
// rows est needs and how many the check then needs: the fewest n' whose
// share q (CheckOptions.Share, 0 for the default), ⌊q·n'⌋, is enough. An Estimator of another type has no known
// rule: its refits say for themselves.
func refitRows(est Estimator, n, d, s int, q float64) error {
	if q == 0 {
		q = defaults.CheckShare
	}
	e, ok := est.(estimator)
	if !ok {
		return nil
	}
	r := e.rows(d)
	if s >= r.min {
		return nil
	}
	need := r.min + 1
	for int(q*float64(need)) < r.min {
		need++
	}
	return fmt.Errorf("%w: the check refits %s on %d of the %d rows (a share of %g), and %s needs at least %d rows for %s: "+
		"the check needs at least %d rows", ErrSamples, r.method, s, n, q, r.method, r.min, r.what, need)
}
