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

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/progress"
)

// The estimator settings of fit and plot.

// seedStream is the second PCG word of the estimators' source: -seed S
// means Src = rand.NewPCG(S, 0), so -seed 0 is the library's default.
const seedStream = 0

// Library defaults, as documented on the estimators' fields, reported in the
// JSON output.
const (
	libDefaultCenters    = 100
	libDefaultFolds      = 5
	libDefaultIterations = 10
	libDefaultThreshold  = 1.6
)

// fitMethod is an estimator the command can fit.
type fitMethod struct {
	name, title string
	stages      int      // progress stages of a fit
	flags       []string // the method-specific flags that apply to it
}

var fitMethods = []fitMethod{
	{"wflsngca", "WF-LSNGCA", 2, []string{"centers", "widths", "ridges", "vwidths", "vridges", "folds", "robust"}},
	{"lsngca", "LSNGCA", 1, []string{"centers", "widths", "ridges", "folds"}},
	{"mipp", "MIPP", 1, []string{"iterations", "threshold"}},
}

// methodFlagNames lists the flags that apply to some methods only.
var methodFlagNames = []string{"centers", "widths", "ridges", "vwidths", "vridges", "folds", "robust", "iterations", "threshold"}

// robustStages is the number of progress stages of a robust WF-LSNGCA fit.
const robustStages = 7

// fitArgs are the flags that choose and configure an estimator.
type fitArgs struct {
	method                           string
	dim                              int
	seed                             uint64
	workers                          int
	centers                          int
	widths, ridges, vwidths, vridges string
	folds                            int
	iterations                       int
	threshold                        float64
	robust                           bool
}

// fitFlagGroups lists the flags of fitArgs, for the help.
var fitFlagGroups = []flagGroup{
	{"Estimator", []string{"method", "dim", "seed", "workers"}},
	{"WF-LSNGCA and LSNGCA (defaults: the paper's settings)", []string{"centers", "widths", "ridges", "folds", "vwidths", "vridges", "robust"}},
	{"MIPP", []string{"iterations", "threshold"}},
}

func (a *fitArgs) register(fs *flag.FlagSet, dimUsage string) {
	fs.StringVar(&a.method, "method", "wflsngca", "`estimator`: wflsngca, lsngca or mipp (see \"Which estimator?\" in the README)")
	fs.IntVar(&a.dim, "dim", 0, dimUsage)
	fs.Uint64Var(&a.seed, "seed", 1, "random `seed`: the estimator's Src is rand.NewPCG(seed, 0), so -seed 0 gives the library's default (Src nil)")
	fs.IntVar(&a.workers, "workers", 0, "`number` of worker goroutines (0 = all CPUs); the result does not depend on it")
	fs.IntVar(&a.centers, "centers", 0, "`number` of kernel centers b, drawn from the rows (0 = min(n, 100))")
	fs.StringVar(&a.widths, "widths", "", "comma-separated `list` of kernel widths σ to cross-validate (default 10 values from 0.1 to 10, log-spaced; on standardised data)")
	fs.StringVar(&a.ridges, "ridges", "", "comma-separated `list` of ridge parameters λ (default 10 values from 1e-5 to 10, log-spaced)")
	fs.IntVar(&a.folds, "folds", 0, "`number` of cross-validation folds, at least 2 (0 = 5)")
	fs.StringVar(&a.vwidths, "vwidths", "", "WF-LSNGCA stage-2 widths, a comma-separated `list` (default: -widths)")
	fs.StringVar(&a.vridges, "vridges", "", "WF-LSNGCA stage-2 ridges, a comma-separated `list` (default: -ridges)")
	fs.BoolVar(&a.robust, "robust", false, "WF-LSNGCA: use the robust variant (ill-conditioned data, more dimensions, subspaces off the axes; see docs/robust.md)")
	fs.IntVar(&a.iterations, "iterations", 0, "`number` of evaluations of β per index function, at least 1 (0 = 10)")
	fs.Float64Var(&a.threshold, "threshold", 0, "signal-to-noise `threshold` τ > 0 for keeping an index function (0 = 1.6)")
}

// check validates the flags that do not depend on the data. set holds the
// flags given on the command line.
func (a *fitArgs) check(set map[string]bool) (fitMethod, error) {
	var m fitMethod
	found := false
	for _, mm := range fitMethods {
		if strings.EqualFold(a.method, mm.name) || strings.EqualFold(a.method, mm.title) {
			m, found = mm, true
		}
	}
	if !found {
		return m, fmt.Errorf("%w: unknown -method %q (want wflsngca, lsngca or mipp)", errUsage, a.method)
	}
	for _, name := range methodFlagNames {
		if !set[name] || slices.Contains(m.flags, name) {
			continue
		}
		var to []string
		for _, mm := range fitMethods {
			if slices.Contains(mm.flags, name) {
				to = append(to, mm.name)
			}
		}
		return m, fmt.Errorf("%w: -%s does not apply to -method %s (only to %s)", errUsage, name, m.name, strings.Join(to, " and "))
	}
	switch {
	case a.dim < 1 && !set["dim"]:
		return m, fmt.Errorf("%w: -dim is required: the dimension M of the non-Gaussian subspace, 1 ≤ M < number of data columns", errUsage)
	case a.dim < 1:
		return m, fmt.Errorf("%w: -dim %d is out of range: need 1 ≤ M < number of data columns", errUsage, a.dim)
	case a.workers < 0:
		return m, fmt.Errorf("%w: -workers %d is negative (0 means all CPUs)", errUsage, a.workers)
	case a.centers < 0:
		return m, fmt.Errorf("%w: -centers %d is negative (0 means min(n, 100))", errUsage, a.centers)
	case a.folds < 0 || a.folds == 1:
		return m, fmt.Errorf("%w: -folds %d: need at least 2 folds (0 means 5)", errUsage, a.folds)
	case a.iterations < 0:
		return m, fmt.Errorf("%w: -iterations %d is negative (0 means 10)", errUsage, a.iterations)
	case !(a.threshold >= 0) || math.IsInf(a.threshold, 1):
		return m, fmt.Errorf("%w: -threshold %v: need a positive finite value (0 means 1.6)", errUsage, a.threshold)
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
	items := splitList(s)
	if s != "" && len(items) == 0 {
		return nil, fmt.Errorf("%w: -%s is empty", errUsage, name)
	}
	var g []float64
	for _, it := range items {
		v, err := strconv.ParseFloat(it, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: -%s: %q is not a number", errUsage, name, it)
		}
		if !(v > 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("%w: -%s: %s is not a positive finite number", errUsage, name, it)
		}
		g = append(g, v)
	}
	return g, nil
}

// estimator builds the estimator of method m with the flags' settings.
func (a *fitArgs) estimator(m fitMethod, prog func(ngca.Progress)) ngca.Estimator {
	src := rand.NewPCG(a.seed, seedStream)
	grid := func(name, s string) []float64 {
		g, _ := parseGrid(name, s) // checked by check
		return g
	}
	switch m.name {
	case "lsngca":
		return &ngca.LSNGCA{Dim: a.dim, NumCenters: a.centers, Widths: grid("widths", a.widths), Ridges: grid("ridges", a.ridges),
			Folds: a.folds, Src: src, Workers: a.workers, Progress: prog}
	case "mipp":
		return &ngca.MIPP{Dim: a.dim, Iterations: a.iterations, Threshold: a.threshold, Src: src, Workers: a.workers, Progress: prog}
	}
	wf := &ngca.WFLSNGCA{Dim: a.dim, NumCenters: a.centers, Widths: grid("widths", a.widths), Ridges: grid("ridges", a.ridges),
		VWidths: grid("vwidths", a.vwidths), VRidges: grid("vridges", a.vridges),
		Folds: a.folds, Src: src, Workers: a.workers, Progress: prog}
	if a.robust {
		wf.Robust = &ngca.RobustOptions{}
	}
	return wf
}

// checkData checks the data of file name against the settings, so that
// the usual mistakes get a message in the file's terms rather than the
// library's.
func (a *fitArgs) checkData(m fitMethod, t *dataio.Table, name string) error {
	n, d := t.X.Dims()
	folds := a.folds
	if folds == 0 {
		folds = libDefaultFolds
	}
	switch {
	case d < 2:
		return fmt.Errorf("%s has %s; NGCA needs at least 2", name, countNoun(d, "data column"))
	case a.dim >= d:
		return fmt.Errorf("-dim %d is out of range: %s has %s, so -dim must be between 1 and %d", a.dim, name, countNoun(d, "data column"), d-1)
	case n < 2:
		return fmt.Errorf("%s has 1 row of data; NGCA needs many more", name)
	case m.name != "mipp" && a.centers > n:
		return fmt.Errorf("-centers %d exceeds the %s of %s", a.centers, countNoun(n, "row"), name)
	case m.name != "mipp" && n < folds:
		return fmt.Errorf("%s has %s, fewer than the %d cross-validation folds", name, countNoun(n, "row"), folds)
	case m.name != "wflsngca" && n <= d:
		return fmt.Errorf("%s has %s for %s; %s whitens the data and needs more rows than columns", name, countNoun(n, "row"), countNoun(d, "column"), m.title)
	}
	for j := 0; j < d; j++ {
		v0, constant := t.X.At(0, j), true
		for i := 1; i < n && constant; i++ {
			constant = t.X.At(i, j) == v0
		}
		if constant {
			return fmt.Errorf("%s is constant (every value is %v): it carries no information and cannot be standardised; remove it", dataColumnName(t, name, j), v0)
		}
	}
	return nil
}

// dataColumnName names column j of the data of t: `column 3 ("x3") of data.csv`.
func dataColumnName(t *dataio.Table, name string, j int) string {
	s := fmt.Sprintf("column %d", t.Fields[j])
	if t.Format == dataio.LIBSVM {
		s = fmt.Sprintf("feature %d", t.Fields[j])
	}
	if t.Names != nil && t.Names[j] != "" {
		s += fmt.Sprintf(" (%q)", t.Names[j])
	}
	return s + " of " + name
}

// fitTable fits method m to the data of file name, drawing a progress bar
// on stderr when it is a terminal.
func (a *fitArgs) fitTable(ctx context.Context, e *env, m fitMethod, t *dataio.Table, name string) (*ngca.Result, error) {
	if err := a.checkData(m, t, name); err != nil {
		return nil, err
	}
	if a.robust {
		m.title, m.stages = m.title+" robust", robustStages
	}
	bar := progress.New(e.stderr, "fitting "+m.title, m.stages)
	stage, last := -1, ""
	prog := func(p ngca.Progress) {
		if p.Stage != last {
			stage, last = stage+1, p.Stage
		}
		bar.Set(float64(stage) + float64(p.Done)/float64(max(p.Total, 1)))
	}
	res, err := a.estimator(m, prog).Fit(ctx, t.X)
	if err == nil {
		bar.Set(float64(m.stages))
	}
	bar.Finish()
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", m.title, name, err)
	}
	return res, nil
}

func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
