package dataio

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ReadLIBSVM reads labelled data in LIBSVM's sparse text format (Chang and
// Lin), one observation per line:
//
//	label index:value index:value ...
//
// with 1-based feature indices, in any order. Features not listed are
// zero. Blank lines and text after a '#' are ignored. It returns the n×d
// data (rows are observations) and the n labels. features fixes d; 0 means
// d is the largest index in the data.
//
// A label that is not a finite number, a field that is not index:value, an
// index below 1 or above features, an index repeated within a line and a
// value that is not a finite number are errors: *Error values whose Line
// and Column fields give the 1-based line and byte column of the problem.
// Input without data (empty, or only blank lines and comments) is an
// *Error matching ErrEmpty, and input whose lines hold only labels (with
// features 0) an *Error too, and so is data whose dense n×d matrix would
// hold more than 2²⁸ values. All of them match ErrFormat. The File field of
// these errors is empty; callers that know the file's name may set it.
// A negative features and a failing r are other errors.
func ReadLIBSVM(r io.Reader, features int) (x *mat.Dense, labels []float64, err error) {
	return readLIBSVMData(r, "", features)
}

// maxCells bounds the number of values, n·d, of the dense matrix that
// LIBSVM data are read into (2²⁸ values, 2 GiB): a short sparse line such
// as "1 4000000000:1" would otherwise ask for any amount of memory. Tests
// lower it.
var maxCells = 1 << 28

// readLIBSVMData is ReadLIBSVM for the file name, which its errors give.
func readLIBSVMData(r io.Reader, name string, features int) (*mat.Dense, []float64, error) {
	rows, labels, d, err := readLIBSVMRows(r, name, features)
	if err != nil {
		return nil, nil, err
	}
	x := mat.NewDense(len(rows), d, nil)
	for i, row := range rows {
		for _, e := range row {
			x.Set(i, e.j, e.v)
		}
	}
	return x, labels, nil
}

// libsvmEntry is a feature (0-based) and its value.
type libsvmEntry struct {
	j int
	v float64
}

// readLIBSVMRows reads LIBSVM data as sparse rows; d is the number of
// features (features, or the largest index).
func readLIBSVMRows(r io.Reader, name string, features int) ([][]libsvmEntry, []float64, int, error) {
	if features < 0 {
		return nil, nil, 0, fmt.Errorf("ngca: LIBSVM features = %d, want 0 (as in the data) or more", features)
	}
	if features > maxCells {
		return nil, nil, 0, fmt.Errorf("ngca: LIBSVM features = %d exceeds the %d values a data matrix may hold", features, maxCells)
	}
	var (
		rows   [][]libsvmEntry
		labels []float64
		seen   = make(map[int]bool)
	)
	d := features
	br := bufio.NewReaderSize(r, 1<<16)
	for line := 1; ; line++ {
		text, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return nil, nil, 0, fmt.Errorf("ngca: reading LIBSVM data, line %d: %w", line, rerr)
		}
		if rerr == io.EOF && text == "" {
			break
		}
		bad := func(col int, format string, a ...any) error {
			return &Error{File: name, Line: line, Column: col, Msg: fmt.Sprintf(format, a...)}
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields, cols := splitFields(text)
		if len(fields) > 0 {
			label, err := strconv.ParseFloat(fields[0], 64)
			if err != nil || math.IsNaN(label) || math.IsInf(label, 0) {
				return nil, nil, 0, bad(cols[0], "label %q is not a finite number", fields[0])
			}
			row := make([]libsvmEntry, 0, len(fields)-1)
			clear(seen)
			for k, f := range fields[1:] {
				col := cols[k+1]
				is, vs, ok := strings.Cut(f, ":")
				if !ok {
					return nil, nil, 0, bad(col, "%q is not index:value", f)
				}
				j, err := strconv.Atoi(is)
				switch {
				case err != nil || j < 1:
					return nil, nil, 0, bad(col, "feature index %q is not an integer ≥ 1", is)
				case features > 0 && j > features:
					return nil, nil, 0, bad(col, "feature index %d exceeds %d features", j, features)
				case j > maxCells/(len(rows)+1):
					return nil, nil, 0, bad(col, "feature index %d makes the data too large: %d rows of %d features exceed the %d values a data matrix may hold", j, len(rows)+1, j, maxCells)
				case seen[j]:
					return nil, nil, 0, bad(col, "feature index %d repeated", j)
				}
				seen[j] = true
				v, err := strconv.ParseFloat(vs, 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, nil, 0, bad(col+len(is)+1, "value %q is not a finite number", vs)
				}
				row = append(row, libsvmEntry{j - 1, v})
				d = max(d, j)
			}
			if d > maxCells/(len(rows)+1) {
				return nil, nil, 0, bad(cols[0], "the data are too large: %d rows of %d features exceed the %d values a data matrix may hold", len(rows)+1, d, maxCells)
			}
			rows = append(rows, row)
			labels = append(labels, label)
		}
		if rerr == io.EOF {
			break
		}
	}
	switch {
	case len(rows) == 0:
		return nil, nil, 0, &Error{File: name, Msg: "no LIBSVM data (only blank lines and comments)", empty: true}
	case d == 0:
		return nil, nil, 0, &Error{File: name, Msg: "no LIBSVM features: every line holds only a label"}
	}
	return rows, labels, d, nil
}

// splitFields splits s at runs of spaces and tabs (and drops a trailing
// "\r\n"), returning the fields and their 1-based starting byte columns.
func splitFields(s string) (fields []string, cols []int) {
	s = strings.TrimRight(s, "\r\n")
	start := -1
	for i := 0; i <= len(s); i++ {
		sep := i == len(s) || s[i] == ' ' || s[i] == '\t'
		switch {
		case sep && start >= 0:
			fields, cols = append(fields, s[start:i]), append(cols, start+1)
			start = -1
		case !sep && start < 0:
			start = i
		}
	}
	return fields, cols
}

// WriteLIBSVM writes the rows of x with their labels in LIBSVM's sparse
// format, one line per row, omitting zero features. Numbers are written in
// the shortest form that reads back to the same float64, so ReadLIBSVM
// with the number of columns of x as features returns x and labels.
//
// If len(labels) is not the number of rows of x, or a label or an entry
// of x is NaN or ±Inf (which LIBSVM files cannot hold), it returns an
// error and writes nothing.
func WriteLIBSVM(w io.Writer, x mat.Matrix, labels []float64) error {
	n, d := x.Dims()
	if len(labels) != n {
		return fmt.Errorf("ngca: WriteLIBSVM: %d labels for %d rows", len(labels), n)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for i := range n {
		if !finite(labels[i]) {
			return fmt.Errorf("ngca: WriteLIBSVM: label %d is %v", i+1, labels[i])
		}
		for j := range d {
			if v := x.At(i, j); !finite(v) {
				return fmt.Errorf("ngca: WriteLIBSVM: row %d, feature %d is %v", i+1, j+1, v)
			}
		}
	}
	bw := bufio.NewWriter(w)
	var line []byte
	for i := range n {
		line = strconv.AppendFloat(line[:0], labels[i], 'g', -1, 64)
		for j := range d {
			if v := x.At(i, j); v != 0 {
				line = append(line, ' ')
				line = strconv.AppendInt(line, int64(j+1), 10)
				line = append(line, ':')
				line = strconv.AppendFloat(line, v, 'g', -1, 64)
			}
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}
