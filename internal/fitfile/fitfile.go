// Package fitfile is the JSON file of a fit that "ngca fit -json" and
// "ngca-beam fit" write and that transform and plot read: the commands'
// fields beside the library's Result JSON, the way the file is written
// (Merge, Write), and how a data file is read the way the fit read its
// own (Columns.Select). It belongs to the commands, never to the library.
package fitfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/audit"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/probe"
)

// InputFlags holds the input flags of a fit as given on its command line,
// which the fit's JSON records so that transform and plot read a file the
// way the fit did.
type InputFlags struct {
	Cols     string `json:"cols,omitempty"`
	Drop     string `json:"drop,omitempty"`
	LabelCol string `json:"label_col,omitempty"`
	Missing  string `json:"missing,omitempty"`
}

// Fields are the command's own fields of a fit's JSON, as "ngca-beam fit"
// writes them: those of "ngca fit -json" (cmd/ngca's fitFields, whose
// tests check that every field here is one of its, in its order) but the
// audit's. The file is the library's JSON of the Result
// (ngca.Result.MarshalJSON: ngca_result, label, basis, eigenvalues, mean,
// timings, report) with these fields added after "label" and CheckFields
// at the end (Merge), so that json.Unmarshal into an ngca.Result loads it
// and there is one schema and one way of writing numbers (a non-finite
// number is the string "NaN", "+Inf" or "-Inf").
type Fields struct {
	// Method is the registry key of the estimator that ran (the library's
	// "label" is its name, Result.Method).
	Method  string   `json:"method"`
	Input   string   `json:"input"`
	Format  string   `json:"format"`
	N       int      `json:"n"`
	D       int      `json:"d"`
	Dim     int      `json:"dim"`
	Columns []string `json:"columns,omitempty"`
	// ColumnNumbers are the 1-based numbers in the file (LIBSVM: feature
	// indices) of the data columns.
	ColumnNumbers []int  `json:"column_numbers"`
	LabelColumn   string `json:"label_column,omitempty"`
	// InputFlags are the fit's input flags as given, which transform and
	// plot reuse.
	InputFlags InputFlags `json:"input_flags"`
	// RowsDropped counts the rows left out by -missing drop.
	RowsDropped *int `json:"rows_dropped,omitempty"`
	// LeftOut lists the columns that the audit left out on its own (row
	// names, an index, ids, constant columns), with the reason;
	// OutliersDropped counts the rows that -outliers left out; SetAside
	// records the rows set aside and the rule (audit.SetAsideJSON).
	LeftOut         []audit.LeftOutColumn `json:"left_out,omitempty"`
	OutliersDropped *int                  `json:"rows_outliers_dropped,omitempty"`
	SetAside        *audit.SetAsideJSON   `json:"set_aside,omitempty"`
	// ZeroBased says that the LIBSVM file numbered its features from 0.
	ZeroBased bool `json:"zero_based,omitempty"`
	// Sample and RowsRead: with a sample, its size and the rows it was
	// drawn from.
	Sample   int      `json:"sample,omitempty"`
	RowsRead *int     `json:"rows_read,omitempty"`
	Seed     uint64   `json:"seed"`
	Settings Settings `json:"settings"`
}

// CheckFields are the fields of -check, after the library's.
type CheckFields struct {
	// Check is the JSON of the report of ngca.Check, as its MarshalJSON
	// writes it.
	Check json.RawMessage `json:"check,omitempty"`
	// CheckError says why -check could not judge the fit.
	CheckError string `json:"check_error,omitempty"`
}

// Settings holds the settings the fit used, defaults resolved, as its
// Report gives them.
type Settings struct {
	Centers    int     `json:"centers,omitempty"`
	Folds      int     `json:"folds,omitempty"`
	Iterations int     `json:"iterations,omitempty"`
	Threshold  float64 `json:"threshold,omitempty"`
}

// SettingsOf returns the settings of the fit whose report is rep; those
// that only its details hold (MIPP's and SNGCA's) come from rec, which
// recorded the fit (zero if rec is nil or holds none).
func SettingsOf(rec *probe.Recorder, rep ngca.Report) Settings {
	switch r := rep.(type) {
	case *ngca.LSReport:
		return Settings{Centers: r.NumCenters, Folds: r.Folds}
	case *ngca.RobustReport:
		return Settings{Centers: r.NumCenters, Folds: r.Folds}
	case *ngca.MIPPReport:
		d, _ := rec.MIPPOf(r)
		return Settings{Iterations: d.Iterations, Threshold: d.Threshold}
	case *ngca.IMAKReport:
		return Settings{Iterations: r.MaxPasses}
	case *ngca.SNGCAReport:
		s, _ := rec.SNGCAOf(r)
		return Settings{Iterations: s.MaxIter}
	}
	return Settings{}
}

// member is a field of a JSON object.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers returns the fields of the JSON object obj, in order.
func objectMembers(obj []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %.40s", obj)
	}
	var out []member
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{k.(string), v})
	}
	return out, nil
}

// Merge returns the JSON object base with the fields of the object after
// inserted after base's field key (or first, if base has none) and those
// of the object tail at the end. A field name in two objects is an error.
func Merge(base []byte, key string, after, tail []byte) ([]byte, error) {
	var parts [3][]member
	for i, obj := range [][]byte{base, after, tail} {
		var err error
		if parts[i], err = objectMembers(obj); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for _, p := range parts {
		for _, f := range p {
			if seen[f.key] {
				return nil, fmt.Errorf("JSON field %q written twice", f.key)
			}
			seen[f.key] = true
		}
	}
	at := 0
	for i, f := range parts[0] {
		if f.key == key {
			at = i + 1
		}
	}
	fields := append(append(append(append([]member(nil), parts[0][:at]...), parts[1]...), parts[0][at:]...), parts[2]...)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(f.value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Write writes v as indented JSON in which an array or object that holds
// no non-empty array or object (a row of the basis, the timings) is
// written on one line.
func Write(w io.Writer, v any) error {
	var raw bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	dec := json.NewDecoder(&raw)
	dec.UseNumber()
	root, err := parseNode(dec)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	root.write(&b, 0)
	b.WriteByte('\n')
	_, err = w.Write(b.Bytes())
	return err
}

// jsonNode is a JSON value: a scalar (its text), an array or an object
// (keys in order).
type jsonNode struct {
	scalar   string
	open     byte // '[' or '{' for a container, 0 for a scalar
	keys     []string
	children []*jsonNode
}

func parseNode(dec *json.Decoder) (*jsonNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &jsonNode{open: byte(t)}
		for dec.More() {
			if n.open == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			c, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, c)
		}
		_, err := dec.Token() // the closing delimiter
		return n, err
	case string:
		q, _ := json.Marshal(t)
		return &jsonNode{scalar: string(q)}, nil
	case nil:
		return &jsonNode{scalar: "null"}, nil
	default:
		return &jsonNode{scalar: fmt.Sprint(t)}, nil
	}
}

func (n *jsonNode) write(b *bytes.Buffer, indent int) {
	if n.open == 0 {
		b.WriteString(n.scalar)
		return
	}
	flat := true
	for _, c := range n.children {
		if c.open != 0 && len(c.children) > 0 {
			flat = false
		}
	}
	b.WriteByte(n.open)
	for i, c := range n.children {
		if i > 0 {
			b.WriteByte(',')
			if flat {
				b.WriteByte(' ')
			}
		}
		if !flat {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat("  ", indent+1))
		}
		if n.open == '{' {
			k, _ := json.Marshal(n.keys[i])
			b.Write(k)
			b.WriteString(": ")
		}
		c.write(b, indent+1)
	}
	if !flat {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", indent))
	}
	if n.open == '{' {
		b.WriteByte('}')
	} else {
		b.WriteByte(']')
	}
}

// Columns is what a fit's file (its JSON, or a CSV basis) says of the
// columns the fit read.
type Columns struct {
	// Names names the data columns of the fit, in the basis's row order
	// (header names); Numbers holds their 1-based numbers in the fit's
	// file instead when it had no header (LIBSVM: feature indices). Both
	// are nil for a bare CSV basis.
	Names   []string
	Numbers []int
	// LabelColumn is the header name of the fit's label column.
	LabelColumn string
	// Flags are the fit's input flags.
	Flags InputFlags
	// LIBSVM is set for a fit of a LIBSVM file, ZeroBased for one whose
	// feature indices start at 0.
	LIBSVM, ZeroBased bool
}

// Select sets the reading options of the data to project on the fit, for
// the flags not set on the command line (set): the label column, as in
// the fit; the data columns by the fit's header names, in the fit's
// order, whatever -cols and -drop say (which must keep them all), or
// without names by the fit's column numbers; and -missing, which keep
// says what to make of when the fit dropped rows (transform keeps every
// row's line, plot leaves the row out).
func (c Columns) Select(opt *dataio.Options, set map[string]bool, keep dataio.Missing) {
	if !set["label-col"] {
		switch {
		case c.LabelColumn != "":
			opt.LabelIfPresent = c.LabelColumn
		case isNumber(c.Flags.LabelCol):
			opt.LabelCol = c.Flags.LabelCol
		}
	}
	if len(c.Names) > 0 {
		opt.Names = c.Names
	} else if !set["cols"] && !set["drop"] && c.Numbers != nil && !firstNumbers(c.Numbers) {
		opt.Cols = joinInts(c.Numbers)
	}
	if c.LIBSVM && opt.Base == dataio.BaseAuto {
		// A file without an index 0 must not be read one-based against a
		// zero-based fit, nor the other way round.
		opt.Base = dataio.BaseOne
		if c.ZeroBased {
			opt.Base = dataio.BaseZero
		}
	}
	if !set["missing"] && c.Flags.Missing == "drop" {
		opt.Missing = keep
	}
}

// isNumber reports whether s is a 1-based column number.
func isNumber(s string) bool {
	k, err := strconv.Atoi(s)
	return err == nil && k >= 1
}

// firstNumbers reports whether v is 1, 2, …, len(v).
func firstNumbers(v []int) bool {
	for i, k := range v {
		if k != i+1 {
			return false
		}
	}
	return true
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, k := range v {
		s[i] = strconv.Itoa(k)
	}
	return strings.Join(s, ",")
}
