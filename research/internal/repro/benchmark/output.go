package benchmark

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/research/internal/repro"
)

var stdText = map[Standardisation]string{
	OverDataset: "with statistics over the whole data set",
	OverSplit:   "with statistics over each run's training and test points (-standardise split)",
}

// csvHeader names the columns of runs.csv: a row's identity (data set,
// n, d, run, method), its results (error rate, ε, seconds of the
// reduction and of LIBSVM, failure and reason, the robust variant's
// path), the fingerprint of the method's code and what it ran on.
var csvHeader = []string{"dataset", "n", "d", "run", "method", "error_rate", "epsilon", "seconds", "svm_seconds",
	"failed", "reason", "path", "fingerprint", "platform"}

func (r Record) csv() []string {
	return []string{r.Dataset, strconv.Itoa(r.N), strconv.Itoa(r.D), strconv.Itoa(r.Run), r.Method,
		repro.FormatFloat(r.ErrorRate), repro.FormatFloat(r.Epsilon), repro.FormatFloat(r.Seconds), repro.FormatFloat(r.SVMSeconds),
		strconv.FormatBool(r.Failed), r.Reason, r.Path, r.Fingerprint, r.Platform}
}

// cell gathers one data set's results for one d and one method.
type cell struct {
	rates    []float64 // error rates of the runs that did not fail
	eps      []float64 // their ε against the real features, where known
	seconds  []float64 // reduction times of those runs
	paths    []string  // the robust variant's paths of those runs
	cost     []float64 // seconds of the reduction and LIBSVM of every run, failed or not
	finished int       // runs finished, failed or not
	failed   int
	reason   string // the first failure's reason
}

type cellKey struct {
	dataset string
	d       int
	method  string
}

// cells gathers the records of the study (see inStudy) by data set, d
// and method, the first record of each run only.
func (c *Config) cells(recs []Record) map[cellKey]*cell {
	out := map[cellKey]*cell{}
	seen := map[runKey]bool{}
	for _, r := range recs {
		if !c.inStudy(r) || seen[r.key()] {
			continue
		}
		seen[r.key()] = true
		k := cellKey{r.Dataset, r.D, r.Method}
		cl := out[k]
		if cl == nil {
			cl = &cell{}
			out[k] = cl
		}
		cl.finished++
		cl.cost = append(cl.cost, r.Seconds+r.SVMSeconds)
		if r.Failed {
			if cl.failed == 0 {
				cl.reason = r.Reason
			}
			cl.failed++
			continue
		}
		cl.rates = append(cl.rates, r.ErrorRate)
		if !math.IsNaN(r.Epsilon) {
			cl.eps = append(cl.eps, r.Epsilon)
		}
		cl.seconds = append(cl.seconds, r.Seconds)
		cl.paths = append(cl.paths, r.Path)
	}
	return out
}

// get returns the cell, empty if there is none.
func get(cs map[cellKey]*cell, ds string, d int, method string) *cell {
	if cl := cs[cellKey{ds, d, method}]; cl != nil {
		return cl
	}
	return &cell{}
}

// significance is the level of the two-sample t-test that decides which
// entries are bold, as in the paper.
const significance = 0.05

// markdown returns the study's page from the records of runs.csv (those
// of the study; see inStudy):
//
//   - a header naming the command that makes and continues it, how many of
//     the runs requested each row has so far, and the settings;
//   - for each d, the table in the layout of the paper's Table 2: one row
//     per data set in the paper's order ([m, n] as run) with its number of
//     runs, one column per method, cells "mean (std)" of the test
//     misclassification rate over the runs where the method did not
//     fail; in each row the lowest mean is bold, and so is every mean not
//     significantly different from it by a two-sided two-sample t-test
//     (pooled variance, MATLAB's ttest2) at the 5% level. Failed runs are
//     counted in the cell and explained below the table, and so are cells
//     with another number of runs than their row; data sets that are not
//     available say so in every cell. Below it, the same for ε against
//     the span of the real features ("—" for no reduction, which has no
//     subspace);
//   - the default estimator (the robust variant) against WF-LSNGCA on the
//     data sets of n = 2000, with a sentence for every row where the
//     default is significantly worse, giving the figures and what ε and
//     the variant's paths say of the reason;
//   - the mean seconds per reduction, with the platform they were
//     measured on, and the fingerprints of the code that made the rows.
func (c *Config) markdown(recs []Record) string {
	cs := c.cells(recs)
	var b strings.Builder
	fmt.Fprintf(&b, "# Table 2: test misclassification rate of LIBSVM after dimension reduction\n\n")
	fmt.Fprintf(&b, "Produced by `%s` (in research/), which continues it where it stopped: %s.\n\n", c.Command(), c.runsSoFar(cs))
	fmt.Fprintf(&b, "Each run draws n training and n test points of a LIBSVM data set, appends d − m columns of standard Gaussian noise "+
		"to its m features, reduces the points to m dimensions by each method fitted on the training points, and classifies them "+
		"with LIBSVM's RBF C-SVC (C = 1, γ = 1/number of features). "+
		"The cells give the mean (standard deviation) over the runs of the test misclassification rate and, below each table, "+
		"of the error ε (ngca.SubspaceError: 0 for the same span, 1 for orthogonal spans) of the method's subspace against "+
		"the span of the real features, the first m coordinates, where the protocol places them. "+
		"In bold: the best of each row and those not significantly worse (two-sided two-sample t-test, pooled variance, 5%%). "+
		"%s is the estimator that the ngca command fits by default (ngca.RobustWFLSNGCA). "+
		"Features standardised %s. Seed %d. Every run is in [runs.csv](runs.csv).\n", Robust.Label, stdText[c.Standardise], c.Seed)
	for _, d := range c.Dims {
		c.dimTable(&b, cs, d)
		c.epsTable(&b, cs, d)
	}
	c.defaultAgainstWF(&b, cs)
	c.timing(&b, cs, recs)
	c.fingerprintNote(&b, recs)
	return b.String()
}

// Command returns the command line that makes the study and continues
// it: the flags that differ from the defaults, -data and -workers left
// out.
func (c *Config) Command() string {
	parts := []string{"go run ./cmd/reproduce benchmark -resume"}
	if c.Out != "" {
		parts = append(parts, "-out "+c.Out)
	}
	if c.Runs != 50 {
		parts = append(parts, fmt.Sprintf("-runs %d", c.Runs))
	}
	if !slices.Equal(c.Datasets, DefaultDatasets()) {
		parts = append(parts, "-datasets "+strings.Join(c.Datasets, ","))
	}
	if !slices.Equal(c.Dims, []int{50, 100}) {
		var ds []string
		for _, d := range c.Dims {
			ds = append(ds, strconv.Itoa(d))
		}
		parts = append(parts, "-d "+strings.Join(ds, ","))
	}
	var keys []string
	for _, m := range c.Methods {
		keys = append(keys, m.Key)
	}
	if k := strings.Join(keys, ","); k != MethodKeys() {
		parts = append(parts, "-methods "+k)
	}
	if c.N != 0 {
		parts = append(parts, fmt.Sprintf("-n %d", c.N))
	}
	if c.Standardise != OverDataset {
		parts = append(parts, "-standardise "+c.Standardise.String())
	}
	if c.Seed != 1 {
		parts = append(parts, fmt.Sprintf("-seed %d", c.Seed))
	}
	return strings.Join(parts, " ")
}

// rowRuns returns the number of runs of a row (data set, d): the runs
// every method has finished.
func (c *Config) rowRuns(cs map[cellKey]*cell, ds string, d int) int {
	n := -1
	for _, m := range c.Methods {
		if f := get(cs, ds, d, m.Key).finished; n < 0 || f < n {
			n = f
		}
	}
	return max(n, 0)
}

// runsSoFar says how many runs the rows have: all those requested, or how
// many of them so far.
func (c *Config) runsSoFar(cs map[cellKey]*cell) string {
	lo, hi := -1, -1
	for _, ds := range c.selected() {
		for _, d := range c.Dims {
			k := c.rowRuns(cs, ds.Name, d)
			if lo < 0 || k < lo {
				lo = k
			}
			hi = max(hi, k)
		}
	}
	switch {
	case lo == c.Runs:
		return fmt.Sprintf("%s per row, all those requested", plural(c.Runs, "run"))
	case lo == hi:
		return fmt.Sprintf("**%d of %d runs per row so far**", lo, c.Runs)
	}
	return fmt.Sprintf("**%d to %d of %d runs per row so far** (the column Runs gives each row's)", lo, hi, c.Runs)
}

// dimTable writes the table of one target dimension d: a row per data set,
// then notes on failed runs and on cells with other numbers of runs than
// their row.
func (c *Config) dimTable(b *strings.Builder, cs map[cellKey]*cell, d int) {
	fmt.Fprintf(b, "\n## d = %d\n\n", d)
	tableHead(b, []string{"Dataset [m, n]", "Runs"}, c.Methods)
	var notes []string
	for _, ds := range Datasets {
		if !c.shown(ds) {
			continue
		}
		if ds.Missing != "" {
			fmt.Fprintf(b, "| %s [%d, %d] | – |", ds.Name, ds.M, ds.N)
			for range c.Methods {
				fmt.Fprintf(b, " %s |", ds.Missing)
			}
			b.WriteString("\n")
			continue
		}
		runs, most := c.rowRuns(cs, ds.Name, d), 0
		for _, m := range c.Methods {
			most = max(most, get(cs, ds.Name, d, m.Key).finished)
		}
		fmt.Fprintf(b, "| %s [%d, %d] | %d of %d |", ds.Name, ds.M, c.n(ds), runs, c.Runs)
		row := make([][]float64, len(c.Methods))
		for i, m := range c.Methods {
			row[i] = get(cs, ds.Name, d, m.Key).rates
		}
		bold := boldCells(row)
		for i, m := range c.Methods {
			cl := get(cs, ds.Name, d, m.Key)
			var text string
			switch {
			case cl.finished == 0:
				text = "not run"
			case len(cl.rates) == 0:
				text = fmt.Sprintf("failed (%d of %d runs)", cl.failed, cl.finished)
			default:
				text = summary(cl.rates, bold[i])
				if cl.failed > 0 {
					text += fmt.Sprintf(", %d failed", cl.failed)
				}
			}
			fmt.Fprintf(b, " %s |", text)
			if cl.failed > 0 {
				notes = append(notes, fmt.Sprintf("- %s, %s: %d of %d runs failed (left out of the mean); first error: %s",
					ds.Name, m.Label, cl.failed, cl.finished, cl.reason))
			}
			if cl.finished < most {
				notes = append(notes, fmt.Sprintf("- %s, %s: %d of the %d runs requested finished (other columns of the row have %d)",
					ds.Name, m.Label, cl.finished, c.Runs, most))
			}
		}
		b.WriteString("\n")
	}
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
}

// boldCells returns, for each column's values, whether its mean is the
// lowest or not significantly above it (TTest2 at the 5% level).
func boldCells(vals [][]float64) []bool {
	best := -1
	for i, v := range vals {
		if len(v) > 0 && (best < 0 || mean(v) < mean(vals[best])) {
			best = i
		}
	}
	bold := make([]bool, len(vals))
	for i, v := range vals {
		bold[i] = len(v) > 0 && (mean(v) == mean(vals[best]) || !(repro.TTest2(vals[best], v) < significance))
	}
	return bold
}

// summary returns "mean (std)" of v, in bold if asked.
func summary(v []float64, bold bool) string {
	s := repro.Summarize(v)
	text := fmt.Sprintf("%.3f (%.3f)", s.Mean, s.Std)
	if bold {
		text = "**" + text + "**"
	}
	return text
}

// epsTable writes, for d, the mean (std) of every method's ε against the
// span of the real features (the first m columns), the lowest and those
// not significantly above it (the same t-test) in bold; no reduction has
// no subspace ("—").
func (c *Config) epsTable(b *strings.Builder, cs map[cellKey]*cell, d int) {
	if len(c.reducers()) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### d = %d: ε of the subspace against the span of the real features\n\n", d)
	tableHead(b, []string{"Dataset [m, n]"}, c.Methods)
	var notes []string
	for _, ds := range Datasets {
		if !c.shown(ds) || ds.Missing != "" {
			continue
		}
		fmt.Fprintf(b, "| %s [%d, %d] |", ds.Name, ds.M, c.n(ds))
		vals := make([][]float64, len(c.Methods))
		for i, m := range c.Methods {
			if m.reduce != nil {
				vals[i] = get(cs, ds.Name, d, m.Key).eps
			}
		}
		bold := boldCells(vals)
		for i, m := range c.Methods {
			cl := get(cs, ds.Name, d, m.Key)
			switch {
			case m.reduce == nil:
				b.WriteString(" — |")
			case cl.finished == 0:
				b.WriteString(" not run |")
			case len(vals[i]) == 0:
				b.WriteString(" failed |")
			default:
				fmt.Fprintf(b, " %s |", summary(vals[i], bold[i]))
			}
		}
		b.WriteString("\n")
		if ds.EpsNote != "" {
			notes = append(notes, "- "+ds.EpsNote)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
}

// defaultAgainstWF writes the comparison of the default estimator (the
// robust variant) with WF-LSNGCA on the data sets of n = 2000 (the
// protocol's; the -n of the run is what the rows give): a row per data
// set and d with both means, the t-test's p-value and a verdict, then a
// sentence for every row where the default is significantly worse, with
// the figures and what ε and the variant's paths say of the reason.
func (c *Config) defaultAgainstWF(b *strings.Builder, cs map[cellKey]*cell) {
	if !c.has(Robust.Key) || !c.has(WFLSNGCA.Key) {
		return
	}
	var sets []Dataset
	for _, ds := range c.selected() {
		if ds.N == 2000 {
			sets = append(sets, ds)
		}
	}
	if len(sets) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## The default against WF-LSNGCA on the data sets of n = 2000\n\n")
	b.WriteString("Test misclassification rate, mean (std), of WF-LSNGCA and of the default; p: the two-sided two-sample t-test of equal means " +
		"(pooled variance), the default significantly worse or better where p < 0.05.\n\n")
	b.WriteString("| Dataset [m, n] | d | WF-LSNGCA | default | default − WF-LSNGCA | p | the default is |\n|---|---|---|---|---|---|---|\n")
	var worse []string
	rows, soFar := 0, ""
	for _, ds := range sets {
		for _, d := range c.Dims {
			if c.rowRuns(cs, ds.Name, d) < c.Runs {
				soFar = " (on the runs so far)"
			}
			wf, def := get(cs, ds.Name, d, WFLSNGCA.Key), get(cs, ds.Name, d, Robust.Key)
			if len(wf.rates) == 0 || len(def.rates) == 0 {
				fmt.Fprintf(b, "| %s [%d, %d] | %d | %s | %s | – | – | not compared: no runs |\n", ds.Name, ds.M, c.n(ds), d, cellText(wf), cellText(def))
				continue
			}
			rows++
			p := repro.TTest2(def.rates, wf.rates)
			diff := mean(def.rates) - mean(wf.rates)
			verdict := "not significantly different"
			switch {
			case p < significance && diff > 0:
				verdict = "**significantly worse**"
				worse = append(worse, c.worseSentence(ds, d, wf, def, get(cs, ds.Name, d, MIPP.Key), p))
			case p < significance && diff < 0:
				verdict = "significantly better"
			}
			fmt.Fprintf(b, "| %s [%d, %d] | %d | %s | %s | %+.3f | %s | %s |\n", ds.Name, ds.M, c.n(ds), d,
				summary(wf.rates, false), summary(def.rates, false), diff, pText(p), verdict)
		}
	}
	b.WriteString("\n")
	switch {
	case rows == 0:
		b.WriteString("No row has runs of both yet.\n")
	case len(worse) == 0:
		which := fmt.Sprintf("each of the %d rows compared", rows)
		if rows == 1 {
			which = "the row compared"
		}
		fmt.Fprintf(b, "On %s the default is not significantly worse than WF-LSNGCA%s.\n", which, soFar)
	default:
		fmt.Fprintf(b, "The default is significantly worse than WF-LSNGCA on %d of the %d rows compared%s:\n\n%s\n", len(worse), rows, soFar, strings.Join(worse, "\n"))
	}
}

// worseSentence says by how much the default is worse than WF-LSNGCA on a
// row, and what ε, the variant's paths and MIPP's cell (the start of the
// equivariant estimate, nil or empty if MIPP did not run) say of why.
func (c *Config) worseSentence(ds Dataset, d int, wf, def, start *cell, p float64) string {
	var s strings.Builder
	fmt.Fprintf(&s, "- %s, d = %d: the default errs %s against %s for WF-LSNGCA (%+.3f, %s, %d and %d runs).",
		ds.Name, d, summary(def.rates, false), summary(wf.rates, false), mean(def.rates)-mean(wf.rates), pIs(p), len(def.rates), len(wf.rates))
	if len(def.eps) > 0 && len(wf.eps) > 0 {
		pe := repro.TTest2(def.eps, wf.eps)
		fe := fmt.Sprintf("ε %.3f against %.3f, %s", mean(def.eps), mean(wf.eps), pIs(pe))
		switch {
		case pe < significance && mean(def.eps) > mean(wf.eps):
			fmt.Fprintf(&s, " Its subspace is significantly farther from the real features (%s): it finds fewer of them.", fe)
		case pe < significance:
			fmt.Fprintf(&s, " ε does not explain it: its subspace is significantly closer to the real features (%s), "+
				"so the classifier loses by what the subspace holds beside them.", fe)
		default:
			fmt.Fprintf(&s, " ε does not explain it: its subspace is as close to the real features as far as the test can tell (%s).", fe)
		}
	}
	byPath := map[string][]float64{}
	for i, path := range def.paths {
		byPath[path] = append(byPath[path], def.rates[i])
	}
	if len(byPath) > 1 || len(byPath) == 1 && def.paths[0] != "" {
		var parts []string
		names := make([]string, 0, len(byPath))
		for p := range byPath {
			names = append(names, p)
		}
		sort.Strings(names)
		for _, p := range names {
			label := p
			if label == "" {
				label = "no path recorded"
			}
			parts = append(parts, fmt.Sprintf("the %s estimate in %s (error %.3f)", label, plural(len(byPath[p]), "run"), mean(byPath[p])))
		}
		fmt.Fprintf(&s, " It returned %s.", joinAnd(parts))
	}
	if eq := byPath["equivariant"]; len(eq) > 0 && start != nil && len(start.rates) > 0 && mean(eq) > mean(wf.rates) {
		fmt.Fprintf(&s, " The equivariant estimate refines MIPP's, which errs %s on this row", summary(start.rates, false))
		if mean(start.rates) > mean(eq) {
			s.WriteString(": where the default returns it, its error lies between MIPP's and WF-LSNGCA's")
		}
		s.WriteString(".")
	}
	return s.String()
}

// cellText is a cell's text where a comparison cannot be made.
func cellText(cl *cell) string {
	switch {
	case cl.finished == 0:
		return "not run"
	case len(cl.rates) == 0:
		return "failed"
	}
	return summary(cl.rates, false)
}

// pText formats a p-value: three significant digits, or "< 0.0001".
func pText(p float64) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 1e-4:
		return "< 0.0001"
	}
	return strconv.FormatFloat(p, 'g', 3, 64)
}

// pIs writes a p-value as "p = 0.0123" or "p < 0.0001".
func pIs(p float64) string {
	t := pText(p)
	if strings.HasPrefix(t, "<") {
		return "p " + t
	}
	return "p = " + t
}

func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// has reports whether the study runs the method of the given key.
func (c *Config) has(key string) bool {
	return slices.ContainsFunc(c.Methods, func(m Method) bool { return m.Key == key })
}

// reducers returns the methods that reduce (all but no reduction).
func (c *Config) reducers() []Method {
	var ms []Method
	for _, m := range c.Methods {
		if m.reduce != nil {
			ms = append(ms, m)
		}
	}
	return ms
}

// tableHead writes a Markdown table's heading: the lead columns, one
// column per method, then the trailing columns.
func tableHead(b *strings.Builder, lead []string, ms []Method, trail ...string) {
	b.WriteString("|")
	for _, l := range lead {
		fmt.Fprintf(b, " %s |", l)
	}
	for _, m := range ms {
		fmt.Fprintf(b, " %s |", m.Label)
	}
	for _, l := range trail {
		fmt.Fprintf(b, " %s |", l)
	}
	b.WriteString("\n|" + strings.Repeat("---|", len(lead)+len(ms)+len(trail)) + "\n")
}

// timing writes the mean seconds per reduction and per run, the platform
// they were measured on and, for a study not finished, the time its
// remaining runs take at those means.
func (c *Config) timing(b *strings.Builder, cs map[cellKey]*cell, recs []Record) {
	ms := c.reducers()
	if len(ms) == 0 {
		return
	}
	b.WriteString("\n## Mean seconds per reduction\n\n")
	fmt.Fprintf(b, "Wall-clock seconds of the fit on the training points and the projection of both sets, on one core (every run runs on one goroutine; "+
		"the fits are told Workers = 1); other work on the machine lengthens them. "+
		"The last column is a whole run: every method's reduction and LIBSVM, failed ones included. %s\n\n", c.platforms(recs))
	tableHead(b, []string{"Dataset [m, n]", "d"}, ms, "a run")
	left, unknown := 0.0, 0
	for _, ds := range Datasets {
		if !c.shown(ds) || ds.Missing != "" {
			continue
		}
		for _, d := range c.Dims {
			fmt.Fprintf(b, "| %s [%d, %d] | %d |", ds.Name, ds.M, c.n(ds), d)
			run, complete := 0.0, true
			for _, m := range ms {
				if cl := get(cs, ds.Name, d, m.Key); len(cl.seconds) > 0 {
					fmt.Fprintf(b, " %.3g |", mean(cl.seconds))
				} else {
					b.WriteString(" – |")
				}
			}
			for _, m := range c.Methods {
				cl := get(cs, ds.Name, d, m.Key)
				if len(cl.cost) == 0 {
					complete = false
					continue
				}
				run += mean(cl.cost)
			}
			if complete {
				fmt.Fprintf(b, " %.3g |\n", run)
			} else {
				b.WriteString(" – |\n")
			}
			if rest := c.Runs - c.rowRuns(cs, ds.Name, d); rest > 0 {
				if complete {
					left += float64(rest) * run
				} else {
					unknown++
				}
			}
		}
	}
	if left > 0 || unknown > 0 {
		fmt.Fprintf(b, "\nAt these means, the runs left take about %s with %s at once", duration(left/float64(c.workers())), plural(c.workers(), "run"))
		if unknown > 0 {
			fmt.Fprintf(b, ", and more for the %s without a time yet", plural(unknown, "row"))
		}
		b.WriteString(".\n")
	}
}

// platforms says what the rows of the study were measured on.
func (c *Config) platforms(recs []Record) string {
	count := map[string]int{}
	for _, r := range recs {
		if c.inStudy(r) && r.Method != NoReduction.Key {
			count[r.Platform]++
		}
	}
	var names []string
	for p := range count {
		if p == "" {
			continue
		}
		names = append(names, p)
	}
	sort.Strings(names)
	switch {
	case len(names) == 0:
		return ""
	case len(names) == 1 && count[""] == 0:
		return "Measured on " + names[0] + "."
	}
	var parts []string
	for _, p := range names {
		parts = append(parts, fmt.Sprintf("%s (%d rows)", p, count[p]))
	}
	if count[""] > 0 {
		parts = append(parts, fmt.Sprintf("unrecorded (%d rows)", count[""]))
	}
	return "Measured on several platforms, whose times mix in the means: " + strings.Join(parts, "; ") + "."
}

// fingerprintNote names the fingerprints of the code that made the rows.
func (c *Config) fingerprintNote(b *strings.Builder, recs []Record) {
	fps := map[string]map[string]int{}
	for _, r := range recs {
		if !c.inStudy(r) {
			continue
		}
		if fps[r.Method] == nil {
			fps[r.Method] = map[string]int{}
		}
		fps[r.Method][r.Fingerprint]++
	}
	var parts []string
	for _, m := range c.Methods {
		var fs []string
		for fp := range fps[m.Key] {
			if fp == "" {
				fp = "none"
			}
			fs = append(fs, fp)
		}
		if len(fs) == 0 {
			continue
		}
		sort.Strings(fs)
		parts = append(parts, fmt.Sprintf("%s `%s`", m.Key, strings.Join(fs, "`, `")))
	}
	if len(parts) == 0 {
		return
	}
	fmt.Fprintf(b, "\nFingerprints of the code that made the rows (research/internal/repro/benchmark/fingerprint.go; "+
		"`-resume` runs again the rows whose method's fingerprint has changed): %s.\n", strings.Join(parts, ", "))
}

// duration formats seconds as hours or minutes.
func duration(s float64) string {
	switch {
	case s >= 5400:
		return fmt.Sprintf("%.1f h", s/3600)
	case s >= 90:
		return fmt.Sprintf("%.0f min", s/60)
	}
	return fmt.Sprintf("%.0f s", s)
}

// shown reports whether ds has a row: it was run, or it is one of the
// paper's data sets that is not available (always listed).
func (c *Config) shown(ds Dataset) bool {
	if ds.Missing != "" {
		return true
	}
	return slices.Contains(c.Datasets, ds.Name)
}

func plural(n int, s string) string {
	if n == 1 {
		return "1 " + s
	}
	return fmt.Sprintf("%d %ss", n, s)
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
