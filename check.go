package ngca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// defaultCheckRefits is the number of refits that Check makes when
// CheckOptions.Refits is 0, and defaultCheckShare the share of the rows
// each refit sees when CheckOptions.Share is 0: four refits on three
// quarters of the rows cost as much as six on halves, and stay in the
// regime of the full fit where halves would not (docs/check.md).
const (
	defaultCheckRefits = 4
	defaultCheckShare  = 0.75
)

// The thresholds of Check's verdict, on the subspace error ε
// (SubspaceError) and on Spread, which estimates the fit's own ε. They
// were chosen on the fits of one seed per cell of a tuning set of the
// orientation study's cells and wide data (d = 30 and 50) and hold on its
// other seeds and on the paper's artificial data; docs/check.md gives the
// evidence and the command that reproduces it. The report carries the
// limits it applied (CheckReport.SpreadLimit, Agreement.Limit and
// Agreement.SpreadLimit).
const (
	// checkStable is the largest Spread of a stable fit.
	checkStable = 0.05
	// checkAgreeFactor and checkAgreeFloor set how far a fit may lie
	// from a reference estimate and still agree with it:
	//
	//	Distance ≤ checkAgreeFactor·(Spread + reference's Spread) + checkAgreeFloor.
	//
	checkAgreeFactor = 2.0
	checkAgreeFloor  = 0.01
	// checkReferenceStable is the largest Spread of a reference that can
	// vouch for a fit; a reference less stable than that agrees with
	// nothing.
	checkReferenceStable = 0.15
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

// CheckReport is Check's judgement of a fit.
type CheckReport struct {
	// Method is the Result.Method of the fit checked.
	Method string
	// Doubtful is the verdict: the fit should not be trusted without
	// another look. Reasons gives the evidence in words: first what made
	// the fit doubtful (instability, disagreement), then notes that do
	// not decide the verdict (failed refits, weak separation). It is
	// empty for a sound fit with nothing to note. When the refits have
	// few rows (FewRows), the reason after "unstable", or after
	// "disagrees" for a stable fit that a reference too unstable to vouch
	// left unconfirmed, says so in words, with what may help.
	Doubtful bool
	Reasons  []string

	// RefitRows is s, the rows of each refit: ⌊Share·n⌋.
	RefitRows int
	// Refits holds ε between the fit's basis and each refit of the same
	// estimator on a random subsample of s of the n rows (1 for a refit
	// that failed), and Spread their median scaled to the full fit,
	//
	//	Spread = min(1, median(Refits) · s/(n − s)).
	//
	// For an estimator whose error is sampling noise, of variance
	// proportional to 1/n, a refit on s rows differs from the full fit by
	// about (n − s)/s times the full fit's error, so Spread estimates the
	// fit's own error ε: the part that more rows would remove, not a
	// bias. (With halves, s = n/2, the scale is 1.) It is capped at 1,
	// the largest ε: refits that far apart leave the subspace undetermined.
	Refits []float64
	Spread float64
	// SpreadLimit is the largest Spread of a stable fit, 0.05; a fit with
	// Spread > SpreadLimit is unstable, and so doubtful.
	SpreadLimit float64
	// RefitsFailed counts the refits that returned an error, and
	// RefitError is the error of the first of them ("" if none), which
	// Reasons quotes too.
	RefitsFailed int
	RefitError   string
	// Directions holds, for each column b_k of the fit's basis (the
	// directions in the order of the basis), the median over the refits
	// of the squared sine of the angle between b_k and the refit's
	// subspace, 1 − ‖Q_rᵀb_k‖² (1 for a failed refit), scaled to the full
	// fit as Spread is. A direction with Directions[k] ≤ SpreadLimit lies
	// in the refits' subspaces (stable) even when the subspace as a whole
	// is not: the first direction of an unstable 2-D fit may be sound.
	Directions []float64
	// FewRows reports that the refits hold fewer than d² rows, about what
	// an estimate blind to the columns' orientation needs for a symmetric
	// signal, whose fourth moments are the first to differ from a
	// Gaussian's. An unstable fit, or a stable one that no reference
	// agrees with while one was too unstable to vouch (the references are
	// such estimates), is then named as such in Reasons, with what may
	// help (RowsNote); and the references' Spreads, which such refits
	// overstate, are left out of the agreement limits (Agreement.Limit).
	FewRows bool
	// RowsNote is the reason in Reasons that says the rows are few for the
	// columns, or "" when Check gave none, so that a caller can show it
	// without finding it by its place or its words.
	RowsNote string

	// Agreements compares the fit with estimates of another kind, in
	// the order they were fitted; Check stops at the first that agrees.
	// It is empty for a fit of MIPP, IMAK or SNGCA, which stability alone
	// judges.
	Agreements []Agreement

	// FarRows holds the rows, counted from 0 and farthest first, that
	// one more refit left out: those that FarRows sets aside and the
	// farthest others by the same distance, ⌈n/100⌉ rows at least; the
	// first FarRowsSetAside of them are those that FarRows sets aside. It is
	// nil, and that refit not made, when FarRows cannot judge the data
	// (fewer than 10 rows, or no more than 2(d + 1)).
	// FarRowsMove is ε between the fit and that refit (1 if it failed,
	// with its error in FarRowsError), and FarRowsControl ε between the
	// fit and a refit, with the same seed, without as many rows drawn at
	// random from the others. FarRowsLimit is the largest FarRowsMove that
	// leaves the fit unmoved,
	//
	//	max(min(2·Spread + 0.01, 0.1), 2·FarRowsControl + 0.01):
	//
	// as for an agreement, but never above the ε at which a fit counts as
	// wrong unless leaving out as many ordinary rows moves it as far.
	// RowsDecide reports FarRowsMove > FarRowsLimit: a few rows decide
	// the fit, which is then Doubtful, and the first reason names them and
	// advises leaving them out.
	FarRows         []int
	FarRowsSetAside int
	FarRowsMove     float64
	FarRowsControl  float64
	FarRowsLimit    float64
	FarRowsError    string
	RowsDecide      bool

	// Separation is the fit's Result.Separation.
	Separation float64
	// Timings lists the wall time of the check's steps, ending with
	// "total".
	Timings []Timing
}

// Agreement compares a fit with an equivariant reference estimate of the
// same dimension fitted to the same data.
type Agreement struct {
	// Method is the reference's Result.Method ("IMAK" or "MIPP").
	Method string
	// Distance is ε between the fit's basis and the reference's.
	Distance float64
	// Refits and Spread are the reference's own refits on the same
	// subsamples of the rows and their scaled median, as for the fit.
	Refits []float64
	Spread float64
	// Limit is the largest Distance that counts as agreement,
	// 2·(fit's Spread + Spread) + 0.01, or 2·fit's Spread + 0.01 when the
	// refits' rows are few (CheckReport.FewRows); SpreadLimit is the
	// largest Spread of a reference that can vouch for a fit, 0.15, and
	// Agrees reports Distance ≤ Limit and Spread ≤ SpreadLimit.
	Limit       float64
	SpreadLimit float64
	Agrees      bool
	// Err is the reference's error message if its fit to the full data
	// failed (Distance and Limit are then NaN and Agrees false).
	Err string
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
		b = defaultCheckRefits
	case b < 2:
		return 0, 0, fmt.Errorf("%w: Refits = %d, need at least 2", ErrParam, opts.Refits)
	}
	q := opts.Share
	if q == 0 {
		q = defaultCheckShare
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
		a := r.agreement(basis, spread, scale, few)
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

// agreement compares the reference fitted by r, an estimator of this
// package, with the fit's basis, whose Spread is spread; scale is
// s/(n − s), which scales the median of the reference's refits to its
// Spread; few leaves that Spread out of the limit (FewRows).
func (r *checkRun) agreement(basis *mat.Dense, spread, scale float64, few bool) Agreement {
	a := Agreement{Distance: math.NaN(), Limit: math.NaN(), SpreadLimit: checkReferenceStable}
	full := r.results[0]
	if r.errs[0] != nil || full == nil {
		a.Method = r.own.method()
		a.Err = fmt.Sprint(r.errs[0])
		return a
	}
	a.Method = full.Method
	a.Distance = SubspaceError(basis, full.Basis)
	a.Refits, _, _ = r.refitErrors(full.Basis)
	a.Spread = min(1, median(a.Refits)*scale)
	widen := a.Spread
	if few {
		widen = 0
	}
	a.Limit = checkAgreeFactor*(spread+widen) + checkAgreeFloor
	a.Agrees = a.Distance <= a.Limit && a.Spread <= a.SpreadLimit
	return a
}

// judge sets the verdict and its reasons from the figures; equivariant
// says whether the fit's estimator is blind to the columns' orientation,
// for the advice when the rows are few.
func (rep *CheckReport) judge(b, n, d int, equivariant bool) {
	var reasons []string
	if rep.RowsDecide {
		reasons = append(reasons, rep.rowsReason(n))
	}
	if rep.Spread > rep.SpreadLimit {
		reasons = append(reasons, fmt.Sprintf("unstable: refits on %d of the %d rows put the fit's own error at ε = %.3g (median of %d, scaled to n), above %g",
			rep.RefitRows, n, rep.Spread, b, rep.SpreadLimit))
		if rep.FewRows && !rep.RowsDecide {
			rep.RowsNote = fewRows(n, d, rep.RefitRows, equivariant, false)
			reasons = append(reasons, rep.RowsNote)
		}
	}
	agrees := len(rep.Agreements) == 0 // nothing to compare with: stability decides
	var far []string
	shaky := false // a reference too unstable to vouch
	for _, a := range rep.Agreements {
		if a.Agrees {
			agrees = true
			break
		}
		if a.Err != "" {
			far = append(far, fmt.Sprintf("%s failed (%s)", a.Method, a.Err))
			continue
		}
		if a.Spread > a.SpreadLimit {
			shaky = true
			far = append(far, fmt.Sprintf("%s, itself unstable (spread %.2g), by ε = %.3g", a.Method, a.Spread, a.Distance))
			continue
		}
		far = append(far, fmt.Sprintf("%s by ε = %.3g where up to %.2g is normal", a.Method, a.Distance, a.Limit))
	}
	if !agrees {
		reasons = append(reasons, "disagrees with "+strings.Join(far, " and with "))
		if rep.FewRows && shaky && rep.Spread <= rep.SpreadLimit && !rep.RowsDecide {
			// The references are blind to the columns' orientation: the
			// rows that are few for them may be why none could vouch.
			rep.RowsNote = fewRows(n, d, rep.RefitRows, equivariant, true)
			reasons = append(reasons, rep.RowsNote)
		}
	}
	rep.Doubtful = len(reasons) > 0
	if rep.RefitsFailed > 0 {
		reasons = append(reasons, fmt.Sprintf("%d of %d refits failed (counted as ε = 1); the first: %s", rep.RefitsFailed, b, rep.RefitError))
	}
	if rep.Separation < WeakSeparation {
		reasons = append(reasons, fmt.Sprintf("weak separation %.3g (below %d)", rep.Separation, WeakSeparation))
	}
	rep.Reasons = reasons
}

// fewRows says in words that the rows are few for the columns: n rows
// when the fit itself has fewer than d², or the refits' s rows when only
// they do, with what may help. refs says that the references' refits, not
// the fit's, are the ones in question.
func fewRows(n, d, s int, equivariant, refs bool) string {
	help := "more rows or fewer columns may help"
	if equivariant {
		help = "more rows, fewer columns or an estimator that uses the columns (the robust variant, when the signal lies along them) may help"
	}
	if n < d*d {
		return fmt.Sprintf("%d rows are few for %d columns: an estimate blind to the columns' orientation needs about d² = %d rows "+
			"for a symmetric signal, and the refits have %d; %s", n, d, d*d, s, help)
	}
	if refs {
		return fmt.Sprintf("the refits' %d rows are few for %d columns: the references, blind to the columns' orientation, need about d² = %d rows "+
			"for a symmetric signal, which the fit's %d rows have, so they may be better than their refits; more rows would settle it", s, d, d*d, n)
	}
	return fmt.Sprintf("the refits' %d rows are few for %d columns: an estimate blind to the columns' orientation needs about d² = %d rows "+
		"for a symmetric signal, which the fit's %d rows have, so the fit may be better than its refits; more rows would settle it", s, d, d*d, n)
}

// directionSpreads returns, for each column b_k of basis (d×m, orthonormal),
// the median over the refits of 1 − ‖Q_rᵀb_k‖², Q_r an orthonormal basis of
// refit r (1 for a failed refit, nil), times scale and capped at 1.
func directionSpreads(basis *mat.Dense, refits []*mat.Dense, scale float64) []float64 {
	_, m := basis.Dims()
	out := make([]float64, m)
	vals := make([]float64, len(refits))
	for k := 0; k < m; k++ {
		bk := basis.ColView(k)
		for r, q := range refits {
			vals[r] = 1
			if q == nil {
				continue
			}
			var p mat.VecDense
			p.MulVec(q.T(), bk)
			vals[r] = math.Min(1, math.Max(0, 1-mat.Dot(&p, &p)))
		}
		out[k] = math.Min(1, median(vals)*scale)
	}
	return out
}
