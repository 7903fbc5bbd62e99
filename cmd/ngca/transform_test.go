package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fitFiles fits the default estimator to the generated CSV and writes the basis as CSV
// and JSON into dir.
func fitFiles(t *testing.T, dir string, files map[string]string) (basisCSV, basisJSON string) {
	t.Helper()
	basisCSV, basisJSON = filepath.Join(dir, "basis.csv"), filepath.Join(dir, "fit.json")
	ngcaRun(t, "", "fit", "-dim", "2", "-label-col", "class", "-o", basisCSV, files["csv"]).mustSucceed(t)
	ngcaRun(t, "", "fit", "-dim", "2", "-label-col", "class", "-json", "-o", basisJSON, files["csv"]).mustSucceed(t)
	return basisCSV, basisJSON
}

// TestTransform checks the projection (x − μ)·B for every kind of basis
// and centring against a direct computation.
func TestTransform(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	basisCSV, basisJSON := fitFiles(t, dir, files)
	x, labels := testSignal(t, 400, 5)
	b := parseMatrix(t, readText(t, basisCSV))
	var fit struct{ Mean []float64 }
	if err := json.Unmarshal([]byte(readText(t, basisJSON)), &fit); err != nil {
		t.Fatal(err)
	}
	colMeans := make([]float64, 5)
	for j := range colMeans {
		colMeans[j] = mat.Sum(x.ColView(j)) / 400
	}
	zeros := make([]float64, 5)
	for _, tc := range []struct {
		args []string
		mean []float64
	}{
		{[]string{"-basis", basisJSON, files["csv"]}, fit.Mean}, // the label column comes from the JSON
		{[]string{"-basis", basisJSON, files["tsv"]}, fit.Mean},
		{[]string{files["libsvm"], "-basis", basisJSON}, fit.Mean},
		{[]string{"-basis", basisCSV, "-center", "data", "-label-col", "3", files["csv"]}, colMeans},
		{[]string{"-basis", basisJSON, "-center", "data", files["tsv"]}, colMeans},
		{[]string{"-basis", basisCSV, "-center", "none", files["tsv"]}, zeros},
	} {
		args := append([]string{"transform"}, tc.args...)
		r := ngcaRun(t, "", args...).mustSucceed(t, args...)
		if !strings.HasPrefix(r.stdout, "c1,c2\n") || r.stderr != "" {
			t.Errorf("ngca %q: output starts %q, stderr %q; want a header c1,c2 and no messages", args, r.stdout[:min(20, len(r.stdout))], r.stderr)
		}
		z := parseMatrix(t, r.stdout)
		if n, m := z.Dims(); n != 400 || m != 2 {
			t.Fatalf("ngca %q: %d×%d output, want 400×2", args, n, m)
		}
		for i := 0; i < 400; i++ {
			for k := 0; k < 2; k++ {
				var want float64
				for j := 0; j < 5; j++ {
					want += (x.At(i, j) - tc.mean[j]) * b.At(j, k)
				}
				if math.Abs(z.At(i, k)-want) > 1e-12 {
					t.Fatalf("ngca %q: row %d, component %d is %v, want %v", args, i+1, k+1, z.At(i, k), want)
				}
			}
		}
	}

	// -with-labels appends the labels.
	for _, file := range []string{files["csv"], files["libsvm"]} {
		r := ngcaRun(t, "", "transform", "-basis", basisJSON, "-with-labels", file).mustSucceed(t)
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if len(lines) != 401 || lines[0] != "c1,c2,label" {
			t.Fatalf("-with-labels on %s: %d lines, header %q", file, len(lines), lines[0])
		}
		prefix := map[bool]string{true: "q", false: ""}[strings.HasSuffix(file, ".csv")]
		for i, line := range lines[1:] {
			if f := strings.Split(line, ","); len(f) != 3 || f[2] != prefix+string(rune('0'+labels[i])) {
				t.Fatalf("-with-labels on %s: line %d is %q, want label %s%d", file, i+2, line, prefix, labels[i])
			}
		}
	}

	// A file with its columns in another order gives the same bytes: the
	// columns are matched by header name.
	want := ngcaRun(t, "", "transform", "-basis", basisJSON, files["csv"]).mustSucceed(t).stdout
	var shuffled strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(readText(t, files["csv"])), "\n") {
		f := strings.Split(line, ",") // x1,x2,class,x3,x4,x5
		fmt.Fprintf(&shuffled, "%s,%s,%s,%s,%s,%s\n", f[5], f[3], f[1], f[2], f[4], f[0])
	}
	r := ngcaRun(t, "", "transform", "-basis", basisJSON, writeFile(t, dir, "shuffled.csv", shuffled.String())).mustSucceed(t)
	if r.stdout != want || r.stderr != "" {
		t.Errorf("columns reordered: output differs from the original order's (stderr %q)", r.stderr)
	}
	// A missing name is an error naming it.
	renamed := strings.Replace(readText(t, files["csv"]), "x1,x2,class,x3,x4,x5", "y1,x2,class,x3,x4,y5", 1)
	renamedFile := writeFile(t, dir, "renamed.csv", renamed)
	r = ngcaRun(t, "", "transform", "-basis", basisJSON, renamedFile)
	if wantErr := `renamed.csv lacks the columns "x1", "x5" of the fit`; r.code != 1 || !strings.Contains(r.stderr, wantErr) {
		t.Errorf("renamed columns: exit %d, stderr %q, want %q", r.code, r.stderr, wantErr)
	}
	// -cols chooses the columns by position instead; names that differ
	// from the fit's get a warning.
	r = ngcaRun(t, "", "transform", "-basis", basisJSON, "-cols", "1,2,4-6", renamedFile).mustSucceed(t)
	if want := `ngca transform: warning: data column 1 is "y1" (column 1 of ` + renamedFile + `) but "x1" in the fit (` + basisJSON + `); are the columns in the same order?` + "\n"; r.stderr != want {
		t.Errorf("renamed columns with -cols: stderr %q, want %q", r.stderr, want)
	}

	// -o writes a file.
	out := filepath.Join(dir, "z.csv")
	if r := ngcaRun(t, "", "transform", "-basis", basisCSV, "-center", "none", "-o", out, files["tsv"]).mustSucceed(t); r.stdout != "" {
		t.Errorf("transform -o: stdout %q", r.stdout)
	}
	if n, _ := parseMatrix(t, readText(t, out)).Dims(); n != 400 {
		t.Errorf("transform -o wrote %d rows", n)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTransformErrors(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	basisCSV, basisJSON := fitFiles(t, dir, files)
	badJSON := writeFile(t, dir, "bad.json", "{\n  \"basis\": [[1, 0],\n  [0, 1]\n")
	ragged := writeFile(t, dir, "ragged.json", `{"basis": [[1, 0], [0]]}`)
	noBasis := writeFile(t, dir, "other.json", `{"eigenvalues": [1, 2]}`)
	strBasis := writeFile(t, dir, "str.json", "{\n\"basis\": [[1, \"a\"]]}")
	small := writeFile(t, dir, "small.csv", "a,b,c\n1,2,3\n4,5,7\n")
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{files["tsv"]}, "ngca transform: -basis is required", true},
		{[]string{"-basis", basisCSV}, "ngca transform: missing input FILE", true},
		{[]string{"-basis", basisCSV, "-center", "mean", files["tsv"]}, `ngca transform: -center "mean": want auto, data or none`, true},
		{[]string{"-basis", basisCSV, files["tsv"]}, "ngca transform: -basis " + basisCSV + " is a bare CSV basis, which holds no training means: say how to centre the data with -center data", true},
		{[]string{"-basis", filepath.Join(dir, "nope.csv"), files["tsv"]}, "ngca transform: -basis: open " + filepath.Join(dir, "nope.csv") + ": no such file or directory\n", false},
		{[]string{"-basis", "testdata/ragged.csv", files["tsv"]}, "ngca transform: -basis: testdata/ragged.csv:5: 3 fields, want 4 (as on line 1)\n", false},
		{[]string{"-basis", files["libsvm"], files["tsv"]}, "or the JSON of \"ngca fit -json\", not a LIBSVM file", false},
		{[]string{"-basis", badJSON, files["tsv"]}, "ngca transform: -basis: " + badJSON + ":4: unexpected end of JSON input", false},
		{[]string{"-basis", ragged, files["tsv"]}, `"basis" row 2 has 1 numbers, want 2 (as row 1)`, false},
		{[]string{"-basis", noBasis, files["tsv"]}, `no "basis" (a JSON basis is the output of "ngca fit -json")`, false},
		{[]string{"-basis", strBasis, files["tsv"]}, "str.json:2: \"basis\" holds a JSON string where a number belongs", false},
		{[]string{"-basis", basisCSV, "-center", "data", small}, "ngca transform: " + small + " has 3 data columns but the basis " + basisCSV + " has 5 rows (one per data column)\n", false},
		{[]string{"-basis", basisCSV, "-center", "data", files["csv"]}, `data.csv has 6 data columns but the basis ` + basisCSV + ` has 5 rows (one per data column); if a column holds labels, name it with -label-col`, false},
		{[]string{"-basis", basisCSV, "-center", "data", "-label-col", "3", files["tsv"]}, "has 4 data columns but the basis", false},
		{[]string{"-basis", basisCSV, "-center", "data", "-with-labels", files["tsv"]}, "-with-labels: " + files["tsv"] + " has no labels (name the label column with -label-col)", false},
		{[]string{"-basis", basisJSON, "testdata/empty.csv"}, "ngca transform: testdata/empty.csv: empty file (no data)\n", false},
	} {
		args := append([]string{"transform"}, tc.args...)
		r := ngcaRun(t, "", args...)
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("ngca %q: exit %d, stderr\n%s\nwant exit 1 and\n%s", args, r.code, r.stderr, tc.want)
		}
		if got := strings.Contains(r.stderr, `Run "ngca help transform" for the flags and examples.`); got != tc.usage {
			t.Errorf("ngca %q: usage printed: %v, want %v", args, got, tc.usage)
		}
	}
}
