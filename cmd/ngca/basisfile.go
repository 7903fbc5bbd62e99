package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/methods"
	"gonum.org/v1/gonum/mat"
)

// basisFile is a basis read by transform and plot: a CSV file of d rows and
// M columns, or the JSON written by "ngca fit -json".
type basisFile struct {
	name  string
	basis *mat.Dense // d×M
	// From the JSON only (nil or empty for a CSV basis):
	mean, eigenvalues []float64
	label             string // the estimator's name
	columns           []string
	labelColumn       string
	// libsvm is set for a fit of a LIBSVM file, zeroBased for one whose
	// feature indices start at 0.
	libsvm, zeroBased bool
}

// selectColumns sets the reading options of the data to project on b:
// the label column and the data columns by header name, as in the fit,
// unless the command line names them.
func (b *basisFile) selectColumns(opt *dataio.Options) {
	if opt.LabelCol == "" {
		opt.LabelIfPresent = b.labelColumn
	}
	if opt.Cols == "" && opt.Drop == "" && len(b.columns) > 0 {
		opt.Names = b.columns
	}
	if b.libsvm && opt.Base == dataio.BaseAuto {
		// A file without an index 0 must not be read one-based against a
		// zero-based fit, nor the other way round.
		opt.Base = dataio.BaseOne
		if b.zeroBased {
			opt.Base = dataio.BaseZero
		}
	}
}

// readBasis reads the basis file path, telling the two kinds apart by the
// content: JSON starts with '{'.
func readBasis(path string) (*basisFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err // "open B.csv: no such file or directory"
	}
	return parseBasis(path, data)
}

// parseBasis reads the content data of the basis file path. A UTF-8
// byte-order mark is skipped, for JSON as for CSV.
func parseBasis(path string, data []byte) (*basisFile, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if body := bytes.TrimSpace(data); len(body) > 0 && body[0] == '{' {
		return readBasisJSON(path, data)
	}
	t, err := dataio.Read(bytes.NewReader(data), path, dataio.Options{})
	if err != nil {
		return nil, err
	}
	if t.Format == dataio.LIBSVM {
		return nil, fmt.Errorf("%s: a basis is a CSV file of d rows and M columns or the JSON of \"ngca fit -json\", not a LIBSVM file", path)
	}
	return &basisFile{name: path, basis: t.X}, nil
}

func readBasisJSON(path string, data []byte) (*basisFile, error) {
	var j struct {
		Method      string       `json:"method"`
		Label       string       `json:"label"`
		Columns     []string     `json:"columns"`
		LabelColumn string       `json:"label_column"`
		Format      string       `json:"format"`
		ZeroBased   bool         `json:"zero_based"`
		Basis       [][]*float64 `json:"basis"`
		Eigenvalues []jsonEntry  `json:"eigenvalues"`
		Mean        []*float64   `json:"mean"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s:%d: %v", path, lineAt(data, se.Offset), err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s:%d: %q holds a JSON %s where a %s belongs", path, lineAt(data, te.Offset), te.Field, te.Value, jsonKind(te.Type.Kind().String()))
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(j.Basis) == 0 || len(j.Basis[0]) == 0 {
		return nil, fmt.Errorf("%s: no \"basis\" (a JSON basis is the output of \"ngca fit -json\")", path)
	}
	d, m := len(j.Basis), len(j.Basis[0])
	b := mat.NewDense(d, m, nil)
	for i, row := range j.Basis {
		if len(row) != m {
			return nil, fmt.Errorf("%s: \"basis\" row %d has %d numbers, want %d (as row 1)", path, i+1, len(row), m)
		}
		for k, v := range row {
			if v == nil {
				return nil, fmt.Errorf("%s: \"basis\" row %d, column %d is null", path, i+1, k+1)
			}
			b.Set(i, k, *v)
		}
	}
	bf := &basisFile{name: path, basis: b, label: estimatorLabel(j.Method, j.Label), columns: j.Columns, labelColumn: j.LabelColumn,
		libsvm: j.Format == "libsvm", zeroBased: j.ZeroBased}
	var err error
	if bf.mean, err = jsonVector(path, "mean", j.Mean); err != nil {
		return nil, err
	}
	if bf.mean != nil && len(bf.mean) != d {
		return nil, fmt.Errorf("%s: \"mean\" has %d numbers for a basis of %d rows", path, len(bf.mean), d)
	}
	if bf.eigenvalues, err = jsonVector(path, "eigenvalues", entries(j.Eigenvalues)); err != nil {
		return nil, err
	}
	return bf, nil
}

// estimatorLabel returns the name of the estimator of a JSON basis: its
// label, or for a file written before fit wrote labels, the label of its
// method key (or the key itself if the registry does not know it).
func estimatorLabel(key, label string) string {
	if label != "" || key == "" {
		return label
	}
	if m, err := methods.Lookup(key); err == nil {
		return m.Label
	}
	return key
}

// jsonEntry is an entry of a list of numbers that the library may write
// as a string when it is not finite ("eigenvalues"): a JSON number, or
// nil for null, "NaN", "+Inf" or "-Inf".
type jsonEntry struct{ p *float64 }

func (e *jsonEntry) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "null", `"NaN"`, `"+Inf"`, `"-Inf"`:
		e.p = nil
		return nil
	}
	return json.Unmarshal(b, &e.p)
}

// entries returns the numbers of v, nil for a non-finite entry.
func entries(v []jsonEntry) []*float64 {
	if v == nil {
		return nil
	}
	out := make([]*float64, len(v))
	for i, e := range v {
		out[i] = e.p
	}
	return out
}

// jsonVector converts a JSON list of numbers, which must not hold null.
func jsonVector(path, name string, v []*float64) ([]float64, error) {
	if len(v) == 0 {
		return nil, nil
	}
	out := make([]float64, len(v))
	for i, p := range v {
		if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
			return nil, fmt.Errorf("%s: %q entry %d is not a finite number", path, name, i+1)
		}
		out[i] = *p
	}
	return out, nil
}

// lineAt returns the 1-based line of byte offset off of data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

func jsonKind(goKind string) string {
	switch goKind {
	case "float64":
		return "number"
	case "slice":
		return "list"
	case "ptr":
		return "number"
	}
	return goKind
}
