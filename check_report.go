package ngca

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
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

// judgeRows sets FarRowsMove, FarRowsControl, FarRowsLimit and RowsDecide
// from the refits r without the rows rep.FarRows and without as many
// others.
func (rep *CheckReport) judgeRows(r *checkRun, basis *mat.Dense) {
	eps, failed, err := r.refitErrors(basis)
	rep.FarRowsMove, rep.FarRowsControl = eps[0], eps[1]
	if failed > 0 && r.errs[0] != nil {
		rep.FarRowsError = err.Error()
	}
	rep.FarRowsLimit = max(min(checkAgreeFactor*rep.Spread+checkAgreeFloor, checkRowsMove), checkAgreeFactor*rep.FarRowsControl+checkAgreeFloor)
	rep.RowsDecide = rep.FarRowsMove > rep.FarRowsLimit
}

// rowsReason says in words that the rows rep.FarRows decide the fit.
func (rep *CheckReport) rowsReason(n int) string {
	var idx []string
	for _, i := range rep.FarRows[:min(5, len(rep.FarRows))] {
		idx = append(idx, fmt.Sprint(i))
	}
	list := strings.Join(idx, ", ")
	if len(rep.FarRows) > 5 {
		list += ", …"
	}
	moved := fmt.Sprintf("moves the basis by ε = %.3g where up to %.2g is normal", rep.FarRowsMove, rep.FarRowsLimit)
	if rep.FarRowsError != "" {
		moved = "fails (" + rep.FarRowsError + ")"
	}
	aside := ""
	if rep.FarRowsSetAside > 0 {
		aside = fmt.Sprintf("; FarRows sets aside the first %d", rep.FarRowsSetAside)
	}
	return fmt.Sprintf("decided by a few rows: a refit without the %d of the %d rows farthest from the rest %s (the farthest first, counted from 0: %s%s); "+
		"leave those rows out, or find out what they are", len(rep.FarRows), n, moved, list, aside)
}

// agreementWith compares the reference fitted by r, an estimator of this
// package, with the fit's basis, whose Spread is spread; scale is
// s/(n − s), which scales the median of the reference's refits to its
// Spread; few leaves that Spread out of the limit (FewRows).
func agreementWith(r *checkRun, basis *mat.Dense, spread, scale float64, few bool) Agreement {
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
