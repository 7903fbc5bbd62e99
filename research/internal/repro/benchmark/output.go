package benchmark

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/research/internal/repro"
)

var stdText = map[Standardisation]string{
	OverDataset: "with statistics over the whole data set",
	OverSplit:   "with statistics over each run's training and test points (-standardise split)",
}

// csvHeader names the columns of runs.csv.
var csvHeader = []string{"dataset", "d", "run", "method", "error_rate", "seconds", "svm_seconds", "failed", "reason", "epsilon"}

func (r Record) csv() []string {
	return []string{r.Dataset, strconv.Itoa(r.D), strconv.Itoa(r.Run), r.Method, fmtFloat(r.ErrorRate),
		fmtFloat(r.Seconds), fmtFloat(r.SVMSeconds), strconv.FormatBool(r.Failed), r.Reason, fmtFloat(r.Epsilon)}
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// cell gathers one data set's results for one d and one method.
type cell struct {
	rates    []float64 // error rates of the runs that did not fail
	eps      []float64 // their ε against the real features, where known
	seconds  []float64 // reduction times of those runs
	finished int       // runs finished, failed or not
	failed   int
	reason   string // the first failure's reason
}

type cellKey struct {
	dataset string
	d       int
	method  string
}

func cells(recs []Record) map[cellKey]*cell {
	out := map[cellKey]*cell{}
	for _, r := range recs {
		k := cellKey{r.Dataset, r.D, r.Method}
		c := out[k]
		if c == nil {
			c = &cell{}
			out[k] = c
		}
		c.finished++
		if r.Failed {
			if c.failed == 0 {
				c.reason = r.Reason
			}
			c.failed++
			continue
		}
		c.rates = append(c.rates, r.ErrorRate)
		if !math.IsNaN(r.Epsilon) {
			c.eps = append(c.eps, r.Epsilon)
		}
		c.seconds = append(c.seconds, r.Seconds)
	}
	return out
}

// significance is the level of the two-sample t-test that decides which
// entries are bold, as in the paper.
const significance = 0.05

// markdown returns the study's table in the layout of the paper's Table 2:
// for each d, one row per data set in the paper's order ([m, n] as run),
// one column per method, cells "mean (std)" of the test misclassification
// rate over the runs where the method did not fail. In each row the lowest
// mean is bold, and so is every mean not significantly different from it
// by a two-sided two-sample t-test (pooled variance, MATLAB's ttest2) at
// the 5% level. Failed runs are counted in the cell and explained below
// the table, and so are cells with fewer runs than requested; data sets
// that are not available say so in every cell. A table of the mean time
// per reduction follows.
func (c *Config) markdown(recs []Record) string {
	cs := cells(recs)
	var b strings.Builder
	fmt.Fprintf(&b, "# Table 2: test misclassification rate of LIBSVM after dimension reduction\n\n")
	fmt.Fprintf(&b, "Mean (standard deviation) over %s of the test misclassification rate of LIBSVM's RBF C-SVC "+
		"(C = 1, γ = 1/number of features) after reducing the data to its original dimension m. "+
		"In bold: the best of each row and those not significantly worse (two-sided two-sample t-test, pooled variance, 5%%). "+
		"Features standardised %s. Seed %d. Produced by `go run ./cmd/reproduce benchmark` (in research/).\n", plural(c.Runs, "run"), stdText[c.Standardise], c.Seed)
	for _, d := range c.Dims {
		c.dimTable(&b, cs, d)
	}
	c.epsTables(&b, cs)
	c.timing(&b, cs)
	return b.String()
}

// dimTable writes the table of one target dimension d: a row per data set,
// then notes on failed and missing runs.
func (c *Config) dimTable(b *strings.Builder, cs map[cellKey]*cell, d int) {
	fmt.Fprintf(b, "\n## d = %d\n\n", d)
	b.WriteString("| Dataset [m, n] |")
	for _, m := range c.Methods {
		fmt.Fprintf(b, " %s |", m.Label)
	}
	b.WriteString("\n|---|")
	for range c.Methods {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	var notes, short []string
	counts := map[int]bool{}
	for _, ds := range Datasets {
		if !c.shown(ds) {
			continue
		}
		if ds.Missing != "" {
			fmt.Fprintf(b, "| %s [%d, %d] |", ds.Name, ds.M, ds.N)
			for range c.Methods {
				fmt.Fprintf(b, " %s |", ds.Missing)
			}
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(b, "| %s [%d, %d] |", ds.Name, ds.M, c.n(ds))
		n, s := c.dataRow(b, cs, ds, d, counts)
		notes, short = append(notes, n...), append(short, s...)
		b.WriteString("\n")
	}
	if len(short) > 0 && len(counts) == 1 {
		// Every cell has the same number of runs: say it once.
		for k := range counts {
			short = []string{fmt.Sprintf("- every cell: %d of the %d runs requested finished", k, c.Runs)}
		}
	}
	if notes = append(notes, short...); len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
}

// dataRow writes the cells of the data set ds at dimension d, the best
// and those not significantly worse in bold, and returns the notes on
// failed runs and on cells short of runs; counts collects the numbers of
// finished runs.
func (c *Config) dataRow(b *strings.Builder, cs map[cellKey]*cell, ds Dataset, d int, counts map[int]bool) (notes, short []string) {
	row := make([]*cell, len(c.Methods))
	sums := make([]repro.Summary, len(c.Methods))
	best := -1
	for i, m := range c.Methods {
		row[i] = cs[cellKey{ds.Name, d, m.Key}]
		if row[i] == nil {
			row[i] = &cell{}
		}
		sums[i] = repro.Summarize(row[i].rates)
		if sums[i].N > 0 && (best < 0 || sums[i].Mean < sums[best].Mean) {
			best = i
		}
	}
	for i, m := range c.Methods {
		cl, s := row[i], sums[i]
		var text string
		switch {
		case cl.finished == 0:
			text = "not run"
		case s.N == 0:
			text = fmt.Sprintf("failed (%d of %d runs)", cl.failed, cl.finished)
		default:
			text = fmt.Sprintf("%.3f (%.3f)", s.Mean, s.Std)
			if s.Mean == sums[best].Mean || !(repro.TTest2(row[best].rates, cl.rates) < significance) {
				text = "**" + text + "**"
			}
			if cl.failed > 0 {
				text += fmt.Sprintf(", %d failed", cl.failed)
			}
		}
		fmt.Fprintf(b, " %s |", text)
		if cl.failed > 0 {
			notes = append(notes, fmt.Sprintf("- %s, %s: %d of %d runs failed (left out of the mean); first error: %s",
				ds.Name, m.Label, cl.failed, cl.finished, cl.reason))
		}
		if cl.finished < c.Runs {
			short = append(short, fmt.Sprintf("- %s, %s: %d of the %d runs requested finished", ds.Name, m.Label, cl.finished, c.Runs))
		}
		counts[cl.finished] = true
	}
	return notes, short
}

// epsTables writes, for each d, the mean (std) of every reducing method's
// ε against the span of the real features (the first m columns), the
// lowest and those not significantly above it (the same t-test) in bold.
func (c *Config) epsTables(b *strings.Builder, cs map[cellKey]*cell) {
	ms := c.reducers()
	if len(ms) == 0 {
		return
	}
	for _, d := range c.Dims {
		fmt.Fprintf(b, "\n## d = %d: ε of the subspace against the span of the real features\n\n", d)
		tableHead(b, []string{"Dataset [m, n]"}, ms)
		for _, ds := range Datasets {
			if !c.shown(ds) || ds.Missing != "" {
				continue
			}
			fmt.Fprintf(b, "| %s [%d, %d] |", ds.Name, ds.M, c.n(ds))
			vals := make([][]float64, len(ms))
			best := -1
			for i, m := range ms {
				if cl := cs[cellKey{ds.Name, d, m.Key}]; cl != nil {
					vals[i] = cl.eps
				}
				if len(vals[i]) > 0 && (best < 0 || mean(vals[i]) < mean(vals[best])) {
					best = i
				}
			}
			for i := range ms {
				if len(vals[i]) == 0 {
					b.WriteString(" – |")
					continue
				}
				s := repro.Summarize(vals[i])
				text := fmt.Sprintf("%.3f (%.3f)", s.Mean, s.Std)
				if i == best || !(repro.TTest2(vals[best], vals[i]) < significance) {
					text = "**" + text + "**"
				}
				fmt.Fprintf(b, " %s |", text)
			}
			b.WriteString("\n")
		}
	}
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

// tableHead writes a Markdown table's heading: the lead columns, then one
// column per method.
func tableHead(b *strings.Builder, lead []string, ms []Method) {
	b.WriteString("|")
	for _, l := range lead {
		fmt.Fprintf(b, " %s |", l)
	}
	for _, m := range ms {
		fmt.Fprintf(b, " %s |", m.Label)
	}
	b.WriteString("\n|" + strings.Repeat("---|", len(lead)+len(ms)) + "\n")
}

// timing writes the mean seconds per reduction.
func (c *Config) timing(b *strings.Builder, cs map[cellKey]*cell) {
	ms := c.reducers()
	if len(ms) == 0 {
		return
	}
	b.WriteString("\n## Mean seconds per reduction (fit on the training rows and projection, one core)\n\n")
	tableHead(b, []string{"Dataset [m, n]", "d"}, ms)
	for _, ds := range Datasets {
		if !c.shown(ds) || ds.Missing != "" {
			continue
		}
		for _, d := range c.Dims {
			fmt.Fprintf(b, "| %s [%d, %d] | %d |", ds.Name, ds.M, c.n(ds), d)
			for _, m := range ms {
				if cl := cs[cellKey{ds.Name, d, m.Key}]; cl != nil && len(cl.seconds) > 0 {
					fmt.Fprintf(b, " %.3g |", mean(cl.seconds))
				} else {
					b.WriteString(" – |")
				}
			}
			b.WriteString("\n")
		}
	}
}

// shown reports whether ds has a row: it was run, or it is one of the
// paper's data sets that is not available (always listed).
func (c *Config) shown(ds Dataset) bool {
	if ds.Missing != "" {
		return true
	}
	for _, name := range c.Datasets {
		if name == ds.Name {
			return true
		}
	}
	return false
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
