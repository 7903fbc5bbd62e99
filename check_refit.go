package ngca

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

// checkRun is one estimator fitted for Check: to the full data (when full
// is true) and to each of the subsamples of the rows. Its results are
// written by the tasks of runFits, one slot per fit.
type checkRun struct {
	est  Estimator
	full bool
	// seeds holds one PCG seed per fit: the full fit first if full.
	seeds [][2]uint64
	// own is est if it is an estimator of this package, which is
	// reseeded and run with the workers runFits gives each fit; other
	// estimators are fitted as given, one fit at a time.
	own estimator
	// results and errs hold the fits, the full fit first if full.
	results []*Result
	errs    []error
	// subs, if not nil, replaces the subsamples runFits is given.
	subs [][]int
	// bare fits without the context's study settings (internal/probe):
	// the references keep their defaults.
	bare bool
}

// newCheckRun prepares the fits of est: one per refit, plus the full fit
// if full, each seeded by two words drawn from rng now (so that the
// draws do not depend on which fits run later).
func newCheckRun(est Estimator, full bool, refits int, rng *rand.Rand) *checkRun {
	k := refits
	if full {
		k++
	}
	r := &checkRun{est: est, full: full, seeds: make([][2]uint64, k), results: make([]*Result, k), errs: make([]error, k)}
	for i := range r.seeds {
		r.seeds[i] = [2]uint64{rng.Uint64(), rng.Uint64()}
	}
	r.own, _ = est.(estimator)
	return r
}

// fit runs fit i of r, with the given number of workers if r.own is set:
// the full data x for the first fit if r.full, else the rows subs[i'] of
// x.
func (r *checkRun) fit(ctx context.Context, i, workers int, x *mat.Dense, subs [][]int) {
	data := x
	h := i
	if r.full {
		h--
	}
	if r.subs != nil {
		subs = r.subs
	}
	if h >= 0 {
		data = rowsOf(x, subs[h])
	}
	if r.bare {
		ctx = probe.WithSettings(ctx, probe.Settings{})
	}
	est := r.est
	if r.own != nil {
		est = r.own.with(rand.NewPCG(r.seeds[i][0], r.seeds[i][1]), workers)
	}
	r.results[i], r.errs[i] = est.Fit(ctx, data)
}

// runFits runs every fit of the runs, one task per fit: the fits of
// package estimators side by side, as many at a time as there are
// workers and fits, the workers shared out among them (a fit's result
// does not depend on its workers), and the others one at a time on the
// calling goroutine. done is called after each fit.
func runFits(ctx context.Context, workers int, runs []*checkRun, x *mat.Dense, subs [][]int, done func()) error {
	type task struct {
		run *checkRun
		i   int
	}
	var par, seq []task
	for _, r := range runs {
		for i := range r.results {
			if r.own != nil {
				par = append(par, task{r, i})
			} else {
				seq = append(seq, task{r, i})
			}
		}
	}
	slots := max(1, min(workers, len(par)))
	err := parallelFor(ctx, slots, len(par), func(w, k int) error {
		share := workers / slots
		if w < workers%slots {
			share++
		}
		par[k].run.fit(ctx, par[k].i, share, x, subs)
		return nil
	}, done)
	if err != nil {
		return err
	}
	for _, t := range seq {
		if err := checkContext(ctx); err != nil {
			return err
		}
		t.run.fit(ctx, t.i, 1, x, subs)
		done()
	}
	return checkContext(ctx)
}

// drawSubsamples draws b random subsamples of s of the n row indices,
// each without replacement, in ascending order.
func drawSubsamples(rng *rand.Rand, n, s, b int) [][]int {
	out := make([][]int, b)
	for k := range out {
		h := drawRows(rng, n, s)
		slices.Sort(h)
		out[k] = h
	}
	return out
}

// refits returns an orthonormal basis of each refit of r (the fits after
// the full one), nil for a failed refit.
func (r *checkRun) refits() []*mat.Dense {
	start := 0
	if r.full {
		start = 1
	}
	var out []*mat.Dense
	for i := start; i < len(r.results); i++ {
		var q *mat.Dense
		if r.errs[i] == nil && r.results[i] != nil && r.results[i].Basis != nil {
			q, _ = orthonormal(r.results[i].Basis)
		}
		out = append(out, q)
	}
	return out
}

// refitErrors returns ε between basis and each refit of r (the fits
// after the full one), 1 for a failed refit, and the number of failures
// with the first failure's error.
func (r *checkRun) refitErrors(basis *mat.Dense) (eps []float64, failed int, first error) {
	start := 0
	if r.full {
		start = 1
	}
	for i := start; i < len(r.results); i++ {
		e := 1.0
		switch {
		case r.errs[i] != nil:
			failed++
			if first == nil {
				first = r.errs[i]
			}
		case r.results[i] == nil || r.results[i].Basis == nil:
			failed++
			if first == nil {
				first = fmt.Errorf("%w: refit returned no basis", ErrSingular)
			}
		default:
			e = SubspaceError(basis, r.results[i].Basis)
		}
		eps = append(eps, e)
	}
	return eps, failed, first
}
