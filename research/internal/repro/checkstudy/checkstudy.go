// Package checkstudy calibrates ngca.Check: it fits every estimator of the
// registry to data sets of known subspace, checks each fit and compares
// the verdict with the fit's true error. The data are the orientation
// study's cells (internal/repro/orientation: its data sets and fits, seed
// by seed) and the paper's artificial data (ngcatest.Artificial: subspace on
// the first two columns, r = 0 to 0.8, and the same turned). It writes check.csv (one row per
// fit) and check.md (the report: goals, confusion tables, misses, cost).
package checkstudy

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
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/ngcatest"
	"github.com/ngca-go/ngca/research/internal/repro"
	"github.com/ngca-go/ngca/research/internal/repro/orientation"
)

// PaperBlock is the block name of the cells of the paper's artificial
// data; PaperRs are their values of r.
const PaperBlock = "paper"

var PaperRs = []float64{0, 0.2, 0.4, 0.6, 0.8}

// Config describes the study.
type Config struct {
	// Cells are the cells to run (nil: OrientationCells, 268) and
	// Seeds their data sets (nil: {1}; the check's thresholds were chosen
	// on seed 0).
	Cells []orientation.Cell
	Seeds []int
	// PaperSeeds is the number of data sets of each of the paper's 20
	// cells (four signals, five r) with the subspace on the columns, and
	// TurnedSeeds of the same cells turned by a random rotation; 0: 10
	// and 4, negative: none.
	PaperSeeds, TurnedSeeds int
	Methods                 []methods.Method // nil: methods.All()
	// SNGCAEvery fits SNGCA (about 3 s a fit, 40 s with its check) to
	// every SNGCAEvery-th data set only, in the order of the jobs; 0: 8.
	SNGCAEvery int
	// Seed is the first word of every PCG (the orientation study's: 1).
	Seed    uint64
	Workers int // data sets at once; 0: GOMAXPROCS
	Out     string
	// Resume keeps the rows of Out's check.csv and runs only the missing
	// fits; ReportOnly rebuilds check.md from check.csv.
	Resume, ReportOnly bool
	// Command is the command line named in the report.
	Command string
	// Progress, if not nil, receives a progress bar.
	Progress io.Writer
}

// job is one data set and the methods to fit and check on it.
type job struct {
	cell    orientation.Cell
	seed    int
	methods []methods.Method
}

// Run executes the study. Finished rows are appended to check.csv as
// they come; on cancellation the report is written from the finished
// rows.
func Run(ctx context.Context, c Config) error {
	c.defaults()
	if c.ReportOnly {
		rows, err := repro.ReadRows(c.path("check.csv"), parseRow)
		if err != nil {
			return err
		}
		return c.write(rows)
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return err
	}
	var kept []Row
	done := map[fitKey]bool{}
	if c.Resume {
		old, err := repro.ReadRows(c.path("check.csv"), parseRow)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		kept, done = repro.Finished(old, Row.key, func(r Row) bool { return !r.failed() })
	}
	jobs, weights := c.jobs(done)
	rows, runErr := repro.RunLogged(ctx,
		repro.Jobs{N: len(jobs), Workers: c.Workers, Weights: weights, Progress: c.Progress, Label: "check"},
		repro.Table[Row]{Path: c.path("check.csv"), Header: header, Record: Row.record, Kept: kept},
		func(ctx context.Context, i int) ([]Row, error) { return c.runJob(ctx, jobs[i]) })
	return repro.Conclude(runErr, func() error { return c.write(rows) }, dataSets(rows[len(kept):]), len(jobs), c.Out)
}

func (c *Config) defaults() {
	if c.Cells == nil {
		c.Cells = OrientationCells()
	}
	if c.Seeds == nil {
		c.Seeds = []int{1}
	}
	if c.PaperSeeds == 0 {
		c.PaperSeeds = 10
	}
	if c.TurnedSeeds == 0 {
		c.TurnedSeeds = 4
	}
	if c.Methods == nil {
		c.Methods = methods.All()
	}
	if c.SNGCAEvery == 0 {
		c.SNGCAEvery = 8
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
}

func (c *Config) path(name string) string { return filepath.Join(c.Out, name) }

// PaperCells are the cells of the paper's artificial data: n = 2000,
// d = 10, m = 2, signals a to d, r in PaperRs, with the subspace on the
// columns (Mix 0) or turned by a random rotation (Mix synth.Turn).
func PaperCells(mix int) []orientation.Cell {
	var cells []orientation.Cell
	for _, dist := range ngcatest.Distributions() {
		for _, r := range PaperRs {
			cells = append(cells, orientation.Cell{Block: PaperBlock, Signal: dist.String(), M: 2, N: 2000, D: 10, R: r, Mix: mix,
				Name: fmt.Sprintf("%s n=2000 d=10 m=2 %s k=%s r=%g", PaperBlock, dist, orientation.MixString(mix), r)})
		}
	}
	return cells
}

// The blocks of wide data, which the orientation study does not have: d = 30
// at n = 5000 (its block d has n = 2000) and d = 50 at n = 2000 and 10000.
const (
	D30Block = "d30"
	D50Block = "d50"
)

// OrientationBlocks are the orientation study's blocks whose cells the
// check study calibrates on: mix, m, n and d (that study's blocks aligned
// and d50 came later; d50's cells are the wide block of the same name).
var OrientationBlocks = []string{"mix", "m", "n", "d"}

// OrientationCells returns the orientation study's cells of
// OrientationBlocks, in that study's order.
func OrientationCells() []orientation.Cell {
	cells, err := orientation.SelectCells(OrientationBlocks, nil)
	if err != nil {
		panic(err) // the blocks are the orientation study's own
	}
	return cells
}

// WideBlocks are the names of the blocks of WideCells.
var WideBlocks = []string{D30Block, D50Block}

// WideCells are the cells of wide data, 45 in all: m = 2, signals a–d and
// laplace, the subspace on the columns (k = 0), mixed with one noise column
// (k = 1) or turned, r = 0; at d = 30 with n = 5000 (block d30) and at
// d = 50 with n = 2000 and 10000 (block d50, the orientation study's block
// of that name). With the orientation study's block d (n = 2000, d = 30)
// they cover n below and above about d² rows, which an estimate blind to
// the columns' orientation needs for a symmetric signal.
func WideCells() []orientation.Cell {
	five := []string{"a", "b", "c", "d", "laplace"}
	mixes := []int{0, 1, synth.Turn}
	cells := orientation.Grid(D30Block, 2, 5000, 30, five, mixes, []float64{0})
	d50, err := orientation.SelectCells([]string{D50Block}, nil)
	if err != nil {
		panic(err) // D50Block is the orientation study's own
	}
	return append(cells, d50...)
}

// jobs lists the data sets with fits to make and their expected costs:
// the orientation cells seed by seed, then the paper's cells.
func (c *Config) jobs(done map[fitKey]bool) ([]job, []float64) {
	type set struct {
		cell orientation.Cell
		seed int
	}
	var sets []set
	for _, s := range c.Seeds {
		for _, cell := range c.Cells {
			sets = append(sets, set{cell, s})
		}
	}
	for _, p := range []struct{ mix, seeds int }{{0, c.PaperSeeds}, {synth.Turn, c.TurnedSeeds}} {
		for s := 0; s < p.seeds; s++ {
			for _, cell := range PaperCells(p.mix) {
				sets = append(sets, set{cell, s})
			}
		}
	}
	var jobs []job
	var weights []float64
	for i, ds := range sets {
		j := job{cell: ds.cell, seed: ds.seed}
		w := 0.0
		for _, m := range c.Methods {
			if m.Key == "sngca" && i%c.SNGCAEvery != 0 || done[fitKey{ds.cell.Name, ds.seed, m.Key}] {
				continue
			}
			j.methods = append(j.methods, m)
			w += cost(m.Key) * float64(ds.cell.N*ds.cell.D) / 20000
		}
		if len(j.methods) > 0 {
			jobs = append(jobs, j)
			weights = append(weights, w)
		}
	}
	return jobs, weights
}

// cost is the rough time in seconds of a fit and its check on one core
// at n·d = 20000.
func cost(method string) float64 {
	switch method {
	case "sngca":
		return 40
	case "wflsngca-robust":
		return 6
	case "imak":
		return 1.5
	}
	return 3
}

// sample draws the data set of cell and seed: the orientation study's
// (same seeds, so its fits are the study's fits) or the paper's.
func (c *Config) sample(cell orientation.Cell, seed int) (x, truth *mat.Dense, err error) {
	if cell.Block == PaperBlock {
		dist, err := ngcatest.ParseDistribution(cell.Signal)
		if err != nil {
			return nil, nil, err
		}
		return ngcatest.Artificial{Dist: dist, N: cell.N, D: cell.D, R: cell.R, Rotate: cell.Mix == synth.Turn}.Sample(rand.NewPCG(c.Seed, repro.Key("check-paper", cell.Name, seed)))
	}
	spec, err := cell.Spec()
	if err != nil {
		return nil, nil, err
	}
	return spec.Sample(rand.NewPCG(c.Seed, repro.Key("orientation", cell.Name, seed)))
}

// runJob draws one data set, fits the job's methods to it and checks
// each fit. The fits use the orientation study's seeds.
func (c *Config) runJob(ctx context.Context, j job) ([]Row, error) {
	x, truth, err := c.sample(j.cell, j.seed)
	if err != nil {
		return nil, err
	}
	rows := make([]Row, 0, len(j.methods))
	for _, m := range j.methods {
		settings := methods.Settings{Dim: j.cell.M, Workers: 1, Src: rand.NewPCG(c.Seed, repro.Key("orientation-fit", j.cell.Name, j.seed, m.Key))}
		start := time.Now()
		res, err := m.New(settings).Fit(ctx, x)
		fitSec := time.Since(start).Seconds()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			rows = append(rows, newRow(j, m.Key, math.NaN(), fitSec, math.NaN(), nil, err))
			continue
		}
		eps := ngca.SubspaceError(truth, res.Basis)
		start = time.Now()
		settings.Src = nil // Check reseeds every refit
		rep, err := ngca.Check(ctx, m.New(settings), x, res,
			ngca.CheckOptions{Workers: 1, Src: rand.NewPCG(c.Seed, repro.Key("check", j.cell.Name, j.seed, m.Key))})
		checkSec := time.Since(start).Seconds()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rows = append(rows, newRow(j, m.Key, eps, fitSec, checkSec, rep, err))
	}
	return rows, nil
}

// methodOrder returns the keys of the methods in rows, in the registry's
// order.
func methodOrder(rows []Row) []string {
	var keys []string
	for _, m := range methods.All() {
		if slices.ContainsFunc(rows, func(r Row) bool { return r.Method == m.Key }) {
			keys = append(keys, m.Key)
		}
	}
	return keys
}
