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

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/progress"
)

const dimDoc = `Usage: ngca dim [flags] FILE

Estimates how many dimensions of the data in FILE (read as by "ngca fit";
"-" reads standard input) are non-Gaussian, by a forward search of
bootstrap tests (ngca.EstimateDim, docs/dim.md): for k = 0, 1, ... it tests
"exactly k non-Gaussian dimensions" and answers the first k not rejected.
It writes to standard output one line per tested k: the statistic (the
(k+1)-th eigenvalue of the tested estimator), its median over bootstrap
data sets that have exactly k non-Gaussian dimensions, the p-value, the
replicates run and the decision; then the answer. A progress bar is drawn
on stderr when it is a terminal.

"ngca fit -dim auto" (and plot) runs the same test with the default
settings and fits with the answer. When the answer is more than half of
the d directions (M > d/2), a note on stderr says what that means: NGCA's
model, a few non-Gaussian directions in Gaussian noise, does not describe
these data; the components are still ranked by how non-Gaussian they are.
-sample N tests a random sample of N rows (see "ngca help fit").

Examples:
  ngca dim data.csv
  ngca dim -alpha 0.01 -bootstrap 99 -max-dim 4 data.csv
  ngca dim -test wflsngca -label-col species iris.csv
`

func init() {
	c := &command{name: "dim", summary: "estimate the number of non-Gaussian dimensions of a data file (bootstrap tests)", brief: dimBrief, run: runDim}
	c.usage = dimDoc + flagHelp(newDimFlags(c).fs, []flagGroup{
		{"Input", inputFlagNames(true)},
		{"Test", []string{"test", "alpha", "bootstrap", "max-dim", "seed", "workers"}},
	})
	register(c)
}

// dimFlags are the flags of the dim command.
type dimFlags struct {
	fs        *flag.FlagSet
	in        inputFlags
	test      string
	alpha     float64
	bootstrap int
	maxDim    int
	seed      uint64
	workers   int
}

// dimTests are the estimators whose spectrum -test can name.
var dimTests = map[string]ngca.DimMethod{"mipp": ngca.DimMIPP, "wflsngca": ngca.DimWFLSNGCA, "lsngca": ngca.DimLSNGCA}

func newDimFlags(c *command) *dimFlags {
	f := &dimFlags{fs: newFlags(c)}
	f.in.register(f.fs, true)
	f.fs.StringVar(&f.test, "test", "mipp", "`estimator` whose spectrum is tested: mipp (calibrated on any covariance; fast), wflsngca or lsngca (several times slower)")
	f.fs.Float64Var(&f.alpha, "alpha", ngca.DefaultDimAlpha, "significance `level` of every test, between 0 and 1")
	f.fs.IntVar(&f.bootstrap, "bootstrap", ngca.DefaultDimBootstrap, "`number` B of bootstrap replicates per test; B + 1 ≥ 1/alpha")
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
	method, ok := dimTests[strings.ToLower(f.test)]
	switch {
	case !ok:
		return fmt.Errorf("%w: -test %q: want mipp, wflsngca or lsngca", errUsage, f.test)
	case !(f.alpha > 0 && f.alpha < 1):
		return fmt.Errorf("%w: -alpha %v: need 0 < alpha < 1", errUsage, f.alpha)
	case f.bootstrap < 1 || float64(f.bootstrap+1)*f.alpha < 1:
		return fmt.Errorf("%w: -bootstrap %d: need B + 1 ≥ 1/alpha = %.4g to be able to reject", errUsage, f.bootstrap, 1/f.alpha)
	case f.maxDim < 0:
		return fmt.Errorf("%w: -max-dim %d is negative (0 means number of columns − 1)", errUsage, f.maxDim)
	case f.workers < 0:
		return fmt.Errorf("%w: -workers %d is negative (0 means all CPUs)", errUsage, f.workers)
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
		return fmt.Errorf("-max-dim %d is out of range: %s has %s, so -max-dim must be between 1 and %d", f.maxDim, name, countNoun(d, "data column"), d-1)
	}
	rep, err := estimateDim(ctx, e, t, name, ngca.DimOptions{Method: method, Alpha: f.alpha, Bootstrap: f.bootstrap, MaxDim: f.maxDim,
		Src: rand.NewPCG(f.seed, seedStream), Workers: f.workers})
	if err != nil {
		return err
	}
	if err := writeDimTable(e.stdout, rep); err != nil {
		return err
	}
	if _, d := t.X.Dims(); modelNote(rep.Dim, d, atMost(rep) != "") != "" {
		fmt.Fprintln(e.stderr, modelNote(rep.Dim, d, atMost(rep) != ""))
	}
	return nil
}

// estimateDim runs ngca.EstimateDim on the data of file name with a
// progress bar on stderr.
func estimateDim(ctx context.Context, e *env, t *dataio.Table, name string, opts ngca.DimOptions) (*ngca.DimReport, error) {
	if n, d := t.X.Dims(); d >= 2 && n <= d {
		return nil, fmt.Errorf("%s has %s for %s; the dimension test needs more rows than columns", name, countNoun(n, "row"), countNoun(d, "column"))
	}
	bar := progress.New(e.stderr, "testing the dimension", 1)
	opts.Progress = func(p ngca.Progress) { bar.Set(p.Fraction()) }
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

// writeDimTable writes the tests of rep as a table and the answer.
func writeDimTable(w io.Writer, rep *ngca.DimReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "k\tstatistic\tnull median\tp-value\treplicates\tdecision")
	for _, t := range rep.Tests {
		fmt.Fprintf(tw, "%d\t%.4g\t%.4g\t%.3f\t%d\t%s\n", t.K, t.Statistic, t.Null, t.PValue, t.Replicates, decision(t))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "dim = %d%s (α = %g, B = %d; spectrum of %s: %s)\n", rep.Dim, atMost(rep), rep.Alpha, rep.Bootstrap, rep.Method, rep.Settings)
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
	if len(rep.Tests) > 0 && rep.Tests[len(rep.Tests)-1].Rejected {
		return fmt.Sprintf(" or more (every k < %d was rejected)", rep.MaxDim)
	}
	return ""
}

// errNoStructure reports data in which the test found no non-Gaussian
// dimension, so that -dim auto has nothing to fit.
var errNoStructure = errors.New("no non-Gaussian structure found")

// autoDim chooses -dim for fit and plot (-dim auto) by the default test,
// prints the decision and its evidence on stderr and sets a.dim.
func (a *fitArgs) autoDim(ctx context.Context, e *env, t *dataio.Table, name string) error {
	if _, d := t.X.Dims(); d < 2 {
		return fmt.Errorf("%s has %s; NGCA needs at least 2", name, countNoun(d, "data column"))
	}
	rep, err := estimateDim(ctx, e, t, name, ngca.DimOptions{Src: rand.NewPCG(a.seed, seedStream), Workers: a.workers})
	if err != nil {
		return err
	}
	// The evidence: the first two tests and the last three (the
	// decision), "ngca dim" prints them all.
	var ev []string
	for i, t := range rep.Tests {
		if i == 2 && len(rep.Tests) > 5 {
			ev = append(ev, fmt.Sprintf("… (%d more; ngca dim lists them)", len(rep.Tests)-5))
		}
		if i < 2 || i >= len(rep.Tests)-3 {
			ev = append(ev, fmt.Sprintf("k=%d p=%.3f %s", t.K, t.PValue, decision(t)))
		}
	}
	evidence := fmt.Sprintf("bootstrap tests on %s's spectrum, α = %g, B = %d: %s", rep.Method, rep.Alpha, rep.Bootstrap, strings.Join(ev, ", "))
	if rep.Dim == 0 {
		return fmt.Errorf("-dim auto: %w in %s (%s); the data look Gaussian, so there is nothing to fit (set -dim to fit anyway)", errNoStructure, name, evidence)
	}
	fmt.Fprintf(e.stderr, "ngca: -dim auto: M = %d%s (%s)\n", rep.Dim, atMost(rep), evidence)
	a.dim = rep.Dim
	if _, d := t.X.Dims(); modelNote(rep.Dim, d, atMost(rep) != "") != "" {
		fmt.Fprintln(e.stderr, modelNote(rep.Dim, d, atMost(rep) != ""))
		a.modelNoted = true
	}
	return nil
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
	return fmt.Sprintf("note: the test finds %d%s of the %d directions non-Gaussian, more than half: NGCA's model, a few non-Gaussian "+
		"directions in Gaussian noise, does not describe these data; the components are still ranked by how non-Gaussian they are", dim, more, d)
}
