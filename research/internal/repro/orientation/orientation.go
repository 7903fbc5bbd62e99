// Package orientation runs the orientation study: every estimator of the
// registry on synthetic data whose non-Gaussian signal sits on random
// columns, turned with some or all of the Gaussian noise columns (package
// internal/synth), compared fit by fit with MIPP on the same data sets.
// It writes orientation.csv (one row per fit), orientation-cells.csv (one
// row per cell and method) and orientation.md (the report).
package orientation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// The registry keys the study treats specially.
const (
	mippKey   = "mipp"            // the reference every fit is compared with
	sngcaKey  = "sngca"           // slow: -sngca-seeds can limit it to the first seeds
	robustKey = "wflsngca-robust" // its report fills the robust columns
)

// Config describes the study.
type Config struct {
	Cells   []Cell           // nil: DefaultCells()
	Methods []methods.Method // nil: methods.All()
	Seeds   int              // data sets per cell; 0: 10
	// SNGCASeeds is the number of data sets per cell, the first ones,
	// that SNGCA is fitted to (about 3 s a fit); 0 or negative: all.
	SNGCASeeds int
	// Seed is the first word of every PCG of the study.
	Seed    uint64
	Workers int // data sets at once; 0: GOMAXPROCS
	Out     string
	// Resume keeps the fits of Out's orientation.csv and runs only the
	// missing ones. Rerun (method keys) drops the rows of those methods
	// that this run would make and fits them again; it implies Resume.
	Resume bool
	Rerun  []string
	// ReportOnly rebuilds the report and orientation-cells.csv from
	// orientation.csv without fitting.
	ReportOnly bool
	// Command is the command line named in the report.
	Command string
	// Progress, if not nil, receives a progress bar.
	Progress io.Writer
}

// job is one data set and the methods to fit to it.
type job struct {
	cell    Cell
	seed    int
	methods []methods.Method
}

// Run executes the study. Finished rows are appended to orientation.csv
// as they come (a kill leaves whole rows); on cancellation every file is
// written from the finished rows and the error says how many data sets
// finished.
func Run(ctx context.Context, c Config) error {
	if err := c.defaults(); err != nil {
		return err
	}
	if c.ReportOnly {
		return c.reportOnly()
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return err
	}
	kept, done, err := c.previous()
	if err != nil {
		return err
	}
	jobs, weights := c.jobs(done)
	rows, runErr := repro.RunLogged(ctx,
		repro.Jobs{N: len(jobs), Workers: c.Workers, Weights: weights, Progress: c.Progress, Label: "orientation"},
		repro.Table[Row]{Path: c.path("orientation.csv"), Header: header, Record: Row.record, Kept: kept},
		func(ctx context.Context, i int) ([]Row, error) { return c.runJob(ctx, jobs[i]) })
	return repro.Conclude(runErr, func() error { return c.write(rows) }, dataSets(rows[len(kept):]), len(jobs), c.Out)
}

func (c *Config) defaults() error {
	if c.Cells == nil {
		c.Cells = DefaultCells()
	}
	if c.Methods == nil {
		c.Methods = methods.All()
	}
	c.Methods = distinct(c.Methods)
	if c.Seeds == 0 {
		c.Seeds = 10
	}
	if c.SNGCASeeds <= 0 || c.SNGCASeeds > c.Seeds {
		c.SNGCASeeds = c.Seeds
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	for _, k := range c.Rerun {
		if !slices.ContainsFunc(c.Methods, func(m methods.Method) bool { return m.Key == k }) {
			return fmt.Errorf("orientation study: rerun method %q is not among the methods run", k)
		}
	}
	if c.Out == "" || c.Seeds < 1 || c.Workers < 1 || len(c.Cells) == 0 || len(c.Methods) == 0 {
		return errors.New("orientation study: empty grid, output directory or counts")
	}
	return nil
}

// distinct returns ms without the repeats of a key.
func distinct(ms []methods.Method) []methods.Method {
	var out []methods.Method
	for _, m := range ms {
		if !slices.ContainsFunc(out, func(o methods.Method) bool { return o.Key == m.Key }) {
			out = append(out, m)
		}
	}
	return out
}

func (c *Config) path(name string) string { return filepath.Join(c.Out, name) }

// reportOnly rebuilds the report from orientation.csv.
func (c *Config) reportOnly() error {
	rows, err := repro.ReadRows(c.path("orientation.csv"), parseRow)
	if err == nil && rows == nil {
		err = fmt.Errorf("no fits to report: %s is missing or empty", c.path("orientation.csv"))
	}
	if err != nil {
		return err
	}
	return c.write(rows)
}

// wants reports whether the study fits method m to data sets of seed s.
func (c *Config) wants(m string, s int) bool {
	return s < c.Seeds && (m != sngcaKey || s < c.SNGCASeeds)
}

// previous returns the rows of orientation.csv that a resumed study keeps
// (all, less the rows of the Rerun methods that this run makes again),
// with their fits. Without Resume or Rerun there are none.
func (c *Config) previous() ([]Row, map[fitKey]bool, error) {
	if !c.Resume && len(c.Rerun) == 0 {
		return nil, map[fitKey]bool{}, nil
	}
	rows, err := repro.ReadRows(c.path("orientation.csv"), parseRow)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	inGrid := map[string]bool{}
	for _, cell := range c.Cells {
		inGrid[cell.Name] = true
	}
	redo := func(r Row) bool {
		return slices.Contains(c.Rerun, r.Method) && inGrid[r.Cell] && c.wants(r.Method, r.Seed)
	}
	kept, done := repro.Finished(rows, Row.key, func(r Row) bool { return !redo(r) })
	return kept, done, nil
}

// jobs lists the data sets with fits to make, seed-major (an interrupted
// study covers every cell), and their expected costs.
func (c *Config) jobs(done map[fitKey]bool) ([]job, []float64) {
	var jobs []job
	var weights []float64
	for s := 0; s < c.Seeds; s++ {
		for _, cell := range c.Cells {
			j := job{cell: cell, seed: s}
			w := 0.0
			for _, m := range c.Methods {
				if c.wants(m.Key, s) && !done[fitKey{cell.Name, s, m.Key}] {
					j.methods = append(j.methods, m)
					w += cost(m.Key, cell.N, cell.D)
				}
			}
			if len(j.methods) > 0 {
				jobs = append(jobs, j)
				weights = append(weights, w)
			}
		}
	}
	return jobs, weights
}

// cost is the rough time in seconds of a fit of method to n×d data on
// one core, a + b·n·d/20000, measured at d = 10 and n = 500 and 10000:
// SNGCA takes about 3 s whatever n, the others grow with n.
func cost(method string, n, d int) float64 {
	ab, ok := costs[method]
	if !ok {
		ab = [2]float64{0.1, 0.2}
	}
	return ab[0] + ab[1]*float64(n*d)/20000
}

var costs = map[string][2]float64{
	sngcaKey: {3, 0.1}, robustKey: {0.3, 0.5}, mippKey: {0.03, 0.23},
	"wflsngca": {0.15, 0.14}, "lsngca": {0.08, 0.09}, "imak": {0, 0.005},
}

// dataSets counts the data sets that rows come from.
func dataSets(rows []Row) int {
	type set struct {
		cell string
		seed int
	}
	seen := map[set]bool{}
	for _, r := range rows {
		seen[set{r.Cell, r.Seed}] = true
	}
	return len(seen)
}

// runJob draws one data set and fits the job's methods to it.
func (c *Config) runJob(ctx context.Context, j job) ([]Row, error) {
	spec, err := j.cell.Spec()
	if err != nil {
		return nil, err
	}
	x, truth, err := spec.Sample(rand.NewPCG(c.Seed, repro.Key("orientation", j.cell.Name, j.seed)))
	if err != nil {
		return nil, err
	}
	rows := make([]Row, 0, len(j.methods))
	for _, m := range j.methods {
		src := rand.NewPCG(c.Seed, repro.Key("orientation-fit", j.cell.Name, j.seed, m.Key))
		rec := probe.NewRecorder()
		start := time.Now()
		res, err := m.New(methods.Settings{Dim: j.cell.M, Workers: 1, Src: src}).Fit(probe.WithRecorder(ctx, rec), x)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rows = append(rows, newRow(j, m.Key, time.Since(start), truth, res, rec, err))
	}
	return rows, nil
}

// newRow makes the row of a fit of method to the data set of j; rec is
// the probe.Recorder that the fit ran with.
func newRow(j job, method string, took time.Duration, truth *mat.Dense, res *ngca.Result, rec *probe.Recorder, err error) Row {
	c := j.cell
	r := Row{Block: c.Block, Cell: c.Name, Signal: c.Signal, M: c.M, N: c.N, D: c.D, R: c.R, Mix: c.Mix,
		Seed: j.seed, Method: method, Seconds: took.Seconds(),
		Epsilon: math.NaN(), Separation: math.NaN(), P: math.NaN(), Distance: math.NaN(), EpsilonAxes: math.NaN(), EpsilonEquivar: math.NaN(),
		MissedAxes: math.NaN(), MissedEquivar: math.NaN()}
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Epsilon, r.Separation = ngca.SubspaceError(truth, res.Basis), res.Separation()
	if rep, ok := rec.RobustOf(res.Report); ok {
		r.Robust, r.Path, r.P, r.Distance, r.Refined = true, rep.Estimate, rep.P, rep.Distance, rep.Refined
		r.EpsilonAxes, r.EpsilonEquivar = subspaceError(truth, rep.Axes), subspaceError(truth, rep.Equivariant)
		r.MissedAxes, r.MissedEquivar = rep.MissedAxes, rep.MissedEquivariant
	}
	return r
}

// subspaceError is ngca.SubspaceError, NaN for a basis that does not
// exist.
func subspaceError(truth, basis *mat.Dense) float64 {
	if basis == nil {
		return math.NaN()
	}
	return ngca.SubspaceError(truth, basis)
}
