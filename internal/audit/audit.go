package audit

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/words"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/dataio"
)

// The audit of a table, after loading and before fitting (fit, plot,
// dim): the columns and rows that would decide a fit without the user
// knowing. Each rule below says what it does in a note or a warning, never
// silently; docs/your-data.md states the rules for users.
//
//   - Row names that dataio recognised (text under an empty header name, or
//     a header one name short) are not data: a note says so.
//   - A constant column carries no information and cannot be standardised:
//     left out, all of them named in one note.
//   - An index: the file's first column, with an empty or no header name
//     (or one that names an index: "Unnamed: 0", "X", "index", ...), whose
//     values are whole numbers increasing with the rows (0, 1, 2, …; 1, 2,
//     3, …; or with gaps after -missing drop or -sample): left out. Under
//     an empty header name or an index's name (a header, not none), any
//     distinct whole numbers from 0 up, in any order, are an index too:
//     pandas' index after df.sample or a shuffle.
//   - An id: a column whose values are distinct whole numbers, that is a
//     dense range (max − min + 1 = n, in any order) or whose name reads as
//     an id ("id", "patient_id", "sampleID", "key", ...): left out. An id is
//     uniform, exactly what NGCA looks for.
//   - A text id: a column of text with a different value in every row
//     (ids such as "P0001", names, UUIDs), in a file of at least
//     MinIDRows rows: left out (as the file is read: dataio's TextIDRows,
//     set by the command that loads the table), with reason "id". A
//     column of text that repeats a value (a category) stops the command
//     with the error that names it, as any other text in a data column
//     does.
//   - Other columns of distinct whole numbers (with at least 50 rows) are
//     fitted with a warning that names them and the -drop that removes
//     them.
//   - With -cols, every column listed is fitted: the index and id rules do
//     not apply (a text column listed is an error).
//   - A column of at most fewValues distinct values (a flag, a 1–5 scale)
//     is fitted with a warning: NGCA finds such columns first.
//   - A value farther than outlierScales typical deviations from its
//     column's median is an outlier (see columnScale); the rows that hold
//     one are named in a note, with -outliers drop to leave them out. A
//     column in which more than fewOutliers(n) rows are that far out has
//     long tails rather than a few wrong values: its rows are not named
//     (-v says which columns).
//   - A common missing-value code (9999, -999, ...) outside the range of
//     its column's other values and more than codeScales typical
//     deviations from the median is named as such, with its rows.

const (
	// MinIDRows is the fewest rows for which a column of distinct whole
	// numbers counts as an index or an id.
	MinIDRows = 10
	// minIDWarnRows is the fewest rows for the warning about other
	// columns of distinct whole numbers.
	minIDWarnRows = 50
	// fewValues is the most distinct values of a column that takes "only
	// a few values"; minFewRows the fewest rows for the rule.
	fewValues  = 7
	minFewRows = 20
	// outlierScales is how many typical deviations from the median make
	// an outlier, codeScales a missing-value code; minOutlierRows is the
	// fewest rows for either rule.
	outlierScales  = 20
	codeScales     = 5
	minOutlierRows = 10
)

// missingCodes are the values that tables commonly use for a missing
// value.
var missingCodes = []float64{-9, -99, -999, -9999, -99999, -999999, 99, 999, 9999, 99999, 999999, 9999999}

// indexNames are the header names of an index column: none, pandas' name
// for an unnamed column read back, R's for the row names read back
// (read.csv's X, readr's ...1 and X1) and plain names (compared in lower
// case; X and X1 exactly, as x is a common name of a measurement).
var indexNames = []string{"", "unnamed: 0", "...1", "index", "idx", "rownames", "row.names", "row_names", "row", "rownum", "row_number"}

// idNames are header names (lower case) that read as an id, besides those
// ending in "id" after a separator or in "Id"/"ID" (see isIDName).
var idNames = []string{"id", "key", "uid", "uuid", "guid", "serial", "seq", "record", "obs", "index", "idx"}

// LeftOutColumn is a column of the file that the command left out of the
// data on its own (not by -cols or -drop), and why: "row names", "index",
// "id" or "constant". The fit's JSON lists them.
type LeftOutColumn struct {
	Column string `json:"column,omitempty"`
	Number int    `json:"number"`
	Reason string `json:"reason"`
}

// Result is what the audit left out: LeftOut the columns.
type Result struct {
	LeftOut []LeftOutColumn
	// OutlierRows counts the rows -outliers left out.
	OutlierRows int
	// FarLines are the lines (rows without lines) of the rows the screen
	// set aside, left out or not; Codes are the missing-value codes
	// found; Screen is the rule fitted, on the columns kept (nil if
	// there is none, or a column was left out after the rows).
	FarLines []int
	Codes    []CodeRecord
	Screen   *ScreenRecord
}

// Flags are the flags that change the audit.
type Flags struct {
	Listed bool // -cols lists the columns: fit each of them
	// Outliers is -outliers: OutliersFar (the command's default),
	// OutliersDrop, or OutliersKeep ("" means keep).
	Outliers string
	// Fixed says that the columns are those of a basis to project on:
	// none is left out or warned about; only rows are audited.
	Fixed bool
}

// Notes is where the audit writes: notes (what it did on its own),
// warnings (what may make the fit unreliable) and details (the
// statistics behind them, which a Notes may drop). Each is given a
// format and its arguments, as fmt.Sprintf takes them, without the
// "note: " or "warning: " prefix and without a newline.
type Notes interface {
	Notef(format string, a ...any)
	Warnf(format string, a ...any)
	Detailf(format string, a ...any)
}

// columnStats are the facts about a column that the rules use.
type columnStats struct {
	n          int
	min, max   float64
	whole      bool // every value is a whole number
	increasing bool // strictly, with the rows
	distinct   int
	// med, lo and hi are the median of the values that are not missing-
	// value codes and their typical deviations (columnScale); codes are
	// the codes the column holds far outside its other values.
	med, lo, hi float64
	codes       []float64
}

// newColumnStats returns the facts about the column x, sorting a copy of
// it in buf (of its length).
func newColumnStats(x, buf []float64) columnStats {
	s := columnStats{n: len(x), whole: true, increasing: true}
	for i, v := range x {
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			s.whole = false
		}
		if i > 0 && v <= x[i-1] {
			s.increasing = false
		}
	}
	sorted := buf[:len(x)]
	copy(sorted, x)
	slices.Sort(sorted)
	s.min, s.max = sorted[0], sorted[len(sorted)-1]
	for i, v := range sorted {
		if i == 0 || v != sorted[i-1] {
			s.distinct++
		}
	}
	cs := columnCodes(sorted)
	if len(cs) > 0 {
		sorted = slices.DeleteFunc(sorted, func(v float64) bool { return slices.Contains(missingCodes, v) })
	}
	s.med, s.lo, s.hi = columnScale(sorted)
	for _, c := range cs {
		// Beyond codeScales, or past a side that holds no other value.
		if c > s.med && (math.IsInf(s.hi, 1) || c-s.med > codeScales*s.hi) || c < s.med && (math.IsInf(s.lo, 1) || s.med-c > codeScales*s.lo) {
			s.codes = append(s.codes, c)
		}
	}
	return s
}

func (s columnStats) constant() bool { return s.min == s.max }

// dense reports whether the values are distinct whole numbers that fill a
// range: max − min + 1 = n.
func (s columnStats) dense() bool {
	return s.whole && s.distinct == s.n && s.max-s.min == float64(s.n-1)
}

// ReadingNotes says how the file name of layout t was read where that is
// not what its format alone says: row names left out, zero-based LIBSVM
// indices.
func ReadingNotes(e Notes, t dataio.Table, name string) {
	if t.RowNames > 0 {
		if t.ShortHeader {
			e.Notef("the header of %s has one name fewer than its rows have fields, as R's write.table writes row names: the first field of each row is read as its name, not as data", name)
		} else {
			e.Notef("column %d of %s holds row names (text under an empty header name), not data", t.RowNames, name)
		}
	}
	if t.IntegerHeader {
		e.Notef("the first row of %s, the numbers 0, 1, 2, … in order, is read as its header (as pandas writes integer column names), not as data; give -header false to read it as data", name)
	}
	if t.ZeroBased {
		e.Notef("the feature indices of %s start at 0, as scikit-learn's dump_svmlight_file writes them: index 0 is read as feature 1, and -cols and -drop number the features from 1", name)
	}
}

// Table applies the rules above to the table t of file name, leaving
// columns (and with -outliers drop, rows) out of t and writing notes and
// warnings on e's stderr. It is an error if no column is left.
func Table(e Notes, t *dataio.Table, name string, fl Flags) (Result, error) {
	var res Result
	if t.RowNames > 0 {
		res.LeftOut = append(res.LeftOut, LeftOutColumn{Number: t.RowNames, Reason: "row names"})
	}
	ReadingNotes(e, *t, name)
	for _, id := range t.IDs {
		res.LeftOut = append(res.LeftOut, LeftOutColumn{Column: id.Name, Number: id.Field, Reason: "id"})
	}
	noteTextIDs(e, t.IDs, name)
	n, d := t.X.Dims()
	if n < 2 {
		return res, nil // too few rows to tell anything; checkData says so
	}
	stats := make([]columnStats, d)
	col, buf := make([]float64, n), make([]float64, n)
	for j := range d {
		mat.Col(col, j, t.X)
		stats[j] = newColumnStats(col, buf)
	}
	reason := make([]string, d) // "" for a column kept
	for j, s := range stats {
		if s.constant() && !fl.Fixed {
			reason[j] = "constant"
		}
	}
	if !fl.Listed && !fl.Fixed {
		for j, s := range stats {
			switch {
			case reason[j] != "":
			case j == 0 && isIndex(t, j, s):
				reason[j] = "index"
			case n >= MinIDRows && s.whole && s.distinct == n && (s.dense() || isIDName(columnName(t, j))):
				reason[j] = "id"
			}
		}
	}
	a := auditor{e: e, t: t, name: name, stats: stats, fixed: fl.Fixed}
	a.noteLeftOut(reason)
	var kept []int
	for j := range d {
		if reason[j] == "" {
			kept = append(kept, j)
		} else {
			res.LeftOut = append(res.LeftOut, LeftOutColumn{Column: columnName(t, j), Number: t.Fields[j], Reason: reason[j]})
		}
	}
	if len(kept) == 0 {
		return res, fmt.Errorf("%s has no data column left to fit (see the notes above)", name)
	}
	if !fl.Listed && !fl.Fixed {
		a.warnIDs(kept)
	}
	found := a.findOutliers(kept)
	codeRows := found.codeRows()
	scr, far, err := a.screenRows(kept, codeRows)
	if err != nil {
		return res, err
	}
	var rows []int
	switch fl.Outliers {
	case OutliersFar:
		rows = union(codeRows, far)
	case OutliersDrop:
		rows = union(codeRows, far, found.cellRows())
	}
	dropping := len(rows) > 0
	a.noteCodes(found.codes, dropping)
	a.noteFar(far, scr, kept, dropping)
	a.noteOutliers(notFrom(notFrom(found.cells, far), codeRows))
	a.noteHeavy(found.heavy)
	res.FarLines, res.Codes = a.lines(far), a.codeRecords(found.codes)
	if scr != nil {
		res.Screen = &ScreenRecord{Screen: scr, Cols: slices.Clone(kept)}
	}
	if dropping {
		if n-len(rows) < 2 {
			return res, fmt.Errorf("-outliers %s would leave %s of the %d rows of %s", fl.Outliers, words.CountNoun(n-len(rows), "row"), n, name)
		}
		res.OutlierRows = len(rows)
		if why := setAsideWhy(far, codeRows, notFrom(notFrom(found.cells, far), codeRows), fl.Outliers == OutliersDrop); strings.Contains(why, ",") {
			e.Notef("left out %d of the %s of %s in all (%s); -outliers keep keeps them", len(rows), words.CountNoun(n, "row"), name, why)
		}
		dropRows(t, rows)
		// A column may hold one value once its outliers are gone.
		var still []int
		gone := make([]string, d)
		col = col[:n-len(rows)]
		for _, j := range kept {
			mat.Col(col, j, t.X)
			if stats[j] = newColumnStats(col, buf); stats[j].constant() && !fl.Fixed {
				gone[j] = "constant"
				res.LeftOut = append(res.LeftOut, LeftOutColumn{Column: columnName(t, j), Number: t.Fields[j], Reason: "constant"})
			} else {
				still = append(still, j)
			}
		}
		a.noteLeftOut(gone)
		kept = still
		if len(kept) == 0 {
			return res, fmt.Errorf("%s has no data column left to fit (see the notes above)", name)
		}
	}
	if !fl.Fixed {
		a.warnFewValues(kept)
	}
	if res.Screen != nil && !slices.Equal(res.Screen.Cols, kept) {
		res.Screen = nil // a column left out after the rows: the rule no longer applies to the fit's columns
	}
	keepColumns(t, kept)
	return res, nil
}

// isIndex reports whether column j of t (with stats s) numbers the rows:
// the file's first column, under an index's name or none, whole numbers
// increasing with the rows, or under a header's empty or index's name
// distinct whole numbers from 0 up in any order (pandas' index of a
// sampled or shuffled frame).
func isIndex(t *dataio.Table, j int, s columnStats) bool {
	name := columnName(t, j)
	if t.Format == dataio.LIBSVM || t.Fields[j] != 1 || s.n < MinIDRows || !s.whole ||
		!(name == "X" || name == "X1" || slices.Contains(indexNames, strings.ToLower(name))) {
		return false
	}
	return s.increasing || t.Header && s.distinct == s.n && s.min >= 0
}

// noteTextIDs writes the note on the columns of text that were read as
// ids (dataio.Table.IDs) of the file name.
func noteTextIDs(e Notes, ids []dataio.IDColumn, name string) {
	if len(ids) == 0 {
		return
	}
	var cols []string
	for _, id := range ids {
		c := fmt.Sprintf("column %d", id.Field)
		if id.Name != "" {
			c += fmt.Sprintf(" (%q)", id.Name)
		}
		cols = append(cols, c)
	}
	if len(ids) == 1 {
		e.Notef("left out %s of %s: text with a different value in every row (%q in the first), an id or a name rather than a measurement", cols[0], name, ids[0].First)
		return
	}
	e.Notef("left out %s of %s: each holds text with a different value in every row, ids or names rather than measurements", words.JoinAnd(cols), name)
}

// isIDName reports whether a header name reads as an id: one of idNames,
// or a name that ends in "id" after a separator ("patient_id", "obs.id",
// "sample id") or in "Id" or "ID" after a lower-case letter ("sampleId",
// "PatientID").
func isIDName(name string) bool {
	low := strings.ToLower(strings.TrimSpace(name))
	if slices.Contains(idNames, low) {
		return true
	}
	for _, sep := range []string{"_", ".", " ", "-"} {
		if strings.HasSuffix(low, sep+"id") || strings.HasPrefix(low, "id"+sep) {
			return true
		}
	}
	if k := len(name) - 2; k > 0 && (strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID")) {
		c := name[k-1]
		return c >= 'a' && c <= 'z'
	}
	return false
}

// columnName returns the header name of column j of t, "" without one.
func columnName(t *dataio.Table, j int) string {
	if t.Names == nil {
		return ""
	}
	return t.Names[j]
}

// auditor writes the audit's messages about the table t of file name.
type auditor struct {
	e     Notes
	t     *dataio.Table
	name  string
	stats []columnStats
	fixed bool // Flags.Fixed: nothing is fitted
}

// decides says what rows far out may do: decide the fit, or with a basis
// given (nothing fitted) stretch the picture.
func (a *auditor) decides() string {
	if a.fixed {
		return "which may stretch the picture"
	}
	return "which may decide the fit"
}

// ref names column j as -drop and -cols take it: its header name, unless
// that is empty, a number or needs quoting, else its number.
func (a *auditor) ref(j int) string {
	nm := columnName(a.t, j)
	if nm == "" || strings.ContainsAny(nm, ",\"' ") || strings.Trim(nm, "0123456789-") == "" {
		return strconv.Itoa(a.t.Fields[j])
	}
	return nm
}

// label names column j in a message: `column 3 ("x3")`, `column 3`.
func (a *auditor) label(j int) string {
	return strings.TrimSuffix(a.t.ColumnName(a.name, j), " of "+a.name)
}

// refs returns the -drop list of the columns cols: names and numbers,
// runs of three or more consecutive numbers written as ranges.
func (a *auditor) refs(cols []int) string {
	var out []string
	for k := 0; k < len(cols); {
		r := a.ref(cols[k])
		end := k
		for end+1 < len(cols) && a.ref(cols[end+1]) == strconv.Itoa(a.t.Fields[cols[end+1]]) &&
			r == strconv.Itoa(a.t.Fields[cols[k]]) && a.t.Fields[cols[end+1]] == a.t.Fields[cols[end]]+1 {
			end++
		}
		if end-k >= 2 {
			out = append(out, fmt.Sprintf("%d-%d", a.t.Fields[cols[k]], a.t.Fields[cols[end]]))
			k = end + 1
			continue
		}
		out = append(out, r)
		k++
	}
	return strings.Join(out, ",")
}

// labels names the columns cols in a message, at most max of them and a
// count of the others.
func (a *auditor) labels(cols []int, max int) string {
	var s []string
	for k, j := range cols {
		if k == max {
			s = append(s, fmt.Sprintf("%d more", len(cols)-max))
			break
		}
		s = append(s, a.label(j))
	}
	return words.JoinAnd(s)
}

// noteLeftOut writes the notes on the columns left out for their reason:
// one note for the index, one for the ids, one for the constant columns.
func (a *auditor) noteLeftOut(reason []string) {
	var constant, ids []int
	for j, r := range reason {
		switch r {
		case "index":
			a.e.Notef("left out %s of %s: an index that numbers the rows (%s), not a measurement; list it in -cols to fit it", a.label(j), a.name, a.indexHow(j))
		case "id":
			ids = append(ids, j)
		case "constant":
			constant = append(constant, j)
		}
	}
	if len(ids) > 0 {
		var ranges []string
		for _, j := range ids {
			s := a.stats[j]
			ranges = append(ranges, fmt.Sprintf("%s to %s", num(s.min), num(s.max)))
		}
		if len(ids) == 1 {
			a.e.Notef("left out %s of %s: a different whole number in every row (%s), an id rather than a measurement; list it in -cols to fit it",
				a.label(ids[0]), a.name, ranges[0])
		} else {
			a.e.Notef("left out %s of %s: each holds a different whole number in every row (%s), an id rather than a measurement; list them in -cols to fit them",
				a.labels(ids, len(ids)), a.name, strings.Join(ranges, "; "))
		}
	}
	if len(constant) > 0 {
		what := a.labels(constant, 8)
		if len(constant) == 1 {
			a.e.Notef("left out %s of %s: it is constant, so it carries no information", what, a.name)
		} else {
			a.e.Notef("left out %d constant columns of %s, which carry no information: %s", len(constant), a.name, what)
		}
		for _, j := range constant {
			a.e.Detailf("%s: every value is %s", a.label(j), num(a.stats[j].min))
		}
	}
}

// indexHow says how column j numbers the rows, and where such an index
// comes from.
func (a *auditor) indexHow(j int) string {
	s := a.stats[j]
	first, last := num(s.min), num(s.max)
	var how string
	switch {
	case !s.increasing:
		how = fmt.Sprintf("distinct whole numbers from %s to %s in no order, as pandas' to_csv writes the index of a sampled or shuffled frame", first, last)
	case s.dense() && first == "0":
		how = fmt.Sprintf("0 to %s, as pandas' to_csv writes its index", last)
	case s.dense() && first == "1":
		how = fmt.Sprintf("1 to %s, as R's write.csv writes its row names", last)
	case s.dense():
		how = fmt.Sprintf("%s to %s in order", first, last)
	default:
		how = fmt.Sprintf("%s to %s, increasing with gaps, as an index does after rows were sampled or dropped", first, last)
	}
	switch nm := columnName(a.t, j); {
	case nm != "":
		how += fmt.Sprintf(", named %q", nm)
	case a.t.Header:
		how += ", with an empty header name"
	}
	return how
}

// warnIDs warns about the columns cols of distinct whole numbers that the
// id rule kept.
func (a *auditor) warnIDs(cols []int) {
	var ids []int
	for _, j := range cols {
		s := a.stats[j]
		if s.n >= minIDWarnRows && s.whole && s.distinct == s.n {
			ids = append(ids, j)
		}
	}
	if len(ids) == 0 {
		return
	}
	verb, it, them := "holds", "it is one", "it"
	if len(ids) > 1 {
		verb, it, them = "hold", "they are", "them"
	}
	a.e.Warnf("%s of %s %s a different whole number in every row, as an id does; if %s, -drop %s leaves %s out",
		a.labels(ids, 6), a.name, verb, it, a.refs(ids), them)
}

// warnFewValues warns about the columns cols that take only a few values.
func (a *auditor) warnFewValues(cols []int) {
	var few []int
	var what []string
	for _, j := range cols {
		s := a.stats[j]
		if s.n >= minFewRows && s.distinct <= fewValues {
			few = append(few, j)
			if len(what) < 6 {
				what = append(what, fmt.Sprintf("%s: %d", a.label(j), s.distinct))
			}
		}
	}
	if len(few) == 0 {
		return
	}
	if len(few) > len(what) {
		what = append(what, fmt.Sprintf("%d more", len(few)-len(what)))
	}
	subj := fmt.Sprintf("%d columns of %s take", len(few), a.name)
	them := "them"
	if len(few) == 1 {
		subj, them = fmt.Sprintf("%s of %s takes", a.label(few[0]), a.name), "it"
		what = []string{fmt.Sprint(a.stats[few[0]].distinct)}
	}
	a.e.Warnf("%s only a few distinct values (%s), as flags and rating scales do: NGCA finds such columns first, since they are far from Gaussian; -drop %s leaves %s out",
		subj, strings.Join(what, "; "), a.refs(few), them)
}

// num formats a value of the data for a message: a whole number in full
// (9999999), any other with 6 significant digits.
func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}
