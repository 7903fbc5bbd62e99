package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/fitfile"
	"github.com/ngca-go/ngca/internal/methods"
	"gonum.org/v1/gonum/mat"
)

// basisFile is a basis read by transform and plot: the CSV written by
// "ngca fit" (a header "column,c1,…,cM", then a line per data column: its
// name and its M numbers), a bare CSV of d lines of M numbers (written by
// older versions), or the JSON written by "ngca fit -json".
type basisFile struct {
	name  string
	basis *mat.Dense // d×M
	// columns names the data columns of the fit, in the basis's row order
	// (header names); numbers holds their 1-based numbers in the fit's file
	// instead when it had no header (LIBSVM: feature indices). Both are
	// nil for a bare CSV basis.
	columns []string
	numbers []int
	// From the JSON only (nil or empty for a CSV basis):
	mean, eigenvalues []float64
	label             string // the estimator's name
	labelColumn       string
	flags             inputRecord // the fit's input flags
	// libsvm is set for a fit of a LIBSVM file, zeroBased for one whose
	// feature indices start at 0.
	libsvm, zeroBased bool
	// aside is the fit's rule for the rows it set aside (nil for a CSV
	// basis or a fit that recorded none).
	aside *setAside
}

// inputRecord holds the input flags of a fit as given on its command line,
// which "ngca fit -json" records so that transform and plot read a file
// the way the fit did.
type inputRecord = fitfile.InputFlags

// selectColumns sets the reading options of the data to project on b, for
// the flags not set on the command line (set), as fitfile.Columns.Select
// says.
func (b *basisFile) selectColumns(opt *dataio.Options, set map[string]bool, keep dataio.Missing) {
	fitfile.Columns{Names: b.columns, Numbers: b.numbers, LabelColumn: b.labelColumn, Flags: b.flags,
		LIBSVM: b.libsvm, ZeroBased: b.zeroBased}.Select(opt, set, keep)
}

// matchNote says how the columns of a file with the given layout were
// matched to the rows of b when that was by position although one side
// has names; "" when they were matched by name or neither side has names.
func (b *basisFile) matchNote(layout dataio.Table, name string) string {
	switch {
	case len(b.columns) > 0 && !layout.Header:
		return fmt.Sprintf("%s has no header, so its data columns are taken by position as the fit's %s", name, abbrevList(b.columns, 6))
	case len(b.columns) == 0 && layout.Header && b.numbers == nil:
		return fmt.Sprintf("the basis %s does not name its columns, so the data columns of %s are taken by position: %s", b.name, name, abbrevList(layout.Names, 6))
	}
	return ""
}

// abbrevList lists items as "a, b, c" with at most k of them shown.
func abbrevList(items []string, k int) string {
	if len(items) <= k {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s, … (%d in all)", strings.Join(items[:k], ", "), len(items))
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
	if b, ok, err := readNamedBasis(path, data); ok || err != nil {
		return b, err
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

// Basis CSV files: the header's first cell says what the first column
// holds, the columns' header names or their 1-based numbers.
const (
	basisNameHead   = "column"
	basisNumberHead = "column_number"
)

// readNamedBasis reads the CSV basis that names its rows (ok is false if
// data is not one: its first cell is not a basisNameHead or
// basisNumberHead header).
func readNamedBasis(path string, data []byte) (b *basisFile, ok bool, err error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	head, err := r.Read()
	if err != nil || len(head) < 2 {
		return nil, false, nil
	}
	byNumber := strings.TrimSpace(head[0]) == basisNumberHead
	if !byNumber && strings.TrimSpace(head[0]) != basisNameHead {
		return nil, false, nil
	}
	recs, err := r.ReadAll()
	if err != nil {
		return nil, true, fmt.Errorf("%s: %v", path, err)
	}
	m := len(head) - 1
	if len(recs) == 0 {
		return nil, true, fmt.Errorf("%s: a header and no basis rows", path)
	}
	b = &basisFile{name: path, basis: mat.NewDense(len(recs), m, nil)}
	for i, rec := range recs {
		if len(rec) != m+1 {
			return nil, true, fmt.Errorf("%s: basis row %d has %d fields, want %d (a column and %d numbers)", path, i+1, len(rec), m+1, m)
		}
		col := strings.TrimSpace(rec[0])
		if byNumber {
			k, err := strconv.Atoi(col)
			if err != nil || k < 1 {
				return nil, true, fmt.Errorf("%s: basis row %d: %q is not a column number", path, i+1, col)
			}
			b.numbers = append(b.numbers, k)
		} else {
			b.columns = append(b.columns, col)
		}
		for k, c := range rec[1:] {
			v, err := strconv.ParseFloat(strings.TrimSpace(c), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, true, fmt.Errorf("%s: basis row %d (%s), column %d: %q is not a finite number", path, i+1, col, k+2, c)
			}
			b.basis.Set(i, k, v)
		}
	}
	if err := distinctColumns(path, b.columns, b.numbers); err != nil {
		return nil, true, err
	}
	return b, true, nil
}

// distinctColumns returns an error if a column name or number is given to
// two rows of a basis: the data column would be projected twice.
func distinctColumns(path string, names []string, numbers []int) error {
	seen := map[string]bool{}
	for i, nm := range names {
		if seen[nm] {
			return fmt.Errorf("%s: basis row %d names column %q again", path, i+1, nm)
		}
		seen[nm] = true
	}
	nums := map[int]bool{}
	for i, k := range numbers {
		if nums[k] {
			return fmt.Errorf("%s: basis row %d names column %d again", path, i+1, k)
		}
		nums[k] = true
	}
	return nil
}

// writeBasisCSV writes the basis of a fit to the data columns of t as CSV:
// a header "column,c1,…,cM" ("column_number" without header names), then
// a line per data column, its name (or number) and its M numbers.
func writeBasisCSV(w *bufio.Writer, basis mat.Matrix, t *dataio.Table) error {
	d, m := basis.Dims()
	head := []string{basisNameHead}
	names := t.Names
	if names == nil {
		head[0] = basisNumberHead
		names = make([]string, d)
		for j := range names {
			names[j] = strconv.Itoa(t.Fields[j])
		}
	}
	for k := 0; k < m; k++ {
		head = append(head, "c"+strconv.Itoa(k+1))
	}
	cw := csv.NewWriter(w)
	cw.Write(head)
	rec := make([]string, m+1)
	for j := 0; j < d; j++ {
		rec[0] = names[j]
		for k := 0; k < m; k++ {
			rec[k+1] = strconv.FormatFloat(basis.At(j, k), 'g', -1, 64)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func readBasisJSON(path string, data []byte) (*basisFile, error) {
	var j struct {
		Method        string        `json:"method"`
		Label         string        `json:"label"`
		Format        string        `json:"format"`
		Columns       []string      `json:"columns"`
		ColumnNumbers []int         `json:"column_numbers"`
		ZeroBased     bool          `json:"zero_based"`
		InputFlags    inputRecord   `json:"input_flags"`
		LabelColumn   string        `json:"label_column"`
		Basis         [][]*float64  `json:"basis"`
		Eigenvalues   []jsonEntry   `json:"eigenvalues"`
		Mean          []*float64    `json:"mean"`
		SetAside      *setAsideJSON `json:"set_aside"`
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
	bf := &basisFile{name: path, basis: b, label: estimatorLabel(j.Method, j.Label), columns: j.Columns, labelColumn: j.LabelColumn, flags: j.InputFlags,
		libsvm: j.Format == "libsvm", zeroBased: j.ZeroBased}
	if len(j.ColumnNumbers) == d && j.Columns == nil {
		bf.numbers = j.ColumnNumbers
	}
	if bf.columns != nil && len(bf.columns) != d {
		return nil, fmt.Errorf("%s: \"columns\" names %d columns for a basis of %d rows", path, len(bf.columns), d)
	}
	if err := distinctColumns(path, bf.columns, bf.numbers); err != nil {
		return nil, err
	}
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
	if bf.aside, err = readSetAside(j.SetAside, j.ColumnNumbers, d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
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
