package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/research/internal/repro/orientation"
)

func init() {
	registerStudy(&command{
		name:    "orientation",
		summary: "every estimator where the non-Gaussian subspace is turned off the axes",
		usage: `Usage: go run ./cmd/reproduce orientation [flags]

Fits every estimator (-methods; default all six) to synthetic data whose
m-dimensional non-Gaussian signal sits on random columns among Gaussian noise
columns of condition number 10^(2r), turned with k of the noise columns
(k = turn: all columns turned), and compares each fit with MIPP's on the same
data set. 370 cells in six blocks (-blocks):
  mix      135 cells: n=2000 d=10 m=2, all nine signals, k=0,1,2,4,turn, r=0,1,2
  m         48 cells: n=2000 d=10, m=1 (a, skewed, student) and
                      m=3 (a, b, c, ring, student), k=0,1,turn, r=0,1
  n         45 cells: d=10 m=2, signals a-d and laplace, k=0,1,turn:
                      n=500 at r=0,1 and n=10000 at r=0
  d         40 cells: n=2000 d=30 m=2, signals a-d and laplace, k=0,1,4,turn, r=0,1
  aligned   72 cells: m=2, all nine signals on the columns (k=0),
                      n=1000,1500, d=10,30, r=0.3,1
  d50       30 cells: d=50 m=2, signals a-d and laplace, k=0,1,turn, r=0,
                      n=2000 (below d^2) and 10000
Signals (-signals): a, b, c, d (the paper's; d is 2-D only), uniform,
laplace, skewed, ring, student.
Each cell has -seeds data sets. SNGCA takes about 3 s a fit, two thirds of
the study's time; to save it, fit SNGCA on the first -sngca-seeds data sets
of each cell only. It writes into -out:
  orientation.csv        one row per fit: cell, seed, method, ε, seconds,
                         separation, and the robust variant's path, p-value,
                         Distance, refinement, ε of both candidates and
                         the evidence that each misses structure
  orientation-cells.csv  per cell and method: fits, median, p90, worst ε,
                         share of bad fits (ε > 2·ε_MIPP + 0.01), MIPP's median
  orientation.md         the report: summary, default estimator by rule,
                         goals check, the robust variant's decisions, and
                         median ε and share of bad fits per cell
Data sets run in parallel (-workers), one core per fit, seed-major so that
an interrupted study covers every cell. Ctrl-C stops cleanly and writes
every file from the finished fits; -resume then continues. Without -resume
or -rerun, orientation.csv is started anew.

Examples:
  go run ./cmd/reproduce orientation -out results/orientation
  go run ./cmd/reproduce orientation -blocks n -signals a,b -seeds 3 -methods mipp,imak
  go run ./cmd/reproduce orientation -resume
  go run ./cmd/reproduce orientation -rerun wflsngca-robust
  go run ./cmd/reproduce orientation -report-only
`,
		run: runOrientation,
	})
}

func runOrientation(ctx context.Context, e *env, args []string) error {
	c := studies["orientation"]
	fs := cli.NewFlagSet(c.name)
	out := fs.String("out", "results/orientation", "output directory")
	seeds := fs.Int("seeds", 10, "seeded data sets per cell")
	sngcaSeeds := fs.Int("sngca-seeds", 0, "data sets per cell, the first ones, that SNGCA is fitted to (0 = all -seeds)")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 0, "data sets at once (0 = all CPUs)")
	ms := fs.String("methods", methods.Keys(methods.All()), "comma-separated estimators, from "+methods.Names())
	blocks := fs.String("blocks", strings.Join(orientation.Blocks, ","), "blocks of cells to run")
	signals := fs.String("signals", "", "signals to run (default all)")
	resume := fs.Bool("resume", false, "keep every fit of -out's orientation.csv (other blocks and signals too: the report covers them all) and fit only the missing ones; the file must come from a run with the same -seed (not checked)")
	rerun := fs.String("rerun", "", "comma-separated estimators whose fits in -out's orientation.csv are dropped and made again (the others are kept, as with -resume)")
	reportOnly := fs.Bool("report-only", false, "rebuild orientation.md and orientation-cells.csv from -out's orientation.csv without fitting")
	if err := cli.Parse(fs, args, c.usage, e.stdout); err != nil {
		return err
	}
	cfg := orientation.Config{Seeds: *seeds, SNGCASeeds: *sngcaSeeds, Seed: *seed, Workers: *workers, Out: *out,
		Resume: *resume, ReportOnly: *reportOnly, Progress: e.stderr,
		Command: studyCommand("orientation", args)}
	if err := orientationFlags(fs.Args(), &cfg, *ms, *blocks, *signals, *rerun); err != nil {
		return err
	}
	if err := orientation.Run(ctx, cfg); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s/{orientation.csv,orientation-cells.csv,orientation.md}\n", *out)
	return nil
}

// orientationFlags checks the flags and sets the cells and methods of cfg.
func orientationFlags(rest []string, cfg *orientation.Config, ms, blocks, signals, rerun string) error {
	switch {
	case len(rest) > 0:
		return cli.Usagef("unexpected argument %q", rest[0])
	case cfg.Seeds < 1:
		return cli.Usagef("-seeds must be at least 1")
	case cfg.SNGCASeeds < 0:
		return cli.Usagef("-sngca-seeds must not be negative (leave SNGCA out with -methods)")
	case cfg.Workers < 0:
		return cli.Usagef("-workers must not be negative")
	case cfg.ReportOnly && (cfg.Resume || rerun != ""):
		return cli.Usagef("-report-only fits nothing: it takes neither -resume nor -rerun")
	}
	if len(cli.SplitList(blocks)) == 0 {
		return cli.Usagef("-blocks is empty")
	}
	var err error
	if cfg.Methods, err = methods.Parse(ms); err != nil {
		return cli.Usagef("-methods: %v", err)
	}
	if cfg.Cells, err = orientation.SelectCells(cli.SplitList(blocks), cli.SplitList(signals)); err != nil {
		return cli.Usagef("-blocks, -signals: %v", err)
	}
	if rerun == "" {
		return nil
	}
	again, err := methods.Parse(rerun)
	if err != nil {
		return cli.Usagef("-rerun: %v", err)
	}
	for _, m := range again {
		if !slices.ContainsFunc(cfg.Methods, func(x methods.Method) bool { return x.Key == m.Key }) {
			return cli.Usagef("-rerun: %s is not among -methods", m.Key)
		}
		cfg.Rerun = append(cfg.Rerun, m.Key)
	}
	return nil
}
