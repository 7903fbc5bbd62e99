package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/methods"
	"gonum.org/v1/gonum/mat"
)

// fitJSON is what "ngca fit -json" writes. Numbers have full precision;
// JSON has no Inf or NaN, so a non-finite number (a cross-validation score
// of +Inf, which marks a candidate whose solve failed) is written as null.
type fitJSON struct {
	// ResultFormat is the version of the library's Result JSON (ngca.ResultFormat):
	// a fit file is a Result's JSON with the command's own fields added, so
	// that json.Unmarshal into an ngca.Result loads it.
	ResultFormat int `json:"ngca_result"`
	// Method is the registry key of the estimator that ran, Label its
	// name (Result.Method).
	Method  string   `json:"method"`
	Label   string   `json:"label"`
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
	// RowsDropped counts the rows left out by -missing drop.
	RowsDropped *int `json:"rows_dropped,omitempty"`
	// Sample and RowsRead: with -sample, the sample's size and the rows
	// of the file it was drawn from.
	Sample      int             `json:"sample,omitempty"`
	RowsRead    *int            `json:"rows_read,omitempty"`
	Seed        uint64          `json:"seed"`
	Settings    settingsJSON    `json:"settings"`
	Basis       json.RawMessage `json:"basis"`
	Eigenvalues []jsonFloat     `json:"eigenvalues"`
	Mean        json.RawMessage `json:"mean"`
	CV          []stageJSON     `json:"cv"`
	Kept        []keptJSON      `json:"kept,omitempty"`
	Robust      *robustJSON     `json:"robust,omitempty"`
	IMAK        *imakJSON       `json:"imak,omitempty"`
	SNGCA       *sngcaJSON      `json:"sngca,omitempty"`
	Timings     json.RawMessage `json:"timings"`
	// Report is the Result's report exactly, as ngca.Result.MarshalJSON
	// writes it (the fields above give it in readable form).
	Report json.RawMessage `json:"report,omitempty"`
	// Check is the report of ngca.Check (-check), as its MarshalJSON
	// writes it.
	Check json.RawMessage `json:"check,omitempty"`
	// CheckError says why -check could not judge the fit.
	CheckError string `json:"check_error,omitempty"`
}

// imakJSON is the report of IMAK: its settings and its passes.
type imakJSON struct {
	Alpha     jsonFloat   `json:"alpha"`
	Schedule  []jsonFloat `json:"schedule"`
	Symmetric bool        `json:"symmetric"`
	Passes    int         `json:"passes"`
	Converged bool        `json:"converged"`
	Changes   []jsonFloat `json:"changes"`
}

// sngcaJSON is the report of SNGCA: its settings and its last solve.
type sngcaJSON struct {
	Projection     string    `json:"projection"`
	Functions      int       `json:"functions"`
	FinalFunctions int       `json:"final_functions"`
	Passes         int       `json:"passes"`
	Kappa          jsonFloat `json:"kappa"`
	Lambda         jsonFloat `json:"lambda"`
	Iterations     int       `json:"iterations"`
	Gap            jsonFloat `json:"gap"`
	Converged      bool      `json:"converged"`
	Dropped        int       `json:"dropped"`
}

// settingsJSON holds the settings the fit used, defaults resolved, as its
// Report gives them.
type settingsJSON struct {
	Centers    int     `json:"centers,omitempty"`
	Folds      int     `json:"folds,omitempty"`
	Iterations int     `json:"iterations,omitempty"`
	Threshold  float64 `json:"threshold,omitempty"`
}

type stageJSON struct {
	Name   string      `json:"name"`
	Widths []jsonFloat `json:"widths"`
	Ridges []jsonFloat `json:"ridges"`
	Coords []coordJSON `json:"coords"`
}

// coordJSON is the cross-validation of one output coordinate: Scores[w][l]
// is the score of Widths[w] and Ridges[l].
type coordJSON struct {
	Coord  int           `json:"coord"`
	Width  jsonFloat     `json:"width"`
	Ridge  jsonFloat     `json:"ridge"`
	Score  jsonFloat     `json:"score"`
	Scores [][]jsonFloat `json:"scores"`
}

// robustJSON is the report of the robust variant of WF-LSNGCA.
type robustJSON struct {
	Path         string    `json:"path"`
	Wald         jsonFloat `json:"wald"`
	DF           int       `json:"df"`
	P            jsonFloat `json:"p"`
	Distance     jsonFloat `json:"distance"`
	Refined      bool      `json:"refined"`
	KernelCoords []int     `json:"kernel_coords"`
	NullCoords   []int     `json:"null_coords"`
}

// oneBased returns the 0-based indices idx numbered from 1.
func oneBased(idx []int) []int {
	out := make([]int, len(idx))
	for i, k := range idx {
		out[i] = k + 1
	}
	return out
}

type keptJSON struct {
	Family     string `json:"family"`
	Kept       int    `json:"kept"`
	Total      int    `json:"total"`
	Degenerate int    `json:"degenerate"`
}

// jsonFloat is a float64 written with full precision, or null if it is not
// finite.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

func jsonFloats(v []float64) []jsonFloat {
	out := make([]jsonFloat, len(v))
	for i, x := range v {
		out[i] = jsonFloat(x)
	}
	return out
}

func jsonRows(m mat.Matrix) [][]jsonFloat {
	r, c := m.Dims()
	out := make([][]jsonFloat, r)
	for i := range out {
		out[i] = make([]jsonFloat, c)
		for j := range out[i] {
			out[i][j] = jsonFloat(m.At(i, j))
		}
	}
	return out
}

// newFitJSON collects what fit reports about a fit of the estimator m to
// the table t read from file name.
func newFitJSON(a *fitArgs, m methods.Method, t *dataio.Table, info loaded, res *ngca.Result) (*fitJSON, error) {
	lib, err := res.MarshalJSON()
	if err != nil {
		return nil, err
	}
	// The basis, mean, timings and report as the library writes them.
	var exact struct {
		Basis, Mean, Timings, Report json.RawMessage
	}
	if err := json.Unmarshal(lib, &exact); err != nil {
		return nil, err
	}
	n, d := t.X.Dims()
	out := &fitJSON{ResultFormat: ngca.ResultFormat, Report: exact.Report, Method: m.Key, Label: res.Method, Input: info.name, Format: t.Format.String(), N: n, D: d, Dim: a.dim,
		Columns: t.Names, ColumnNumbers: t.Fields, LabelColumn: t.LabelName, Seed: a.seed,
		Basis: exact.Basis, Eigenvalues: jsonFloats(res.Eigenvalues), Mean: exact.Mean,
		CV: []stageJSON{}, Timings: exact.Timings}
	if info.dropMode {
		out.RowsDropped = &info.dropped
	}
	if info.sample > 0 {
		out.Sample, out.RowsRead = info.sample, &info.rows
	}
	switch r := res.Report.(type) {
	case *ngca.LSReport:
		out.Settings = settingsJSON{Centers: r.NumCenters, Folds: r.Folds}
		out.CV = cvJSON(r.CV)
	case *ngca.RobustReport:
		out.Settings = settingsJSON{Centers: r.NumCenters, Folds: r.Folds}
		out.CV = cvJSON(r.CV)
		out.Robust = &robustJSON{Path: r.Path.String(), Wald: jsonFloat(r.Wald), DF: r.DF, P: jsonFloat(r.P), Distance: jsonFloat(r.Distance), Refined: r.Refined,
			KernelCoords: oneBased(r.KernelCoords), NullCoords: oneBased(r.NullCoords)}
	case *ngca.MIPPReport:
		out.Settings = settingsJSON{Iterations: r.Iterations, Threshold: r.Threshold}
		for _, k := range r.Kept {
			out.Kept = append(out.Kept, keptJSON{Family: k.Family, Kept: k.Kept, Total: k.Total, Degenerate: k.Degenerate})
		}
	case *ngca.IMAKReport:
		out.Settings = settingsJSON{Iterations: r.MaxPasses}
		out.IMAK = &imakJSON{Alpha: jsonFloat(r.Alpha), Schedule: jsonFloats(r.Schedule), Symmetric: r.Symmetric,
			Passes: r.Passes, Converged: r.Converged, Changes: jsonFloats(r.Changes)}
	case *ngca.SNGCAReport:
		out.Settings = settingsJSON{Iterations: r.MaxIter}
		out.SNGCA = &sngcaJSON{Projection: r.Projection.String(), Functions: r.Functions, FinalFunctions: r.FinalFunctions,
			Passes: r.Passes, Kappa: jsonFloat(r.Kappa), Lambda: jsonFloat(r.Lambda), Iterations: r.Iterations,
			Gap: jsonFloat(r.Gap), Converged: r.Converged, Dropped: r.Dropped}
	}
	return out, nil
}

// cvJSON converts the cross-validation of the stages of a fit.
func cvJSON(cv []ngca.StageCV) []stageJSON {
	out := []stageJSON{}
	for _, st := range cv {
		s := stageJSON{Name: st.Name, Widths: jsonFloats(st.Widths), Ridges: jsonFloats(st.Ridges)}
		for k, c := range st.Coords {
			s.Coords = append(s.Coords, coordJSON{Coord: k + 1, Width: jsonFloat(c.Width), Ridge: jsonFloat(c.Ridge),
				Score: jsonFloat(c.Score), Scores: jsonRows(c.Scores)})
		}
		out = append(out, s)
	}
	return out
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
