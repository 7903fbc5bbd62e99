package audit

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ngca-go/ngca/internal/words"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/screen"
)

// The rows that lie far from the rest (ngca.FarRows' rule, package
// internal/screen): by default (-outliers far) they are left out before
// a fit, with the rows that hold a missing-value code, and named in a
// note; "ngca fit -json" records the rule fitted, so that transform sets
// the same rows aside.

// The values of -outliers.
const (
	OutliersKeep = "keep"
	OutliersFar  = "far"
	OutliersDrop = "drop"
)

// screenRows fits the screen to the columns cols of the table's rows
// other than skip (sorted) and returns it with the rows it sets aside,
// sorted, as rows of the table.
func (a *auditor) screenRows(cols, skip []int) (*screen.Screen, []int, error) {
	n, _ := a.t.X.Dims()
	idx := make([]int, 0, n-len(skip))
	for i, k := 0, 0; i < n; i++ {
		if k < len(skip) && skip[k] == i {
			k++
			continue
		}
		idx = append(idx, i)
	}
	x := mat.NewDense(max(len(idx), 1), len(cols), nil)
	for r, i := range idx {
		row := x.RawRowView(r)
		for c, j := range cols {
			row[c] = a.t.X.At(i, j)
		}
	}
	if len(idx) == 0 {
		return nil, nil, nil
	}
	scr, err := screen.Fit(x)
	if err != nil || scr == nil {
		return nil, nil, err
	}
	var far []int
	for _, r := range scr.RowsOf(x) {
		far = append(far, idx[r])
	}
	return scr, far, nil
}

// noteFar writes one note naming the rows far (of the table) that the
// screen scr of the columns cols sets aside: for each, the value that
// puts it there on its own, or that it is far jointly and its furthest
// value; dropped says
// that they are left out.
func (a *auditor) noteFar(far []int, scr *screen.Screen, cols []int, dropped bool) {
	if len(far) == 0 {
		return
	}
	var what []string
	for k, i := range far {
		var row []float64
		for _, j := range cols {
			row = append(row, a.t.X.At(i, j))
		}
		// The column furthest out on its own, in robust units.
		top, z := 0, 0.0
		for c, v := range row {
			if u := math.Abs((v - scr.Center[c]) / scr.Scale[c]); u > z || math.IsNaN(z) {
				top, z = c, u
			}
		}
		cause := fmt.Sprintf("%s = %s", a.label(cols[top]), num(row[top]))
		if z*z <= scr.Kept.Limit {
			cause = fmt.Sprintf("far jointly; its furthest value: %s", cause)
		}
		a.e.Detailf("%s: squared distance %.4g from the rest, above the limit %.4g", a.line(i), scr.Dist2(row), scr.Kept.Limit)
		if k < 5 {
			what = append(what, fmt.Sprintf("%s (%s)", a.line(i), cause))
		}
	}
	if len(far) > 5 {
		what = append(what, words.CountNoun(len(far)-5, "more row"))
	}
	subj := fmt.Sprintf("%d rows of %s lie far from the rest: each alone carries over a quarter of the rows' spread in its direction", len(far), a.name)
	if len(far) == 1 {
		subj = fmt.Sprintf("1 row of %s lies far from the rest: alone it carries over a quarter of the rows' spread in its direction", a.name)
	}
	act := "left out (-outliers keep keeps " + words.Agree(len(far), "it", "them") + ")"
	if !dropped {
		act = "kept with -outliers keep, " + a.decides() + " (by default such rows are left out)"
	}
	a.e.Notef("%s: %s; %s", subj, words.JoinAnd(what), act)
}

// notFrom returns the outliers of cells whose rows are not in rows
// (sorted).
func notFrom(cells []outlier, rows []int) []outlier {
	var out []outlier
	for _, o := range cells {
		if _, ok := slices.BinarySearch(rows, o.i); !ok {
			out = append(out, o)
		}
	}
	return out
}

// union returns the sorted union of sorted row lists.
func union(lists ...[]int) []int {
	var out []int
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// setAsideWhy says why the rows left out were left out, for the summary
// note: the kinds of rows among far, codes and cells (with -outliers drop)
// that were dropped.
func setAsideWhy(far, codes []int, cells []outlier, drop bool) string {
	var why []string
	if len(far) > 0 {
		why = append(why, "far from the rest")
	}
	if len(codes) > 0 {
		why = append(why, "missing-value codes")
	}
	if drop && len(cells) > 0 {
		why = append(why, "values far outside their columns")
	}
	return strings.Join(why, ", ")
}

// CodeRecord is a missing-value code found in a column, as "ngca fit
// -json" records it.
type CodeRecord struct {
	Column string  `json:"column,omitempty"`
	Number int     `json:"number"`
	Value  float64 `json:"value"`
}

// ScreenRecord is the screen fitted to the table's columns Cols.
type ScreenRecord struct {
	Screen *screen.Screen
	Cols   []int
}

// SetAsideJSON is what "ngca fit -json" records of the rows set aside:
// -outliers, the lines of the rows far from the rest (left out or not),
// the codes, and the rule fitted (on the fit's columns, in their order),
// which transform applies to each row.
type SetAsideJSON struct {
	Mode   string       `json:"mode"`
	Lines  []int        `json:"lines,omitempty"`
	Codes  []CodeRecord `json:"codes,omitempty"`
	Screen *ScreenJSON  `json:"screen,omitempty"`
}

// ScreenJSON is a screen.Screen in JSON (each W by rows).
type ScreenJSON struct {
	Rows   int       `json:"rows"`
	Center []float64 `json:"center"`
	Scale  []float64 `json:"scale"`
	Kept   SetJSON   `json:"kept"`
	All    SetJSON   `json:"all"`
}

// SetJSON is a screen.Set in JSON.
type SetJSON struct {
	Size  int         `json:"size"`
	Holds bool        `json:"holds,omitempty"`
	Mean  []float64   `json:"mean"`
	W     [][]float64 `json:"w"`
	Limit float64     `json:"limit"`
}

// NewScreenJSON returns the JSON form of s.
func NewScreenJSON(s *screen.Screen) *ScreenJSON {
	set := func(t screen.Set) SetJSON {
		d, _ := t.W.Dims()
		w := make([][]float64, d)
		for i := range w {
			w[i] = mat.Row(nil, i, t.W)
		}
		return SetJSON{Size: t.Size, Holds: t.Holds, Mean: t.Mean, W: w, Limit: t.Limit}
	}
	return &ScreenJSON{Rows: s.Rows, Center: s.Center, Scale: s.Scale, Kept: set(s.Kept), All: set(s.All)}
}

// screen returns the screen j describes, or an error if its shapes do not
// fit d columns.
func (j *ScreenJSON) screen(d int) (*screen.Screen, error) {
	bad := fmt.Errorf("\"set_aside\": its \"screen\" does not fit the %d columns of the basis", d)
	if len(j.Center) != d || len(j.Scale) != d {
		return nil, bad
	}
	set := func(t SetJSON) (screen.Set, error) {
		if len(t.Mean) != d || len(t.W) != d || len(t.W[0]) == 0 || t.Size < 2 {
			return screen.Set{}, bad
		}
		r := len(t.W[0])
		w := mat.NewDense(d, r, nil)
		for i, row := range t.W {
			if len(row) != r {
				return screen.Set{}, bad
			}
			w.SetRow(i, row)
		}
		return screen.Set{Mean: t.Mean, W: w, Rank: r, Size: t.Size, Holds: t.Holds, Limit: t.Limit}, nil
	}
	s := &screen.Screen{Center: j.Center, Scale: j.Scale, Rows: j.Rows}
	var err error
	if s.Kept, err = set(j.Kept); err != nil {
		return nil, err
	}
	if s.All, err = set(j.All); err != nil {
		return nil, err
	}
	return s, nil
}

// lines returns the lines of the table's rows (their numbers from 1
// without lines).
func (a *auditor) lines(rows []int) []int {
	var out []int
	for _, i := range rows {
		if i < len(a.t.Lines) && a.t.Lines[i] > 0 {
			out = append(out, a.t.Lines[i])
		} else {
			out = append(out, i+1)
		}
	}
	return out
}

// codeRecords returns the codes found, as the JSON records them.
func (a *auditor) codeRecords(codes []codeUse) []CodeRecord {
	var out []CodeRecord
	for _, u := range codes {
		out = append(out, CodeRecord{Column: columnName(a.t, u.j), Number: a.t.Fields[u.j], Value: u.v})
	}
	return out
}

// SetAside is the rule of a JSON fit for the rows it set aside, on the
// basis's rows (the fit's columns): its -outliers, the screen, and each
// column's missing-value codes.
type SetAside struct {
	mode  string
	scr   *screen.Screen
	codes [][]float64
}

// ReadSetAside returns the rule that j records for a basis of d rows
// whose file columns are numbers (nil j: nil).
func ReadSetAside(j *SetAsideJSON, numbers []int, d int) (*SetAside, error) {
	if j == nil {
		return nil, nil
	}
	sa := &SetAside{mode: j.Mode, codes: make([][]float64, d)}
	if j.Screen != nil {
		var err error
		if sa.scr, err = j.Screen.screen(d); err != nil {
			return nil, err
		}
	}
	for _, c := range j.Codes {
		if k := slices.Index(numbers, c.Number); k >= 0 && len(numbers) == d {
			sa.codes[k] = append(sa.codes[k], c.Value)
		}
	}
	return sa, nil
}

// far reports whether the rule sets the row (the basis's columns) aside:
// it holds a missing-value code of its column, or the screen sets it
// aside.
func (sa *SetAside) Far(row []float64) bool {
	for k, v := range row {
		if slices.Contains(sa.codes[k], v) {
			return true
		}
	}
	return sa.scr.Far(row)
}

// Mode returns the fit's -outliers ("" for a nil rule).
func (sa *SetAside) Mode() string {
	if sa == nil {
		return ""
	}
	return sa.mode
}

// LineList writes lines as "lines 59, 102 and 3 more", at most max.
func LineList(lines []int, max int) string {
	var out []string
	for k, l := range lines {
		if k == max {
			out = append(out, fmt.Sprintf("%d more", len(lines)-max))
			break
		}
		out = append(out, fmt.Sprint(l))
	}
	if len(lines) == 1 {
		return "line " + out[0]
	}
	return "lines " + words.JoinAnd(out)
}
