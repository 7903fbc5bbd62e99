package audit

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ngca-go/ngca/internal/words"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/dataio"
)

// The rows of a table that lie far outside the rest (see audit.go).

// columnScale returns the median of the sorted values and their typical
// deviations below and above it: the median distance to the median of
// the values below it, and of those above it (+Inf if there are none).
// Each side has its own scale, so that a skewed column (sizes, counts)
// is measured by its own long side; a column whose values are mostly
// one value (a sparse column, a flag) is measured by the values that
// differ from it, where the median absolute deviation would be 0.
func columnScale(sorted []float64) (med, lo, hi float64) {
	n := len(sorted)
	med = (sorted[(n-1)/2] + sorted[n/2]) / 2
	i := sortedIndex(sorted, med, false) // first value ≥ med
	k := sortedIndex(sorted, med, true)  // first value > med
	lo, hi = math.Inf(1), math.Inf(1)
	if below := sorted[:i]; len(below) > 0 {
		m := len(below)
		lo = med - (below[m/2]+below[(m-1)/2])/2
	}
	if above := sorted[k:]; len(above) > 0 {
		m := len(above)
		hi = (above[m/2]+above[(m-1)/2])/2 - med
	}
	return med, lo, hi
}

// sortedIndex returns the first index of sorted whose value is ≥ v (or >
// v, with after).
func sortedIndex(sorted []float64, v float64, after bool) int {
	i, found := slices.BinarySearch(sorted, v)
	if after && found {
		for i < len(sorted) && sorted[i] == v {
			i++
		}
	}
	return i
}

// fewOutliers is the most rows of a column of n rows that are named as
// outliers; a column with more rows that far out has long tails.
func fewOutliers(n int) int { return min(max(n/100, 2), 5) }

// outlier is a value far outside the rest of its column: row i, column j.
type outlier struct {
	i, j int
	v    float64
	// scales is how many typical deviations v lies from the median.
	scales float64
}

// codeUse is a missing-value code found in a column, and its rows.
type codeUse struct {
	j    int
	v    float64
	rows []int
}

// rowFindings are the values of a table that lie far out in their
// columns: single values (cells), with the columns of long tails where
// none are named (heavy), and missing-value codes.
type rowFindings struct {
	cells []outlier
	codes []codeUse
	heavy []int
}

// cellRows returns the rows, sorted, that hold a cell of f.
func (f rowFindings) cellRows() []int {
	var rows []int
	for _, o := range f.cells {
		rows = append(rows, o.i)
	}
	slices.Sort(rows)
	return slices.Compact(rows)
}

// codeRows returns the rows, sorted, that hold a code of f.
func (f rowFindings) codeRows() []int {
	var rows []int
	for _, u := range f.codes {
		rows = append(rows, u.rows...)
	}
	slices.Sort(rows)
	return slices.Compact(rows)
}

// findOutliers finds the values far outside the rest of their column and
// the missing-value codes among the columns cols; with -v it says on
// which scale.
func (a *auditor) findOutliers(cols []int) rowFindings {
	var f rowFindings
	n, _ := a.t.X.Dims()
	if n < minOutlierRows {
		return f
	}
	x := make([]float64, n)
	for _, j := range cols {
		mat.Col(x, j, a.t.X)
		s := a.stats[j]
		med, lo, hi := s.med, s.lo, s.hi
		for _, c := range s.codes {
			u := codeUse{j: j, v: c}
			for i, v := range x {
				if v == c {
					u.rows = append(u.rows, i)
				}
			}
			f.codes = append(f.codes, u)
		}
		var col []outlier
		for i, v := range x {
			switch {
			case len(s.codes) > 0 && slices.Contains(s.codes, v):
			case v > med && v-med > outlierScales*hi:
				col = append(col, outlier{i, j, v, (v - med) / hi})
			case v < med && med-v > outlierScales*lo:
				col = append(col, outlier{i, j, v, (med - v) / lo})
			}
		}
		switch {
		case len(col) > fewOutliers(n):
			f.heavy = append(f.heavy, j)
			a.e.Detailf("%s: %d rows lie more than %d typical deviations from the median %s (%s below it, %s above it): long tails, not a few outliers",
				a.label(j), len(col), outlierScales, num(med), num(lo), num(hi))
		case len(col) > 0:
			f.cells = append(f.cells, col...)
			a.e.Detailf("%s: median %s, typical deviation %s below it and %s above it (the median distance of the values on that side); the limit is %d of them",
				a.label(j), num(med), num(lo), num(hi), outlierScales)
		}
	}
	return f
}

// noteHeavy writes the note on the columns of long tails.
func (a *auditor) noteHeavy(heavy []int) {
	if len(heavy) == 0 {
		return
	}
	subj, verb, them := a.labels(heavy, 6), "has", "it"
	if len(heavy) > 1 {
		verb, them = "have", "them"
	}
	a.e.Notef("%s of %s %s long tails: many rows lie more than %d typical deviations from the median, so the largest values may decide the fit; "+
		"a log or rank transform of %s, or -drop %s, would prevent it", subj, a.name, verb, outlierScales, them, a.refs(heavy))
}

// columnCodes returns the missing-value codes that a column (its values
// sorted) holds outside the range of its other values (nil if it holds
// nothing else).
func columnCodes(sorted []float64) []float64 {
	var found []float64
	for _, c := range missingCodes {
		if _, ok := slices.BinarySearch(sorted, c); ok {
			found = append(found, c)
		}
	}
	if len(found) == 0 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range sorted {
		if !slices.Contains(found, v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi { // nothing but codes
		return nil
	}
	return slices.DeleteFunc(found, func(c float64) bool { return c >= lo && c <= hi })
}

// line names row i of the table: "line 58", or "row 57" without lines.
func (a *auditor) line(i int) string {
	if i < len(a.t.Lines) && a.t.Lines[i] > 0 {
		return fmt.Sprintf("line %d", a.t.Lines[i])
	}
	return fmt.Sprintf("row %d", i+1)
}

// noteOutliers writes one note naming the rows of far (at most 5, -v all).
func (a *auditor) noteOutliers(far []outlier) {
	if len(far) == 0 {
		return
	}
	byRow := map[int][]outlier{}
	var rows []int
	for _, o := range far {
		if byRow[o.i] == nil {
			rows = append(rows, o.i)
		}
		byRow[o.i] = append(byRow[o.i], o)
	}
	slices.Sort(rows)
	var what []string
	for k, i := range rows {
		var cells []string
		for _, o := range byRow[i] {
			cells = append(cells, fmt.Sprintf("%s = %s", a.label(o.j), num(o.v)))
			a.e.Detailf("%s, %s = %s: %.3g typical deviations from the median", a.line(i), a.label(o.j), num(o.v), o.scales)
		}
		if k < 5 {
			what = append(what, fmt.Sprintf("%s (%s)", a.line(i), strings.Join(cells, ", ")))
		}
	}
	if len(rows) > 5 {
		what = append(what, words.CountNoun(len(rows)-5, "more row"))
	}
	subj, them := fmt.Sprintf("%d rows of %s hold values far outside the rest of their columns", len(rows), a.name), "them"
	if len(rows) == 1 {
		subj, them = fmt.Sprintf("1 row of %s holds a value far outside the rest of its column", a.name), "it"
	}
	a.e.Notef("%s, %s: %s; -outliers drop leaves %s out", subj, a.decides(), words.JoinAnd(what), them)
}

// noteCodes writes one note on the missing-value codes found; dropped
// says that their rows are left out.
func (a *auditor) noteCodes(codes []codeUse, dropped bool) {
	if len(codes) == 0 {
		return
	}
	var what []string
	for k, u := range codes {
		if k == 5 {
			what = append(what, fmt.Sprintf("%d more columns", len(codes)-5))
			break
		}
		var lines []string
		for _, i := range u.rows[:min(3, len(u.rows))] {
			lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(a.line(i), "line "), "row "))
		}
		where := "lines " + strings.Join(lines, ", ")
		if len(u.rows) == 1 {
			where = "line " + lines[0]
		}
		if len(u.rows) > 3 {
			where += ", …"
		}
		if len(a.t.Lines) == 0 {
			where = strings.Replace(where, "line", "row", 1)
		}
		what = append(what, fmt.Sprintf("%s in %s (%s, %s)", num(u.v), a.label(u.j), words.CountNoun(len(u.rows), "row"), where))
	}
	what2 := "kept with -outliers keep, they may decide the fit (by default those rows are left out)"
	if dropped {
		what2 = "those rows are left out (-outliers keep keeps them)"
	}
	a.e.Notef("%s holds common codes for a missing value, far outside the other values of their columns: %s; %s",
		a.name, words.JoinAnd(what), what2)
}

// dropRows leaves the rows (sorted) out of t: its data, labels and lines.
func dropRows(t *dataio.Table, rows []int) {
	n, d := t.X.Dims()
	keep := make([]float64, 0, (n-len(rows))*d)
	var labels []string
	var lines []int
	k := 0
	for i := range n {
		if k < len(rows) && rows[k] == i {
			k++
			continue
		}
		keep = append(keep, t.X.RawRowView(i)...)
		if t.Labels != nil {
			labels = append(labels, t.Labels[i])
		}
		if t.Lines != nil {
			lines = append(lines, t.Lines[i])
		}
	}
	t.X = mat.NewDense(n-len(rows), d, keep)
	t.Labels, t.Lines = labels, lines
}

// keepColumns keeps the columns cols of t (its data, names and fields).
func keepColumns(t *dataio.Table, cols []int) {
	n, d := t.X.Dims()
	if len(cols) == d {
		return
	}
	x := mat.NewDense(n, len(cols), nil)
	var names []string
	fields := make([]int, len(cols))
	for k, j := range cols {
		x.SetCol(k, mat.Col(nil, j, t.X))
		fields[k] = t.Fields[j]
		if t.Names != nil {
			names = append(names, t.Names[j])
		}
	}
	t.X, t.Names, t.Fields = x, names, fields
}
