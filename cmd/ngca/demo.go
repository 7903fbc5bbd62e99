package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"text/tabwriter"
	"time"

	"github.com/ngca-go/ngca/internal/words"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/progress"
	"github.com/ngca-go/ngca/ngcatest"
)

func init() {
	register(&command{
		name:    "demo",
		summary: "fit the estimators to the paper's artificial data; print ε and time",
		usage: `Usage: ngca demo [flags]

Generates the artificial data of Shiino et al. (ACML 2017, §4.2): a 2-D
non-Gaussian signal in columns 1-2 and d-2 correlated Gaussian noise columns
whose covariance gets worse conditioned as r grows. Fits every estimator
(` + words.JoinAnd(labels(methods.All())) + `) to each
data set (m = 2, default settings) and prints the subspace error ε (0 = the
true subspace, 1 = orthogonal to it) and the time per fit. With -rotate
every data set is turned by a random rotation, so the non-Gaussian subspace
no longer lies along coordinate axes, as in most real data. A progress bar
is drawn on stderr when it is a terminal (otherwise one line a minute after
the first).

Examples:
  ngca demo
  ngca demo -rotate
  ngca demo -r 2
  ngca demo -dists a,c -n 5000 -workers 1
`,
		run: runDemo,
	})
}

func runDemo(ctx context.Context, e *env, args []string) error {
	c := commands["demo"]
	fs := cli.NewFlagSet(c.name)
	n := fs.Int("n", 2000, "number of observations")
	d := fs.Int("d", 10, "number of dimensions (2 signal + d-2 noise)")
	r := fs.Float64("r", 0, "condition-number controller r ≥ 0 (the paper's figure spans 0 to 0.8)")
	dists := fs.String("dists", "a,b,c,d", "signal distributions to run, from a,b,c,d")
	seed := fs.Uint64("seed", 1, "random seed for data and estimators")
	workers := fs.Int("workers", 0, "worker goroutines per fit (0 = all CPUs)")
	rotate := fs.Bool("rotate", false, "turn every data set by a random rotation")
	if err := cli.Parse(fs, args, c.usage, e.stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	ds, err := cli.DistList(*dists)
	if err != nil {
		return err
	}

	ms := methods.All()
	bar := progress.New(e.stderr, "fitting", len(ds)*len(ms))
	turned := ""
	if *rotate {
		turned = ", turned by a random rotation"
	}
	fmt.Fprintf(e.stdout, "NGCA demo: the paper's artificial data%s, n=%d, d=%d, m=2, r=%g, seed %d\n\n", turned, *n, *d, *r, *seed)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 3, ' ', 0)
	fmt.Fprintln(tw, "data\tmethod\tε (subspace error)\ttime")
	var rows []string
	for k, dist := range ds {
		x, truth, err := ngcatest.Artificial{Dist: dist, N: *n, D: *d, R: *r, Rotate: *rotate}.Sample(rand.NewPCG(*seed, uint64(k)))
		if err != nil {
			return cli.Usagef("%v", err)
		}
		for _, m := range ms {
			base := bar.Done()
			prog := func(p ngca.Progress) { bar.Set(base + p.Fraction()) }
			start := time.Now()
			s := methods.Settings{Dim: 2, Workers: *workers, Src: rand.NewPCG(*seed, 1000+uint64(k)), Progress: prog}
			res, err := m.New(s).Fit(ctx, x)
			if err != nil {
				bar.Finish()
				return fmt.Errorf("%s on (%v): %w", m.Label, dist, err)
			}
			elapsed := time.Since(start)
			bar.Set(base + 1)
			rows = append(rows, fmt.Sprintf("(%v) %s\t%s\t%.2e\t%.2fs", dist, distName(dist), m.Label,
				ngca.SubspaceError(truth, res.Basis), elapsed.Seconds()))
		}
	}
	bar.Finish()
	for _, row := range rows {
		fmt.Fprintln(tw, row)
	}
	return tw.Flush()
}

func distName(d ngcatest.Distribution) string {
	return [...]string{"Gaussian mixture", "super-Gaussian", "sub-Gaussian", "super- and sub-Gaussian"}[d]
}
