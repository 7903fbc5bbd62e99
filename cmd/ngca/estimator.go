package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/words"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/progress"
	"gonum.org/v1/gonum/mat"
)

// The estimator settings of fit and plot.

// seedStream is the second PCG word of the estimators' source: -seed S
// means Src = rand.NewPCG(S, 0), so -seed 0 is the library's default.
const seedStream = 0

// defaultMethod is the estimator that fit and plot run without -method: a
// key (or alias) of the registry in internal/methods. It is the robust
// variant, by the rule of docs/default-method.md: among the estimators
// that stay within the orientation study's bound of MIPP and cost at most
// three WF-LSNGCA fits, the one with the fewest cells whose median ε is
// more than 10 % (+ 0.001) above the cell's best. The published
// least-squares methods leave the bound; MIPP stays within it but is far
// from the best in six times as many cells. "ngca dim" keeps MIPP's
// spectrum test: the robust variant has no test of its own.
const defaultMethod = "wflsngca-robust"

// fitArgs are the flags that choose and configure an estimator. The flags
// of its settings are named as in methods.SettingNames.
type fitArgs struct {
	method                           string
	dim                              int
	auto                             bool // -dim auto: dim is chosen by autoDim
	seed                             uint64
	workers                          int
	centers                          int
	widths, ridges, vwidths, vridges string
	folds                            int
	iterations                       int
	threshold                        float64
	judge                            bool // -check: judge the fit with ngca.Check
	strict                           bool // -strict: exit 2 when the check is doubtful
	// modelNoted is set when -dim auto found most directions non-Gaussian
	// and said so (the weak-separation warning is then left out).
	modelNoted bool
	// input records the input flags, for the JSON of a fit.
	input inputRecord
}

// estimatorFlagNames are the flags of fitArgs that every estimator takes.
var estimatorFlagNames = []string{"method", "dim", "seed", "workers", "check", "strict"}

// fitFlagGroups lists the flags of fitArgs, for the help: the estimator's
// flags, then the settings grouped by the estimators they apply to.
func fitFlagGroups() []flagGroup {
	groups := []flagGroup{{"Estimator", estimatorFlagNames}}
	index := map[string]int{}
	for _, name := range methods.SettingNames() {
		to := appliesTo(name)
		key := methods.Keys(to)
		k, ok := index[key]
		if !ok {
			k, index[key] = len(groups), len(groups)
			groups = append(groups, flagGroup{title: "Settings of " + words.JoinAnd(labels(to))})
		}
		groups[k].names = append(groups[k].names, name)
	}
	return groups
}

// appliesTo returns the estimators that the setting of the given name
// applies to.
func appliesTo(setting string) []methods.Method {
	var out []methods.Method
	for _, m := range methods.All() {
		if m.Applies(setting) {
			out = append(out, m)
		}
	}
	return out
}

func labels(ms []methods.Method) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Label
	}
	return out
}

func (a *fitArgs) register(fs *flag.FlagSet, dimUsage string) {
	fs.StringVar(&a.method, "method", defaultMethod, "`estimator`: one of "+methods.Names()+", or its name as tables print it. "+
		"The default, wflsngca-robust, is exact when the non-Gaussian subspace lies along the data's columns and never much worse "+
		"than MIPP elsewhere; mipp is equivariant: as accurate whatever the orientation of the subspace. wflsngca and lsngca, "+
		"the paper's methods, need the subspace along the data's columns (docs/orientation/orientation.md; \"Which estimator?\" in the README)")
	fs.Var(dimValue{&a.dim, &a.auto}, "dim", dimUsage+`, or "auto" to choose M by the test of "ngca dim"`)
	fs.Uint64Var(&a.seed, "seed", 1, "random `seed`: the estimator's Src is rand.NewPCG(seed, 0), so -seed 0 gives the library's default (Src nil); -sample draws from rand.NewPCG(seed, 2)")
	fs.IntVar(&a.workers, "workers", 0, "`number` of worker goroutines (0 = all CPUs); the result does not depend on it")
	fs.BoolVar(&a.judge, "check", false, fmt.Sprintf("after the fit, judge it with ngca.Check (%d refits on three quarters of the rows, and for wflsngca, lsngca and wflsngca-robust a comparison with equivariant estimates; "+
		"1 to 4 times the fit's time) and write \"check: ok\" or \"check: doubtful\" with the evidence on stderr", defaults.CheckRefits))
	fs.BoolVar(&a.strict, "strict", false, "with -check: exit with status 2 when the check finds the fit doubtful or cannot make it (the result is written all the same)")
	fs.IntVar(&a.centers, methods.SetCenters, 0, fmt.Sprintf("`number` of kernel centers b, drawn from the rows (0 = min(n, %d))", defaults.Centers))
	fs.StringVar(&a.widths, methods.SetWidths, "", "comma-separated `list` of kernel widths σ to cross-validate (default "+gridText(defaults.Widths())+"; on standardised data)")
	fs.StringVar(&a.ridges, methods.SetRidges, "", "comma-separated `list` of ridge parameters λ (default "+gridText(defaults.Ridges())+")")
	fs.IntVar(&a.folds, methods.SetFolds, 0, fmt.Sprintf("`number` of cross-validation folds, at least 2 (0 = %d)", defaults.Folds))
	fs.StringVar(&a.vwidths, methods.SetVWidths, "", "stage-2 widths, a comma-separated `list` (default: -widths)")
	fs.StringVar(&a.vridges, methods.SetVRidges, "", "stage-2 ridges, a comma-separated `list` (default: -ridges)")
	fs.IntVar(&a.iterations, methods.SetIterations, 0, fmt.Sprintf("`number` of evaluations of β per index function, at least 1 (0 = %d)", defaults.MIPPIterations))
	fs.Float64Var(&a.threshold, methods.SetThreshold, 0, fmt.Sprintf("signal-to-noise `threshold` τ > 0 for keeping an index function (0 = %g)", defaults.MIPPThreshold))
}

// gridText describes a log-spaced grid: "10 values from 0.1 to 10,
// log-spaced".
func gridText(g []float64) string {
	return fmt.Sprintf("%d values from %g to %g, log-spaced", len(g), g[0], g[len(g)-1])
}

// check validates the flags that do not depend on the data and returns the
// estimator of -method. set holds the flags given on the command line.
func (a *fitArgs) check(set map[string]bool) (methods.Method, error) {
	m, err := methods.Lookup(a.method)
	if err != nil {
		return m, fmt.Errorf("%w: -method: %v", cli.ErrUsage, err)
	}
	for _, name := range methods.SettingNames() {
		if set[name] && !m.Applies(name) {
			return m, fmt.Errorf("%w: -%s does not apply to -method %s (only to %s)", cli.ErrUsage, name, m.Key,
				words.JoinAnd(strings.Split(methods.Keys(appliesTo(name)), ",")))
		}
	}
	switch {
	case a.strict && !a.judge:
		return m, cli.Usagef("-strict needs -check: it sets the exit status from the check's verdict")
	case a.auto:
	case a.dim < 1 && !set["dim"]:
		return m, fmt.Errorf("%w: -dim is required: the dimension M of the non-Gaussian subspace, 1 ≤ M < number of data columns", cli.ErrUsage)
	case a.dim < 1:
		return m, fmt.Errorf("%w: -dim %d is out of range: need 1 ≤ M < number of data columns", cli.ErrUsage, a.dim)
	case a.workers < 0:
		return m, fmt.Errorf("%w: -workers %d is negative (0 means all CPUs)", cli.ErrUsage, a.workers)
	case a.centers < 0:
		return m, fmt.Errorf("%w: -centers %d is negative (0 means min(n, %d))", cli.ErrUsage, a.centers, defaults.Centers)
	case a.folds < 0 || a.folds == 1:
		return m, fmt.Errorf("%w: -folds %d: need at least 2 folds (0 means %d)", cli.ErrUsage, a.folds, defaults.Folds)
	case a.iterations < 0:
		return m, fmt.Errorf("%w: -iterations %d is negative (0 means %d)", cli.ErrUsage, a.iterations, defaults.MIPPIterations)
	case !(a.threshold >= 0) || math.IsInf(a.threshold, 1):
		return m, fmt.Errorf("%w: -threshold %v: need a positive finite value (0 means %g)", cli.ErrUsage, a.threshold, defaults.MIPPThreshold)
	}
	for _, g := range []struct{ name, s string }{{"widths", a.widths}, {"ridges", a.ridges}, {"vwidths", a.vwidths}, {"vridges", a.vridges}} {
		if _, err := parseGrid(g.name, g.s); err != nil {
			return m, err
		}
	}
	return m, nil
}

// parseGrid parses the comma-separated grid of flag -name; empty means the
// default (nil).
func parseGrid(name, s string) ([]float64, error) {
	items := cli.SplitList(s)
	if s != "" && len(items) == 0 {
		return nil, fmt.Errorf("%w: -%s is empty", cli.ErrUsage, name)
	}
	var g []float64
	for _, it := range items {
		v, err := strconv.ParseFloat(it, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: -%s: %q is not a number", cli.ErrUsage, name, it)
		}
		if !(v > 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("%w: -%s: %s is not a positive finite number", cli.ErrUsage, name, it)
		}
		g = append(g, v)
	}
	return g, nil
}

// settings returns the flags' settings of an estimator, reporting its
// progress to prog.
func (a *fitArgs) settings(prog func(ngca.Progress)) methods.Settings {
	grid := func(name, s string) []float64 {
		g, _ := parseGrid(name, s) // checked by check
		return g
	}
	return methods.Settings{Dim: a.dim, Workers: a.workers, Src: rand.NewPCG(a.seed, seedStream), Progress: prog,
		Centers: a.centers, Folds: a.folds,
		Widths: grid("widths", a.widths), Ridges: grid("ridges", a.ridges),
		VWidths: grid("vwidths", a.vwidths), VRidges: grid("vridges", a.vridges),
		Iterations: a.iterations, Threshold: a.threshold}
}

// checkData checks the data of file name against the settings, so that
// the usual mistakes get a message in the file's terms rather than the
// library's. Too few rows for the estimator are left to the library,
// whose error says how many it needs.
func (a *fitArgs) checkData(m methods.Method, t *dataio.Table, name string) error {
	n, d := t.X.Dims()
	switch {
	case d < 2:
		return fmt.Errorf("%s has %s; NGCA needs at least 2", name, words.CountNoun(d, "data column"))
	case a.dim >= d:
		return fmt.Errorf("-dim %d is out of range: %s has %s, so -dim must be between 1 and %d", a.dim, name, words.CountNoun(d, "data column"), d-1)
	case n < 2:
		return fmt.Errorf("%s has 1 row of data; NGCA needs many more", name)
	case m.Kernel && a.centers > n:
		return fmt.Errorf("-centers %d exceeds the %s of %s", a.centers, words.CountNoun(n, "row"), name)
	}
	for j := 0; j < d; j++ {
		v0, constant := t.X.At(0, j), true
		for i := 1; i < n && constant; i++ {
			constant = t.X.At(i, j) == v0
		}
		if constant {
			drop := strconv.Itoa(t.Fields[j])
			if t.Names != nil && t.Names[j] != "" {
				drop = t.Names[j]
			}
			return fmt.Errorf("%s is constant (every value is %v): it carries no information and cannot be standardised; -drop %s leaves it out", t.ColumnName(name, j), v0, drop)
		}
	}
	return nil
}

// fitTable fits the estimator m to the data of file name, drawing a
// progress bar on stderr when it is a terminal.
func (a *fitArgs) fitTable(ctx context.Context, e *env, m methods.Method, t *dataio.Table, name string) (*ngca.Result, error) {
	if a.auto {
		if err := a.autoDim(ctx, e, t, name); err != nil {
			return nil, err
		}
	}
	if err := a.checkData(m, t, name); err != nil {
		return nil, err
	}
	bar := progress.New(e.stderr, "fitting "+m.Label, 1)
	res, err := m.New(a.settings(func(p ngca.Progress) { bar.Set(p.Fraction()) })).Fit(ctx, t.X)
	if err == nil {
		bar.Set(1)
	}
	bar.Finish()
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", m.Label, name, inFileTerms(err, t))
	}
	if note := dependentNote(res, t, name); note != "" {
		e.notef("%s", note)
	}
	if note := nullNote(res, t); note != "" {
		e.notef("%s", note)
		e.detailf("its screens kept %s", screenDetails(res, t))
	}
	if r, ok := res.Report.(*ngca.RobustReport); ok {
		e.detailf("%s returned its %s estimate: the test of the axes estimate gave p = %.3g, its distance from the equivariant estimate %.3g", res.Method, r.Estimate, r.P, r.Distance)
	}
	return res, nil
}

// dependentNote names the data columns that the fit left out as linear
// combinations of earlier columns (Result.Dependent); "" if none.
func dependentNote(res *ngca.Result, t *dataio.Table, name string) string {
	if len(res.Dependent) == 0 {
		return ""
	}
	var cols, refs []string
	for _, j := range res.Dependent {
		cols = append(cols, strings.TrimSuffix(t.ColumnName(name, j), " of "+name))
		refs = append(refs, columnRef(t, j))
	}
	verb, it, rows := "is a combination", "it", "its row of the basis is"
	if len(cols) > 1 {
		verb, it, rows = "are combinations", "them", "their rows of the basis are"
	}
	subj := "it"
	if len(cols) > 1 {
		subj = "they"
	}
	return fmt.Sprintf("left out %s of %s: %s %s of the columns before %s (a one-hot group, a total, a copy), so %s zero; "+
		"-drop %s fits without %s and without this note", words.JoinAnd(cols), name, subj, verb, it, rows, strings.Join(refs, ","), it)
}

// columnRef names data column j of t as -drop and -cols take it: its
// header name (quoted if it needs to be), or its 1-based number.
func columnRef(t *dataio.Table, j int) string {
	if t.Names == nil || t.Names[j] == "" {
		return strconv.Itoa(t.Fields[j])
	}
	if strings.ContainsAny(t.Names[j], " ,\"'") {
		return strconv.Quote(t.Names[j])
	}
	return t.Names[j]
}

// nullNote says which data columns a robust fit uses when it returns its
// axes estimate with some columns set to zero, so that the variant's
// feature selection is never silent; "" if it zeroed none or returned the
// equivariant estimate, which uses every column.
func nullNote(res *ngca.Result, t *dataio.Table) string {
	r, ok := res.Report.(*ngca.RobustReport)
	_, d := t.X.Dims()
	if !ok || r.Estimate != "axes" || len(r.NullCoords) == 0 {
		return ""
	}
	// A column left out as a combination of others has a zero row too,
	// and is named by its own note, not here.
	var kept []string
	for j := 0; j < d; j++ {
		if !slices.Contains(r.NullCoords, j) && !zeroRow(res.Basis, j) {
			kept = append(kept, shortColumnName(t, j))
		}
	}
	return fmt.Sprintf("%s found the non-Gaussian structure in %s only: the rows of the other %s in the basis are zero (-method mipp uses every column)",
		res.Method, words.JoinAnd(kept), words.CountNoun(d-len(kept), "column"))
}

// zeroRow reports whether row j of b is zero.
func zeroRow(b *mat.Dense, j int) bool {
	_, m := b.Dims()
	for k := range m {
		if b.At(j, k) != 0 {
			return false
		}
	}
	return true
}

// screenDetails says why the robust variant's screens kept each column it
// uses: its most negative z-score, "marginal" (a kernel on the column
// alone) or "joint" (kernels on all columns): how many standard errors
// its kernel part beat the Gaussian model by.
func screenDetails(res *ngca.Result, t *dataio.Table) string {
	r, _ := fitDetails.RobustOf(res.Report)
	_, d := t.X.Dims()
	var why []string
	for j := 0; j < d; j++ {
		if slices.Contains(r.NullCoords, j) {
			continue
		}
		z, which := math.NaN(), "unknown"
		switch {
		case j >= len(r.SelectZ) || j >= len(r.MarginalZ):
		case r.MarginalZ[j] <= r.SelectZ[j]:
			z, which = r.MarginalZ[j], "marginal"
		default:
			z, which = r.SelectZ[j], "joint"
		}
		why = append(why, fmt.Sprintf("%s (z = %.3g, %s screen)", shortColumnName(t, j), z, which))
	}
	return strings.Join(why, ", ") + ": its kernel part beat the Gaussian model by that many standard errors"
}
