package ngca

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// checkRowsShare is the share of the rows, at least, that the refit of
// Check without the farthest rows leaves out.
const checkRowsShare = 0.01

// checkRowsMove is the largest ε by which that refit may move a fit
// whatever its Spread: the ε above which this package's studies count a
// fit as wrong (docs/check.md). A fit that so few rows move that far is
// decided by them, stable or not; an unstable fit's Spread would
// otherwise excuse any move, and a gross value makes the refits that
// hold it unstable.
const checkRowsMove = 0.1

// newRowsRun prepares the two refits of est that judge whether a few rows
// decide a fit (see CheckReport.FarRows): without the rows of x farthest
// from the rest, and, as a control, without as many rows drawn at random
// from the others, both seeded alike from rng. It returns nil when
// FarRows cannot judge x (too few rows) or leaving the rows out would
// leave too few; else the run, the rows left out (farthest first) and how
// many of them, the first, FarRows sets aside.
func newRowsRun(est Estimator, x *mat.Dense, rng *rand.Rand) (*checkRun, []int, int) {
	scr, err := fitScreen(x)
	if err != nil || scr == nil {
		return nil, nil, 0
	}
	n, d := x.Dims()
	aside := scr.RowsOf(x)
	k := max(int(math.Ceil(checkRowsShare*float64(n))), len(aside))
	rows, _ := scr.Farthest(x, k)
	if n-2*len(rows) <= d+1 {
		return nil, nil, 0
	}
	far := make([]bool, n)
	for _, i := range rows {
		far[i] = true
	}
	var keep, others []int
	for i := range n {
		if far[i] {
			continue
		}
		keep = append(keep, i)
		others = append(others, i)
	}
	r := newCheckRun(est, false, 2, rng)
	r.seeds[1] = r.seeds[0]
	drop := make([]bool, n)
	for _, h := range drawRows(rng, len(others), len(rows)) {
		drop[others[h]] = true
	}
	control := make([]int, 0, n-len(rows))
	for i := range n {
		if !drop[i] {
			control = append(control, i)
		}
	}
	r.subs = [][]int{keep, control}
	return r, rows, len(aside)
}
