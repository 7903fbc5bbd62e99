package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestReadLIBSVM(t *testing.T) {
	in := "+1 1:0.5 3:-2\n-1\t2:1e-3   # comment\n\n# full-line comment\n1 3:4\r\n0 2:8 1:7" // no final newline
	x, y, err := ReadLIBSVM(strings.NewReader(in), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(4, 3, []float64{0.5, 0, -2, 0, 1e-3, 0, 0, 0, 4, 7, 8, 0})
	if !mat.Equal(x, want) {
		t.Errorf("x = %v, want %v", mat.Formatted(x), mat.Formatted(want))
	}
	if fmt.Sprint(y) != "[1 -1 1 0]" {
		t.Errorf("labels %v, want [1 -1 1 0]", y)
	}
	// A fixed number of features pads with zero columns.
	x, _, err = ReadLIBSVM(strings.NewReader(in), 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, d := x.Dims(); d != 5 {
		t.Errorf("d = %d, want 5", d)
	}
	// Lines with only a label are rows of zeros when features fixes d.
	x, _, err = ReadLIBSVM(strings.NewReader("1\n-1\n"), 2)
	if err != nil || !mat.Equal(x, mat.NewDense(2, 2, nil)) {
		t.Errorf("labels only, 2 features: %v, %v", x, err)
	}

	// Round trip.
	var buf bytes.Buffer
	if err := WriteLIBSVM(&buf, want, []float64{1, -1, 1, 0}); err != nil {
		t.Fatal(err)
	}
	if got, exp := buf.String(), "1 1:0.5 3:-2\n-1 2:0.001\n1 3:4\n0 1:7 2:8\n"; got != exp {
		t.Errorf("WriteLIBSVM wrote %q, want %q", got, exp)
	}
	back, labels, err := ReadLIBSVM(&buf, 3)
	if err != nil || !mat.Equal(back, want) || fmt.Sprint(labels) != "[1 -1 1 0]" {
		t.Errorf("round trip: %v, %v, %v", err, back, labels)
	}
	// Numbers come back exactly.
	odd := mat.NewDense(1, 2, []float64{math.Pi, -1e-300})
	buf.Reset()
	if err := WriteLIBSVM(&buf, odd, []float64{math.E}); err != nil {
		t.Fatal(err)
	}
	back, labels, err = ReadLIBSVM(&buf, 2)
	if err != nil || !mat.Equal(back, odd) || labels[0] != math.E {
		t.Errorf("round trip of %v: %v, %v, %v", mat.Formatted(odd), err, back, labels)
	}
}

// TestReadLIBSVMErrors checks that every malformed input gives an *Error
// whose fields locate the problem, matching ErrFormat, also once wrapped.
func TestReadLIBSVMErrors(t *testing.T) {
	for _, tc := range []struct {
		in           string
		features     int
		line, column int
		msg          string
		empty        bool
	}{
		{in: "1 1:2 x\n", line: 1, column: 7, msg: `"x" is not index:value`},
		{in: "1 1:2\nabc 1:2\n", line: 2, column: 1, msg: `label "abc" is not a finite number`},
		{in: "1 1:2\n\n  NaN 1:2\n", line: 3, column: 3, msg: `label "NaN" is not a finite number`},
		{in: "1 -1:2\n", line: 1, column: 3, msg: `feature index "-1" is not an integer ≥ 0`},
		{in: "1 a:2\n", line: 1, column: 3, msg: `feature index "a" is not an integer ≥ 0`},
		{in: "1 2:5\t2:6\n", line: 1, column: 7, msg: "feature index 2 repeated"},
		{in: "1 1:NaN\n", line: 1, column: 5, msg: `value "NaN" is not a finite number`},
		{in: "# c\n1 1:1 12:inf\n", line: 2, column: 10, msg: `value "inf" is not a finite number`},
		{in: "1 1:\n", line: 1, column: 5, msg: `value "" is not a finite number`},
		{in: "1 9:1\n", features: 4, line: 1, column: 3, msg: "feature index 9 exceeds 4 features"},
		{in: "", msg: "no LIBSVM data (only blank lines and comments)", empty: true},
		{in: "\n# nothing\n", msg: "no LIBSVM data (only blank lines and comments)", empty: true},
		{in: "1\n-1 # labels only\n", msg: "no LIBSVM features: every line holds only a label"},
	} {
		_, _, err := ReadLIBSVM(strings.NewReader(tc.in), tc.features)
		wrapped := fmt.Errorf("reading %q: %w", tc.in, err)
		var e *Error
		if !errors.As(wrapped, &e) {
			t.Errorf("%q: error %v (%T) is not an *Error", tc.in, err, err)
			continue
		}
		if e.Line != tc.line || e.Column != tc.column || e.Msg != tc.msg || e.File != "" || e.Field != 0 {
			t.Errorf("%q: error at line %d, column %d, file %q, field %d, message %q; want line %d, column %d, message %q",
				tc.in, e.Line, e.Column, e.File, e.Field, e.Msg, tc.line, tc.column, tc.msg)
		}
		if !errors.Is(wrapped, ErrFormat) {
			t.Errorf("%q: error %v does not match ErrFormat", tc.in, err)
		}
		if errors.Is(wrapped, ErrEmpty) != tc.empty {
			t.Errorf("%q: errors.Is(err, ErrEmpty) = %v, want %v", tc.in, !tc.empty, tc.empty)
		}
		want := "ngca: " + tc.msg
		if tc.line > 0 {
			want = fmt.Sprintf("ngca: line %d, column %d: %s", tc.line, tc.column, tc.msg)
		}
		if err.Error() != want {
			t.Errorf("%q: message %q, want %q", tc.in, err, want)
		}
	}

	// Through Read, the errors name the file and keep their position.
	_, err := Read(strings.NewReader("1 1:2\n1 1:2 2:x\n"), "d.svm", Options{})
	var e *Error
	if !errors.As(err, &e) || e.File != "d.svm" || e.Line != 2 || e.Column != 9 || err.Error() != `d.svm:2:9: value "x" is not a finite number` {
		t.Errorf("Read: %v", err)
	}

	if _, _, err := ReadLIBSVM(strings.NewReader("1 1:2\n"), -1); err == nil || errors.As(err, &e) || !strings.HasPrefix(err.Error(), "ngca: ") {
		t.Errorf("features = -1: error %v, want a parameter error", err)
	}
	broken := errors.New("disk on fire")
	if _, _, err := ReadLIBSVM(&failingReader{data: "1 1:2\n", err: broken}, 0); !errors.Is(err, broken) || errors.Is(err, ErrFormat) {
		t.Errorf("failing reader: %v", err)
	}
}

// failingReader returns data, then err.
type failingReader struct {
	data string
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestWriteLIBSVMErrors(t *testing.T) {
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	for _, tc := range []struct {
		x      mat.Matrix
		labels []float64
		msg    string
	}{
		{x, []float64{1}, "ngca: WriteLIBSVM: 1 labels for 2 rows"},
		{x, []float64{1, math.NaN()}, "ngca: WriteLIBSVM: label 2 is NaN"},
		{mat.NewDense(2, 2, []float64{1, 2, math.Inf(-1), 4}), []float64{1, 2}, "ngca: WriteLIBSVM: row 2, feature 1 is -Inf"},
	} {
		var buf bytes.Buffer
		err := WriteLIBSVM(&buf, tc.x, tc.labels)
		if err == nil || err.Error() != tc.msg || buf.Len() != 0 {
			t.Errorf("WriteLIBSVM(%v, %v): error %v, wrote %q; want %q and nothing", mat.Formatted(tc.x), tc.labels, err, buf.String(), tc.msg)
		}
	}
	broken := errors.New("disk full")
	if err := WriteLIBSVM(failingWriter{broken}, x, []float64{1, 2}); !errors.Is(err, broken) {
		t.Errorf("failing writer: %v", err)
	}
}

// failingWriter fails every write with its error.
type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestReadLIBSVMTooLarge: a short line with a huge feature index, or many
// short lines with a large one, would ask for a dense matrix of any size;
// beyond maxCells values it is an error at the line and column of the
// field that crossed the limit.
func TestReadLIBSVMTooLarge(t *testing.T) {
	old := maxCells
	maxCells = 1000
	defer func() { maxCells = old }()
	for _, tc := range []struct {
		data     string
		features int
		want     string
	}{
		{"1 1:1\n1 99999999999:1\n", 0, "ngca: line 2, column 3: feature index 99999999999 makes the data too large"},
		{"1 1:1\n1 1001:1\n", 0, "ngca: line 2, column 3: feature index 1001 makes the data too large"},
		{"1 400:1\n1 1:1\n1 1:1\n", 0, "ngca: line 3, column 1: the data are too large: 3 rows of 400 features"},
		{"1 1:1\n", 1001, "ngca: LIBSVM features = 1001 exceeds"},
	} {
		_, _, err := ReadLIBSVM(strings.NewReader(tc.data), tc.features)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ReadLIBSVM(%q, %d): error %v, want %q", tc.data, tc.features, err, tc.want)
		}
	}
	if x, _, err := ReadLIBSVM(strings.NewReader("1 1000:1\n"), 0); err != nil || x.RawMatrix().Cols != 1000 {
		t.Errorf("1 row of 1000 features (the limit): %v", err)
	}
}
