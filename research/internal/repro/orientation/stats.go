package orientation

import (
	"math"
	"slices"
	"sort"

	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// The study's thresholds.
const (
	// level is the level of the sign test.
	level = 0.05
	// A collapse is a fit with ε > collapseEps where MIPP's ε <
	// mippGoodEps.
	collapseEps, mippGoodEps = 0.5, 0.1
)

// isBad reports a bad fit: ε > 2·ε_MIPP + 0.01, MIPP's fit being on the
// same data set.
func isBad(eps, mipp float64) bool { return eps > 2*mipp+0.01 }

// pair is a method's ε on a data set and MIPP's on the same data set.
type pair struct{ eps, mipp float64 }

// badShare returns the share of bad fits among ps (NaN if ps is empty).
func badShare(ps []pair) float64 {
	if len(ps) == 0 {
		return math.NaN()
	}
	return float64(badCount(ps)) / float64(len(ps))
}

// badCount is the number of bad fits among ps.
func badCount(ps []pair) int {
	bad := 0
	for _, p := range ps {
		if isBad(p.eps, p.mipp) {
			bad++
		}
	}
	return bad
}

// signTestP returns the p-value of the paired one-sided sign test of "the
// method's ε exceeds MIPP's": with k of the n nonzero differences ε −
// ε_MIPP positive (ties dropped), P(K ≥ k) for K ~ Binomial(n, ½); 1 when
// every pair is tied.
func signTestP(ps []pair) float64 {
	n, k := 0, 0
	for _, p := range ps {
		if p.eps != p.mipp {
			n++
			if p.eps > p.mipp {
				k++
			}
		}
	}
	if n == 0 {
		return 1
	}
	sum, c := 0.0, 1.0 // c = C(n, i)
	for i := 0; i <= n; i++ {
		if i >= k {
			sum += c
		}
		c = c * float64(n-i) / float64(i+1)
	}
	return sum / math.Pow(2, float64(n))
}

// p90 returns the 90th percentile of v by the nearest-rank method: the
// ⌈0.9·len(v)⌉-th smallest value (NaN if v is empty).
func p90(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	return s[int(math.Ceil(0.9*float64(len(s))))-1]
}

// worst returns the largest value of v (NaN if v is empty).
func worst(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return slices.Max(v)
}

// cellFits are a method's fits in one cell.
type cellFits struct {
	eps    []float64 // every fit, a failed one as ε = 1
	failed int
	pairs  []pair // the fits with a fit of MIPP on the same data set
}

func (f *cellFits) median() float64 { return repro.Median(f.eps) }

// worseStrict reports a median ε above MIPP's on the data sets both
// fitted.
func (f *cellFits) worseStrict() bool {
	var e, m []float64
	for _, p := range f.pairs {
		e, m = append(e, p.eps), append(m, p.mipp)
	}
	return len(f.pairs) > 0 && repro.Median(e) > repro.Median(m)
}

// worseSign reports ε significantly above MIPP's by the sign test.
func (f *cellFits) worseSign() bool { return signTestP(f.pairs) <= level }

// cmKey names a cell and a method.
type cmKey struct{ cell, method string }

// analysis holds the fits of a study by cell and method.
type analysis struct {
	cells   []Cell   // in the study's order
	methods []string // keys, in the registry's order
	fits    map[cmKey]*cellFits
	rows    []Row
}

// epsOrOne is a fit's ε, 1 (orthogonal) if it failed.
func epsOrOne(r Row) float64 {
	if r.failed() {
		return 1
	}
	return r.Epsilon
}

// analyse groups rows (sorted as write sorts them) by cell and method and
// pairs every fit with MIPP's on its data set.
func analyse(rows []Row) *analysis {
	a := &analysis{fits: map[cmKey]*cellFits{}, rows: rows}
	mipp := map[fitKey]float64{}
	for _, r := range rows {
		if r.Method == mippKey {
			mipp[fitKey{r.Cell, r.Seed, ""}] = epsOrOne(r)
		}
	}
	for _, r := range rows {
		k := cmKey{r.Cell, r.Method}
		f := a.fits[k]
		if f == nil {
			f = &cellFits{}
			a.fits[k] = f
			a.addCell(r)
			a.addMethod(r.Method)
		}
		f.eps = append(f.eps, epsOrOne(r))
		if r.failed() {
			f.failed++
		}
		if m, ok := mipp[fitKey{r.Cell, r.Seed, ""}]; ok {
			f.pairs = append(f.pairs, pair{epsOrOne(r), m})
		}
	}
	slices.SortStableFunc(a.methods, func(x, y string) int { return methodIndex(x) - methodIndex(y) })
	return a
}

func (a *analysis) addCell(r Row) {
	if !slices.ContainsFunc(a.cells, func(c Cell) bool { return c.Name == r.Cell }) {
		a.cells = append(a.cells, Cell{Name: r.Cell, Block: r.Block, Signal: r.Signal, M: r.M, N: r.N, D: r.D, R: r.R, Mix: r.Mix})
	}
}

func (a *analysis) addMethod(m string) {
	if !slices.Contains(a.methods, m) {
		a.methods = append(a.methods, m)
	}
}

// methodIndex is the place of a key in the registry (unknown keys last).
func methodIndex(key string) int {
	i := slices.IndexFunc(methods.All(), func(m methods.Method) bool { return m.Key == key })
	if i < 0 {
		return len(methods.All())
	}
	return i
}

// label is the name tables give a method.
func label(key string) string {
	if m, err := methods.Lookup(key); err == nil {
		return m.Label
	}
	return key
}

// hasMIPP reports whether MIPP was fitted, so that fits can be compared.
func (a *analysis) hasMIPP() bool { return slices.Contains(a.methods, mippKey) }
