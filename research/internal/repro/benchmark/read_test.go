package benchmark

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/research/internal/libsvm/libsvmtest"
)

// TestReadLIBSVMDatasets reads the committed slice of vehicle.scale, then
// the benchmark files of the paper's Table 2 from the folder NGCA_DATA
// names (they are not part of this repository; see libsvmtest.DataDir).
func TestReadLIBSVMDatasets(t *testing.T) {
	read := func(path string, features int) (*mat.Dense, []float64) {
		t.Helper()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		x, y, err := dataio.ReadLIBSVM(f, features)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return x, y
	}
	x, y := read(filepath.Join("testdata", "vehicle.scale"), 0)
	counts := map[float64]int{}
	for _, l := range y {
		counts[l]++
	}
	if n, d := x.Dims(); n != 120 || d != 18 || fmt.Sprint(counts) != "map[1:30 2:30 3:30 4:30]" {
		t.Errorf("vehicle slice: %d×%d, labels %v; want 120×18, 30 of each class", n, d, counts)
	}

	dir := libsvmtest.DataDir(t)
	for _, tc := range []struct {
		file string
		n, d int
	}{
		{"vehicle.scale", 846, 18}, {"svmguide1", 3089, 4}, {"svmguide1.t", 4000, 4},
		{"svmguide3", 1243, 21}, {"shuttle.trn", 43500, 9}, {"ijcnn1", 49990, 22},
	} {
		x, y := read(filepath.Join(dir, tc.file), 0)
		if n, d := x.Dims(); n != tc.n || d != tc.d || len(y) != n {
			t.Errorf("%s: %d×%d with %d labels, want %d×%d", tc.file, n, d, len(y), tc.n, tc.d)
		}
	}
}
