package benchmark

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/research/internal/libsvm/libsvmtest"
)

func TestLabelMapping(t *testing.T) {
	vehicle, _ := Lookup("vehicle")
	x := mat.NewDense(5, 18, nil)
	for i := 0; i < 5; i++ {
		x.Set(i, 0, float64(i))
	}
	got, err := vehicle.preprocess([]*mat.Dense{x.Slice(0, 4, 0, 18).(*mat.Dense)}, []float64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{1, -1, 1, -1}; !equal(got.Y, want) {
		t.Errorf("vehicle labels 1,2,3,4 → %v, want %v ({1,3} positive, as the authors' code)", got.Y, want)
	}
	if _, err := vehicle.preprocess([]*mat.Dense{x}, []float64{1, 2, 3, 4, 5}); err == nil || !strings.Contains(err.Error(), "label 5") {
		t.Errorf("unknown vehicle label: %v", err)
	}

	shuttle, _ := Lookup("shuttle")
	xs := mat.NewDense(7, 9, nil)
	for i := 0; i < 7; i++ {
		xs.Set(i, 0, float64(i+1))
	}
	got, err = shuttle.preprocess([]*mat.Dense{xs}, []float64{1, 2, 3, 4, 5, 6, 7})
	if err != nil {
		t.Fatal(err)
	}
	if !equal(got.Y, []float64{1, -1}) || got.X.At(0, 0) != 1 || got.X.At(1, 0) != 4 {
		t.Errorf("shuttle keeps classes 1 and 4 only: labels %v, first column %v", got.Y, mat.Col(nil, 0, got.X))
	}

	for _, tc := range []struct {
		name     string
		pos, neg float64
	}{{"svmguide3", 1, -1}, {"ijcnn1", 1, -1}, {"svmguide1", 1, 0}} {
		ds, _ := Lookup(tc.name)
		got, err := ds.preprocess([]*mat.Dense{mat.NewDense(2, ds.Features, nil)}, []float64{tc.neg, tc.pos})
		if err != nil || !equal(got.Y, []float64{-1, 1}) {
			t.Errorf("%s: %v, %v", tc.name, got, err)
		}
	}
}

// TestSvmguide1Merge reads a tiny svmguide1 pair: the training and test
// files are concatenated and the last of the four features is dropped.
func TestSvmguide1Merge(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "svmguide1", "1 1:1 2:2 3:3 4:4\n0 1:5 2:6 3:7 4:8") // no final newline, as the real file
	write(t, dir, "svmguide1.t", "0 1:9 2:10 4:12\n1 1:13 2:14 3:15 4:16\n")
	ds, _ := Lookup("svmguide1")
	got, err := ds.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(4, 3, []float64{1, 2, 3, 5, 6, 7, 9, 10, 0, 13, 14, 15})
	if !mat.Equal(got.X, want) || !equal(got.Y, []float64{1, -1, -1, 1}) {
		t.Errorf("merged svmguide1:\n%v\nlabels %v", mat.Formatted(got.X), got.Y)
	}

	empty := t.TempDir()
	_, err = ds.Load(empty)
	var me *MissingDataError
	if !errors.As(err, &me) || me.Dir != empty || strings.Join(me.Files, ",") != "svmguide1,svmguide1.t" {
		t.Errorf("missing files: %v", err)
	}
	write(t, empty, "svmguide1", "1 1:1\n")
	if _, err = ds.Load(empty); !errors.As(err, &me) || strings.Join(me.Files, ",") != "svmguide1.t" {
		t.Errorf("a missing file: %v", err)
	}
	write(t, dir, "svmguide1.t", "1 1:1\n1 5:1\n")
	_, err = ds.Load(dir)
	var fe *dataio.Error
	if !errors.As(err, &fe) || fe.File != filepath.Join(dir, "svmguide1.t") || fe.Line != 2 || fe.Column != 3 ||
		err.Error() != "svmguide1: "+filepath.Join(dir, "svmguide1.t")+":2:3: feature index 5 exceeds 4 features" {
		t.Errorf("a fifth feature: %v", err)
	}
	susy, _ := Lookup("susy")
	if _, err := susy.Load(dir); err == nil || !strings.Contains(err.Error(), "not available") {
		t.Errorf("SUSY: %v", err)
	}
}

// TestMissingDataError checks that the error for missing files names the
// folder searched, the files and where to download them.
func TestMissingDataError(t *testing.T) {
	err := missingFiles("nowhere", Datasets...)
	var me *MissingDataError
	if !errors.As(err, &me) {
		t.Fatalf("missingFiles: %v", err)
	}
	if got := strings.Join(me.Files, ","); got != "vehicle.scale,svmguide3,svmguide1,svmguide1.t,shuttle.trn,ijcnn1" {
		t.Errorf("missing files %s", got)
	}
	abs, _ := filepath.Abs("nowhere")
	for _, want := range []string{
		"LIBSVM data files not found in nowhere (" + abs + "): vehicle.scale, svmguide3,",
		"shuttle.trn (shuttle.scale, renamed: the same rows, scaled), ijcnn1 (ijcnn1.bz2, decompressed); ",
		"download them from https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/ into nowhere, or give their folder with -data",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if err := missingFiles("testdata", Datasets[0]); err != nil {
		t.Errorf("vehicle in testdata: %v", err)
	}
}

// TestRealDatasets loads the committed slice of vehicle.scale, then the
// full data sets from the folder NGCA_DATA names (see libsvmtest.DataDir),
// and checks their sizes after preprocessing, and that no feature is an
// exact linear combination of the others, but for ijcnn1's tenth (its
// one-hot code).
func TestRealDatasets(t *testing.T) {
	vehicle, _ := Lookup("vehicle")
	slice, err := vehicle.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if pos, neg := slice.Count(); pos != 60 || neg != 60 {
		t.Errorf("vehicle slice: %d positive, %d negative; want 60, 60", pos, neg)
	}

	dir := libsvmtest.DataDir(t)
	for _, tc := range []struct {
		name     string
		pos, neg int
	}{
		{"vehicle", 212 + 218, 217 + 199},
		{"svmguide3", 296, 947},
		{"svmguide1", 2000 + 2000, 1089 + 2000},
		{"shuttle", 34108, 6748},
		{"ijcnn1", 4853, 45137},
	} {
		ds, _ := Lookup(tc.name)
		data, err := ds.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		pos, neg := data.Count()
		if _, m := data.X.Dims(); pos != tc.pos || neg != tc.neg || m != ds.M {
			t.Errorf("%s: %d positive, %d negative, %d features; want %d, %d, %d", tc.name, pos, neg, m, tc.pos, tc.neg, ds.M)
		}
		// Only ijcnn1 has a feature that is a linear combination of the
		// others (its one-hot code, kept as in the paper: the estimators
		// fit in the span of the data).
		x := data.X
		if tc.name == "ijcnn1" {
			if c := conditionOfCovariance(x); c < 1e12 {
				t.Errorf("ijcnn1: the covariance has condition number %.3g; want it singular (the tenth feature is 1 minus the sum of the first nine)", c)
			}
			var rest mat.Dense
			rest.Augment(x.Slice(0, len(data.Y), 0, 9), x.Slice(0, len(data.Y), 10, 22))
			x = &rest
		}
		if c := conditionOfCovariance(x); c > 1e12 {
			t.Errorf("%s: the kept features' covariance has condition number %.3g: a feature is (nearly) a linear combination of the others", tc.name, c)
		}
	}
}

// conditionOfCovariance returns the condition number of the covariance
// of the columns of x.
func conditionOfCovariance(x *mat.Dense) float64 {
	var cov mat.SymDense
	stat.CovarianceMatrix(&cov, x, nil)
	var ev mat.EigenSym
	if !ev.Factorize(&cov, false) {
		return math.Inf(1)
	}
	v := ev.Values(nil)
	return v[len(v)-1] / math.Max(v[0], 0)
}

func TestKeptFeatures(t *testing.T) {
	ds := Dataset{M: 3, Drop: []int{2}}
	if got := ds.kept([]float64{1, 2, 3, 4, 5}); !equal(got, []float64{1, 3, 4}) {
		t.Errorf("kept = %v, want [1 3 4]", got)
	}
}

func TestDraw(t *testing.T) {
	// 30 positive rows (first column 0..29) and 20 negative ones (100..119).
	const m = 3
	x := mat.NewDense(50, m, nil)
	y := make([]float64, 50)
	for i := range y {
		id := float64(i)
		y[i] = 1
		if i >= 30 {
			id, y[i] = float64(100+i-30), -1
		}
		x.SetRow(i, []float64{id, 2 * id, 7})
	}
	data := NewData(x, y)
	const n, d = 20, 8
	s, err := Draw(data, n, d, OverSplit, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []struct {
		name string
		x    *mat.Dense
		y    []float64
	}{{"train", s.Train, s.YTrain}, {"test", s.Test, s.YTest}} {
		r, c := part.x.Dims()
		pos := 0
		for _, v := range part.y {
			if v > 0 {
				pos++
			}
		}
		if r != n || c != d || len(part.y) != n || pos != n/2 {
			t.Errorf("%s: %d×%d, %d labels, %d positive; want %d×%d, half positive", part.name, r, c, len(part.y), pos, n, d)
		}
	}
	// Column 0 holds the row ids, standardised (an increasing affine map):
	// distinct values mean distinct rows, and the positive rows (ids 0 to
	// 29) lie below the mean, the negative ones (100 to 119) above it.
	all := mat.NewDense(2*n, d, nil)
	all.Stack(s.Train, s.Test)
	labels := append(append([]float64(nil), s.YTrain...), s.YTest...)
	seen := map[float64]bool{}
	for i := 0; i < 2*n; i++ {
		id := all.At(i, 0)
		if seen[id] {
			t.Errorf("row %d drawn twice (training and test sets must be disjoint)", i)
		}
		seen[id] = true
		if (id < 0) != (labels[i] > 0) {
			t.Errorf("row %d: label %v does not match its features", i, labels[i])
		}
		// Column 1 = 2·column 0 before standardisation, so they agree after.
		if math.Abs(all.At(i, 0)-all.At(i, 1)) > 1e-12 {
			t.Errorf("row %d: proportional columns differ after standardisation", i)
		}
		if all.At(i, 2) != 0 {
			t.Errorf("row %d: constant column standardised to %v, want 0", i, all.At(i, 2))
		}
	}
	// Every column is standardised over training and test rows together
	// (except the constant one), and the noise columns are distinct.
	for j := 0; j < d; j++ {
		if j == 2 {
			continue
		}
		mu, sd := stat.MeanStdDev(mat.Col(nil, j, all), nil)
		if math.Abs(mu) > 1e-12 || math.Abs(sd-1) > 1e-12 {
			t.Errorf("column %d: mean %v, sd %v after standardisation", j, mu, sd)
		}
	}
	if math.Abs(stat.Correlation(mat.Col(nil, m, all), mat.Col(nil, m+1, all), nil)) > 0.6 {
		t.Errorf("noise columns are correlated")
	}

	// Same seed, same draw; another seed, another draw.
	again, _ := Draw(data, n, d, OverSplit, rand.NewPCG(1, 2))
	other, _ := Draw(data, n, d, OverSplit, rand.NewPCG(1, 3))
	if !mat.Equal(again.Train, s.Train) || !mat.Equal(again.Test, s.Test) {
		t.Error("the same seed gave another draw")
	}
	if mat.Equal(other.Train, s.Train) {
		t.Error("another seed gave the same draw")
	}

	// Too few negatives (20) for n = 30: 15 training + 15 test.
	if _, err := Draw(data, 30, d, OverSplit, rand.NewPCG(1, 2)); err == nil || !strings.Contains(err.Error(), "20 negative rows, but n = 30 needs 30") {
		t.Errorf("too few rows: %v", err)
	}
	if _, err := Draw(data, 21, d, OverSplit, rand.NewPCG(1, 2)); err == nil {
		t.Error("odd n accepted")
	}
	if _, err := Draw(data, 20, 2, OverSplit, rand.NewPCG(1, 2)); err == nil {
		t.Error("d below m accepted")
	}

	// Over the data set: the same rows and noise, the features
	// standardised with the statistics of all 50 rows, the noise as drawn.
	ds, err := Draw(data, n, d, OverDataset, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	mu, sd := stat.MeanStdDev(mat.Col(nil, 0, x), nil)
	raw, _ := Draw(&Data{X: x, Y: y, Mean: make([]float64, m), SD: []float64{1, 1, 1}}, n, d, OverDataset, rand.NewPCG(1, 2))
	for i := 0; i < n; i++ {
		if got, want := ds.Train.At(i, 0), (raw.Train.At(i, 0)-mu)/sd; math.Abs(got-want) > 1e-12 {
			t.Fatalf("training row %d: feature 0 is %v, want (%v − %v)/%v", i, got, raw.Train.At(i, 0), mu, sd)
		}
		if ds.Test.At(i, 2) != 0 {
			t.Errorf("test row %d: constant column standardised to %v, want 0", i, ds.Test.At(i, 2))
		}
		for j := m; j < d; j++ {
			if ds.Test.At(i, j) != raw.Test.At(i, j) {
				t.Fatalf("test row %d: noise column %d changed", i, j)
			}
		}
	}
	if v, err := ParseStandardisation("dataset"); err != nil || v != OverDataset || OverSplit.String() != "split" {
		t.Errorf("ParseStandardisation: %v, %v", v, err)
	}
	if _, err := ParseStandardisation("train"); err == nil {
		t.Error("ParseStandardisation accepted \"train\"")
	}
}

func TestLookupAndMethods(t *testing.T) {
	if ds, err := Lookup("IJCNN1"); err != nil || ds.Name != "ijcnn1" {
		t.Errorf("Lookup(IJCNN1) = %v, %v", ds.Name, err)
	}
	if _, err := Lookup("iris"); err == nil || !strings.Contains(err.Error(), "vehicle") {
		t.Errorf("Lookup(iris): %v", err)
	}
	if got := strings.Join(DefaultDatasets(), ","); got != "vehicle,svmguide3,svmguide1,shuttle,ijcnn1" {
		t.Errorf("DefaultDatasets() = %s", got)
	}
	ms, err := ParseMethods("wflsngca, none,PCA")
	if err != nil || len(ms) != 3 || ms[0].Key != "none" || ms[1].Key != "pca" || ms[2].Key != "wflsngca" {
		t.Errorf("ParseMethods: %v, %v (want the paper's column order)", ms, err)
	}
	for _, bad := range []string{"", "svm", "pca,x"} {
		if _, err := ParseMethods(bad); err == nil {
			t.Errorf("ParseMethods(%q) accepted", bad)
		}
	}
}

func TestPCA(t *testing.T) {
	// Points spread along (1, 1)/√2 with little spread across it: the
	// leading principal direction is that diagonal.
	rng := rand.New(rand.NewPCG(3, 4))
	x := mat.NewDense(200, 2, nil)
	for i := 0; i < 200; i++ {
		a, b := 5*rng.NormFloat64(), 0.1*rng.NormFloat64()
		x.SetRow(i, []float64{a + b + 3, a - b - 1})
	}
	red, err := reducePCA(nil, x, x.Slice(0, 10, 0, 2).(*mat.Dense), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	zTrain, zTest, basis := red.train, red.test, red.basis
	if r, c := zTest.Dims(); r != 10 || c != 1 {
		t.Fatalf("test projection %d×%d", r, c)
	}
	// The basis is the diagonal, at ε 0.5 from the first axis.
	if e := realFeatureError(basis, 1); math.Abs(e-0.5) > 0.01 {
		t.Errorf("ε of the PCA basis against the first axis = %v, want about 0.5", e)
	}
	// The projection is centred and carries almost all the variance.
	mu, sd := stat.MeanStdDev(mat.Col(nil, 0, zTrain), nil)
	if math.Abs(mu) > 1e-9 || math.Abs(sd/(5*math.Sqrt2)-1) > 0.15 {
		t.Errorf("PCA projection: mean %v, sd %v, want 0 and about %v", mu, sd, 5*math.Sqrt2)
	}
	if math.Abs(zTest.At(3, 0)-zTrain.At(3, 0)) > 1e-12 {
		t.Error("training and test rows projected differently")
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
