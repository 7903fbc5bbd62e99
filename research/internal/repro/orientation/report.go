package orientation

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/atomicfile"
	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/research/internal/repro"
)

const turnMix = synth.Turn

// axesPath is the Path of a robust fit that returned its axes estimate.
var axesPath = "axes"

var sprintf = fmt.Sprintf

// join joins items as "a, b and c".
func join(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// percent writes a share as a whole percentage ("—" for NaN).
func percent(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return sprintf("%.0f %%", 100*v)
}

// num writes a value to two significant digits ("—" for NaN).
func num(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return sprintf("%.2g", v)
}

// write sorts the rows and writes orientation.csv, orientation-cells.csv
// and orientation.md from them, each replaced only once complete.
func (c *Config) write(rows []Row) error {
	c.sortRows(rows)
	if err := repro.WriteRows(c.path("orientation.csv"), header, rows, Row.record); err != nil {
		return err
	}
	a := analyse(rows)
	if err := repro.WriteCSV(c.path("orientation-cells.csv"), a.cellRecords()); err != nil {
		return err
	}
	return atomicfile.WriteFile(c.path("orientation.md"), []byte(a.markdown(c.Command)), 0o666)
}

// sortRows sorts rows by cell (in the study's order, then unknown cells by
// name), seed and method (in the registry's order).
func (c *Config) sortRows(rows []Row) {
	order := map[string]int{}
	for i, cell := range slices.Concat(c.Cells, DefaultCells()) {
		if _, ok := order[cell.Name]; !ok {
			order[cell.Name] = i
		}
	}
	index := func(name string) int {
		if i, ok := order[name]; ok {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(rows, func(x, y Row) int {
		return cmp.Or(cmp.Compare(index(x.Cell), index(y.Cell)), strings.Compare(x.Cell, y.Cell),
			cmp.Compare(x.Seed, y.Seed), cmp.Compare(methodIndex(x.Method), methodIndex(y.Method)))
	})
}

// cellHeader names the columns of orientation-cells.csv.
var cellHeader = []string{"block", "cell", "signal", "m", "n", "d", "r", "mix", "method",
	"fits", "failed", "median", "p90", "worst", "share_bad", "mipp_median"}

// cellRecords are the records of orientation-cells.csv: one per cell and
// method, a failed fit counting as ε = 1.
func (a *analysis) cellRecords() [][]string {
	recs := [][]string{cellHeader}
	for _, c := range a.cells {
		mippMedian := math.NaN()
		if m := a.fits[cmKey{c.Name, mippKey}]; m != nil {
			mippMedian = m.median()
		}
		for _, method := range a.methods {
			f := a.fits[cmKey{c.Name, method}]
			if f == nil {
				continue
			}
			share := badShare(f.pairs)
			if method == mippKey {
				share = math.NaN()
			}
			recs = append(recs, []string{c.Block, c.Name, c.Signal, strconv.Itoa(c.M), strconv.Itoa(c.N), strconv.Itoa(c.D),
				repro.FormatFloat(c.R), MixString(c.Mix), method, strconv.Itoa(len(f.eps)), strconv.Itoa(f.failed),
				repro.FormatFloat(f.median()), repro.FormatFloat(p90(f.eps)), repro.FormatFloat(worst(f.eps)),
				repro.FormatFloat(share), repro.FormatFloat(mippMedian)})
		}
	}
	return recs
}

// markdown renders the report.
func (a *analysis) markdown(command string) string {
	var b strings.Builder
	sums := make([]summary, len(a.methods))
	for i, m := range a.methods {
		sums[i] = a.summarise(m)
	}
	a.writeHeader(&b, command)
	a.writeReading(&b)
	writeSummary(&b, sums)
	a.writeDefault(&b, sums)
	a.writeGoals(&b, sums)
	a.writeDecisions(&b)
	a.writeChecks(&b)
	for _, block := range a.blocks() {
		a.writeBlock(&b, block)
	}
	return b.String()
}

// blocks lists the blocks of the cells, in order.
func (a *analysis) blocks() []string {
	var out []string
	for _, c := range a.cells {
		if !slices.Contains(out, c.Block) {
			out = append(out, c.Block)
		}
	}
	return out
}

// writeHeader says what the data are and what made the report.
func (a *analysis) writeHeader(b *strings.Builder, command string) {
	if command == "" {
		command = "go run ./cmd/reproduce orientation"
	}
	failed, sets := 0, map[fitKey]bool{}
	for _, r := range a.rows {
		if r.failed() {
			failed++
		}
		sets[fitKey{r.Cell, r.Seed, ""}] = true
	}
	fmt.Fprintf(b, "# Orientation study\n\n")
	fmt.Fprintf(b, "Subspace error ε (0: exact, 1: orthogonal) of every estimator on synthetic data (internal/synth) whose m-dimensional non-Gaussian signal sits on random columns among d − m Gaussian noise columns, turned by a random rotation with k of the noise columns (k = turn: all columns turned), the noise covariance having condition number 10^(2r); every column is standardised. Blocks:\n\n")
	for _, block := range a.blocks() {
		fmt.Fprintf(b, "- **%s**: %s.\n", block, blockAbout[block])
	}
	var sigs []string
	for _, s := range synth.Signals {
		if slices.ContainsFunc(a.cells, func(c Cell) bool { return c.Signal == s.Name }) {
			sigs = append(sigs, sprintf("%s: %s", s.Name, s.About))
		}
	}
	fmt.Fprintf(b, "\nSignals: %s.\n\n", strings.Join(sigs, "; "))
	fmt.Fprintf(b, "Made by `%s`: %d fits (%d failed) on %d data sets in %d cells; %s.\n\n",
		command, len(a.rows), failed, len(sets), len(a.cells), a.fitsPerCell())
}

// fitsPerCell says how many fits each method has per cell (at most).
func (a *analysis) fitsPerCell() string {
	var parts []string
	most := make(map[string]int)
	for _, m := range a.methods {
		least := -1
		for _, c := range a.cells {
			if f := a.fits[cmKey{c.Name, m}]; f != nil {
				most[m] = max(most[m], len(f.eps))
				if least < 0 || len(f.eps) < least {
					least = len(f.eps)
				}
			}
		}
		if least >= 0 && least < most[m] {
			parts = append(parts, sprintf("%s %d to %d", label(m), least, most[m]))
			continue
		}
		parts = append(parts, sprintf("%s %d", label(m), most[m]))
	}
	s := "fits per cell: " + strings.Join(parts, ", ")
	if n, ok := most[sngcaKey]; ok && n < slices.Max(slices.Collect(maps.Values(most))) {
		s += " (SNGCA, about 3 s a fit, runs on the first seeds of each cell only: -sngca-seeds)"
	}
	return s
}

// writeReading defines the terms of the tables.
func (a *analysis) writeReading(b *strings.Builder) {
	fmt.Fprintf(b, "How to read: every fit is compared with MIPP's fit on the same data set (same cell and seed). A fit is **bad** when ε > 2·ε_MIPP + 0.01. A failed fit counts as ε = 1. \"Median above MIPP\" compares medians over the data sets both fitted; \"significantly worse\" is a paired one-sided sign test on the per-seed differences ε − ε_MIPP (ties dropped) at level %g: with 10 seeds it takes 9 of 10 differences positive, and with fewer than 5 seeds it never happens. p90 in orientation-cells.csv is the nearest-rank percentile, the ⌈0.9·N⌉-th smallest of N values.\n\n", level)
	if !a.hasMIPP() {
		fmt.Fprintf(b, "**MIPP was not fitted, so no fit is compared:** bad shares and tests are empty.\n\n")
	}
}

// writeSummary writes the table of every method over all cells.
func writeSummary(b *strings.Builder, sums []summary) {
	fmt.Fprintf(b, "## Summary over all cells\n\n")
	fmt.Fprintf(b, "| method | cells | fits (failed) | median of cell medians | worst ε | worst cell's share bad | median > MIPP's | significantly worse | ε > 0.5 where MIPP < 0.1 | s/fit |\n")
	fmt.Fprintf(b, "|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range sums {
		cmpCols := sprintf("%s | %d | %d | %d", percent(s.worstBadShare), len(s.strictWorse), len(s.signWorse), s.collapses)
		if s.method == mippKey {
			cmpCols = "— | — | — | —"
		}
		fmt.Fprintf(b, "| %s | %d | %d (%d) | %s | %s | %s | %.2f |\n", label(s.method), s.cells, s.fits, s.failed,
			num(s.medianOfMedians), num(s.worst), cmpCols, s.medianSeconds)
	}
	fmt.Fprintln(b)
}

// writeDefault applies the rule for the command's default estimator
// (defaultByRule) and lists, per estimator, what the rule reads.
func (a *analysis) writeDefault(b *strings.Builder, sums []summary) {
	fmt.Fprintf(b, "## Default by rule\n\nRule: among the safe estimators (the bound and collapse goals below; MIPP by definition), those whose median ε is at most %g × the best median + %g in every cell qualify, and the one with the lowest median of its cell medians wins; if none qualifies, the safe one with the fewest cells outside. The cost limit (≤ 3 × WF-LSNGCA) is checked by benchmark, not here.\n\n", nearBestFactor, nearBestSlack)
	if !a.hasMIPP() {
		fmt.Fprintf(b, "No MIPP fits: no estimator can be judged safe.\n\n")
		return
	}
	winner := a.defaultByRule(sums)
	fmt.Fprintf(b, "| method | safe | cells far from the best | median of cell medians |\n|---|---|---|---|\n")
	for _, s := range sums {
		far := a.farFromBest(s.method)
		farText := "0"
		if len(far) > 0 {
			farText = plural(len(far), "cell") + ": " + firstCells(far, 3)
		}
		name := label(s.method)
		if s.method == winner {
			name = "**" + name + "**"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", name, map[bool]string{true: "✓", false: "✗"}[a.safe(s)], farText, num(s.medianOfMedians))
	}
	fmt.Fprintf(b, "\nWinner before the cost limit: **%s** (docs/default-method.md applies the limit).\n\n", label(winner))
}

func sumOf(sums []summary, method string) summary {
	i := slices.IndexFunc(sums, func(s summary) bool { return s.method == method })
	return sums[i]
}

// writeGoals writes the goals check of every method but MIPP.
func (a *analysis) writeGoals(b *strings.Builder, sums []summary) {
	fmt.Fprintf(b, "## Goals check\n\n| method | goal | | deciding number |\n|---|---|---|---|\n")
	for _, s := range sums {
		if s.method == mippKey || !a.hasMIPP() {
			continue
		}
		for _, g := range a.goals(s) {
			mark := "✗"
			switch {
			case g.none:
				mark = "no cells"
			case g.ok:
				mark = "✓"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", label(s.method), g.name, mark, g.detail)
		}
	}
	fmt.Fprintln(b)
}

// writeDecisions writes, per block, how often the robust variant kept its
// axes estimate on aligned (k = 0) and on mixed or turned data, and how
// bad the kept axes estimates on mixed or turned data were.
func (a *analysis) writeDecisions(b *strings.Builder) {
	if !slices.Contains(a.methods, robustKey) {
		return
	}
	fmt.Fprintf(b, "## Decisions of %s\n\n", label(robustKey))
	fmt.Fprintf(b, "Fits that returned the axes estimate (kept / fits), and the worst ε among those on mixed or turned data (k > 0). \"Other better\" counts fits where the candidate not returned had ε smaller by more than 0.01.\n\n")
	fmt.Fprintf(b, "| block | k = 0: axes kept | k > 0: axes kept | worst ε of kept axes, k > 0 | other better | axes exact (ε ≤ %g) | exact but not returned |\n|---|---|---|---|---|---|---|\n", exactEps)
	for _, block := range a.blocks() {
		var kept, fits [2]int
		top, other, exact, lost := math.NaN(), 0, 0, 0
		for _, r := range a.rows {
			if r.Method != robustKey || r.Block != block || r.failed() {
				continue
			}
			mixed := 0 // index of kept and fits: 0 for k = 0, 1 for k > 0 or turn
			if r.Mix != 0 {
				mixed = 1
			}
			fits[mixed]++
			if r.Path == axesPath {
				kept[mixed]++
				if mixed == 1 {
					top = maxNaN(top, r.Epsilon)
				}
			}
			if r.Epsilon > min(r.EpsilonAxes, r.EpsilonEquivar)+0.01 {
				other++
			}
			if r.EpsilonAxes <= exactEps {
				exact++
				if r.Path != axesPath {
					lost++
				}
			}
		}
		fmt.Fprintf(b, "| %s | %d / %d | %d / %d | %s | %d | %d | %d |\n", block, kept[0], fits[0], kept[1], fits[1], num(top), other, exact, lost)
	}
	fmt.Fprintln(b)
	a.writeLostCells(b)
}

// exactEps is the ε at or below which an estimate counts as exact.
const exactEps = 1e-6

// writeLostCells lists, per cell, the share of the robust variant's fits
// whose axes estimate was exact but not returned, for the cells where it
// is not zero.
func (a *analysis) writeLostCells(b *strings.Builder) {
	type count struct{ exact, lost int }
	per := map[string]*count{}
	for _, r := range a.rows {
		if r.Method != robustKey || r.failed() || !(r.EpsilonAxes <= exactEps) {
			continue
		}
		c := per[r.Cell]
		if c == nil {
			c = &count{}
			per[r.Cell] = c
		}
		c.exact++
		if r.Path != axesPath {
			c.lost++
		}
	}
	var lines []string
	for _, c := range a.cells {
		if k := per[c.Name]; k != nil && k.lost > 0 {
			lines = append(lines, sprintf("| %s | %d / %d |", c.Name, k.lost, k.exact))
		}
	}
	if len(lines) == 0 {
		fmt.Fprintf(b, "No exact axes estimate was left unreturned.\n\n")
		return
	}
	fmt.Fprintf(b, "Cells where an exact axes estimate was not returned (exact but not returned / axes exact):\n\n| cell | share |\n|---|---|\n%s\n\n", strings.Join(lines, "\n"))
}

// writeChecks writes, per block, how the robust variant's checks of the
// axes estimate (the test at the axes frame at level defaults.RobustLevel,
// the Distance bound, and beyond it the comparison of the structure each
// candidate misses) treated right axes estimates (ε no larger than the
// equivariant estimate's) and wrong ones (ε > 2·ε_equivariant + 0.01).
func (a *analysis) writeChecks(b *strings.Builder) {
	if !slices.Contains(a.methods, robustKey) {
		return
	}
	fmt.Fprintf(b, "Checks of the axes estimate. **Right**: ε_axes ≤ ε_equivariant; **wrong**: ε_axes > 2·ε_equivariant + 0.01. The axes estimate is returned when the test's p ≥ %g and either its Distance from the equivariant estimate is ≤ %v (in units of the degrees of freedom) or, beyond that, the evidence that the equivariant estimate misses structure the axes estimate holds is stronger by %v paired z-scores than the evidence of the converse (**comparison**).\n\n", defaults.RobustLevel, float64(defaults.RobustMaxDistance), float64(defaults.RobustMissedMargin))
	fmt.Fprintf(b, "| block | right: fits | test rejects | Distance > %[1]v | of those, kept by the comparison | largest Distance | wrong: fits | Distance ≤ %[1]v | test passes too (kept) | kept by the comparison | smallest Distance |\n|---|---|---|---|---|---|---|---|---|---|---|\n", float64(defaults.RobustMaxDistance))
	for _, block := range a.blocks() {
		var right, rightRej, rightFar, rightSaved, wrong, wrongNear, wrongKept, wrongSaved int
		top, bottom := math.NaN(), math.NaN()
		for _, r := range a.rows {
			if r.Method != robustKey || r.Block != block || r.failed() || math.IsNaN(r.Distance) {
				continue
			}
			far := !(r.Distance <= defaults.RobustMaxDistance)
			saved := far && r.Path == axesPath
			switch {
			case r.EpsilonAxes <= r.EpsilonEquivar:
				right++
				if !(r.P >= defaults.RobustLevel) {
					rightRej++
				}
				if far {
					rightFar++
				}
				if saved {
					rightSaved++
				}
				top = maxNaN(top, r.Distance)
			case r.EpsilonAxes > 2*r.EpsilonEquivar+0.01:
				wrong++
				if !far {
					wrongNear++
					if r.Path == axesPath {
						wrongKept++
					}
				}
				if saved {
					wrongSaved++
				}
				bottom = minNaN(bottom, r.Distance)
			}
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %s | %d | %d | %d | %d | %s |\n", block, right, rightRej, rightFar, rightSaved, num(top), wrong, wrongNear, wrongKept, wrongSaved, num(bottom))
	}
	fmt.Fprintln(b)
}

// writeBlock writes a block's tables: median ε and share of bad fits per
// cell and method.
func (a *analysis) writeBlock(b *strings.Builder, block string) {
	var cells []Cell
	for _, c := range a.cells {
		if c.Block == block {
			cells = append(cells, c)
		}
	}
	fmt.Fprintf(b, "## Block %s\n\n%s.\n\n", block, blockAbout[block])
	a.writeCellTable(b, "Median ε", cells, func(f *cellFits, method string) string {
		s := num(f.median())
		if f.failed > 0 {
			s += sprintf(" [%d failed]", f.failed)
		}
		return s
	})
	a.writeCellTable(b, "Share of bad fits (ε > 2·ε_MIPP + 0.01)", cells, func(f *cellFits, method string) string {
		if method == mippKey {
			return "—"
		}
		return percent(badShare(f.pairs))
	})
}

// writeCellTable writes a table of one value per cell (row) and method
// (column); "" marks a method without fits in the cell.
func (a *analysis) writeCellTable(b *strings.Builder, title string, cells []Cell, value func(*cellFits, string) string) {
	fmt.Fprintf(b, "%s:\n\n| cell |", title)
	for _, m := range a.methods {
		fmt.Fprintf(b, " %s |", label(m))
	}
	fmt.Fprintf(b, "\n|---|%s\n", strings.Repeat("---|", len(a.methods)))
	vary := varying(cells[0].Block, cells)
	for _, c := range cells {
		fmt.Fprintf(b, "| %s |", c.label(vary))
		for _, m := range a.methods {
			v := ""
			if f := a.fits[cmKey{c.Name, m}]; f != nil {
				v = value(f, m)
			}
			fmt.Fprintf(b, " %s |", v)
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintln(b)
}

// varying reports which of n, d and m a block's table shows: the one the
// block is named after and any other that differs among its cells.
func varying(block string, cells []Cell) [3]bool {
	v := [3]bool{block == "n", false, block == "m"}
	for _, c := range cells {
		v[0] = v[0] || c.N != cells[0].N
		v[1] = v[1] || c.D != cells[0].D
		v[2] = v[2] || c.M != cells[0].M
	}
	return v
}

// label names a cell in a block's table: its signal, k and r, and those of
// n, d and m that vary in the block.
func (c Cell) label(vary [3]bool) string {
	var parts []string
	for i, p := range []string{sprintf("n=%d", c.N), sprintf("d=%d", c.D), sprintf("m=%d", c.M)} {
		if vary[i] {
			parts = append(parts, p)
		}
	}
	return strings.Join(append(parts, c.Signal, "k="+MixString(c.Mix), sprintf("r=%g", c.R)), " ")
}
