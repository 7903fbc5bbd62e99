// Package robust runs the study behind docs/robust.md: the robust variant
// of WF-LSNGCA against the faithful method and the other estimators on the
// cells where the method as published fails.
package robust

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/atomicfile"
	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/ngcatest"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// Cell is one setting of the artificial data.
type Cell struct {
	Name   string
	R      float64
	D      int
	Rotate bool
	// Goal is the target mean ε for the robust variant (0:
	// none; the stretch cell compares with LSNGCA instead).
	Goal float64
}

// DefaultCells are the study's cells (n = 2000, m = 2).
func DefaultCells() []Cell {
	return []Cell{
		{"aligned r=0", 0, 10, false, 1e-4},
		{"aligned r=0.8", 0.8, 10, false, 1e-4},
		{"rotated r=0", 0, 10, true, 0.01},
		{"rotated r=0.8", 0.8, 10, true, 0.01},
		{"aligned r=1", 1, 10, false, 0.01},
		{"aligned r=1.5", 1.5, 10, false, 0.01},
		{"aligned r=2", 2, 10, false, 0.01},
		{"aligned d=20", 0, 20, false, 0.01},
		{"aligned d=50", 0, 50, false, 0.01},
		{"aligned r=4 (stretch)", 4, 10, false, 0},
	}
}

// Method is an estimator of the study.
type Method struct {
	Key, Label string
	New        func(src rand.Source) ngca.Estimator
}

// DefaultMethods are the faithful method, LSNGCA, MIPP, the robust variant
// (from the registry of internal/methods, with one worker each) and the
// robust variant's two single-path ablations. The keys seed the fits and
// name them in robust.csv, so they are the study's own, not the command's.
func DefaultMethods() []Method {
	return []Method{
		{"wflsngca", "WF-LSNGCA (faithful)", registered("wflsngca", nil)},
		{"lsngca", "LSNGCA", registered("lsngca", nil)},
		{"mipp", "MIPP", registered("mipp", nil)},
		{"robust", "WF-LSNGCA robust", registered("wflsngca-robust", nil)},
		{"robust-axes", "robust, axes estimate only", registered("wflsngca-robust", withPath("axes"))},
		{"robust-equivariant", "robust, equivariant estimate only", registered("wflsngca-robust", withPath("equivariant"))},
	}
}

// registered returns a constructor of the registry's estimator key with
// its default settings for m = 2 and one worker, fitted with the study
// settings set (internal/probe) if set is not nil.
func registered(key string, set *probe.Settings) func(rand.Source) ngca.Estimator {
	m := methods.MustLookup(key)
	return func(src rand.Source) ngca.Estimator {
		e := m.New(methods.Settings{Dim: 2, Workers: 1, Src: src})
		if set != nil {
			return repro.Tuned{Est: e, Settings: *set}
		}
		return e
	}
}

// withPath returns the study settings of a robust WF-LSNGCA that take the
// path p: "axes" or "equivariant".
func withPath(p string) *probe.Settings {
	return &probe.Settings{RobustPath: p}
}

// Config describes the study.
type Config struct {
	Cells   []Cell   // nil: DefaultCells()
	Methods []Method // nil: DefaultMethods()
	Dists   []ngcatest.Distribution
	Seeds   int // 0: 10
	N       int // 0: 2000
	Seed    uint64
	Workers int // data sets at once; 0: GOMAXPROCS
	Out     string
	// Progress, if not nil, receives a progress bar.
	Progress io.Writer
}

// Row is one fit.
type Row struct {
	Cell    string
	Dist    ngcatest.Distribution
	Seed    int
	Method  string
	Epsilon float64
	Seconds float64
	Path    string  // robust variants: the estimate returned
	P       float64 // robust variants: the p-value of the test of the axes estimate
	Err     string
}

type job struct {
	cell Cell
	dist ngcatest.Distribution
	seed int
}

// header names the columns of robust.csv.
var header = []string{"cell", "distribution", "seed", "method", "epsilon", "seconds", "path", "p", "error"}

// Run executes the study and writes robust.csv and robust.md into c.Out.
// Finished rows are appended to robust.csv as they come (a kill leaves
// whole rows); on cancellation both files are written from the finished
// rows, each replaced only once complete.
func Run(ctx context.Context, c Config) error {
	if err := c.defaults(); err != nil {
		return err
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return err
	}
	jobs, weights := c.jobs()
	rows, runErr := repro.RunLogged(ctx,
		repro.Jobs{N: len(jobs), Workers: c.Workers, Weights: weights, Progress: c.Progress, Label: "robust study"},
		repro.Table[Row]{Path: filepath.Join(c.Out, "robust.csv"), Header: header, Record: Row.record},
		func(ctx context.Context, i int) ([]Row, error) { return c.runJob(ctx, jobs[i]) })
	return repro.Conclude(runErr, func() error { return c.write(rows) }, len(rows)/len(c.Methods), len(jobs), c.Out)
}

func (c *Config) defaults() error {
	if c.Cells == nil {
		c.Cells = DefaultCells()
	}
	if c.Methods == nil {
		c.Methods = DefaultMethods()
	}
	if c.Dists == nil {
		c.Dists = ngcatest.Distributions()
	}
	if c.Seeds == 0 {
		c.Seeds = 10
	}
	if c.N == 0 {
		c.N = 2000
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Out == "" || c.Seeds < 1 || c.Workers < 1 || len(c.Cells) == 0 || len(c.Methods) == 0 || len(c.Dists) == 0 {
		return errors.New("robust study: empty grid, output directory or counts")
	}
	return nil
}

// jobs lists the data sets and their expected costs.
func (c *Config) jobs() ([]job, []float64) {
	var jobs []job
	var weights []float64
	for s := 0; s < c.Seeds; s++ { // seed-major, so an interrupted study covers every cell
		for _, cell := range c.Cells {
			for _, dist := range c.Dists {
				jobs = append(jobs, job{cell, dist, s})
				weights = append(weights, float64(cell.D*cell.D))
			}
		}
	}
	return jobs, weights
}

// write sorts the rows and writes robust.csv and robust.md from them.
func (c *Config) write(rows []Row) error {
	sort.SliceStable(rows, func(a, b int) bool {
		ra, rb := rows[a], rows[b]
		if ra.Cell != rb.Cell {
			return cellIndex(c.Cells, ra.Cell) < cellIndex(c.Cells, rb.Cell)
		}
		if ra.Dist != rb.Dist {
			return ra.Dist < rb.Dist
		}
		if ra.Seed != rb.Seed {
			return ra.Seed < rb.Seed
		}
		return methodIndex(c.Methods, ra.Method) < methodIndex(c.Methods, rb.Method)
	})
	if err := repro.WriteRows(filepath.Join(c.Out, "robust.csv"), header, rows, Row.record); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(c.Out, "robust.md"), []byte(c.markdown(rows)), 0o666)
}

func (c *Config) runJob(ctx context.Context, j job) ([]Row, error) {
	a := ngcatest.Artificial{Dist: j.dist, N: c.N, D: j.cell.D, R: j.cell.R, Rotate: j.cell.Rotate}
	x, truth, err := a.Sample(rand.NewPCG(c.Seed, repro.Key("robust", j.cell.Name, int(j.dist), j.seed)))
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, m := range c.Methods {
		src := rand.NewPCG(c.Seed, repro.Key("robust-fit", j.cell.Name, int(j.dist), j.seed, m.Key))
		start := time.Now()
		res, err := m.New(src).Fit(ctx, x)
		row := Row{Cell: j.cell.Name, Dist: j.dist, Seed: j.seed, Method: m.Key, Seconds: time.Since(start).Seconds(),
			Epsilon: math.NaN(), P: math.NaN()}
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			row.Err = err.Error()
		default:
			row.Epsilon = ngca.SubspaceError(truth, res.Basis)
			if r, ok := res.Report.(*ngca.RobustReport); ok {
				row.Path, row.P = r.Estimate, r.P
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func (r Row) record() []string {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return []string{r.Cell, r.Dist.String(), strconv.Itoa(r.Seed), r.Method, g(r.Epsilon),
		strconv.FormatFloat(r.Seconds, 'f', 3, 64), r.Path, g(r.P), r.Err}
}

func cellIndex(cells []Cell, name string) int {
	for i, c := range cells {
		if c.Name == name {
			return i
		}
	}
	return len(cells)
}

func methodIndex(ms []Method, key string) int {
	for i, m := range ms {
		if m.Key == key {
			return i
		}
	}
	return len(ms)
}

// tally gathers the rows of one study for its tables.
type tally struct {
	eps    map[tallyKey][]float64
	failed map[tallyKey]int
	secs   map[string][]float64
	paths  map[tallyKey]map[string]int
	ps     map[tallyKey][]float64
}

type tallyKey struct {
	cell, method string
	dist         ngcatest.Distribution
}

func newTally(rows []Row) *tally {
	t := &tally{map[tallyKey][]float64{}, map[tallyKey]int{}, map[string][]float64{}, map[tallyKey]map[string]int{}, map[tallyKey][]float64{}}
	for _, r := range rows {
		k := tallyKey{r.Cell, r.Method, r.Dist}
		if r.Err != "" {
			t.failed[k]++
			continue
		}
		t.eps[k] = append(t.eps[k], r.Epsilon)
		if r.Cell == "aligned r=0" || r.Cell == "rotated r=0" {
			t.secs[r.Method] = append(t.secs[r.Method], r.Seconds)
		}
		if r.Path != "" {
			if t.paths[k] == nil {
				t.paths[k] = map[string]int{}
			}
			t.paths[k][r.Path]++
			t.ps[k] = append(t.ps[k], r.P)
		}
	}
	return t
}

func (t *tally) mean(k tallyKey) (float64, int) {
	s := repro.Summarize(t.eps[k])
	return s.Mean, s.N
}

// markdown renders the study: the goal check, one table of mean ε per
// method, the robust variant's decisions and the time per fit.
func (c *Config) markdown(rows []Row) string {
	t := newTally(rows)
	var b strings.Builder
	fmt.Fprintf(&b, "Mean subspace error ε over %d seeds per cell (n = %d, m = 2; data seed %d). Produced by `go run ./cmd/reproduce robust` (in research/).\n", c.Seeds, c.N, c.Seed)
	fmt.Fprintf(&b, "A cell marked [k failed] had k fits that returned an error; they are not in the mean.\n\n")
	hasRobust := methodIndex(c.Methods, "robust") < len(c.Methods)
	if hasRobust {
		c.goalTable(&b, t)
	}
	for _, m := range c.Methods {
		c.meanTable(&b, t, m)
	}
	if hasRobust {
		c.decisionTable(&b, t)
	}
	c.timeTable(&b, t)
	return b.String()
}

// goalTable checks the robust variant's mean ε against each cell's goal.
func (c *Config) goalTable(b *strings.Builder, t *tally) {
	fmt.Fprintf(b, "### Goal check: WF-LSNGCA robust\n\n| cell | goal | (a) | (b) | (c) | (d) |\n|---|---|---|---|---|---|\n")
	for _, cell := range c.Cells {
		goal := "below LSNGCA"
		if cell.Goal > 0 {
			goal = fmt.Sprintf("≤ %g", cell.Goal)
		}
		fmt.Fprintf(b, "| %s | %s |", cell.Name, goal)
		for _, dist := range c.Dists {
			m, n := t.mean(tallyKey{cell.Name, "robust", dist})
			if n == 0 {
				fmt.Fprint(b, " – |")
				continue
			}
			bound := cell.Goal
			if bound == 0 {
				bound, _ = t.mean(tallyKey{cell.Name, "lsngca", dist})
			}
			mark := "✗"
			if m <= bound {
				mark = "✓"
			}
			fmt.Fprintf(b, " %s %.2g |", mark, m)
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintln(b)
}

// meanTable writes one method's mean ε per cell and distribution.
func (c *Config) meanTable(b *strings.Builder, t *tally, m Method) {
	fmt.Fprintf(b, "### %s\n\n| cell | (a) | (b) | (c) | (d) |\n|---|---|---|---|---|\n", m.Label)
	for _, cell := range c.Cells {
		fmt.Fprintf(b, "| %s |", cell.Name)
		for _, dist := range c.Dists {
			k := tallyKey{cell.Name, m.Key, dist}
			mv, n := t.mean(k)
			text := "–"
			if n > 0 {
				text = fmt.Sprintf("%.2e", mv)
			}
			if t.failed[k] > 0 {
				text += fmt.Sprintf(" [%d failed]", t.failed[k])
			}
			fmt.Fprintf(b, " %s |", text)
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintln(b)
}

// decisionTable writes how often the robust variant returned its
// equivariant estimate, and the range of its test's p-value.
func (c *Config) decisionTable(b *strings.Builder, t *tally) {
	fmt.Fprintf(b, "### Decisions of WF-LSNGCA robust\n\nFits that returned the equivariant estimate, and the range of the p-value of the test of the axes estimate (the axes estimate is kept when p ≥ %g).\n\n| cell | (a) | (b) | (c) | (d) |\n|---|---|---|---|---|\n", defaults.RobustLevel)
	for _, cell := range c.Cells {
		fmt.Fprintf(b, "| %s |", cell.Name)
		for _, dist := range c.Dists {
			k := tallyKey{cell.Name, "robust", dist}
			total := 0
			for _, v := range t.paths[k] {
				total += v
			}
			if total == 0 {
				fmt.Fprint(b, " – |")
				continue
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, p := range t.ps[k] {
				if !math.IsNaN(p) {
					lo, hi = math.Min(lo, p), math.Max(hi, p)
				}
			}
			fmt.Fprintf(b, " %d/%d, p %.1e to %.1e |", t.paths[k]["equivariant"], total, lo, hi)
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintln(b)
}

// timeTable writes the median time per fit on the two d = 10 cells.
func (c *Config) timeTable(b *strings.Builder, t *tally) {
	fmt.Fprintf(b, "### Time per fit\n\nMedian seconds per fit on one core (Workers = 1), over the cells aligned r=0 and rotated r=0 (n = %d, d = 10), with other fits running on the other cores.\n\n| method | seconds | × faithful |\n|---|---|---|\n", c.N)
	base := repro.Median(t.secs[c.Methods[0].Key])
	for _, m := range c.Methods {
		med := repro.Median(t.secs[m.Key])
		fmt.Fprintf(b, "| %s | %.2f | %.1f |\n", m.Label, med, med/base)
	}
}
