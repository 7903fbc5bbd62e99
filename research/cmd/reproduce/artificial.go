package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/research/internal/repro/artificial"
)

func init() {
	registerStudy(&command{
		name:    "artificial",
		summary: "the artificial study: Figures 2, 3 and 4 of the paper",
		usage: `Usage: go run ./cmd/reproduce artificial [flags]

Reproduces the artificial experiments of Shiino et al. (ACML 2017, §4.2):
for each signal distribution (a)-(d) and each r of a grid, -runs seeded data
sets (n=2000, d=10, m=2) are fitted by every estimator (-methods; default
` + methodLabels(methods.All()) + `). It writes into -out:
  errors.csv   one row per fit: distribution, r, run, rotated, method, ε,
               seconds, condition number of the covariance, error
  errors.md    mean ± std of ε per cell
  figure2.png  ε against r, one panel per distribution (log axis)
  figure3.png  time per fit against n and against d (log axes)
  figure4.png  condition number of the covariance against r
  timing.csv   the timed fits behind figure 3
Runs execute in parallel (-workers, one core per fit); the timing study runs
one fit at a time afterwards. Progress goes to stderr: a bar on a terminal,
one line a minute when redirected (nohup, a log file). Results are
bit-reproducible from -seed, except the times. Ctrl-C stops cleanly and
writes every file from the finished runs.
With -rotate every data set is also turned by a random rotation (the true
subspace with it), and figure 2 gets a second row of panels.

Examples:
  go run ./cmd/reproduce artificial -out results
  go run ./cmd/reproduce artificial -out quick -runs 3 -r 0,0.8 -dists a,b -timing=false
  go run ./cmd/reproduce artificial -out rotated -rotate -methods wflsngca,mipp
  go run ./cmd/reproduce artificial -out rotated -rotate -methods wflsngca,mipp,imak -resume
`,
		run: runArtificial,
	})
}

func runArtificial(ctx context.Context, e *env, args []string) error {
	c := studies["artificial"]
	fs := cli.NewFlagSet(c.name)
	out := fs.String("out", "results", "output directory")
	runs := fs.Int("runs", 50, "seeded runs per (distribution, r)")
	rs := fs.String("r", "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,1,1.5,2", "grid of r")
	dists := fs.String("dists", "a,b,c,d", "distributions, from a,b,c,d")
	ms := fs.String("methods", methods.Keys(methods.All()), "comma-separated estimators, from "+methods.Names())
	n := fs.Int("n", 2000, "observations per data set")
	d := fs.Int("d", 10, "dimensions per data set")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 0, "runs at once (0 = all CPUs)")
	rotate := fs.Bool("rotate", false, "also fit every data set turned by a random rotation")
	timing := fs.Bool("timing", true, "run the timing study of figure 3")
	resume := fs.Bool("resume", false, "keep the fits of -out's errors.csv that this study would make, and fit only the others (continue an interrupted study, add methods or runs); the file must come from a run with the same -seed (not checked)")
	tn := fs.String("timing-n", "500,1000,2000,5000,10000,20000", "sample sizes of the timing study (d = 10)")
	td := fs.String("timing-d", "5,10,20,50,100", "dimensions of the timing study (n = 2000)")
	reps := fs.Int("timing-reps", 3, "fits per size and method in the timing study")
	if err := cli.Parse(fs, args, c.usage, e.stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	cfg := artificial.Config{Runs: *runs, N: *n, D: *d, Seed: *seed, Workers: *workers, Rotate: *rotate, Resume: *resume,
		Out: *out, Progress: e.stderr, Timing: artificial.Timing{Skip: !*timing, Reps: *reps}}
	var err error
	if cfg.Rs, err = floatList("-r", *rs); err != nil {
		return err
	}
	if cfg.Dists, err = cli.DistList(*dists); err != nil {
		return err
	}
	if cfg.Methods, err = methods.Parse(*ms); err != nil {
		return cli.Usagef("-methods: %v", err)
	}
	if cfg.Timing.Ns, err = intList("-timing-n", *tn); err != nil {
		return err
	}
	if cfg.Timing.Ds, err = intList("-timing-d", *td); err != nil {
		return err
	}
	switch {
	case *runs < 1:
		return cli.Usagef("-runs must be at least 1")
	case *workers < 0:
		return cli.Usagef("-workers must not be negative")
	case *reps < 1:
		return cli.Usagef("-timing-reps must be at least 1")
	}
	if err := artificial.Run(ctx, cfg); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s/{errors.csv,errors.md,figure2.png,figure4.png", *out)
	if *timing {
		fmt.Fprint(e.stdout, ",timing.csv,figure3.png")
	}
	fmt.Fprintln(e.stdout, "}")
	return nil
}

// floatList parses a comma-separated list of numbers.
func floatList(flag, s string) ([]float64, error) {
	var out []float64
	for _, f := range cli.SplitList(s) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, cli.Usagef("%s: %q is not a number", flag, f)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, cli.Usagef("%s is empty", flag)
	}
	return out, nil
}

// intList parses a comma-separated list of positive integers.
func intList(flag, s string) ([]int, error) {
	var out []int
	for _, f := range cli.SplitList(s) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 {
			return nil, cli.Usagef("%s: %q is not a positive integer", flag, f)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, cli.Usagef("%s is empty", flag)
	}
	return out, nil
}
