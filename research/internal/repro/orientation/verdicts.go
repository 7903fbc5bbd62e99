package orientation

import (
	"math"

	"github.com/ngca-go/ngca/research/internal/repro"
)

// summary is a method's record over every cell.
type summary struct {
	method                 string
	cells, fits, failed    int
	medianOfMedians, worst float64
	worstBadShare          float64 // the largest share of bad fits in a cell
	worstBadCell           string
	strictWorse, signWorse []string // cells where its median is above MIPP's, significantly so
	collapses              int      // fits with ε > 0.5 where MIPP's ε < 0.1
	medianSeconds          float64
	maxPairs               int // the most data sets compared with MIPP in a cell
}

// summarise returns the record of method.
func (a *analysis) summarise(method string) summary {
	s := summary{method: method, worst: math.NaN(), worstBadShare: math.NaN()}
	var medians, secs []float64
	for _, c := range a.cells {
		f := a.fits[cmKey{c.Name, method}]
		if f == nil {
			continue
		}
		s.cells++
		s.fits += len(f.eps)
		s.failed += f.failed
		medians = append(medians, f.median())
		s.worst = maxNaN(s.worst, worst(f.eps))
		if method == mippKey {
			continue
		}
		if b := badShare(f.pairs); b > s.worstBadShare || math.IsNaN(s.worstBadShare) && !math.IsNaN(b) {
			s.worstBadShare, s.worstBadCell = b, c.Name
		}
		if f.worseStrict() {
			s.strictWorse = append(s.strictWorse, c.Name)
		}
		if f.worseSign() {
			s.signWorse = append(s.signWorse, c.Name)
		}
		s.collapses += collapses(f.pairs)
		s.maxPairs = max(s.maxPairs, len(f.pairs))
	}
	for _, r := range a.rows {
		if r.Method == method && !r.failed() {
			secs = append(secs, r.Seconds)
		}
	}
	s.medianOfMedians, s.medianSeconds = repro.Median(medians), repro.Median(secs)
	return s
}

// collapses counts the fits with ε > 0.5 where MIPP's ε < 0.1.
func collapses(ps []pair) int {
	n := 0
	for _, p := range ps {
		if p.eps > collapseEps && p.mipp < mippGoodEps {
			n++
		}
	}
	return n
}

// maxNaN is max ignoring NaN.
func maxNaN(a, b float64) float64 {
	if math.IsNaN(a) || b > a {
		return b
	}
	return a
}

// minNaN is min ignoring NaN.
func minNaN(a, b float64) float64 {
	if math.IsNaN(a) || b < a {
		return b
	}
	return a
}

// offending returns the cells where s's median is worse than MIPP's, read
// strictly (median above MIPP's) or by the sign test.
func (s summary) offending(signTest bool) []string {
	if signTest {
		return s.signWorse
	}
	return s.strictWorse
}

// minSignPairs is the fewest untied pairs with which the sign test can
// reject at level 0.05 (½⁵ = 0.031).
const minSignPairs = 5

// untestable notes a method that the sign test can never find worse than
// MIPP: too few data sets per cell.
func (s summary) untestable() string {
	if s.maxPairs >= minSignPairs {
		return ""
	}
	return sprintf("; untestable: at most %s per cell, the sign test needs %d", plural(s.maxPairs, "data set"), minSignPairs)
}

// The rule's near-best margin: a median is near the best in a cell when it
// is at most nearBestFactor·best + nearBestSlack.
const nearBestFactor, nearBestSlack = 1.1, 1e-3

// farFromBest returns the cells where method's median ε is above
// nearBestFactor times the smallest median of any method in the cell plus
// nearBestSlack.
func (a *analysis) farFromBest(method string) []string {
	var out []string
	for _, c := range a.cells {
		f := a.fits[cmKey{c.Name, method}]
		if f == nil {
			continue
		}
		best := math.Inf(1)
		for _, m := range a.methods {
			if g := a.fits[cmKey{c.Name, m}]; g != nil {
				best = math.Min(best, g.median())
			}
		}
		if f.median() > nearBestFactor*best+nearBestSlack {
			out = append(out, c.Name)
		}
	}
	return out
}

// safe reports whether method meets the safety goals: the bound goal and
// no collapse. MIPP, the bound's reference, is safe by definition.
func (a *analysis) safe(s summary) bool {
	return s.method == mippKey || a.boundGoal(s.method).ok && s.collapses == 0
}

// defaultByRule applies the rule of docs/default-method.md: among the
// safe estimators, those whose median is near the best in every cell
// (farFromBest empty) qualify and the one with the lowest median of its
// cell medians wins; if none qualifies, the safe estimator with the fewest
// cells far from the best wins (ties: the lower median of medians). It
// returns "" if no estimator is safe. Ties go to the first in the
// registry's order. Cost is not in the study: the doc checks it.
func (a *analysis) defaultByRule(sums []summary) string {
	best, bestFar, bestMed := "", 0, math.Inf(1)
	for _, s := range sums {
		if !a.safe(s) {
			continue
		}
		far := len(a.farFromBest(s.method))
		if best == "" || far < bestFar || far == bestFar && s.medianOfMedians < bestMed {
			best, bestFar, bestMed = s.method, far, s.medianOfMedians
		}
	}
	return best
}

// goal is one line of a method's goals check.
type goal struct {
	name, detail string
	ok           bool
	// none marks a goal without cells to check.
	none bool
}

// boundGoal checks that method's fits are within the bound (not bad)
// wherever the bound's reference can estimate, n ≥ d² (below, MIPP, blind
// to the columns' orientation, cannot find a symmetric signal, and the
// d = 50, n = 2000 cells have goals of their own): every fit in the cells
// with n ≥ 2000, at least 97 % of each cell's fits with 1000 < n < 2000,
// and at most 3 % of all the fits with n ≤ 1000 together.
func (a *analysis) boundGoal(method string) goal {
	g := goal{name: "within the bound where n ≥ d²: every fit at n ≥ 2000, ≥ 97 % of each cell's fits at 1000 < n < 2000, ≤ 3 % of the fits at n ≤ 1000 bad", none: true}
	low, lowCell, failing := 1.0, "", 0
	smallBad, small := 0, 0
	for _, c := range a.cells {
		f := a.fits[cmKey{c.Name, method}]
		if f == nil || len(f.pairs) == 0 || c.N < c.D*c.D {
			continue
		}
		g.none = false
		within := 1 - badShare(f.pairs)
		switch {
		case c.N <= 1000:
			small += len(f.pairs)
			smallBad += badCount(f.pairs)
		case c.N < 2000 && within < 0.97, c.N >= 2000 && within < 1:
			failing++
		}
		if within < low {
			low, lowCell = within, c.Name
		}
	}
	smallOK := small == 0 || float64(smallBad) <= 0.03*float64(small)
	g.ok = failing == 0 && smallOK
	g.detail = sprintf("lowest cell %s", percent(low))
	if lowCell != "" && low < 1 {
		g.detail += " (`" + lowCell + "`)"
	}
	if small > 0 {
		g.detail += sprintf("; n ≤ 1000: %d of %d fits bad (%.1f %%)", smallBad, small, 100*float64(smallBad)/float64(small))
	}
	if failing > 0 {
		g.detail = plural(failing, "cell") + " short; " + g.detail
	}
	return g
}

// medianGoals check that the median is no worse than MIPP's in every
// cell, strictly and by the sign test, and that no fit collapses where
// MIPP is good.
func (s summary) medianGoals() []goal {
	count := func(cells []string) string {
		if len(cells) == 0 {
			return "0 cells"
		}
		return plural(len(cells), "cell") + ", e.g. `" + cells[0] + "`"
	}
	return []goal{
		{name: "never ε > 0.5 where MIPP's ε < 0.1", detail: plural(s.collapses, "fit"), ok: s.collapses == 0},
		{name: "median ≤ MIPP's in every cell", detail: count(s.strictWorse), ok: len(s.strictWorse) == 0},
		{name: "not significantly worse than MIPP in any cell (sign test)", detail: count(s.signWorse) + s.untestable(), ok: len(s.signWorse) == 0},
	}
}

// alignedGoal checks the robust variant's median ε ≤ 1e-4 in the aligned
// cells (k = 0, r = 0, n ≥ 2000, d ≤ 30).
func (a *analysis) alignedGoal(method string) goal {
	met, total, top := 0, 0, 0.0
	for _, c := range a.cells {
		f := a.fits[cmKey{c.Name, method}]
		if f == nil || c.Mix != 0 || c.R != 0 || c.N < 2000 || c.D > 30 {
			continue
		}
		total++
		m := f.median()
		top = math.Max(top, m)
		if m <= 1e-4 {
			met++
		}
	}
	return goal{"aligned cells (k = 0, r = 0, n ≥ 2000, d ≤ 30): median ε ≤ 1e-4",
		sprintf("%d of %d cells, largest median %.2g", met, total, top), met == total, total == 0}
}

// stretchGoal checks the stretch goal on the turned cells (k = turn,
// r ≤ 1, n ≥ 2000) of the paper's signals: median ≤ 0.6 × MIPP's median
// in every such cell of at least three of the four signals. The detail
// lists, per signal, the cells that meet it.
func (a *analysis) stretchGoal(method string) goal {
	g := a.turnedGoal(method, "stretch: turned cells (k = turn, r ≤ 1, n ≥ 2000): median ≤ 0.6 × MIPP's on at least three of a–d",
		[]string{"a", "b", "c", "d"}, 0.6)
	g.ok = g.signals >= 3
	return g.goal
}

// stretchABGoal checks the stretch goal on the turned cells (k = turn,
// r ≤ 1, n ≥ 2000) of the paper's signals (a) and (b), where the robust
// variant returns MIPP's start: median ≤ 0.8 × MIPP's in every one.
func (a *analysis) stretchABGoal(method string) goal {
	g := a.turnedGoal(method, "stretch: turned cells of (a) and (b) (k = turn, r ≤ 1, n ≥ 2000): median ≤ 0.8 × MIPP's",
		[]string{"a", "b"}, 0.8)
	g.ok = g.signals == 2
	return g.goal
}

// signalGoal is a goal over the turned cells of some signals, with the
// number of signals that meet it in every cell.
type signalGoal struct {
	goal
	signals int
}

// turnedGoal counts, per signal, the turned cells (r ≤ 1, n ≥ 2000) where
// method's median is at most factor × MIPP's.
func (a *analysis) turnedGoal(method, name string, signals []string, factor float64) signalGoal {
	g := signalGoal{goal: goal{name: name, none: true}}
	for _, sig := range signals {
		met, total := 0, 0
		for _, c := range a.cells {
			f, m := a.fits[cmKey{c.Name, method}], a.fits[cmKey{c.Name, mippKey}]
			if f == nil || m == nil || c.Signal != sig || c.Mix != turnMix || c.R > 1 || c.N < 2000 {
				continue
			}
			total++
			if f.median() <= factor*m.median() {
				met++
			}
		}
		if total > 0 && met == total {
			g.signals++
		}
		g.none = g.none && total == 0
		g.detail += sprintf("%s %d/%d; ", sig, met, total)
	}
	g.detail = g.detail[:len(g.detail)-2]
	return g
}

// exactGoals check the robust variant's fits on aligned data (k = 0,
// r ≤ 2, n ≥ 1000, d ≤ 30): the exact axes estimates returned in at least
// 99 % of the fits where the axes estimate is exact (ε ≤ exactEps), and
// the axes estimate exact in at least 95 % of the fits.
func (a *analysis) exactGoals() []goal {
	fits, exact, returned := 0, 0, 0
	for _, r := range a.rows {
		if r.Method != robustKey || r.Mix != 0 || r.R > 2 || r.N < 1000 || r.D > 30 {
			continue
		}
		fits++
		if r.failed() || !(r.EpsilonAxes <= exactEps) {
			continue
		}
		exact++
		if r.Path == axesPath {
			returned++
		}
	}
	share := func(k, n int) float64 { return float64(k) / float64(n) }
	pct := func(k, n int) string { return sprintf("%d of %d (%.1f %%)", k, n, 100*share(k, n)) }
	return []goal{
		{"aligned fits (k = 0, r ≤ 2, n ≥ 1000, d ≤ 30): exact axes estimate returned in ≥ 99 % of the fits where it is exact",
			pct(returned, exact), share(returned, exact) >= 0.99, exact == 0},
		{"aligned fits (k = 0, r ≤ 2, n ≥ 1000, d ≤ 30): axes estimate exact in ≥ 95 % of the fits",
			pct(exact, fits), share(exact, fits) >= 0.95, fits == 0},
	}
}

// wideGoal checks, in the turned cells with d ≥ 50 and n ≥ 10000, that
// method's median ε is at most half of MIPP's.
func (a *analysis) wideGoal(method string) goal {
	g := goal{name: "d = 50, turned, n ≥ 10000: median ≤ ½ × MIPP's in every cell", none: true}
	met, total, ratio := 0, 0, 0.0
	for _, c := range a.cells {
		f, m := a.fits[cmKey{c.Name, method}], a.fits[cmKey{c.Name, mippKey}]
		if f == nil || m == nil || c.D < 50 || c.Mix != turnMix || c.N < 10000 {
			continue
		}
		total++
		ratio = math.Max(ratio, f.median()/m.median())
		if f.median() <= 0.5*m.median() {
			met++
		}
	}
	g.none, g.ok = total == 0, met == total
	g.detail = sprintf("%d of %d cells, largest ratio %.2g", met, total, ratio)
	return g
}

// goals returns the goals check of method.
func (a *analysis) goals(s summary) []goal {
	gs := append([]goal{a.boundGoal(s.method)}, s.medianGoals()...)
	if s.method == robustKey {
		gs = append(gs, a.alignedGoal(s.method))
		gs = append(gs, a.exactGoals()...)
		gs = append(gs, a.wideGoal(s.method), a.stretchGoal(s.method), a.stretchABGoal(s.method))
	}
	return gs
}

// firstCells lists up to n of cells, and how many more there are.
func firstCells(cells []string, n int) string {
	q := make([]string, 0, n+1)
	for i, c := range cells {
		if i == n {
			q = append(q, sprintf("%d more", len(cells)-n))
			break
		}
		q = append(q, "`"+c+"`")
	}
	return join(q)
}

// plural writes a count of things: "1 cell", "3 cells".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return sprintf("%d %ss", n, thing)
}
