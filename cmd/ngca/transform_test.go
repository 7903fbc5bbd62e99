package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
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
		// A file without a header is matched by position, which a note
		// says; a CSV file with one by name, without a word.
		wantNote := slices.ContainsFunc(tc.args, func(a string) bool { return a == files["tsv"] || a == files["libsvm"] })
		if !strings.HasPrefix(r.stdout, "c1,c2\n") || wantNote != strings.Contains(r.stderr, "taken by position") || !wantNote && r.stderr != "" {
			t.Errorf("ngca %q: output starts %q, stderr %q; want a header c1,c2 and a note on matching by position only for a file without a header", args, r.stdout[:min(20, len(r.stdout))], r.stderr)
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
	// plot matches by name too: no message but its summary.
	r = ngcaRun(t, "", "plot", "-basis", basisJSON, "-o", filepath.Join(dir, "shuffled.png"), filepath.Join(dir, "shuffled.csv")).mustSucceed(t)
	if strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "wrote ") {
		t.Errorf("plot of reordered columns: stderr %q, want its summary line only", r.stderr)
	}
	// A missing name is an error naming it.
	renamed := strings.Replace(readText(t, files["csv"]), "x1,x2,class,x3,x4,x5", "y1,x2,class,x3,x4,y5", 1)
	renamedFile := writeFile(t, dir, "renamed.csv", renamed)
	r = ngcaRun(t, "", "transform", "-basis", basisJSON, renamedFile)
	if wantErr := `renamed.csv lacks the columns "x1", "x5" of the fit`; r.code != 1 || !strings.Contains(r.stderr, wantErr) {
		t.Errorf("renamed columns: exit %d, stderr %q, want %q", r.code, r.stderr, wantErr)
	}
	// -cols and -drop do not change the matching by name: the reordered
	// file with -drop (of a column the fit does not use) or -cols (of the
	// fit's columns) gives the same bytes, without a word; a list that
	// leaves out a column of the fit is an error naming it.
	shuffledFile := filepath.Join(dir, "shuffled.csv")
	for _, args := range [][]string{
		{"-drop", "class", "-label-col", "class"},
		{"-cols", "x1,x2,x3,x4,x5"},
		{"-cols", "1-6", "-drop", "4"},
	} {
		args = append([]string{"transform", "-basis", basisJSON, shuffledFile}, args...)
		if r := ngcaRun(t, "", args...); r.code != 0 || r.stdout != want || r.stderr != "" {
			t.Errorf("ngca %q: exit %d, stderr %q; want the output of the original order, no messages", args, r.code, r.stderr)
		}
	}
	r = ngcaRun(t, "", "transform", "-basis", basisJSON, "-drop", "x3", shuffledFile)
	if wantErr := `-drop: leaves out the column "x3", which the fit uses`; r.code != 1 || !strings.Contains(r.stderr, wantErr) {
		t.Errorf("-drop of a fit column: exit %d, stderr %q, want %q", r.code, r.stderr, wantErr)
	}

	// The CSV basis names its rows, and transform matches them by name too.
	r = ngcaRun(t, "", "transform", "-basis", basisCSV, "-center", "none", shuffledFile).mustSucceed(t)
	if wantNone := ngcaRun(t, "", "transform", "-basis", basisCSV, "-center", "none", files["csv"]).mustSucceed(t).stdout; r.stdout != wantNone || r.stderr != "" {
		t.Errorf("named CSV basis on reordered columns: output differs (stderr %q)", r.stderr)
	}
	// A bare CSV basis (d lines of M numbers, as older versions wrote it)
	// is still read, by position.
	var bare strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&bare, "%v,%v\n", b.At(i, 0), b.At(i, 1))
	}
	bareFile := writeFile(t, dir, "bare.csv", bare.String())
	if got := ngcaRun(t, "", "transform", "-basis", bareFile, "-center", "none", "-label-col", "class", files["csv"]).mustSucceed(t); !mat.EqualApprox(parseMatrix(t, got.stdout), parseMatrix(t, ngcaRun(t, "", "transform", "-basis", basisCSV, "-center", "none", files["csv"]).stdout), 0) {
		t.Errorf("a bare CSV basis projects otherwise than the named one")
	} else if !strings.Contains(got.stderr, "taken by position") {
		t.Errorf("a bare CSV basis on a file with a header: stderr %q, want a note on matching by position", got.stderr)
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
	bare := writeFile(t, dir, "bare.csv", "1,0\n0,1\n0,0\n0,0\n0,0\n")
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{files["tsv"]}, "ngca transform: -basis is required", true},
		{[]string{"-basis", basisCSV}, "ngca transform: missing input FILE", true},
		{[]string{"-basis", basisCSV, "-center", "mean", files["tsv"]}, `ngca transform: -center "mean": want auto, data or none`, true},
		{[]string{"-basis", basisCSV, files["tsv"]}, "ngca transform: -basis " + basisCSV + " is a CSV basis, which holds no training means: say how to centre the data with -center data", true},
		{[]string{"-basis", filepath.Join(dir, "nope.csv"), files["tsv"]}, "ngca transform: -basis: open " + filepath.Join(dir, "nope.csv") + ": no such file or directory\n", false},
		{[]string{"-basis", "testdata/ragged.csv", files["tsv"]}, "ngca transform: -basis: testdata/ragged.csv:5: 3 fields, want 4 (as on line 1)\n", false},
		{[]string{"-basis", files["libsvm"], files["tsv"]}, "or the JSON of \"ngca fit -json\", not a LIBSVM file", false},
		{[]string{"-basis", badJSON, files["tsv"]}, "ngca transform: -basis: " + badJSON + ":4: unexpected end of JSON input", false},
		{[]string{"-basis", ragged, files["tsv"]}, `"basis" row 2 has 1 numbers, want 2 (as row 1)`, false},
		{[]string{"-basis", noBasis, files["tsv"]}, `no "basis" (a JSON basis is the output of "ngca fit -json")`, false},
		{[]string{"-basis", strBasis, files["tsv"]}, "str.json:2: \"basis\" holds a JSON string where a number belongs", false},
		{[]string{"-basis", basisCSV, "-center", "data", small}, "ngca transform: " + small + ` lacks the columns "x1", "x2", "x3", "x4", "x5" of the fit (its header: "a", "b", "c")` + "\n", false},
		{[]string{"-basis", bare, "-center", "data", small}, "ngca transform: " + small + " has 3 data columns but the basis " + bare + " has 5 rows (one per data column)\n", false},
		{[]string{"-basis", bare, "-center", "data", files["csv"]}, `data.csv has 6 data columns but the basis ` + bare + ` has 5 rows (one per data column); if a column holds labels, name it with -label-col`, false},
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

// TestTransformFollowsFit: transform and plot read a file the way the fit
// did (its -label-col, -cols/-drop and -missing, from the JSON), keep a
// line per input row unless asked to drop rows, and copy -keep columns.
func TestTransformFollowsFit(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	// An id column in front and a missing cell in data row 3.
	var messy strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(readText(t, files["csv"])), "\n") {
		id := "id"
		if i > 0 {
			id = fmt.Sprintf("W%03d", i)
		}
		if i == 3 {
			f := strings.Split(line, ",")
			f[4] = "NA" // x4
			line = strings.Join(f, ",")
		}
		fmt.Fprintf(&messy, "%s,%s\n", id, line)
	}
	data := writeFile(t, dir, "messy.csv", messy.String())
	fit := filepath.Join(dir, "fit.json") // the extension asks for JSON
	ngcaRun(t, "", "fit", "-dim", "2", "-drop", "id", "-label-col", "class", "-missing", "drop", "-o", fit, data).mustSucceed(t)
	if text := readText(t, fit); !strings.HasPrefix(text, "{") || !strings.Contains(text, `"input_flags": {"drop": "id", "label_col": "class", "missing": "drop"}`) {
		t.Fatalf("-o fit.json does not hold the JSON with the input flags:\n%.300s", text)
	}

	r := ngcaRun(t, "", "transform", "-basis", fit, "-keep", "id", "-with-labels", data).mustSucceed(t)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 401 || lines[0] != "id,c1,c2,label" {
		t.Fatalf("%d lines, header %q; want 401 lines and id,c1,c2,label", len(lines), lines[0])
	}
	if !strings.HasPrefix(lines[3], "W003,,,q") || !strings.HasPrefix(lines[4], "W004,") || strings.HasPrefix(lines[4], "W004,,") {
		t.Errorf("lines 3 and 4: %q, %q; want W003 with empty coordinates and W004 projected", lines[3], lines[4])
	}
	if want := "note: 1 of the 400 rows of " + data + " holds a missing value in a data column: its line has empty coordinates (-missing drop leaves it out)\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	r = ngcaRun(t, "", "transform", "-basis", fit, "-missing", "drop", data).mustSucceed(t)
	if n := strings.Count(r.stdout, "\n"); n != 400 || !strings.Contains(r.stderr, "left out 1 of the 400 rows") {
		t.Errorf("-missing drop: %d lines, stderr %q; want 400 (header and 399 rows) and a note", n, r.stderr)
	}
	if r := ngcaRun(t, "", "transform", "-basis", fit, "-missing", "error", data); r.code != 1 || !strings.Contains(r.stderr, `missing value ("NA")`) {
		t.Errorf("-missing error: exit %d, stderr %q", r.code, r.stderr)
	}
	// plot takes the fit's -missing drop: the row is left out.
	r = ngcaRun(t, "", "plot", "-basis", fit, "-o", filepath.Join(dir, "p.png"), data).mustSucceed(t)
	if !strings.Contains(r.stderr, "wrote "+filepath.Join(dir, "p.png")+": 399 points") {
		t.Errorf("plot: stderr %q, want 399 points", r.stderr)
	}

	// Without a header, the fit's column numbers and label column are
	// reused: the same file transforms without flags.
	noHeader := writeFile(t, dir, "nohead.csv", strings.SplitN(readText(t, files["csv"]), "\n", 2)[1])
	fit2 := filepath.Join(dir, "fit2.json")
	ngcaRun(t, "", "fit", "-dim", "2", "-cols", "1,2,4,5", "-label-col", "3", "-json", "-o", fit2, noHeader).mustSucceed(t)
	r = ngcaRun(t, "", "transform", "-basis", fit2, "-with-labels", noHeader).mustSucceed(t)
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); len(lines) != 401 || lines[0] != "c1,c2,label" || !strings.HasSuffix(lines[1], ",q"+strings.Split(strings.Split(readText(t, noHeader), "\n")[0], ",q")[1][:1]) {
		t.Errorf("headerless: %d lines, first %q, stderr %q", len(lines), lines[:2], r.stderr)
	}
	want := ngcaRun(t, "", "transform", "-basis", fit2, "-cols", "1,2,4,5", "-label-col", "3", noHeader).mustSucceed(t).stdout
	if got := ngcaRun(t, "", "transform", "-basis", fit2, noHeader).stdout; got != want {
		t.Errorf("headerless: the fit's -cols are not reused")
	}
}

// TestTransformOverflow: coordinates that overflow float64 are an error
// naming the row, not "+Inf" in the output.
func TestTransformOverflow(t *testing.T) {
	dir := t.TempDir()
	basis := writeFile(t, dir, "b.csv", "column,c1\na,1\nb,1\n")
	data := writeFile(t, dir, "d.csv", "a,b\n1,2\n1.7e308,1.7e308\n3,4\n")
	for _, cmd := range []string{"transform", "plot"} {
		args := []string{cmd, "-basis", basis, "-center", "none", data}
		if cmd == "plot" {
			args = []string{cmd, "-basis", basis, "-o", filepath.Join(dir, "p.png"), data}
		}
		r := ngcaRun(t, "", args...)
		if r.code != 1 || !strings.Contains(r.stderr, "coordinates overflow float64") || strings.Contains(r.stdout, "Inf") {
			t.Errorf("ngca %q: exit %d, stdout %q, stderr %q; want an error on the overflow", args, r.code, r.stdout, r.stderr)
		}
	}
}
