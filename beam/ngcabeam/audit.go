package ngcabeam

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/audit"
	"github.com/ngca-go/ngca/internal/dataio"
)

// The audit of "ngca fit" (package internal/audit), applied by Fit with
// FitOptions.Audit to the sample before it is fitted: the columns it
// leaves out (row names, an index, ids, constant columns) and, by
// default, the rows far from the rest and the rows that hold a
// missing-value code. Its notes and warnings are counted in Beam
// counters (cNote), which NotesOf returns in order; what it left out is
// Fitted.Audit, and with Full the passes over every row take only the
// columns kept and skip the rows that the sample's rule sets aside (the
// rule "ngca transform" applies: a code of a recorded column, or
// screen.Screen.Far).

// cNote is the counter name prefix of the audit's messages: cNote, the
// message's position (6 digits) and its line, separated by "|".
const cNote = "audit"

// cAside counts the rows that the first pass of a full fit skipped by the
// audit's rule (AsideOf).
const cAside = "fit.aside"

// AsideOf returns the number of rows that the passes of a full fit skipped
// by the rule of the sample's audit, from the metrics of a finished
// pipeline.
func AsideOf(res metrics.Results) int {
	n := 0
	for _, c := range res.AllMetrics().Counters() {
		if c.Namespace() == counterNS && c.Name() == cAside {
			n += int(c.Result())
		}
	}
	return n
}

// Audited is what the audit of the sample left out, as Fitted.Audit holds
// it (JSON): the fields of "ngca fit -json" (left_out,
// rows_outliers_dropped, set_aside) and the columns kept.
type Audited struct {
	LeftOut         []audit.LeftOutColumn `json:"left_out,omitempty"`
	OutliersDropped *int                  `json:"rows_outliers_dropped,omitempty"`
	SetAside        *audit.SetAsideJSON   `json:"set_aside,omitempty"`
	// Kept are the positions (from 0) among the input's data columns of
	// the columns fitted, and Numbers their numbers in the files.
	Kept    []int `json:"kept"`
	Numbers []int `json:"numbers"`
}

// DecodeAudit returns what the audit of the fit left out (nil for a fit
// without an audit).
func (f Fitted) DecodeAudit() (*Audited, error) {
	if len(f.Audit) == 0 {
		return nil, nil
	}
	var a Audited
	if err := json.Unmarshal(f.Audit, &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// noteSink collects the audit's messages, as the ngca command writes
// them (details are left out).
type noteSink struct{ lines []string }

func (n *noteSink) Notef(format string, a ...any) {
	n.lines = append(n.lines, "note: "+fmt.Sprintf(format, a...))
}

func (n *noteSink) Warnf(format string, a ...any) {
	n.lines = append(n.lines, "warning: "+fmt.Sprintf(format, a...))
}

func (n *noteSink) Detailf(string, ...any) {}

// auditSample applies the audit to the sample x of the input in (its
// columns named by in: all of them numbered from 1 if in has none; all
// says that x holds every row of the input), counts its messages and
// returns the rows and columns to fit and what it left out (Audited's
// JSON).
func auditSample(ctx context.Context, x *mat.Dense, in Input, all bool, opt FitOptions) (*mat.Dense, []byte, error) {
	_, d := x.Dims()
	t := &dataio.Table{X: mat.DenseCopyOf(x), Header: in.Header, Names: slices.Clone(in.Names), Fields: slices.Clone(in.Fields)}
	if f, err := dataio.ParseFormat(in.Format); err == nil {
		t.Format = f
	}
	if len(t.Fields) != d {
		t.Fields, t.Names = make([]int, d), nil
		for j := range t.Fields {
			t.Fields[j] = j + 1
		}
	}
	if t.Names != nil && len(t.Names) != d {
		t.Names = nil
	}
	numbers := slices.Clone(t.Fields)
	name := or(in.Glob, "the rows")
	if in.Glob != "" && len(in.Files) == 1 {
		name = in.Files[0].Path
	}
	if !all {
		name = "the sample of " + name
	}
	var sink noteSink
	res, err := audit.Table(&sink, t, name, audit.Flags{Listed: opt.Listed, Outliers: opt.Outliers})
	for i, l := range sink.lines {
		beam.NewCounter(counterNS, fmt.Sprintf("%s|%06d|%s", cNote, i, l)).Inc(ctx, 1)
	}
	if err != nil {
		return nil, nil, err
	}
	a := Audited{LeftOut: res.LeftOut, Numbers: t.Fields}
	for _, f := range in.Files {
		if f.RowNames > 0 {
			a.LeftOut = append([]audit.LeftOutColumn{{Number: f.RowNames, Reason: "row names"}}, a.LeftOut...)
			break
		}
	}
	for _, f := range t.Fields {
		a.Kept = append(a.Kept, slices.Index(numbers, f))
	}
	if opt.Outliers != "" {
		rows := res.OutlierRows
		a.OutliersDropped = &rows
		a.SetAside = &audit.SetAsideJSON{Mode: opt.Outliers, Lines: res.FarLines, Codes: res.Codes}
		if res.Screen != nil {
			a.SetAside.Screen = audit.NewScreenJSON(res.Screen.Screen)
		}
	}
	b, err := json.Marshal(a)
	return t.X, b, err
}

// NotesOf returns the notes and warnings of the audit of Fit's sample, in
// order, each line as the ngca command writes it ("note: ...",
// "warning: ..."), from the metrics of a finished pipeline.
func NotesOf(res metrics.Results) []string {
	var keys []string
	for _, c := range res.AllMetrics().Counters() {
		if c.Namespace() == counterNS && strings.HasPrefix(c.Name(), cNote+"|") && !slices.Contains(keys, c.Name()) {
			keys = append(keys, c.Name())
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		_, rest, _ := strings.Cut(k, "|")
		_, line, _ := strings.Cut(rest, "|")
		out = append(out, line)
	}
	return out
}

// rowRule is the audit's rule for the rows of a full fit's passes: the
// columns to take and the rows to skip.
type rowRule struct {
	kept  []int
	aside *audit.SetAside
	row   []float64
}

// newRowRule returns the rule of the audit b (Fitted.Audit) for rows of
// d columns; nil without an audit.
func newRowRule(b []byte, d int) (*rowRule, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var a Audited
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, err
	}
	for _, j := range a.Kept {
		if j < 0 || j >= d {
			return nil, fmt.Errorf("ngcabeam: the audit keeps column %d of rows of %d columns", j+1, d)
		}
	}
	r := &rowRule{kept: a.Kept}
	if a.SetAside != nil && a.SetAside.Mode != audit.OutliersKeep {
		var err error
		if r.aside, err = audit.ReadSetAside(a.SetAside, a.Numbers, len(a.Kept)); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// apply returns the matrix of the rows of x that the rule keeps, in its
// columns (nil if none is kept).
func (r *rowRule) apply(x *mat.Dense) *mat.Dense {
	n, _ := x.Dims()
	var vals []float64
	k := 0
	for i := range n {
		r.row = r.row[:0]
		for _, j := range r.kept {
			r.row = append(r.row, x.At(i, j))
		}
		if r.aside != nil && r.aside.Far(r.row) {
			continue
		}
		vals = append(vals, r.row...)
		k++
	}
	if k == 0 {
		return nil
	}
	return mat.NewDense(k, len(r.kept), vals)
}

// auditKey returns the key of an audit's bytes, for a DoFn's cache.
func auditKey(b []byte) [32]byte { return sha256.Sum256(b) }

// auditOf returns the audit of a fit.
func auditOf(f Fitted) []byte { return f.Audit }
