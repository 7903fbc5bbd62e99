package ngca

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
// with 1-based feature indices. Features not listed are zero. Blank lines
// and text after a '#' are ignored. It returns the n×d data (rows are
// observations) and the n labels. features fixes d; 0 means d is the
// largest index in the data.
//
// A malformed line, an index below 1 or above features, a repeated index
// within a line, or a non-finite value is an error wrapping ErrFormat that
// gives the line and column (1-based, in bytes) of the problem. Empty
// input is an error wrapping ErrShape.
func ReadLIBSVM(r io.Reader, features int) (x *mat.Dense, labels []float64, err error) {
	if features < 0 {
		return nil, nil, fmt.Errorf("%w: features = %d", ErrParam, features)
	}
	type entry struct {
		j int
		v float64
	}
	var rows [][]entry
	d := features
	br := bufio.NewReaderSize(r, 1<<16)
	for lineNo := 1; ; lineNo++ {
		line, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return nil, nil, fmt.Errorf("ngca: reading LIBSVM data, line %d: %w", lineNo, rerr)
		}
		if rerr == io.EOF && line == "" {
			break
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields, cols := splitFields(line)
		if len(fields) > 0 {
			label, perr := strconv.ParseFloat(fields[0], 64)
			if perr != nil || math.IsNaN(label) || math.IsInf(label, 0) {
				return nil, nil, fmt.Errorf("%w: line %d, column %d: label %q is not a finite number", ErrFormat, lineNo, cols[0], fields[0])
			}
			row := make([]entry, 0, len(fields)-1)
			seen := make(map[int]bool, len(fields)-1)
			for k, f := range fields[1:] {
				col := cols[k+1]
				is, vs, ok := strings.Cut(f, ":")
				if !ok {
					return nil, nil, fmt.Errorf("%w: line %d, column %d: %q is not index:value", ErrFormat, lineNo, col, f)
				}
				j, perr := strconv.Atoi(is)
				if perr != nil || j < 1 {
					return nil, nil, fmt.Errorf("%w: line %d, column %d: feature index %q is not an integer ≥ 1", ErrFormat, lineNo, col, is)
				}
				if features > 0 && j > features {
					return nil, nil, fmt.Errorf("%w: line %d, column %d: feature index %d exceeds %d features", ErrFormat, lineNo, col, j, features)
				}
				if seen[j] {
					return nil, nil, fmt.Errorf("%w: line %d, column %d: feature index %d repeated", ErrFormat, lineNo, col, j)
				}
				seen[j] = true
				v, perr := strconv.ParseFloat(vs, 64)
				if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, nil, fmt.Errorf("%w: line %d, column %d: value %q is not a finite number", ErrFormat, lineNo, col+len(is)+1, vs)
				}
				row = append(row, entry{j - 1, v})
				d = max(d, j)
			}
			rows = append(rows, row)
			labels = append(labels, label)
		}
		if rerr == io.EOF {
			break
		}
	}
	if len(rows) == 0 || d == 0 {
		return nil, nil, fmt.Errorf("%w: no LIBSVM data (%d rows, %d features)", ErrShape, len(rows), d)
	}
	x = mat.NewDense(len(rows), d, nil)
	for i, row := range rows {
		for _, e := range row {
			x.Set(i, e.j, e.v)
		}
	}
	return x, labels, nil
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
// format, omitting zero features. It panics if len(labels) is not the
// number of rows of x.
func WriteLIBSVM(w io.Writer, x mat.Matrix, labels []float64) error {
	n, d := x.Dims()
	if len(labels) != n {
		panic(mat.ErrShape)
	}
	bw := bufio.NewWriter(w)
	for i := 0; i < n; i++ {
		bw.WriteString(strconv.FormatFloat(labels[i], 'g', -1, 64))
		for j := 0; j < d; j++ {
			if v := x.At(i, j); v != 0 {
				fmt.Fprintf(bw, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
