package libsvm

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/research/internal/libsvm/libsvmtest"
)

// requireLIBSVM skips the test when LIBSVM cannot be loaded (see libsvmtest).
func requireLIBSVM(t *testing.T) { t.Helper(); libsvmtest.Require(t, Available()) }

// blobs returns n rows of two d-dimensional Gaussian classes (labels +1
// and −1, alternating) whose means are sep apart along every axis.
func blobs(src rand.Source, n, d int, sep float64) (*mat.Dense, []float64) {
	rng := rand.New(src)
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range y {
		y[i] = float64(1 - 2*(i%2))
		for j := 0; j < d; j++ {
			x.Set(i, j, y[i]*sep/2+rng.NormFloat64())
		}
	}
	return x, y
}

func errors01(pred, y []float64) int {
	k := 0
	for i := range y {
		if pred[i] != y[i] {
			k++
		}
	}
	return k
}

func TestAvailable(t *testing.T) {
	err := Available()
	if err != nil {
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "apt-get install libsvm-dev") {
			t.Errorf("Available() = %v, want ErrUnavailable with an install hint", err)
		}
		libsvmtest.Require(t, err)
	}
	v, name, err := Version()
	if err != nil || v < 300 || v >= 400 || name == "" {
		t.Errorf("Version() = %d, %q, %v", v, name, err)
	}
	t.Logf("LIBSVM %d loaded as %s; ABI declarations checked against the header at build time: %v", v, name, headerChecked())
}

func TestParamsAndDataChecks(t *testing.T) {
	p, err := Params{}.withDefaults(4)
	if err != nil || p.C != 1 || p.Gamma != 0.25 || p.CacheSize != 100 || p.Eps != 1e-3 || p.NoShrinking {
		t.Errorf("defaults for 4 features: %+v, %v", p, err)
	}
	p, err = Params{C: 3, Gamma: 0.5}.withDefaults(4)
	if err != nil || p.C != 3 || p.Gamma != 0.5 {
		t.Errorf("explicit values: %+v, %v", p, err)
	}
	for _, bad := range []Params{{C: -1}, {Gamma: math.NaN()}, {Eps: math.Inf(1)}, {CacheSize: -5}} {
		if _, err := bad.withDefaults(3); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	x := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	for _, tc := range []struct {
		x   mat.Matrix
		y   []float64
		msg string
	}{
		{nil, nil, "nil"},
		{x, []float64{1}, "1 labels for 2 rows"},
		{x, []float64{1, 0.5}, "not an integer"},
		{mat.NewDense(2, 2, []float64{1, math.NaN(), 3, 4}), []float64{1, -1}, "row 0, column 1"},
	} {
		if _, _, err := checkData(tc.x, tc.y); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("checkData: %v, want %q", err, tc.msg)
		}
		if Available() == nil {
			if _, err := Train(tc.x, tc.y, Params{}); err == nil {
				t.Errorf("Train accepted bad data (%s)", tc.msg)
			}
		}
	}
}

func TestSeparable(t *testing.T) {
	requireLIBSVM(t)
	x, y := blobs(rand.NewPCG(1, 2), 200, 5, 8)
	xt, yt := blobs(rand.NewPCG(3, 4), 200, 5, 8)
	m, err := Train(x, y, Params{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, tc := range []struct {
		name string
		x    *mat.Dense
		y    []float64
	}{{"training", x, y}, {"test", xt, yt}} {
		pred, err := m.Predict(tc.x)
		if err != nil {
			t.Fatal(err)
		}
		if k := errors01(pred, tc.y); k != 0 {
			t.Errorf("%s: %d errors on separable classes", tc.name, k)
		}
	}
	if k := m.NumSV(); k < 2 || k > 100 {
		t.Errorf("%d support vectors", k)
	}
}

// TestParamsPassed checks that C and γ reach LIBSVM: on overlapping
// classes they change the support vectors and the predictions.
func TestParamsPassed(t *testing.T) {
	requireLIBSVM(t)
	x, y := blobs(rand.NewPCG(5, 6), 300, 4, 1)
	xt, _ := blobs(rand.NewPCG(7, 8), 300, 4, 1)
	fit := func(p Params) (int, []float64) {
		m, err := Train(x, y, p)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		pred, err := m.Predict(xt)
		if err != nil {
			t.Fatal(err)
		}
		return m.NumSV(), pred
	}
	sv0, p0 := fit(Params{})
	svGamma, pGamma := fit(Params{Gamma: 1.0 / 4}) // the default for 4 features
	if sv0 != svGamma || errors01(p0, pGamma) != 0 {
		t.Errorf("Gamma 0 and Gamma 1/d differ: %d vs %d support vectors", sv0, svGamma)
	}
	svC, pC := fit(Params{C: 100})
	svG, pG := fit(Params{Gamma: 20})
	if sv0 == svC || errors01(p0, pC) == 0 {
		t.Errorf("C = 100 changed nothing (%d vs %d support vectors)", svC, sv0)
	}
	if sv0 == svG || errors01(p0, pG) == 0 {
		t.Errorf("γ = 20 changed nothing (%d vs %d support vectors)", svG, sv0)
	}
}

// TestAgainstSVMTrain compares with LIBSVM's own command-line tools
// (Debian's libsvm-tools; .ci/run installs them).
func TestAgainstSVMTrain(t *testing.T) {
	requireLIBSVM(t)
	train, err1 := exec.LookPath("svm-train")
	predict, err2 := exec.LookPath("svm-predict")
	if err := errors.Join(err1, err2); err != nil {
		libsvmtest.Require(t, fmt.Errorf("LIBSVM's tools (apt-get install libsvm-tools): %w", err))
	}
	x, y := blobs(rand.NewPCG(9, 10), 250, 6, 1.2)
	xt, yt := blobs(rand.NewPCG(11, 12), 150, 6, 1.2)
	dir := t.TempDir()
	write := func(name string, x *mat.Dense, y []float64) string {
		var b bytes.Buffer
		if err := dataio.WriteLIBSVM(&b, x, y); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	trainFile, testFile := write("train", x, y), write("test", xt, yt)
	for _, tc := range []struct {
		p    Params
		args []string
	}{
		{Params{}, nil},
		{Params{C: 10, Gamma: 0.05}, []string{"-c", "10", "-g", "0.05"}},
	} {
		model, out := filepath.Join(dir, "model"), filepath.Join(dir, "out")
		args := append(append([]string{"-q"}, tc.args...), trainFile, model)
		if b, err := exec.Command(train, args...).CombinedOutput(); err != nil {
			t.Fatalf("svm-train: %v\n%s", err, b)
		}
		if b, err := exec.Command(predict, "-q", testFile, model, out).CombinedOutput(); err != nil {
			t.Fatalf("svm-predict: %v\n%s", err, b)
		}
		want := readNumbers(t, out)
		totalSV := -1
		mb, _ := os.ReadFile(model)
		for _, line := range strings.Split(string(mb), "\n") {
			if v, ok := strings.CutPrefix(line, "total_sv "); ok {
				totalSV, _ = strconv.Atoi(v)
			}
		}

		m, err := Train(x, y, tc.p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Predict(xt)
		if err != nil {
			t.Fatal(err)
		}
		if m.NumSV() != totalSV {
			t.Errorf("%+v: %d support vectors, svm-train %d", tc.p, m.NumSV(), totalSV)
		}
		if len(got) != len(want) || errors01(got, want) != 0 {
			t.Errorf("%+v: predictions differ from svm-predict's in %d of %d rows", tc.p, errors01(got, want), len(want))
		}
		t.Logf("%+v: %d support vectors, %d test errors, as svm-train/svm-predict", tc.p, m.NumSV(), errors01(got, yt))
		m.Close()
	}
}

func readNumbers(t *testing.T, path string) []float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v []float64
	for _, f := range strings.Fields(string(b)) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatal(err)
		}
		v = append(v, x)
	}
	return v
}

// TestConcurrent trains and predicts from several goroutines at once and
// checks the results match a serial run.
func TestConcurrent(t *testing.T) {
	requireLIBSVM(t)
	x, y := blobs(rand.NewPCG(13, 14), 200, 5, 1.5)
	ref, err := Train(x, y, Params{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ref.Predict(x)
	ref.Close()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rep := 0; rep < 5; rep++ {
				m, err := Train(x, y, Params{})
				if err != nil {
					errs[g] = err
					return
				}
				got, err := m.Predict(x)
				m.Close()
				if err != nil || errors01(got, want) != 0 {
					errs[g] = fmt.Errorf("goroutine %d: %v, %d predictions differ", g, err, errors01(got, want))
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestModelMisuse(t *testing.T) {
	requireLIBSVM(t)
	x, y := blobs(rand.NewPCG(15, 16), 40, 3, 4)
	m, err := Train(x, y, Params{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(mat.NewDense(2, 4, nil)); err == nil || !strings.Contains(err.Error(), "trained on 3") {
		t.Errorf("wrong width: %v", err)
	}
	m.Close()
	m.Close()
	if _, err := m.Predict(x); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Predict after Close: %v", err)
	}
}

// TestSilent checks that training prints nothing on standard output
// (LIBSVM's default is to print "*" and "optimization finished"), by
// training in a child process and reading its output.
func TestSilent(t *testing.T) {
	if os.Getenv("NGCA_LIBSVM_SILENT_CHILD") == "1" {
		x, y := blobs(rand.NewPCG(17, 18), 300, 4, 1)
		m, err := Train(x, y, Params{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		m.Close()
		return
	}
	requireLIBSVM(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSilent$", "-test.count=1")
	cmd.Env = append(os.Environ(), "NGCA_LIBSVM_SILENT_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	if s := strings.TrimSpace(string(out)); s != "PASS" {
		t.Errorf("training printed on stdout: %q", s)
	}
}
