package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

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
	writeCheck(e.stderr, m, rep, a.auto)
	return rep, nil
}

// writeCheck writes the verdict line, "check: ok" or "check: doubtful"
// followed by the evidence, and when doubtful a line of what to try. A
// weak separation is left to fit's own warning.
func writeCheck(w io.Writer, m methods.Method, rep *ngca.CheckReport, auto bool) {
	verdict := "ok"
	if rep.Doubtful {
		verdict = "doubtful"
	}
	stability := fmt.Sprintf("refits on %d rows each put the fit's own error at ε = %.2g (median of %d, scaled to all rows)", rep.RefitRows, rep.Spread, len(rep.Refits))
	if rep.Spread > rep.SpreadLimit {
		stability += fmt.Sprintf(", more than %g: unstable", rep.SpreadLimit)
	}
	evidence := []string{stability}
	for _, a := range rep.Agreements {
		switch {
		case a.Err != "":
			evidence = append(evidence, fmt.Sprintf("%s failed: %s", a.Method, a.Err))
		case a.Spread > a.SpreadLimit:
			evidence = append(evidence, fmt.Sprintf("%s is too unstable to compare with (spread %.2g, ε = %.2g)", a.Method, a.Spread, a.Distance))
		case a.Agrees && rep.Spread > rep.SpreadLimit:
			// An unstable fit's Spread widens the limit: the distance is
			// worth showing, the agreement is not.
			evidence = append(evidence, fmt.Sprintf("%s lies ε = %.2g from it", a.Method, a.Distance))
		case a.Agrees:
			evidence = append(evidence, fmt.Sprintf("agrees with %s (ε = %.2g, normal up to %.2g)", a.Method, a.Distance, a.Limit))
		default:
			evidence = append(evidence, fmt.Sprintf("disagrees with %s (ε = %.2g, normal up to %.2g)", a.Method, a.Distance, a.Limit))
		}
	}
	if rep.RefitsFailed > 0 {
		evidence = append(evidence, fmt.Sprintf("%d of %d refits failed", rep.RefitsFailed, len(rep.Refits)))
	}
	if rep.RowsNote != "" {
		evidence = append(evidence, rep.RowsNote)
	}
	fmt.Fprintf(w, "check: %s: %s\n", verdict, strings.Join(evidence, "; "))
	if rep.Doubtful {
		fmt.Fprintf(w, "check: try %s\n", checkAdvice(m, rep, auto))
	}
}

// checkAdvice says what to try after a doubtful check; auto is -dim
// auto, which has tested M already.
func checkAdvice(m methods.Method, rep *ngca.CheckReport, auto bool) string {
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
