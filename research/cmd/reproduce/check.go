package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/research/internal/repro/checkstudy"
	"github.com/ngca-go/ngca/research/internal/repro/orientation"
)

func init() {
	registerStudy(&command{
		name:    "check",
		summary: "calibration of ngca.Check: its verdict against the true error of every estimator's fits",
		usage: `Usage: go run ./cmd/reproduce check [flags]

Fits every estimator (-methods; default all six) to data sets of known
subspace, checks each fit with ngca.Check (the check of "ngca fit -check")
and compares the verdict with the fit's true subspace error ε: a fit with
ε < 0.01 should be judged ok, one with ε > 0.1 doubtful. The data are the
orientation study's cells (see "go run ./cmd/reproduce orientation -h"; -blocks,
-signals) with its data sets and fits for the seeds of -seeds, wide data
drawn the same way (blocks d30: n=5000, d=30; d50: n=2000 and 10000, d=50;
signals a-d and laplace on the columns, mixed with one noise column or
turned, r=0), and the paper's artificial data (signals a-d, n=2000, d=10,
r=0,0.2,...,0.8: -paper-seeds data sets per cell with the subspace on the
first two columns, -turned-seeds turned by a random rotation). SNGCA,
about 40 s a fit with its check, runs on every -sngca-every-th data set.
It writes into -out:
  check.csv  one row per fit: cell, seed, method, ε, the fit's and the
             check's seconds, the verdict, the spread of the refits, the
             distance to and spread of each reference, the reasons
  check.md   the report: goals, verdict against ε per estimator and per
             block, the wrong verdicts, the check's cost over the fit's
Data sets run in parallel (-workers), one core per fit. Ctrl-C stops
cleanly and writes the report from the finished fits; -resume continues.

Examples:
  go run ./cmd/reproduce check -out results/check
  go run ./cmd/reproduce check -blocks mix -signals a,b -paper-seeds 2 -methods wflsngca,mipp
  go run ./cmd/reproduce check -report-only
`,
		run: runCheckStudy,
	})
}

func runCheckStudy(ctx context.Context, e *env, args []string) error {
	c := studies["check"]
	fs := cli.NewFlagSet(c.name)
	out := fs.String("out", "results/check", "output directory")
	seeds := fs.String("seeds", "1", "comma-separated seeds of the orientation study's data sets to run (the thresholds were chosen on seed 0)")
	paperSeeds := fs.Int("paper-seeds", 10, "data sets per cell of the paper's artificial data, subspace on the columns (0: none)")
	turnedSeeds := fs.Int("turned-seeds", 4, "data sets per cell of the paper's artificial data turned by a random rotation (0: none)")
	sngcaEvery := fs.Int("sngca-every", 8, "fit SNGCA to every n-th data set only")
	seed := fs.Uint64("seed", 1, "random seed (the orientation study's)")
	workers := fs.Int("workers", 0, "data sets at once (0 = all CPUs)")
	ms := fs.String("methods", methods.Keys(methods.All()), "comma-separated estimators, from "+methods.Names())
	blocks := fs.String("blocks", strings.Join(append(slices.Clone(checkstudy.OrientationBlocks), checkstudy.WideBlocks...), ","),
		"blocks of cells to run: the orientation study's ("+strings.Join(checkstudy.OrientationBlocks, ", ")+") and wide data ("+strings.Join(checkstudy.WideBlocks, ", ")+"); empty: none")
	signals := fs.String("signals", "", "signals of the cells to run (default all)")
	resume := fs.Bool("resume", false, "keep the fits of -out's check.csv and run only the missing ones; the file must come from a run with the same -seed (not checked)")
	reportOnly := fs.Bool("report-only", false, "rebuild check.md from -out's check.csv without fitting")
	if err := cli.Parse(fs, args, c.usage, e.stdout); err != nil {
		return err
	}
	cfg := checkstudy.Config{PaperSeeds: *paperSeeds, TurnedSeeds: *turnedSeeds, SNGCAEvery: *sngcaEvery, Seed: *seed, Workers: *workers, Out: *out,
		Resume: *resume, ReportOnly: *reportOnly, Progress: e.stderr,
		Command: studyCommand("check", args)}
	switch {
	case len(fs.Args()) > 0:
		return cli.Usagef("unexpected argument %q", fs.Args()[0])
	case *paperSeeds < 0 || *turnedSeeds < 0:
		return cli.Usagef("-paper-seeds and -turned-seeds must not be negative")
	case *sngcaEvery < 1:
		return cli.Usagef("-sngca-every must be at least 1 (leave SNGCA out with -methods)")
	case *workers < 0:
		return cli.Usagef("-workers must not be negative")
	case *reportOnly && *resume:
		return cli.Usagef("-report-only fits nothing: it takes no -resume")
	}
	if cfg.PaperSeeds == 0 {
		cfg.PaperSeeds = -1
	}
	if cfg.TurnedSeeds == 0 {
		cfg.TurnedSeeds = -1
	}
	for _, s := range cli.SplitList(*seeds) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return cli.Usagef("-seeds: %q is not a seed", s)
		}
		cfg.Seeds = append(cfg.Seeds, v)
	}
	var err error
	if cfg.Methods, err = methods.Parse(*ms); err != nil {
		return cli.Usagef("-methods: %v", err)
	}
	if cfg.Cells, err = studyCells(cli.SplitList(*blocks), cli.SplitList(*signals)); err != nil {
		return cli.Usagef("-blocks, -signals: %v", err)
	}
	if len(cfg.Seeds) == 0 {
		cfg.Seeds = []int{}
	}
	if err := checkstudy.Run(ctx, cfg); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s/{check.csv,check.md}\n", *out)
	return nil
}

// studyCells returns the cells of the check study's blocks: the
// orientation study's, then the wide data's, of the given signals (empty:
// all).
func studyCells(blocks, signals []string) ([]orientation.Cell, error) {
	var own []string
	cells := []orientation.Cell{}
	for _, b := range blocks {
		switch {
		case slices.Contains(checkstudy.OrientationBlocks, b):
			own = append(own, b)
		case !slices.Contains(checkstudy.WideBlocks, b):
			return nil, fmt.Errorf("unknown block %q (want some of %s)", b, strings.Join(append(slices.Clone(checkstudy.OrientationBlocks), checkstudy.WideBlocks...), ", "))
		}
	}
	if len(own) > 0 {
		var err error
		if cells, err = orientation.SelectCells(own, signals); err != nil {
			return nil, err
		}
	}
	for _, c := range checkstudy.WideCells() {
		if slices.Contains(blocks, c.Block) && (len(signals) == 0 || slices.Contains(signals, c.Signal)) {
			cells = append(cells, c)
		}
	}
	return cells, nil
}

// studyCommand is the command line that makes a study's results: the
// arguments without -resume and -report-only, which only finish or
// rewrite them.
func studyCommand(study string, args []string) string {
	var kept []string
	for _, a := range args {
		switch strings.TrimLeft(a, "-") {
		case "resume", "resume=true", "report-only", "report-only=true":
			continue
		}
		kept = append(kept, a)
	}
	return strings.TrimSpace("go run ./cmd/reproduce " + study + " " + strings.Join(kept, " "))
}
