package dataio

import (
	"bufio"
	"errors"
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
// with feature indices in any order, from 1 (LIBSVM's convention) or, if
// some index is 0, from 0 (scikit-learn's dump_svmlight_file), as
// scikit-learn's load_svmlight_file detects them with zero_based="auto".
// Features not listed are zero. Blank lines and text after a '#' are
// ignored. It returns the n×d data (rows are observations; column j holds
// the feature of index j+1, or j in a zero-based file) and the n labels.
// features fixes d; 0 means d is the largest index in the data (plus 1 in
// a zero-based file).
//
// A label that is not a finite number, a field that is not index:value, a
// negative index, an index at or above features in a zero-based file and
// above it in a one-based one, an index repeated within a line and a value
// that is not a finite number are errors: *Error values whose Line and
// Column fields give the 1-based line and byte column of the problem.
// Input without data (empty, or only blank lines and comments) is an
// *Error matching ErrEmpty, and input whose lines hold only labels (with
// features 0) an *Error too, and so is data whose dense n×d matrix would
// hold more than 2²⁸ values. All of them match ErrFormat. The File field of
// these errors is empty; callers that know the file's name may set it.
// A negative features and a failing r are other errors.
func ReadLIBSVM(r io.Reader, features int) (x *mat.Dense, labels []float64, err error) {
	data, err := readLIBSVMRows(r, "", features, BaseAuto)
	if err != nil {
		return nil, nil, err
	}
	x = mat.NewDense(len(data.rows), data.d, nil)
	for i, row := range data.rows {
		for _, e := range row {
			x.Set(i, e.j, e.v)
		}
	}
	return x, data.labels, nil
}

// maxCells bounds the number of values, n·d, of the dense matrix that
// LIBSVM data are read into (2²⁸ values, 2 GiB): a short sparse line such
// as "1 4000000000:1" would otherwise ask for any amount of memory. Tests
// lower it.
var maxCells = 1 << 28

// libsvmEntry is a feature (0-based column) and its value.
type libsvmEntry struct {
	j int
	v float64
}

// libsvmData is LIBSVM data as sparse rows.
type libsvmData struct {
	rows      [][]libsvmEntry
	labels    []float64
	lines     []int // the 1-based line of every row
	d         int   // the number of features (columns)
	zeroBased bool
}

// readLIBSVMRows reads LIBSVM data as sparse rows, with feature indices
// from base (BaseAuto: from 0 if some index is 0); d is features, or the
// number of columns the largest index needs.
func readLIBSVMRows(r io.Reader, name string, features int, base Base) (*libsvmData, error) {
	if features < 0 {
		return nil, fmt.Errorf("ngca: LIBSVM features = %d, want 0 (as in the data) or more", features)
	}
	if features > maxCells {
		return nil, fmt.Errorf("ngca: LIBSVM features = %d exceeds the %d values a data matrix may hold", features, maxCells)
	}
	var (
		data = &libsvmData{zeroBased: base == BaseZero}
		seen = make(map[int]bool)
		// at is the position of the first index equal to features, an
		// error if the file turns out zero-based.
		at  error
		top = -1 // the largest index
	)
	low := 1 // the smallest index allowed
	if base != BaseOne {
		low = 0
	}
	br := bufio.NewReaderSize(r, 1<<16)
	for line := 1; ; line++ {
		text, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			var e *Error
			if errors.As(rerr, &e) {
				return nil, e
			}
			return nil, fmt.Errorf("ngca: reading LIBSVM data, line %d: %w", line, rerr)
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
				return nil, bad(cols[0], "label %q is not a finite number", fields[0])
			}
			row := make([]libsvmEntry, 0, len(fields)-1)
			clear(seen)
			n := len(data.rows) + 1
			for k, f := range fields[1:] {
				col := cols[k+1]
				is, vs, ok := strings.Cut(f, ":")
				if !ok {
					return nil, bad(col, "%q is not index:value", f)
				}
				j, err := strconv.Atoi(is)
				switch {
				case err != nil || j < low:
					return nil, bad(col, "feature index %q is not an integer ≥ %d", is, low)
				case features > 0 && (j > features || j == features && data.zeroBased):
					return nil, bad(col, "feature index %d exceeds %d features", j, features)
				case j > maxCells/n:
					return nil, bad(col, "feature index %d makes the data too large: %d rows of %d features exceed the %d values a data matrix may hold", j, n, j, maxCells)
				case seen[j]:
					return nil, bad(col, "feature index %d repeated", j)
				}
				seen[j] = true
				v, err := strconv.ParseFloat(vs, 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, bad(col+len(is)+1, "value %q is not a finite number", vs)
				}
				if features > 0 && j == features && at == nil {
					at = bad(col, "feature index %d exceeds the %d features of a zero-based file (indices 0 to %d)", j, features, features-1)
				}
				data.zeroBased = data.zeroBased || j == 0
				row = append(row, libsvmEntry{j, v})
				top = max(top, j)
			}
			need := max(features, top)
			if data.zeroBased {
				need = max(features, top+1)
			}
			if need > maxCells/n {
				return nil, bad(cols[0], "the data are too large: %d rows of %d features exceed the %d values a data matrix may hold", n, need, maxCells)
			}
			data.rows = append(data.rows, row)
			data.labels = append(data.labels, label)
			data.lines = append(data.lines, line)
		}
		if rerr == io.EOF {
			break
		}
	}
	switch {
	case len(data.rows) == 0:
		return nil, &Error{File: name, Msg: "no LIBSVM data (only blank lines and comments)", empty: true}
	case top < 0 && features == 0:
		return nil, &Error{File: name, Msg: "no LIBSVM features: every line holds only a label"}
	case data.zeroBased && at != nil:
		return nil, at
	}
	data.d = features
	if data.zeroBased {
		data.d = max(data.d, top+1)
		return data, nil
	}
	data.d = max(data.d, top)
	for _, row := range data.rows {
		for k := range row {
			row[k].j--
		}
	}
	return data, nil
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
