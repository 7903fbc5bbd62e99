package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

// TestFitFormats fits the same data read from CSV (with a header and a
// label column), TSV, LIBSVM and standard input: every run must print the
// same orthonormal basis, close to the true subspace (columns 1-2).
func TestFitFormats(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	tsv, err := os.ReadFile(files["tsv"])
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for _, tc := range []struct {
		input string
		args  []string
	}{
		{"", []string{"fit", "-dim", "2", "-label-col", "class", files["csv"]}},
		{"", []string{"fit", "-label-col", "3", files["csv"], "-dim", "2"}}, // flags after FILE
		{"", []string{"fit", "-dim", "2", files["tsv"]}},
		{"", []string{"fit", "-dim", "2", "-workers", "1", files["libsvm"]}},
		{"", []string{"fit", "-dim=2", "-format", "csv", "-header=false", "-label-col", "3", "-header=true", files["csv"]}},
		{string(tsv), []string{"fit", "-dim", "2", "-"}},
	} {
		r := ngcaRun(t, tc.input, tc.args...).mustSucceed(t, tc.args...)
		if withoutSummary(r.stderr) != "" {
			t.Errorf("ngca %q: stderr %q, want nothing but the null test's note when stderr is not a terminal", tc.args, r.stderr)
		}
		b := parseMatrix(t, r.stdout)
		if d, m := b.Dims(); d != 5 || m != 2 {
			t.Fatalf("ngca %q: basis is %d×%d, want 5×2", tc.args, d, m)
		}
		checkOrthonormal(t, b)
		truth := mat.NewDense(5, 2, []float64{1, 0, 0, 1, 0, 0, 0, 0, 0, 0})
		if eps := ngca.SubspaceError(truth, b); eps > 0.01 {
			t.Errorf("ngca %q: subspace error %.3g, want < 0.01", tc.args, eps)
		}
		if first == "" {
			first = r.stdout
		} else if !mat.Equal(parseMatrix(t, r.stdout), parseMatrix(t, first)) {
			t.Errorf("ngca %q printed another basis than ngca fit on the CSV:\n%s\nwant\n%s", tc.args, r.stdout, first)
		}
	}
}

// TestFitJSON checks the JSON output of every estimator of the registry
// against a fit of the library with the same settings: the JSON names the
// estimator that ran and reports what its Report says.
func TestFitJSON(t *testing.T) {
	files := dataFiles(t, t.TempDir())
	x, _ := testSignal(t, 400, 5)
	for _, m := range methods.All() {
		args := []string{"fit", "-method", m.Key, "-dim", "2", "-json", "-label-col", "class", "-seed", "3", files["csv"]}
		r := ngcaRun(t, "", args...).mustSucceed(t, args...)
		var j map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
			t.Fatalf("%s: output is not JSON: %v\n%s", m.Key, err, r.stdout)
		}
		for _, key := range []string{"method", "label", "input", "format", "n", "d", "dim", "columns", "column_numbers", "label_column", "seed",
			"settings", "ngca_result", "basis", "eigenvalues", "mean", "timings", "report"} {
			if _, ok := j[key]; !ok {
				t.Errorf("%s: no %q in the JSON", m.Key, key)
			}
		}
		if j["method"] != m.Key || j["label"] != m.Label || j["n"] != 400.0 || j["d"] != 5.0 || j["dim"] != 2.0 || j["label_column"] != "class" || j["seed"] != 3.0 {
			t.Errorf("%s: method %v, label %v, n %v, d %v, dim %v, label_column %v, seed %v", m.Key, j["method"], j["label"], j["n"], j["d"], j["dim"], j["label_column"], j["seed"])
		}
		if got := strings.Join(toStrings(j["columns"]), ","); got != "x1,x2,x3,x4,x5" {
			t.Errorf("%s: columns %s", m.Key, got)
		}
		var basis [][]float64
		remarshal(t, j["basis"], &basis)
		b := mat.NewDense(5, 2, nil)
		for i, row := range basis {
			b.SetRow(i, row)
		}
		checkOrthonormal(t, b)
		// The JSON basis is the CSV one and the library's, to the last bit.
		csvArgs := []string{"fit", "-method", m.Key, "-dim", "2", "-label-col", "class", "-seed", "3", files["csv"]}
		if c := parseMatrix(t, ngcaRun(t, "", csvArgs...).mustSucceed(t, csvArgs...).stdout); !mat.Equal(c, b) {
			t.Errorf("%s: the JSON basis differs from the CSV basis", m.Key)
		}
		res, err := m.New(methods.Settings{Dim: 2, Src: rand.NewPCG(3, seedStream)}).Fit(probe.WithRecorder(context.Background(), fitDetails), x)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(res.Basis, b) {
			t.Errorf("%s: the JSON basis differs from the library's", m.Key)
		}
		if ev := j["eigenvalues"].([]any); len(ev) != len(res.Eigenvalues) {
			t.Errorf("%s: %d eigenvalues, want %d", m.Key, len(ev), len(res.Eigenvalues))
		}
		if mean := j["mean"].([]any); len(mean) != 5 {
			t.Errorf("%s: %d means, want 5", m.Key, len(mean))
		}
		checkReportJSON(t, m.Key, j, r.stdout, res)
		// Timings: step → seconds, in the order of the fit, ending with the total.
		timings := j["timings"].(map[string]any)
		if _, ok := timings["total"]; !ok || len(timings) < 2 {
			t.Errorf("%s: timings %v", m.Key, timings)
		}
		if i := strings.Index(r.stdout, `"timings"`); i < 0 || !strings.Contains(r.stdout[i:], `"total"`) || strings.Index(r.stdout[i:], `"prepare"`) > strings.Index(r.stdout[i:], `"total"`) {
			t.Errorf("%s: timings out of order", m.Key)
		}
	}
}

// checkReportJSON checks the JSON j of a fit, whose text is text, against
// the library's fit res of the same data and settings: the settings block
// gives the report's settings, and the file loads (json.Unmarshal) into an
// ngca.Result equal to res bit for bit (Method, Basis, Mean, Eigenvalues
// and the Report, compared by writing both back) that writes the same
// JSON as the library's minus the command's fields.
func checkReportJSON(t *testing.T, key string, j map[string]any, text string, res *ngca.Result) {
	t.Helper()
	var got struct{ Settings settingsJSON }
	remarshal(t, j, &got)
	if want := fitSettings(res.Report); got.Settings != want || (want == settingsJSON{}) {
		t.Errorf("%s: settings %+v, want %+v", key, got.Settings, want)
	}
	var loaded ngca.Result
	if err := json.Unmarshal([]byte(text), &loaded); err != nil {
		t.Fatalf("%s: the JSON does not load into an ngca.Result: %v", key, err)
	}
	if loaded.Method != res.Method || !mat.Equal(loaded.Basis, res.Basis) || !slicesEqual(loaded.Mean, res.Mean) || !slicesEqual(loaded.Eigenvalues, res.Eigenvalues) {
		t.Errorf("%s: loads as %s with another basis, mean or spectrum", key, loaded.Method)
	}
	if fmt.Sprintf("%T", loaded.Report) != fmt.Sprintf("%T", res.Report) || len(loaded.Timings) != len(res.Timings) {
		t.Errorf("%s: loads with report %T and %d timings, want %T and %d", key, loaded.Report, len(loaded.Timings), res.Report, len(res.Timings))
	}
	loaded.Timings, res.Timings = nil, nil
	a, errA := json.Marshal(loaded)
	b, errB := json.Marshal(res)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Errorf("%s: the loaded result writes other JSON than the library's fit (%v, %v)", key, errA, errB)
	}
	// Every field of the library's JSON is in the file, as the library
	// writes it but for the indentation.
	var lib, file map[string]json.RawMessage
	if err := json.Unmarshal(b, &lib); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(text), &file); err != nil {
		t.Fatal(err)
	}
	for k, v := range lib {
		var w, c bytes.Buffer
		if json.Compact(&w, file[k]) != nil || json.Compact(&c, v) != nil || (k != "timings" && w.String() != c.String()) {
			t.Errorf("%s: %q is %.80s in the file, %.80s in the library's JSON", key, k, w.String(), c.String())
		}
	}
}

// TestFitDocRobustBounds: the help's account of the robust block quotes
// the library's current level, Distance bound and comparison limit.
func TestFitDocRobustBounds(t *testing.T) {
	for _, want := range []string{fmt.Sprintf("p ≥ %v and distance ≤ %v", defaults.RobustLevel, defaults.RobustMaxDistance),
		fmt.Sprintf("exceeds the converse by %v paired z-scores", defaults.RobustMissedMargin)} {
		if !strings.Contains(strings.Join(strings.Fields(fitDoc), " "), want) {
			t.Errorf("fit's help does not say %q", want)
		}
	}
}

// TestWriteJSON: writeJSON keeps every number's digits and the strings of
// non-finite numbers, and writes a list or object of scalars on one line.
func TestWriteJSON(t *testing.T) {
	var b strings.Builder
	in := `{"s": [1, "+Inf", "NaN", 0.1, 1e-300, 0.000033412, 1.7976931348623157e+308], "m": [[1, 2], [3, 4]], "e": {}, "l": []}`
	err := writeJSON(&b, json.RawMessage(in))
	want := "{\n  \"s\": [1, \"+Inf\", \"NaN\", 0.1, 1e-300, 0.000033412, 1.7976931348623157e+308],\n  \"m\": [\n    [1, 2],\n    [3, 4]\n  ],\n  \"e\": {},\n  \"l\": []\n}\n"
	if err != nil || b.String() != want {
		t.Errorf("writeJSON: %q, %v; want %q", b.String(), err, want)
	}
}

// TestMergeObjects: the command's fields go after the library's "label"
// and at the end; a field written twice is an error.
func TestMergeObjects(t *testing.T) {
	got, err := mergeObjects([]byte(`{"a": 1, "label": "x", "b": [2]}`), "label", []byte(`{"c": {"d": 3}}`), []byte(`{"e": null}`))
	if want := `{"a":1,"label":"x","c":{"d": 3},"b":[2],"e":null}`; err != nil || string(got) != want {
		t.Errorf("merge: %s, %v; want %s", got, err, want)
	}
	if _, err := mergeObjects([]byte(`{"label": "x", "basis": 1}`), "label", []byte(`{"basis": 2}`), []byte(`{}`)); err == nil {
		t.Error("a field written twice was merged")
	}
	if _, err := mergeObjects([]byte(`[1]`), "label", []byte(`{}`), []byte(`{}`)); err == nil {
		t.Error("a list was merged as an object")
	}
}

func toStrings(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

func remarshal(t *testing.T, v, dst any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(b, dst)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestFitOutputFile checks -o: the file gets the result, stdout nothing;
// a failed fit leaves an existing file alone and no temporary file behind.
func TestFitOutputFile(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	out := filepath.Join(dir, "basis.csv")
	r := ngcaRun(t, "", "fit", "-dim", "2", "-o", out, files["tsv"]).mustSucceed(t)
	if r.stdout != "" || withoutSummary(r.stderr) != "" {
		t.Errorf("stdout %q, stderr %q; want nothing but the null test's note", r.stdout, r.stderr)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkOrthonormal(t, parseMatrix(t, string(text)))

	r = ngcaRun(t, "", "fit", "-dim", "7", "-o", out, files["tsv"])
	if r.code != 1 {
		t.Fatalf("fit with -dim 7: exit %d", r.code)
	}
	if again, _ := os.ReadFile(out); string(again) != string(text) {
		t.Errorf("a failed fit changed the -o file")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestFitErrors checks the message and exit status of every kind of bad
// input and bad flag.
func TestFitErrors(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	data := files["tsv"]
	wide := writeFile(t, dir, "wide.csv", "1,2,3,4\n2,1,4,3\n3,5,1,2\n")
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool // the usage follows the message
	}{
		// Bad files.
		{[]string{"-dim", "1", "testdata/ragged.csv"}, "ngca fit: testdata/ragged.csv:5: 3 fields, want 4 (as on line 1)\n", false},
		{[]string{"-dim", "1", "testdata/nonnumeric.csv"}, `ngca fit: testdata/nonnumeric.csv:7: column 3 ("x3"): "abc" is not a number` + "\n", false},
		{[]string{"-dim", "1", "testdata/empty.csv"}, "ngca fit: testdata/empty.csv: empty file (no data)\n", false},
		{[]string{"-dim", "1", "testdata/header-only.csv"}, "ngca fit: testdata/header-only.csv:1: no data rows, only a header\n", false},
		{[]string{"-dim", "1", "testdata/nan.tsv"}, `ngca fit: testdata/nan.tsv:3: column 2 ("b"): missing value ("NaN") in data row 2; -missing drop leaves out the rows with missing values` + "\n", false},
		{[]string{"-dim", "1", "testdata/bad.libsvm"}, `ngca fit: testdata/bad.libsvm:2:12: value "x" is not a finite number` + "\n", false},
		{[]string{"-dim", "2", "testdata/constant.csv"}, "note: left out column 3 (\"const\") of testdata/constant.csv: it is constant, so it carries no information\n" +
			"ngca fit: -dim 2 is out of range: testdata/constant.csv has 2 data columns, so -dim must be between 1 and 1", false},
		{[]string{"-dim", "1", "testdata/missing.csv"}, "ngca fit: open testdata/missing.csv: no such file or directory\n", false},
		{[]string{"-dim", "1", "testdata"}, "ngca fit: testdata is a directory, not a data file\n", false},
		{[]string{"-dim", "2", files["csv"]}, `data.csv:2: column 3 ("class"): "q1" is not a number (if the column is not data, leave it out with -drop class, or name it with -label-col class if it holds labels)`, false},
		{[]string{"-dim", "2", "-label-col", "species", files["csv"]}, `data.csv:1: no column named "species" in the header ("x1", "x2", "class", "x3", "x4", "x5")`, false},
		{[]string{"-dim", "2", "-label-col", "9", files["csv"]}, `data.csv:1: label column 9 is out of range: the file has 6 columns`, false},
		{[]string{"-dim", "2", "-label-col", "1", files["libsvm"]}, `a label column cannot be chosen in a LIBSVM file`, false},
		{[]string{"-dim", "2", "-format", "libsvm", files["csv"]}, `data.csv:1:1: label "x1,x2,class,x3,x4,x5" is not a finite number`, false},
		// The dimension.
		{[]string{data}, "ngca fit: -dim is required", true},
		{[]string{"-dim", "0", data}, "ngca fit: -dim 0 is out of range: need 1 ≤ M < number of data columns", true},
		{[]string{"-dim", "5", data}, "ngca fit: -dim 5 is out of range: " + data + " has 5 data columns, so -dim must be between 1 and 4\n", false},
		{[]string{"-dim", "40", data}, "-dim 40 is out of range", false},
		{[]string{"-dim", "1", "-label-col", "1", "testdata/constant.csv"}, "testdata/constant.csv has 1 data column; NGCA needs at least 2", false},
		// Methods and their flags.
		{[]string{"-method", "pca", "-dim", "2", data}, `ngca fit: -method: unknown method "pca" (want one of ` + methods.Names() + ")", true},
		{[]string{"-method", "mipp", "-centers", "50", "-dim", "2", data}, "ngca fit: -centers does not apply to -method mipp (only to wflsngca, lsngca and wflsngca-robust)", true},
		{[]string{"-method", "lsngca", "-vwidths", "1", "-dim", "2", data}, "ngca fit: -vwidths does not apply to -method lsngca (only to wflsngca and wflsngca-robust)", true},
		{[]string{"-method", "WF-LSNGCA", "-threshold", "2", "-dim", "2", data}, "ngca fit: -threshold does not apply to -method wflsngca (only to mipp)", true},
		{[]string{"-method", "lsngca", "-dim", "2", wide}, "LSNGCA on " + wide + ": ngca: too few rows: LSNGCA needs at least 7 rows for 4 columns and 5 cross-validation folds (got 3)", false},
		{[]string{"-method", "wflsngca", "-widths", "1,x", "-dim", "2", data}, `ngca fit: -widths: "x" is not a number`, true},
		{[]string{"-method", "wflsngca", "-ridges", "1,-2", "-dim", "2", data}, `ngca fit: -ridges: -2 is not a positive finite number`, true},
		{[]string{"-method", "wflsngca", "-folds", "1", "-dim", "2", data}, "ngca fit: -folds 1: need at least 2 folds", true},
		{[]string{"-method", "wflsngca", "-centers", "-3", "-dim", "2", data}, "ngca fit: -centers -3 is negative", true},
		{[]string{"-method", "wflsngca", "-centers", "500", "-dim", "2", data}, "ngca fit: -centers 500 exceeds the 400 rows of " + data, false},
		{[]string{"-method", "mipp", "-threshold", "1e9", "-dim", "2", data}, "ngca fit: MIPP on " + data + ": ngca: numerically singular: MIPP: only 0 of 4000 index functions passed the threshold", false},
		// The command line.
		{[]string{"-dim", "2"}, "ngca fit: missing input FILE (use - for standard input)", true},
		{[]string{"-dim", "2", data, "more.csv"}, `ngca fit: unexpected argument "more.csv" after the input file`, true},
		{[]string{"-dim", "2", "-nope", data}, "ngca fit: flag provided but not defined: -nope", true},
		{[]string{"-dim", "x", data}, `invalid value "x" for flag -dim`, true},
		{[]string{"-dim", "2", "-format", "xls", data}, `ngca fit: -format: unknown format "xls" (want auto, csv, semicolon, tsv, space or libsvm)`, true},
		{[]string{"-dim", "2", "-header=maybe", data}, `-header: want true, false or auto`, true},
		{[]string{"-dim", "2", "-header", "false", data}, `ngca fit: "false" was read as the input file: write -header=false, not -header false`, true},
		{[]string{"-dim", "2", "-o", "/nonexistent/dir/b.csv", data}, "ngca fit: cannot create /nonexistent/dir/b.csv: directory /nonexistent/dir does not exist\n", false},
		{[]string{"-dim", "2", "-o", "testdata", data}, "ngca fit: -o testdata is a directory\n", false},
	} {
		args := append([]string{"fit"}, tc.args...)
		r := ngcaRun(t, "", args...)
		if r.code != 1 {
			t.Errorf("ngca %q: exit %d, want 1", args, r.code)
		}
		if !strings.Contains(r.stderr, tc.want) {
			t.Errorf("ngca %q: stderr\n%s\nwant it to contain\n%s", args, r.stderr, tc.want)
		}
		if got := strings.Contains(r.stderr, `Run "ngca help fit" for the flags and examples.`); got != tc.usage {
			t.Errorf("ngca %q: usage printed: %v, want %v", args, got, tc.usage)
		}
		if r.stdout != "" {
			t.Errorf("ngca %q: stdout %q, want nothing", args, r.stdout)
		}
	}
}

// TestHelp checks that "ngca help X" and "ngca X -h" print the same help,
// with examples and every flag.
func TestHelp(t *testing.T) {
	r := ngcaRun(t, "", "help").mustSucceed(t)
	for _, name := range []string{"fit", "transform", "plot"} {
		if !strings.Contains(r.stdout, "  "+name+" ") {
			t.Errorf("ngca help does not list %s:\n%s", name, r.stdout)
		}
		help := ngcaRun(t, "", "help", name, "-v").mustSucceed(t).stdout
		dashH := ngcaRun(t, "", name, "-h", "-v").mustSucceed(t).stdout
		if help != dashH {
			t.Errorf("ngca help %s and ngca %s -h differ:\n%s\n---\n%s", name, name, help, dashH)
		}
		if !strings.Contains(help, "Usage: ngca "+name) || !strings.Contains(help, "Examples:\n  ngca ") {
			t.Errorf("ngca help %s has no usage line or examples:\n%s", name, help)
		}
		newFlagsFor := map[string]func() []string{
			"fit":       func() []string { return flagNames(newFitFlags(commands["fit"]).fs) },
			"transform": func() []string { return flagNames(newTransformFlags(commands["transform"]).fs) },
			"plot":      func() []string { return flagNames(newPlotFlags(commands["plot"]).fs) },
		}
		for _, f := range newFlagsFor[name]() {
			if !strings.Contains(help, "  -"+f+" ") && !strings.Contains(help, "  -"+f+"\n") {
				t.Errorf("ngca help %s does not describe -%s", name, f)
			}
		}
		for _, line := range strings.Split(help, "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("ngca help %s: line of %d characters: %q", name, n, line)
			}
		}
	}
}

// TestFitCancelled checks that an interrupted fit exits with status 1 and
// leaves no output file.
func TestFitCancelled(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(dir, "b.csv")
	var stdout, stderr strings.Builder
	if code := run(ctx, []string{"fit", "-dim", "2", "-o", out, files["tsv"]}, &stdout, &stderr); code != 1 || stderr.String() != "ngca fit: interrupted\n" {
		t.Errorf("cancelled fit: exit %d, stderr %q", code, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("cancelled fit left files behind: %v", entries)
	}
}

// TestFitRobust runs the robust variant through the command by its alias
// and checks that everything names it: the JSON, the messages, and that
// the old -robust flag is gone.
func TestFitRobust(t *testing.T) {
	files := dataFiles(t, t.TempDir())
	rob := methods.MustLookup("robust")
	code, out, errs := runCmd(t, "fit", "-dim", "2", "-method", "robust", "-json", "-label-col", "class", files["csv"])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Method string `json:"method"`
		Label  string `json:"label"`
		D      int    `json:"d"`
		Report struct {
			Type  string `json:"type"`
			Value struct {
				Estimate   string
				NullCoords []int
				NumCenters int
			} `json:"value"`
		} `json:"report"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if got.Method != rob.Key || got.Label != rob.Label {
		t.Errorf("method %q, label %q; want %q, %q", got.Method, got.Label, rob.Key, rob.Label)
	}
	rep := got.Report.Value
	if got.Report.Type != "RobustReport" || (rep.Estimate != "axes" && rep.Estimate != "equivariant") || rep.NumCenters < 1 {
		t.Fatalf("report = %+v, want a RobustReport with the path taken and its centers", got.Report)
	}
	for _, k := range rep.NullCoords {
		if k < 0 || k >= got.D {
			t.Errorf("kernel column %d outside 0..%d (the report's indices start at 0)", k, got.D-1)
		}
	}
	// Too few rows for the default folds: the library's error, named.
	wide := writeFile(t, t.TempDir(), "wide.csv", "1,2,3,4\n2,1,4,3\n3,5,1,2\n")
	data := []string{"-label-col", "class", files["csv"]}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{append([]string{"-method", "robust", "-iterations", "3"}, data...), "-iterations does not apply to -method " + rob.Key + " (only to mipp)"},
		{append([]string{"-method", rob.Label, "-folds", "500"}, data...), "needs at least 500 rows for 5 columns and 500 cross-validation folds (got 400)"},
		{[]string{"-method", rob.Key, wide}, "ngca fit: " + rob.Label + " on " + wide + ": ngca: too few rows: " + rob.Label + " needs at least 7 rows for 4 columns"},
		{append([]string{"-robust"}, data...), "flag provided but not defined: -robust"},
	} {
		args := append([]string{"fit", "-dim", "2"}, tc.args...)
		if code, _, errs := runCmd(t, args...); code != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("ngca %q: exit %d, stderr %q; want %q", args, code, errs, tc.want)
		}
	}
}

// TestStdinInterrupt checks that Ctrl-C (a cancelled context) ends a command
// that is still waiting for standard input, with the usual message, instead
// of waiting for the end of input.
func TestStdinInterrupt(t *testing.T) {
	png := filepath.Join(t.TempDir(), "p.png")
	for _, args := range [][]string{{"fit", "-dim", "1", "-"}, {"plot", "-o", png, "-"}} {
		r, w := io.Pipe() // input that never ends until closed
		old := stdin
		stdin = r
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		var out, errb bytes.Buffer
		code := run(ctx, args, &out, &errb)
		stdin = old
		w.Close()
		want := "ngca " + args[0] + ": interrupted\n"
		if code != 1 || errb.String() != want || out.Len() != 0 {
			t.Errorf("ngca %q cancelled while reading stdin: exit %d, stdout %q, stderr %q; want exit 1, stderr %q",
				args, code, out.String(), errb.String(), want)
		}
	}
}
