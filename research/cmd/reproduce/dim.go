package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/research/internal/repro/dimstudy"
)

func init() {
	registerStudy(&command{
		name:    "dim",
		summary: "the dimension-test study of docs/dim.md",
		usage: `Usage: go run ./cmd/reproduce dim [flags]

Runs the calibration study behind docs/dim.md: ngca.EstimateDim with its
defaults on seeded data sets with m = 0 to 3 non-Gaussian dimensions (m = 0 correlated
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
  go run ./cmd/reproduce dim -out docs/dim
  go run ./cmd/reproduce dim -n 500,2000 -seeds 10,5 -out quick
`,
		run: runDimStudy,
	})
}

func runDimStudy(ctx context.Context, e *env, args []string) error {
	c := studies["dim"]
	fs := cli.NewFlagSet(c.name)
	out := fs.String("out", "results/dim", "output directory")
	ns := fs.String("n", "500,2000,10000", "sample sizes")
	seeds := fs.String("seeds", "20,20,20", "data sets per cell, one count per sample size")
	ms := fs.String("m", "0,1,2,3", "true dimensions, from 0,1,2,3 (0: Gaussian data, for the type-I error)")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 0, "data sets at once (0 = all CPUs)")
	if err := cli.Parse(fs, args, c.usage, e.stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
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
		return cli.Usagef("-seeds has %d counts for the %d sample sizes of -n", len(cfg.Seeds), len(cfg.Ns))
	case *workers < 0:
		return cli.Usagef("-workers must not be negative")
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
	for _, f := range cli.SplitList(s) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 || v > 3 {
			return nil, cli.Usagef("-m: %q is not one of 0, 1, 2, 3", f)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, cli.Usagef("-m is empty")
	}
	return out, nil
}

func init() {
	registerStudy(&command{
		name:    "dim-wide",
		summary: "the wide blocks of the dimension-test study of docs/dim.md",
		usage: `Usage: go run ./cmd/reproduce dim-wide [flags]

Runs the wide blocks of the study behind docs/dim.md: ngca.EstimateDim
with its defaults on seeded data sets of d columns (-d), n = r·d² rows
for each r of -rows (or the n of -n), whose first m columns are
non-Gaussian (m of -m:
fractions of d below 1, counts from 1) and the rest N(0, 1), aligned (the
signals are columns) and turned (a random rotation of all columns). The
signals are of each family of -families: uniform, exponential, bimodal,
t5 (Student's t, 5 degrees of freedom), mixed (the four in turn),
asymmetric (¾N(−1, ¼) + ¼N(3, ¼), non-Gaussian mostly by its skewness)
or mixed3 (uniform, exponential and bimodal in turn);
m = 0 is Gaussian data, for the type-I error. It writes into -out:
  wide.csv  one row per data set: d, n, m, family, setting, seed, the m
            found, whether the report set FewRows (n < max(2d², 32d)),
            the p-value of the test of the directions left, the tests
            (k:p), the replicates run and the seconds
  wide.md   per d and n: right answers per family, setting and m, the
            wrong answers, the type-I error and the times
Data sets run in parallel (-workers), one core each. Ctrl-C stops cleanly
and writes both files from the finished data sets.

Examples:
  go run ./cmd/reproduce dim-wide -seeds 1 -out docs/dim/wide
  go run ./cmd/reproduce dim-wide -d 20,40 -rows 2 -out docs/dim/wide-seeds
  go run ./cmd/reproduce dim-wide -d 60 -rows 0.5 -m 0,0.25,0.5 -families mixed -out quick
`,
		run: runDimWideStudy,
	})
}

func runDimWideStudy(ctx context.Context, e *env, args []string) error {
	c := studies["dim-wide"]
	fs := cli.NewFlagSet(c.name)
	out := fs.String("out", "results/dim-wide", "output directory")
	ds := fs.String("d", "20,40,60", "numbers of columns")
	rows := fs.String("rows", "1,2", "rows as multiples of d²")
	ns := fs.String("n", "", "rows as counts, for every d (instead of -rows)")
	ms := fs.String("m", "0,1,2,0.25,0.5", "true dimensions: fractions of d (below 1) or counts")
	fams := fs.String("families", strings.Join(dimstudy.DefaultWideFamilies, ","), "signal families: "+strings.Join(synth.WideFamilies, ", "))
	seeds := fs.Int("seeds", 3, "data sets per cell")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 0, "data sets at once (0 = all CPUs)")
	if err := cli.Parse(fs, args, c.usage, e.stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	cfg := dimstudy.WideConfig{Seeds: *seeds, Seed: *seed, Workers: *workers, Out: *out, Progress: e.stderr, Families: cli.SplitList(*fams)}
	var err error
	if cfg.Ds, err = intList("-d", *ds); err != nil {
		return err
	}
	if cfg.Rows, err = floatList("-rows", *rows); err != nil {
		return err
	}
	if *ns != "" {
		if cfg.Ns, err = intList("-n", *ns); err != nil {
			return err
		}
	}
	if cfg.Ms, err = floatList("-m", *ms); err != nil {
		return err
	}
	for _, r := range cfg.Rows {
		if !(r > 0) || math.IsInf(r, 0) {
			return cli.Usagef("-rows: %v is not a positive number", r)
		}
	}
	for _, m := range cfg.Ms {
		if !(m >= 0) || math.IsInf(m, 0) || (m > 1 && m != math.Trunc(m)) {
			return cli.Usagef("-m: %v is neither a fraction below 1 nor a count", m)
		}
	}
	switch {
	case *seeds < 1:
		return cli.Usagef("-seeds must be positive")
	case *workers < 0:
		return cli.Usagef("-workers must not be negative")
	case len(cfg.Families) == 0:
		return cli.Usagef("-families is empty")
	}
	for _, d := range cfg.Ds {
		if d < 2 {
			return cli.Usagef("-d: %d columns are too few (at least 2)", d)
		}
	}
	for _, f := range cfg.Families {
		if !slices.Contains(synth.WideFamilies, f) {
			return cli.Usagef("-families: %q is not one of %s", f, strings.Join(synth.WideFamilies, ", "))
		}
	}
	if err := dimstudy.RunWide(ctx, cfg); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s/wide.csv and %s/wide.md\n", *out, *out)
	return nil
}
