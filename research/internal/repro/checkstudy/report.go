package checkstudy

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ngca-go/ngca/internal/atomicfile"
	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// The error bands of the report and the goals on them.
const (
	goodEps = 0.01 // a fit with ε below it should not be doubtful
	badEps  = 0.1  // a fit with ε above it should be
	// goalBad, goalGood and goalPaper are the goals: the share of bad
	// fits doubtful, and the largest shares of good fits and of
	// WF-LSNGCA's fits on the paper's data doubtful.
	goalBad, goalGood, goalPaper = 0.95, 0.10, 0.05
)

// write writes check.csv from rows, in the order of the jobs, and
// check.md.
func (c *Config) write(rows []Row) error {
	if err := repro.WriteRows(c.path("check.csv"), header, rows, Row.record); err != nil {
		return err
	}
	return atomicfile.WriteFile(c.path("check.md"), []byte(c.markdown(rows)), 0o666)
}

// tally counts fits and doubtful verdicts.
type tally struct{ fits, doubtful int }

func (t *tally) add(r Row) {
	t.fits++
	if r.Doubtful {
		t.doubtful++
	}
}

func (t tally) share() float64 {
	if t.fits == 0 {
		return math.NaN()
	}
	return float64(t.doubtful) / float64(t.fits)
}

func (t tally) String() string {
	if t.fits == 0 {
		return "—"
	}
	return fmt.Sprintf("%d / %d (%.1f %%)", t.doubtful, t.fits, 100*t.share())
}

// band returns 0, 1 or 2 for ε < goodEps, goodEps ≤ ε ≤ badEps, ε > badEps.
func band(eps float64) int {
	switch {
	case eps < goodEps:
		return 0
	case eps <= badEps:
		return 1
	}
	return 2
}

// bands tallies the checked fits of rows that keep accepts by error band.
func bands(rows []Row, keep func(Row) bool) [3]tally {
	var t [3]tally
	for _, r := range rows {
		if !r.failed() && keep(r) {
			t[band(r.Epsilon)].add(r)
		}
	}
	return t
}

func (c *Config) markdown(rows []Row) string {
	var b strings.Builder
	failed := 0
	for _, r := range rows {
		if r.failed() {
			failed++
		}
	}
	fmt.Fprintf(&b, "# Calibration of ngca.Check\n\n")
	fmt.Fprintf(&b, "Every estimator fitted to data sets of known subspace and each fit checked with `ngca.Check` (default options: %d refits on %g of the rows; references IMAK, then MIPP, for the estimators that are not equivariant); the verdict is compared with the fit's true subspace error ε. ", defaults.CheckRefits, defaults.CheckShare)
	fmt.Fprintf(&b, "A fit is **good** when ε < %g and **bad** when ε > %g; between the two either verdict is acceptable.\n\n", goodEps, badEps)
	fmt.Fprintf(&b, "Data: the orientation study's cells (docs/orientation/orientation.md; its data sets and fits, seed(s) %s: the check's thresholds were chosen on seed 0, so these are held out)", joinInts(c.Seeds))
	fmt.Fprintf(&b, ", wide data drawn the same way (blocks %s: n = 5000, d = 30, which that study does not have, and %s: n = 2000 and 10000, d = 50, its block of that name; signals a–d and laplace, k = 0, 1 and turn, r = 0), ", D30Block, D50Block)
	fmt.Fprintf(&b, "and the paper's artificial data (block paper: `ngcatest.Artificial`, signals a–d, n = 2000, d = 10, r = %s; %d data set(s) per cell with the subspace on the first two columns, k = 0, and %d turned by a random rotation, k = turn), a generator the thresholds never saw. SNGCA, about 40 s a fit with its check, runs on every %dth data set only.\n\n", joinFloats(PaperRs), max(0, c.PaperSeeds), max(0, c.TurnedSeeds), c.SNGCAEvery)
	fmt.Fprintf(&b, "Made by `%s`: %d fits and checks (%d failed).\n\n", c.Command, len(rows), failed)
	c.goals(&b, rows)
	confusion(&b, rows)
	blocks(&b, rows)
	wide(&b, rows)
	misses(&b, rows)
	costs(&b, rows)
	return b.String()
}

func (c *Config) goals(b *strings.Builder, rows []Row) {
	all := bands(rows, func(Row) bool { return true })
	paper := bands(rows, func(r Row) bool { return r.Block == PaperBlock && r.Mix == 0 && r.Method == "wflsngca" })
	pt := tally{paper[0].fits + paper[1].fits + paper[2].fits, paper[0].doubtful + paper[1].doubtful + paper[2].doubtful}
	mark := func(ok bool) string {
		if ok {
			return "✓"
		}
		return "✗"
	}
	fmt.Fprintf(b, "## Goals\n\n| goal | | fits doubtful |\n|---|---|---|\n")
	fmt.Fprintf(b, "| at least %.0f %% of bad fits (ε > %g) doubtful | %s | %s |\n", 100*goalBad, badEps, mark(all[2].share() >= goalBad), all[2])
	fmt.Fprintf(b, "| at most %.0f %% of good fits (ε < %g) doubtful | %s | %s |\n", 100*goalGood, goodEps, mark(all[0].share() <= goalGood), all[0])
	if own := bands(rows, func(r Row) bool { return r.Block != PaperBlock }); own[0].fits < all[0].fits {
		fmt.Fprintf(b, "| the same, without the paper's data | %s | %s |\n", mark(own[0].share() <= goalGood), own[0])
	}
	fmt.Fprintf(b, "| at most %.0f %% of WF-LSNGCA's fits on the paper's data (r ≤ 0.8, n = 2000) doubtful | %s | %s |\n\n", 100*goalPaper, mark(pt.fits > 0 && pt.share() <= goalPaper), pt)
}

func confusion(b *strings.Builder, rows []Row) {
	fmt.Fprintf(b, "## Verdict against ε, per estimator\n\nDoubtful / fits in each band of the true error.\n\n")
	fmt.Fprintf(b, "| estimator | ε < %g (good) | %g ≤ ε ≤ %g | ε > %g (bad) |\n|---|---|---|---|\n", goodEps, goodEps, badEps, badEps)
	for _, key := range methodOrder(rows) {
		t := bands(rows, func(r Row) bool { return r.Method == key })
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", label(key), t[0], t[1], t[2])
	}
	t := bands(rows, func(Row) bool { return true })
	fmt.Fprintf(b, "| all | %s | %s | %s |\n\n", t[0], t[1], t[2])
}

func blocks(b *strings.Builder, rows []Row) {
	fmt.Fprintf(b, "## Per block\n\n| block | ε < %g (good) | %g ≤ ε ≤ %g | ε > %g (bad) |\n|---|---|---|---|\n", goodEps, goodEps, badEps, badEps)
	var names []string
	for _, r := range rows {
		if !slices.Contains(names, r.Block) {
			names = append(names, r.Block)
		}
	}
	for _, name := range names {
		t := bands(rows, func(r Row) bool { return r.Block == name })
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", name, t[0], t[1], t[2])
	}
	b.WriteString("\n")
}

// wideD is the smallest d of the wide data's tables.
const wideD = 30

// wide writes the tables of the wide data (d ≥ 30), one group per n and d,
// with the goals that depend on how n compares with d²: with n ≥ d², the
// goals of the whole study; below, every bad fit doubtful.
func wide(b *strings.Builder, rows []Row) {
	type group struct{ n, d int }
	var groups []group
	for _, r := range rows {
		if g := (group{r.N, r.D}); r.D >= wideD && !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	if len(groups) == 0 {
		return
	}
	slices.SortFunc(groups, func(a, b group) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return a.n - b.n
	})
	fmt.Fprintf(b, "## Wide data (d ≥ %d)\n\n", wideD)
	fmt.Fprintf(b, "Per n and d. With n ≥ d² the goals are those of the whole study (at least %.0f %% of bad fits doubtful, at most %.0f %% of good ones); "+
		"below about d² rows, which an estimate blind to the columns' orientation needs for a symmetric signal, every bad fit doubtful.\n\n", 100*goalBad, 100*goalGood)
	fmt.Fprintf(b, "| n, d | n vs d² | ε < %g (good) | %g ≤ ε ≤ %g | ε > %g (bad) | goals |\n|---|---|---|---|---|---|\n", goodEps, goodEps, badEps, badEps)
	for _, g := range groups {
		t := bands(rows, func(r Row) bool { return r.N == g.n && r.D == g.d })
		rel, ok := "n ≥ d²", (t[2].fits == 0 || t[2].share() >= goalBad) && !(t[0].share() > goalGood)
		if g.n < g.d*g.d {
			rel, ok = "n < d²", t[2].doubtful == t[2].fits
		}
		mark := "✓"
		if !ok {
			mark = "✗"
		}
		fmt.Fprintf(b, "| n = %d, d = %d | %s | %s | %s | %s | %s |\n", g.n, g.d, rel, t[0], t[1], t[2], mark)
	}
	fmt.Fprintf(b, "\nPer estimator, good fits doubtful and bad fits doubtful:\n\n| estimator |")
	for _, g := range groups {
		fmt.Fprintf(b, " n = %d, d = %d: good | bad |", g.n, g.d) // two columns
	}
	b.WriteString("\n|---|")
	for range groups {
		b.WriteString("---|---|")
	}
	b.WriteString("\n")
	for _, key := range methodOrder(rows) {
		fmt.Fprintf(b, "| %s |", label(key))
		for _, g := range groups {
			t := bands(rows, func(r Row) bool { return r.Method == key && r.N == g.n && r.D == g.d })
			fmt.Fprintf(b, " %s | %s |", t[0], t[2])
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// misses lists the bad fits judged ok and the good fits judged doubtful.
func misses(b *strings.Builder, rows []Row) {
	var bad, good []Row
	for _, r := range rows {
		switch {
		case r.failed():
		case band(r.Epsilon) == 2 && !r.Doubtful:
			bad = append(bad, r)
		case band(r.Epsilon) == 0 && r.Doubtful:
			good = append(good, r)
		}
	}
	fmt.Fprintf(b, "## Wrong verdicts\n\n")
	for _, part := range []struct {
		title string
		rows  []Row
	}{{fmt.Sprintf("Bad fits (ε > %g) judged ok", badEps), bad}, {fmt.Sprintf("Good fits (ε < %g) judged doubtful", goodEps), good}} {
		fmt.Fprintf(b, "%s: %d.\n\n", part.title, len(part.rows))
		if len(part.rows) == 0 {
			continue
		}
		fmt.Fprintf(b, "| cell | seed | estimator | ε | spread | IMAK: ε, spread | MIPP: ε, spread | reasons |\n|---|---|---|---|---|---|---|---|\n")
		for i, r := range part.rows {
			if i == 25 {
				fmt.Fprintf(b, "| … %d more in check.csv | | | | | | | |\n", len(part.rows)-i)
				break
			}
			fmt.Fprintf(b, "| `%s` | %d | %s | %.3g | %.3g | %s | %s | %s |\n", r.Cell, r.Seed, label(r.Method), r.Epsilon, r.Spread,
				refText(r.IMAK), refText(r.MIPP), r.Reasons)
		}
		b.WriteString("\n")
	}
}

func refText(r ref) string {
	if math.IsNaN(r.Distance) {
		return "—"
	}
	return fmt.Sprintf("%.3g, %.3g", r.Distance, r.Spread)
}

// costs reports the check's time against the fit's, both on one core.
func costs(b *strings.Builder, rows []Row) {
	fmt.Fprintf(b, "## Cost\n\nWall time of the check over that of the fit it checks, both on one core, per fit (in this study's parallel run, so indicative; the benchmarks measure it).\n\n")
	fmt.Fprintf(b, "| estimator | median fit s | median check s | median ratio | 90th percentile ratio |\n|---|---|---|---|---|\n")
	for _, key := range methodOrder(rows) {
		var fit, check, ratio []float64
		for _, r := range rows {
			if r.Method == key && !r.failed() {
				fit, check, ratio = append(fit, r.FitSeconds), append(check, r.CheckSeconds), append(ratio, r.CheckSeconds/r.FitSeconds)
			}
		}
		if len(ratio) == 0 {
			continue
		}
		slices.Sort(ratio)
		fmt.Fprintf(b, "| %s | %.3g | %.3g | %.1f | %.1f |\n", label(key), repro.Median(fit), repro.Median(check), repro.Median(ratio),
			ratio[(9*len(ratio)+9)/10-1])
	}
}

func label(key string) string {
	if m, err := methods.Lookup(key); err == nil {
		return m.Label
	}
	return key
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func joinFloats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
