package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/ngca-go/ngca/internal/repro/dimstudy"
)

func init() {
	registerStudy(&command{
		name:    "dim",
		summary: "the dimension-test study of docs/dim.md",
		usage: `Usage: ngca reproduce dim [flags]

Runs the study behind docs/dim.md: ngca.EstimateDim with its defaults on
seeded data sets with m = 0 to 3 non-Gaussian dimensions (m = 0 correlated
Gaussian; 1 a bimodal column; 2 the paper's (a); 3 (a) and a uniform
column; d = 10), aligned, turned and ill-conditioned (r = 1), at each
sample size of -n with the matching number of data sets per cell of
-seeds. It writes into -out:
  dim.csv  one row per data set: n, m, setting, seed, the m found, seconds,
           the p-values of the tests
  dim.md   per n: the confusion table true m × found m, the rate of right
           answers per setting, the type-I error on Gaussian data, times
Data sets run in parallel (-workers), one core each. Ctrl-C stops cleanly
and writes both files from the finished data sets.

Examples:
  ngca reproduce dim -out docs/dim
  ngca reproduce dim -n 500,2000 -seeds 10,5 -out quick
`,
		run: runDimStudy,
	})
}

func runDimStudy(ctx context.Context, e *env, args []string) error {
	c := studies["dim"]
	fs := newFlags(c)
	out := fs.String("out", "results/dim", "output directory")
	ns := fs.String("n", "500,2000,10000", "sample sizes")
	seeds := fs.String("seeds", "20,20,20", "data sets per cell, one count per sample size")
	ms := fs.String("m", "0,1,2,3", "true dimensions, from 0,1,2,3 (0: Gaussian data, for the type-I error)")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 0, "data sets at once (0 = all CPUs)")
	if err := parseFlags(fs, c, e, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	cfg := dimstudy.Config{Seed: *seed, Workers: *workers, Out: *out, Progress: e.stderr}
	var err error
	if cfg.Ns, err = intList("-n", *ns); err != nil {
		return err
	}
	if cfg.Seeds, err = intList("-seeds", *seeds); err != nil {
		return err
	}
	if cfg.Ms, err = dimList(*ms); err != nil {
		return err
	}
	switch {
	case len(cfg.Seeds) != len(cfg.Ns):
		return usagef("-seeds has %d counts for the %d sample sizes of -n", len(cfg.Seeds), len(cfg.Ns))
	case *workers < 0:
		return usagef("-workers must not be negative")
	}
	if err := dimstudy.Run(ctx, cfg); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s/dim.csv and %s/dim.md\n", *out, *out)
	return nil
}

// dimList parses the -m list: true dimensions from 0 to 3, the data the
// study can draw.
func dimList(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 || v > 3 {
			return nil, usagef("-m: %q is not one of 0, 1, 2, 3", f)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, usagef("-m is empty")
	}
	return out, nil
}
