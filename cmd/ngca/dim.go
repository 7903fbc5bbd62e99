package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"text/tabwriter"

	"github.com/ngca-go/ngca/internal/words"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/progress"
)

const dimDoc = `Usage: ngca dim [flags] FILE

Estimates how many dimensions of the data in FILE (read as by "ngca fit";
"-" reads standard input) are non-Gaussian (ngca.EstimateDim,
docs/dim.md). A projection pursuit finds directions one by one, each the
most non-Gaussian outside those before it by a robust index of
non-Gaussianity; "exactly k non-Gaussian dimensions" is tested by
comparing the index of the most non-Gaussian direction outside the k
strongest, and the largest index of a data column there, with their
values on Gaussian data of the same size (the replicates). The answer is
the k at which the tests turn from rejected to accepted; the search tests
a few k (its guess from the indices and the k below, then up or down by
bisection), not every k.

It writes to standard output a line per test: k, the index of the next
direction and its median over the replicates, the same for the columns,
the p-value, the replicates run and the decision; then the answer, and a
line that says whether the directions left are jointly Gaussian (a test
of all their fourth moments at once). A progress bar is drawn on stderr
when it is a terminal.

Notes on stderr say when the rows are few for the columns (fewer than
2d², or 32 per column below 16 columns: fewer than a weak signal in a
direction that mixes the columns needs to stand out of the noise, so that
the answer may be too small), when the
directions left are not Gaussian (structure that no single direction
showed), and when the answer is more than half of the d directions (M >
d/2: NGCA's model, a few non-Gaussian directions in Gaussian noise, does
not describe these data; the components are still ranked by how
non-Gaussian they are).

"ngca fit -dim auto" (and plot) runs the same test with the default
settings and fits with its answer. -sample N tests a random sample of N
rows (see "ngca help fit").

Examples:
  ngca dim data.csv
  ngca dim -alpha 0.01 -bootstrap 199 -max-dim 4 data.csv
  ngca dim -label-col species iris.csv
`

func init() {
	c := &command{name: "dim", summary: "estimate the number of non-Gaussian dimensions of a data file (Monte Carlo tests)", brief: dimBrief, run: runDim}
	c.usage = dimDoc + flagHelp(newDimFlags(c).fs, []flagGroup{
		{"Input", inputFlagNames(true)},
		{"Test", []string{"alpha", "bootstrap", "max-dim", "seed", "workers"}},
	})
	register(c)
}

// dimFlags are the flags of the dim command.
type dimFlags struct {
	fs        *flag.FlagSet
	in        inputFlags
	alpha     float64
	bootstrap int
	maxDim    int
	seed      uint64
	workers   int
}

func newDimFlags(c *command) *dimFlags {
	f := &dimFlags{fs: cli.NewFlagSet(c.name)}
	f.in.register(f.fs, true)
	f.fs.Float64Var(&f.alpha, "alpha", defaults.DimAlpha, "significance `level` of every test, between 0 and 1")
	f.fs.IntVar(&f.bootstrap, "bootstrap", defaults.DimBootstrap, "`number` B of replicates (Gaussian data sets) per test; B + 1 ≥ 1/alpha")
	f.fs.IntVar(&f.maxDim, "max-dim", 0, "largest dimension `M` to answer (0 = number of data columns − 1)")
	f.fs.Uint64Var(&f.seed, "seed", 1, "random `seed`: the test's Src is rand.NewPCG(seed, 0), -sample's rand.NewPCG(seed, 2)")
	f.fs.IntVar(&f.workers, "workers", 0, "`number` of worker goroutines (0 = all CPUs); the result does not depend on it")
	return f
}

func runDim(ctx context.Context, e *env, args []string) error {
	c := commands["dim"]
	f := newDimFlags(c)
	pos, err := parseArgs(f.fs, c, e, args)
	if err != nil {
		return err
	}
	path, err := oneFile(pos)
	if err != nil {
		return err
	}
	switch {
	case !(f.alpha > 0 && f.alpha < 1):
		return fmt.Errorf("%w: -alpha %v: need 0 < alpha < 1", cli.ErrUsage, f.alpha)
	case f.bootstrap < 1 || float64(f.bootstrap+1)*f.alpha < 1:
		return fmt.Errorf("%w: -bootstrap %d: need B + 1 ≥ 1/alpha = %.4g to be able to reject", cli.ErrUsage, f.bootstrap, 1/f.alpha)
	case f.maxDim < 0:
		return fmt.Errorf("%w: -max-dim %d is negative (0 means number of columns − 1)", cli.ErrUsage, f.maxDim)
	case f.workers < 0:
		return fmt.Errorf("%w: -workers %d is negative (0 means all CPUs)", cli.ErrUsage, f.workers)
	}
	opt, err := f.in.options()
	if err != nil {
		return err
	}
	t, info, err := loadTable(ctx, e, path, opt, f.in.audit(), f.in.sample, f.seed)
	if err != nil {
		return err
	}
	name := info.name
	if _, d := t.X.Dims(); f.maxDim >= d {
		return fmt.Errorf("-max-dim %d is out of range: %s has %s, so -max-dim must be between 1 and %d", f.maxDim, name, words.CountNoun(d, "data column"), d-1)
	}
	rep, err := estimateDim(ctx, e, t, name, ngca.DimOptions{Alpha: f.alpha, Bootstrap: f.bootstrap, MaxDim: f.maxDim,
		Src: rand.NewPCG(f.seed, seedStream), Workers: f.workers})
	if err != nil {
		return err
	}
	n, d := t.X.Dims()
	if err := writeDimTable(e.stdout, rep, d); err != nil {
		return err
	}
	for _, note := range dimNotes(rep, n, d) {
		e.notef("%s", note)
	}
	return nil
}

// estimateDim runs ngca.EstimateDim on the data of file name with a
// progress bar on stderr.
func estimateDim(ctx context.Context, e *env, t *dataio.Table, name string, opts ngca.DimOptions) (*ngca.DimReport, error) {
	bar := progress.New(e.stderr, "testing the dimension", 1)
	opts.Progress = func(p ngca.Progress) { bar.Set(p.Fraction()) }
	// The audit has set aside the rows far from the rest already, or
	// -outliers keep asked to keep them.
	opts.KeepFarRows = true
	rep, err := ngca.EstimateDim(ctx, t.X, opts)
	if err == nil {
		bar.Set(1)
	}
	bar.Finish()
	if err != nil {
		return nil, fmt.Errorf("dimension test on %s: %w", name, inFileTerms(err, t))
	}
	return rep, nil
}

// writeDimTable writes the tests of rep as a table, the answer and the
// test of the directions left (of d).
func writeDimTable(w io.Writer, rep *ngca.DimReport, d int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "k\tindex\tnull median\tcolumns\tnull median\tp-value\treplicates\tdecision")
	for _, t := range rep.Tests {
		cols, colsNull := "-", "-" // no column left outside the k directions
		if t.Columns > 0 || t.ColumnsNull > 0 {
			cols, colsNull = fmt.Sprintf("%.4g", t.Columns), fmt.Sprintf("%.4g", t.ColumnsNull)
		}
		fmt.Fprintf(tw, "%d\t%.4g\t%.4g\t%s\t%s\t%.3f\t%d\t%s\n", t.K, t.Statistic, t.Null, cols, colsNull, t.PValue, t.Replicates, decision(t))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	r := rep.Remainder
	verdict := words.Agree(d-rep.Dim, "Gaussian by its", "jointly Gaussian by their") + " fourth moments"
	if r.Rejected {
		verdict = "not " + verdict
	}
	set, _ := fitDetails.DimOf(rep)
	_, err := fmt.Fprintf(w, "dim = %d%s (α = %g, B = %d; %s)\nthe other %s: %s (p = %.3f)\n",
		rep.Dim, atMost(rep), set.Alpha, set.Bootstrap, set.Settings, words.CountNoun(d-rep.Dim, "direction"), verdict, r.PValue)
	return err
}

func decision(t ngca.DimTest) string {
	if t.Rejected {
		return "rejected"
	}
	return "accepted"
}

// atMost notes an answer capped by MaxDim.
func atMost(rep *ngca.DimReport) string {
	if set, _ := fitDetails.DimOf(rep); rep.Dim == set.MaxDim {
		return fmt.Sprintf(" or more (the test of %d was rejected)", set.MaxDim-1)
	}
	return ""
}

// dimNotes says in words what a user of the answer should know: that the
// rows are few for the d columns, that the directions left are not
// Gaussian, or that most directions are non-Gaussian.
func dimNotes(rep *ngca.DimReport, n, d int) []string {
	var notes []string
	rest := rep.Remainder
	switch {
	case rep.FewRows && rest.Rejected:
		notes = append(notes, fmt.Sprintf("%s: below about %d rows the test can miss a weak signal in a direction that mixes the columns, "+
			"and the other %s %s not jointly Gaussian (p = %.3g), so there is non-Gaussian structure beyond the %s found; "+
			"more rows (or fewer columns) would resolve it", fewRows(n, d), enoughRows(rep), words.CountNoun(d-rep.Dim, "direction"),
			words.Agree(d-rep.Dim, "is", "are"), rest.PValue, words.CountNoun(rep.Dim, "direction")))
	case rep.FewRows && atMost(rep) == "":
		notes = append(notes, fmt.Sprintf("%s: below about %d rows the test can miss a weak signal in a direction that mixes the columns, "+
			"so there may be more non-Gaussian directions than the %d found; more rows (or fewer columns) would settle it",
			fewRows(n, d), enoughRows(rep), rep.Dim))
	case rest.Rejected:
		notes = append(notes, fmt.Sprintf("the other %s %s not jointly Gaussian (p = %.3g): there is non-Gaussian structure beyond the %s found, "+
			"too weak or too spread out to stand out one direction at a time", words.CountNoun(d-rep.Dim, "direction"), words.Agree(d-rep.Dim, "is", "are"),
			rest.PValue, words.CountNoun(rep.Dim, "direction")))
	}
	if note := modelNote(rep.Dim, d, atMost(rep) != ""); note != "" {
		notes = append(notes, note)
	}
	return notes
}

// errNoStructure reports data in which the test found no non-Gaussian
// dimension, so that -dim auto has nothing to fit.
var errNoStructure = errors.New("no non-Gaussian structure found")

// errUnresolved reports data that are not Gaussian although the test
// resolved no non-Gaussian direction, so that -dim auto has no M to fit.
var errUnresolved = errors.New("no non-Gaussian direction resolved")

// autoDim chooses -dim for fit and plot (-dim auto) by the default test,
// writes the decision on stderr (the tests under -v) and sets a.dim.
func (a *fitArgs) autoDim(ctx context.Context, e *env, t *dataio.Table, name string) error {
	n, d := t.X.Dims()
	if d < 2 {
		return fmt.Errorf("%s has %s; NGCA needs at least 2", name, words.CountNoun(d, "data column"))
	}
	rep, err := estimateDim(ctx, e, t, name, ngca.DimOptions{Src: rand.NewPCG(a.seed, seedStream), Workers: a.workers})
	if err != nil {
		return err
	}
	var ev []string
	for _, t := range rep.Tests {
		ev = append(ev, fmt.Sprintf("k=%d p=%.3f %s", t.K, t.PValue, decision(t)))
	}
	rest := words.Agree(d-rep.Dim, "looks", "look")
	if rep.Remainder.Rejected {
		rest = words.Agree(d-rep.Dim, "is not", "are not")
	}
	set, _ := fitDetails.DimOf(rep)
	evidence := fmt.Sprintf("tests of k non-Gaussian directions, α = %g, B = %d: %s; the other %s %s Gaussian (p = %.3f)",
		set.Alpha, set.Bootstrap, strings.Join(ev, ", "), words.CountNoun(d-rep.Dim, "direction"), rest, rep.Remainder.PValue)
	if rep.Dim == 0 {
		switch {
		case rep.Remainder.Rejected:
			return fmt.Errorf("-dim auto: %w in %s: no single direction stands out, but the data are not Gaussian (p = %.3g); %s (set -dim to fit anyway)",
				errUnresolved, name, rep.Remainder.PValue, fewRowsAdvice(rep, n, d))
		case rep.FewRows:
			return fmt.Errorf("-dim auto: %w in %s (%s); but %s, so weak structure may have gone unseen: about %d rows would show it (set -dim to fit anyway)",
				errNoStructure, name, evidence, fewRows(n, d), enoughRows(rep))
		}
		return fmt.Errorf("-dim auto: %w in %s (%s); the data look Gaussian, so there is nothing to fit (set -dim to fit anyway)", errNoStructure, name, evidence)
	}
	e.notef("-dim auto: M = %d%s: the test found %s", rep.Dim, atMost(rep), words.CountNoun(rep.Dim, "non-Gaussian direction"))
	e.detailf("%s", evidence)
	a.dim = rep.Dim
	for _, note := range dimNotes(rep, n, d) {
		e.notef("%s", note)
	}
	a.modelNoted = modelNote(rep.Dim, d, atMost(rep) != "") != ""
	return nil
}

// fewRowsAdvice says what may resolve structure the test could not.
func fewRowsAdvice(rep *ngca.DimReport, n, d int) string {
	if rep.FewRows {
		return fmt.Sprintf("%s, and about %d rows would resolve weak directions", fewRows(n, d), enoughRows(rep))
	}
	return "the structure is too weak or too spread out to stand out one direction at a time"
}

// fewRows says that n rows are few for the test on d columns.
func fewRows(n, d int) string {
	return fmt.Sprintf("%s are few for the dimension test on %s", words.CountNoun(n, "row"), words.CountNoun(d, "column"))
}

// enoughRows returns the rows below which the test sets FewRows.
func enoughRows(rep *ngca.DimReport) int {
	set, _ := fitDetails.DimOf(rep)
	return set.EnoughRows
}

// separationWarning returns a one-line warning when the fitted subspace is
// weakly separated from the rest of the spectrum (Result.Separation below
// ngca.WeakSeparation), with what to try that did not just run: not the
// estimator m, and not "-dim auto" when M came from it; "" otherwise.
func separationWarning(res *ngca.Result, a *fitArgs, m methods.Method) string {
	s := res.Separation()
	if !(s < ngca.WeakSeparation) {
		return ""
	}
	dimTip := `check M with "ngca dim" (or -dim auto)`
	if a.auto {
		dimTip = fmt.Sprintf("try another -dim than the test's M = %d", a.dim)
	}
	var others []string
	for _, k := range []string{"mipp", "wflsngca-robust"} {
		if k != m.Key {
			others = append(others, "-method "+k)
		}
	}
	return fmt.Sprintf("warning: weak separation: λ%d/λ%d = %.3g < %d, so the %d-dimensional subspace may be unreliable; "+
		"%s, or try %s or more rows", a.dim, a.dim+1, s, ngca.WeakSeparation, a.dim, dimTip, strings.Join(others, ", "))
}

// modelNote says what it means when the dimension test finds more than
// half of the d directions non-Gaussian: NGCA's model does not describe
// the data. It returns "" when dim ≤ d/2.
func modelNote(dim, d int, capped bool) string {
	if 2*dim <= d {
		return ""
	}
	more := ""
	if capped {
		more = " or more"
	}
	return fmt.Sprintf("the test finds %d%s of the %d directions non-Gaussian, more than half: NGCA's model, a few non-Gaussian "+
		"directions in Gaussian noise, does not describe these data; the components are still ranked by how non-Gaussian they are", dim, more, d)
}
