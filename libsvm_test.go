package ngca_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
)

func TestReadLIBSVM(t *testing.T) {
	in := "+1 1:0.5 3:-2\n-1\t2:1e-3   # comment\n\n# full-line comment\n1 3:4\r\n0 1:7 2:8" // no final newline
	x, y, err := ngca.ReadLIBSVM(strings.NewReader(in), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(4, 3, []float64{0.5, 0, -2, 0, 1e-3, 0, 0, 0, 4, 7, 8, 0})
	if !mat.Equal(x, want) {
		t.Errorf("x = %v, want %v", mat.Formatted(x), mat.Formatted(want))
	}
	if len(y) != 4 || y[0] != 1 || y[1] != -1 || y[2] != 1 || y[3] != 0 {
		t.Errorf("labels %v", y)
	}
	// A fixed number of features pads with zero columns.
	x, _, err = ngca.ReadLIBSVM(strings.NewReader(in), 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, d := x.Dims(); d != 5 {
		t.Errorf("d = %d, want 5", d)
	}

	// Round trip.
	var buf bytes.Buffer
	if err := ngca.WriteLIBSVM(&buf, want, []float64{1, -1, 1, 0}); err != nil {
		t.Fatal(err)
	}
	back, _, err := ngca.ReadLIBSVM(&buf, 3)
	if err != nil || !mat.Equal(back, want) {
		t.Errorf("round trip: %v, %v", err, back)
	}
}

func TestReadLIBSVMErrors(t *testing.T) {
	for _, tc := range []struct {
		in, msg string
		want    error
	}{
		{"1 1:2 x\n", "line 1, column 7", ngca.ErrFormat},
		{"1 1:2\nabc 1:2\n", "line 2, column 1: label", ngca.ErrFormat},
		{"1 0:2\n", "index \"0\"", ngca.ErrFormat},
		{"1 2:5 2:6\n", "repeated", ngca.ErrFormat},
		{"1 1:NaN\n", "line 1, column 5: value", ngca.ErrFormat},
		{"1 1:inf\n", "not a finite", ngca.ErrFormat},
		{"1 9:1\n", "exceeds 4 features", ngca.ErrFormat},
		{"", "no LIBSVM data", ngca.ErrShape},
		{"\n# nothing\n", "no LIBSVM data", ngca.ErrShape},
	} {
		_, _, err := ngca.ReadLIBSVM(strings.NewReader(tc.in), 4*boolInt(strings.Contains(tc.msg, "exceeds")))
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %v, want %v containing %q", tc.in, err, tc.want, tc.msg)
		}
	}
}

// TestReadLIBSVMDatasets reads the benchmark files of the paper's Table 2
// when they are available (they are not part of this repository).
func TestReadLIBSVMDatasets(t *testing.T) {
	dir := filepath.Join("..", "shared", "datasets")
	for _, tc := range []struct {
		file string
		n, d int
	}{{"vehicle.scale", 846, 18}, {"svmguide1", 3089, 4}, {"svmguide3", 1243, 21}} {
		f, err := os.Open(filepath.Join(dir, tc.file))
		if err != nil {
			t.Logf("%s not available: %v", tc.file, err)
			continue
		}
		x, y, err := ngca.ReadLIBSVM(f, 0)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if n, d := x.Dims(); n != tc.n || d != tc.d || len(y) != n {
			t.Errorf("%s: %d×%d with %d labels, want %d×%d", tc.file, n, d, len(y), tc.n, tc.d)
		}
	}
}
