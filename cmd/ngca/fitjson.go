package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/studyhook"
)

// fitFields are the command's own fields of "ngca fit -json". The file is
// the library's JSON of the Result (ngca.Result.MarshalJSON: ngca_result,
// label, basis, eigenvalues, mean, timings, report) with these fields
// added after "label" and checkFields at the end, so that json.Unmarshal
// into an ngca.Result loads it and there is one schema and one way of
// writing numbers (a non-finite number is the string "NaN", "+Inf" or
// "-Inf").
type fitFields struct {
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
	InputFlags inputRecord `json:"input_flags"`
	// RowsDropped counts the rows left out by -missing drop.
	RowsDropped *int `json:"rows_dropped,omitempty"`
	// LeftOut lists the columns of the file that the command left out on
	// its own (row names, an index, ids, constant columns), with the
	// reason; OutliersDropped counts the rows left out by -outliers drop.
	LeftOut         []leftOutColumn `json:"left_out,omitempty"`
	OutliersDropped *int            `json:"rows_outliers_dropped,omitempty"`
	// ZeroBased says that the LIBSVM file numbered its features from 0.
	ZeroBased bool `json:"zero_based,omitempty"`
	// Sample and RowsRead: with -sample, the sample's size and the rows
	// of the file it was drawn from.
	Sample   int          `json:"sample,omitempty"`
	RowsRead *int         `json:"rows_read,omitempty"`
	Seed     uint64       `json:"seed"`
	Settings settingsJSON `json:"settings"`
}

// checkFields are the fields of -check, after the library's.
type checkFields struct {
	// Check is the report of ngca.Check, as its MarshalJSON writes it.
	Check *ngca.CheckReport `json:"check,omitempty"`
	// CheckError says why -check could not judge the fit.
	CheckError string `json:"check_error,omitempty"`
}

// settingsJSON holds the settings the fit used, defaults resolved, as its
// Report gives them.
type settingsJSON struct {
	Centers    int     `json:"centers,omitempty"`
	Folds      int     `json:"folds,omitempty"`
	Iterations int     `json:"iterations,omitempty"`
	Threshold  float64 `json:"threshold,omitempty"`
}

// fitSettings returns the settings of the fit whose report is rep.
func fitSettings(rep ngca.Report) settingsJSON {
	switch r := rep.(type) {
	case *ngca.LSReport:
		return settingsJSON{Centers: r.NumCenters, Folds: r.Folds}
	case *ngca.RobustReport:
		return settingsJSON{Centers: r.NumCenters, Folds: r.Folds}
	case *ngca.MIPPReport:
		d, _ := studyhook.MIPPDetails(r)
		return settingsJSON{Iterations: d.Iterations, Threshold: d.Threshold}
	case *ngca.IMAKReport:
		return settingsJSON{Iterations: r.MaxPasses}
	case *ngca.SNGCAReport:
		s, _ := studyhook.SNGCADetails(r)
		return settingsJSON{Iterations: s.MaxIter}
	}
	return settingsJSON{}
}

// fitJSON returns the JSON object (compact) that "ngca fit -json" writes
// for a fit res of the estimator m to the table t read from file name,
// with the report chk of -check or the error checkErr that stopped it.
func fitJSON(a *fitArgs, m methods.Method, t *dataio.Table, info loaded, res *ngca.Result, chk *ngca.CheckReport, checkErr error) ([]byte, error) {
	lib, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	n, d := t.X.Dims()
	ff := fitFields{Method: m.Key, Input: info.name, Format: t.Format.String(), N: n, D: d, Dim: a.dim,
		Columns: t.Names, ColumnNumbers: t.Fields, LabelColumn: t.LabelName, Seed: a.seed, Settings: fitSettings(res.Report)}
	ff.InputFlags = a.input
	if info.dropMode {
		ff.RowsDropped = &info.dropped
	}
	ff.LeftOut, ff.ZeroBased = info.audit.leftOut, t.ZeroBased
	if info.outlierMode {
		ff.OutliersDropped = &info.audit.outlierRows
	}
	if info.sample > 0 {
		ff.Sample, ff.RowsRead = info.sample, &info.rows
	}
	own, err := json.Marshal(ff)
	if err != nil {
		return nil, err
	}
	c := checkFields{Check: chk}
	if chk == nil && checkErr != nil {
		c.CheckError = checkErr.Error()
	}
	tail, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	return mergeObjects(lib, "label", own, tail)
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

// mergeObjects returns the JSON object base with the fields of the object
// after inserted after base's field key (or first, if base has none) and
// those of the object tail at the end. A field name in two objects is an
// error.
func mergeObjects(base []byte, key string, after, tail []byte) ([]byte, error) {
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

// writeJSON writes v as indented JSON in which an array or object that
// holds no non-empty array or object (a row of the basis, the timings) is
// written on one line.
func writeJSON(w io.Writer, v any) error {
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
