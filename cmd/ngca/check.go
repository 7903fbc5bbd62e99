package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ngca-go/ngca/internal/words"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/progress"
)

// checkStream is the second PCG word of the check's source: -seed S
// means CheckOptions.Src = rand.NewPCG(S, checkStream), a stream apart
// from the estimator's.
const checkStream = 1

// checkFit judges res, the fit of m to the data of file name, with
// ngca.Check when -check is set (otherwise it returns nil, nil), drawing a
// progress bar and writing the verdict on stderr. A check that cannot be
// made is reported on stderr ("check: not done: …") and returned as the
// error, which the callers treat as a note, not a failure of the command;
// a cancelled context is returned as it is.
func (a *fitArgs) checkFit(ctx context.Context, e *env, m methods.Method, t *dataio.Table, name string, res *ngca.Result) (*ngca.CheckReport, error) {
	if !a.judge {
		return nil, nil
	}
	bar := progress.New(e.stderr, "checking "+m.Label, 1)
	rep, err := ngca.Check(ctx, m.New(a.settings(nil)), t.X, res, ngca.CheckOptions{
		Src: rand.NewPCG(a.seed, checkStream), Workers: a.workers,
		Progress: func(p ngca.Progress) { bar.Set(p.Fraction()) }})
	if err == nil {
		bar.Set(1)
	}
	bar.Finish()
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		// The fit stands; only its check could not be made (say, the
		// estimator cannot fit the refits' rows).
		err = inFileTerms(err, t)
		fmt.Fprintf(e.stderr, "check: not done: %v\n", err)
		return nil, err
	}
	writeCheck(e, m, rep, a.auto, t.Lines)
	return rep, nil
}

// writeCheck writes the verdict on e's stderr: a line "check: ok" or
// "check: doubtful" with the reasons in plain words, with -v the
// statistics behind them, and when doubtful a line of what to try. A weak
// separation is left to fit's own warning.
//
// lines are the file's lines of the rows (nil: rows are numbered from 1),
// by which it names the rows that decide a fit.
func writeCheck(e *env, m methods.Method, rep *ngca.CheckReport, auto bool, lines []int) {
	verdict := "ok"
	if rep.Doubtful {
		verdict = "doubtful"
	}
	var clauses []string
	if rep.RowsDecide {
		moved := fmt.Sprintf("moves the subspace by ε = %.2g (up to %.2g is normal)", rep.FarRowsMove, rep.FarRowsLimit)
		if rep.FarRowsError != "" {
			moved = "fails (" + rep.FarRowsError + ")"
		}
		clauses = append(clauses, fmt.Sprintf("a few rows decide the fit: a refit without the %d rows farthest from the rest %s; the farthest: %s",
			len(rep.FarRows), moved, rowLines(rep.FarRows, lines, 5)))
	}
	if rep.Spread > rep.SpreadLimit {
		clauses = append(clauses, fmt.Sprintf("refits on three quarters of the rows move the subspace (by ε = %.2g; above %g is unstable)", rep.Spread, rep.SpreadLimit))
	} else {
		clauses = append(clauses, fmt.Sprintf("refits on three quarters of the rows give the same subspace (ε = %.2g)", rep.Spread))
	}
	var agrees, disagrees, shaky, failed []string
	for _, a := range rep.Agreements {
		switch {
		case a.Err != "":
			failed = append(failed, fmt.Sprintf("%s could not be fitted for comparison (%s)", a.Method, a.Err))
		case a.Spread > a.SpreadLimit:
			shaky = append(shaky, a.Method)
		case a.Agrees && rep.Spread <= rep.SpreadLimit:
			agrees = append(agrees, a.Method)
		case !a.Agrees:
			disagrees = append(disagrees, fmt.Sprintf("%s (ε = %.2g)", a.Method, a.Distance))
		}
	}
	switch {
	case len(agrees) > 0:
		clauses = append(clauses, fmt.Sprintf("%s, which does not depend on how the columns are oriented, finds the same subspace", words.JoinAnd(agrees)))
	case len(disagrees) > 0:
		clauses = append(clauses, fmt.Sprintf("%s, which %s not depend on how the columns are oriented, %s another subspace",
			words.JoinAnd(disagrees), words.Agree(len(disagrees), "does", "do"), words.Agree(len(disagrees), "finds", "find")))
	}
	if len(shaky) > 0 {
		clauses = append(clauses, fmt.Sprintf("%s %s too unstable on these rows to confirm it", words.JoinAnd(shaky), words.Agree(len(shaky), "is", "are")))
	}
	clauses = append(clauses, failed...)
	if rep.RefitsFailed > 0 {
		clauses = append(clauses, fmt.Sprintf("%d of %d refits failed: %s", rep.RefitsFailed, len(rep.Refits), rep.RefitError))
	}
	fmt.Fprintf(e.stderr, "check: %s: %s\n", verdict, strings.Join(clauses, "; "))
	if rep.RowsNote != "" {
		fmt.Fprintf(e.stderr, "check: %s\n", rep.RowsNote)
	}
	e.detailf("check: refits on %d rows each; their median ε, scaled to all rows, is Spread = %.3g (stable up to %g)", rep.RefitRows, rep.Spread, rep.SpreadLimit)
	if len(rep.FarRows) > 0 {
		e.detailf("check: a refit without the %d rows farthest from the rest: ε = %.3g; without as many others: ε = %.3g; a few rows decide the fit above ε = %.3g",
			len(rep.FarRows), rep.FarRowsMove, rep.FarRowsControl, rep.FarRowsLimit)
	}
	for _, a := range rep.Agreements {
		if a.Err == "" {
			e.detailf("check: %s: ε = %.3g from the fit (normal up to %.3g), its own spread %.3g (stable up to %g)", a.Method, a.Distance, a.Limit, a.Spread, a.SpreadLimit)
		}
	}
	for _, r := range rep.Reasons {
		e.detailf("check: reason: %s", r)
	}
	if rep.Doubtful {
		fmt.Fprintf(e.stderr, "check: try %s\n", checkAdvice(m, rep, auto, lines))
	}
}

// rowLines names the rows (indices of the data) by their lines: "line 59,
// line 12 and 3 more rows", at most max of them.
func rowLines(rows, lines []int, max int) string {
	var out []string
	for k, i := range rows {
		if k == max {
			out = append(out, words.CountNoun(len(rows)-max, "more row"))
			break
		}
		if i < len(lines) && lines[i] > 0 {
			out = append(out, fmt.Sprintf("line %d", lines[i]))
		} else {
			out = append(out, fmt.Sprintf("row %d", i+1))
		}
	}
	return words.JoinAnd(out)
}

// checkAdvice says what to try after a doubtful check; auto is -dim
// auto, which has tested M already.
//
// When a few rows decide the fit, the advice is to leave them out (lines
// names them), whatever else the check found: without them the rest of
// the evidence may change.
func checkAdvice(m methods.Method, rep *ngca.CheckReport, auto bool, lines []int) string {
	if rep.RowsDecide {
		if k := rep.FarRowsSetAside; k > 0 {
			return fmt.Sprintf("leaving out the rows that decide the fit (%s: far from the other rows fitted, as -outliers far judges rows), or finding out what they are",
				rowLines(rep.FarRows[:k], lines, 5))
		}
		return fmt.Sprintf("finding out what the rows farthest from the rest are (%s; none is far enough for -outliers far to leave it out), "+
			"and leaving out those that are errors (-outliers drop leaves out values far out in their column)", rowLines(rep.FarRows, lines, 5))
	}
	var tips []string
	// The fit disagrees when no reference agrees and one at least was
	// stable enough to vouch for it: a reference too unstable to compare
	// with is no reason to switch to its method.
	disagrees := false
	for _, a := range rep.Agreements {
		if a.Agrees {
			disagrees = false
			break
		}
		disagrees = disagrees || (a.Err == "" && a.Spread <= a.SpreadLimit)
	}
	switch {
	case disagrees && (m.Key == "wflsngca" || m.Key == "lsngca"):
		tips = append(tips, "-method mipp or -method wflsngca-robust ("+m.Label+" needs the subspace along the data's columns)")
	case disagrees && m.Key == "mipp":
		tips = append(tips, "-method wflsngca-robust")
	case disagrees:
		tips = append(tips, "-method mipp")
	}
	if rep.Spread > rep.SpreadLimit {
		tips = append(tips, "more rows")
	}
	if auto {
		tips = append(tips, "another -dim than the test's")
	} else {
		tips = append(tips, `another -dim ("ngca dim" tests it)`)
	}
	return joinOr(tips)
}

// joinOr joins items as "a, b or c".
func joinOr(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
