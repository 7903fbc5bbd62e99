package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/beam/ngcabeam"
	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/fitfile"
	"github.com/ngca-go/ngca/ngcatest"
)

// The tests run the command in this process, on prism in loopback mode.

// runCmd runs ngca-beam with args and returns its exit status and stderr.
func runCmd(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := run(context.Background(), args, &stderr)
	return code, stderr.String()
}

// shards writes the rows of x as k CSV files (a header each) in a new
// folder, with an id column first and a label column last, and returns
// the glob of the files.
func shards(t *testing.T, x *mat.Dense, k int) string {
	t.Helper()
	dir := t.TempDir()
	n, d := x.Dims()
	for f := 0; f < k; f++ {
		var b strings.Builder
		b.WriteString("id")
		for j := 0; j < d; j++ {
			fmt.Fprintf(&b, ",x%d", j+1)
		}
		b.WriteString(",label\n")
		for i := f * n / k; i < (f+1)*n/k; i++ {
			b.WriteString(strconv.Itoa(i))
			for j := 0; j < d; j++ {
				b.WriteString("," + strconv.FormatFloat(x.At(i, j), 'g', -1, 64))
			}
			fmt.Fprintf(&b, ",c%d\n", i%3)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.csv", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "part-*.csv")
}

func data(t *testing.T, n, d int) *mat.Dense {
	t.Helper()
	x, _, err := ngcatest.Artificial{N: n, D: d}.Sample(rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// readFit returns the fit file's JSON fields and its Result.
func readFit(t *testing.T, path string) (map[string]json.RawMessage, *ngca.Result) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	var res ngca.Result
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return fields, &res
}

// TestFitShards checks that the sample fit of 8 and of 3 shards of the
// same rows is the same basis, bit for bit, and that the file has the
// fields of "ngca fit -json".
func TestFitShards(t *testing.T) {
	x := data(t, 3000, 5)
	dir := t.TempDir()
	var fits []map[string]json.RawMessage
	for _, k := range []int{8, 3} {
		out := filepath.Join(dir, fmt.Sprintf("fit%d.json", k))
		code, stderr := runCmd(t, "fit", "-dim", "2", "-method", "wflsngca", "-sample", "1000", "-seed", "4",
			"-drop", "id", "-label-col", "label", "-input", shards(t, x, k), "-o", out)
		if code != 0 {
			t.Fatalf("%d shards: exit %d: %s", k, code, stderr)
		}
		if !strings.Contains(stderr, "note: -sample: using 1000 of the 3000 rows") {
			t.Errorf("stderr: %s", stderr)
		}
		f, _ := readFit(t, out)
		fits = append(fits, f)
	}
	for _, key := range []string{"basis", "eigenvalues", "mean", "n", "columns", "label_column", "sample", "rows_read", "settings"} {
		if !bytes.Equal(fits[0][key], fits[1][key]) {
			t.Errorf("%q: 8 shards %s, 3 shards %s", key, fits[0][key], fits[1][key])
		}
	}
	for _, key := range []string{"ngca_result", "label", "method", "input", "format", "n", "d", "dim", "columns", "column_numbers",
		"label_column", "input_flags", "sample", "rows_read", "seed", "settings", "basis", "eigenvalues", "mean", "timings", "report"} {
		if _, ok := fits[0][key]; !ok {
			t.Errorf("no %q in the fit's JSON", key)
		}
	}
	var cols []string
	json.Unmarshal(fits[0]["columns"], &cols)
	if string(fits[0]["n"]) != "1000" || strings.Join(cols, ",") != "x1,x2,x3,x4,x5" || string(fits[0]["label_column"]) != `"label"` {
		t.Errorf("n %s, columns %s, label column %s", fits[0]["n"], fits[0]["columns"], fits[0]["label_column"])
	}
}

// TestFitSettings checks that the fit file's settings hold, as those of
// "ngca fit -json" do, what only the fit's details record: MIPP's
// evaluations and threshold, defaults resolved, and SNGCA's iterations.
func TestFitSettings(t *testing.T) {
	x := data(t, 600, 4)
	in := shards(t, x, 2)
	for _, tc := range []struct {
		method string
		want   fitfile.Settings
	}{
		{"mipp", fitfile.Settings{Iterations: defaults.MIPPIterations, Threshold: defaults.MIPPThreshold}},
		{"sngca", fitfile.Settings{Iterations: 1000}}, // SNGCA.MaxIter = 0 means 1000
		{"wflsngca", fitfile.Settings{Centers: defaults.Centers, Folds: defaults.Folds}},
	} {
		out := filepath.Join(t.TempDir(), tc.method+".json")
		code, stderr := runCmd(t, "fit", "-dim", "2", "-method", tc.method, "-seed", "3", "-drop", "id", "-label-col", "label",
			"-input", in, "-o", out)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.method, code, stderr)
		}
		f, _ := readFit(t, out)
		var got fitfile.Settings
		if err := json.Unmarshal(f["settings"], &got); err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: settings %+v, want %+v", tc.method, got, tc.want)
		}
	}
}

// TestFullFit checks -full: the fit of every row with the sample's
// choices equals the single-machine fit with the same choices, ε ≤ 1e-10.
func TestFullFit(t *testing.T) {
	x := data(t, 4000, 5)
	out := filepath.Join(t.TempDir(), "full.json")
	code, stderr := runCmd(t, "fit", "-dim", "2", "-full", "-sample", "1500", "-seed", "2",
		"-cols", "2-6", "-input", shards(t, x, 3), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fields, full := readFit(t, out)
	if string(fields["n"]) != "4000" || string(fields["method"]) != `"wflsngca"` {
		t.Errorf("n %s, method %s", fields["n"], fields["method"])
	}
	sample := ngcabeam.SampleMatrix(x, 1500, 2)
	_, plan, err := (&ngca.WFLSNGCA{Dim: 2, Src: rand.NewPCG(2, 0)}).FitPlan(context.Background(), sample)
	if err != nil {
		t.Fatal(err)
	}
	for !plan.Done() {
		s := plan.NewSums()
		if err := s.Add(x); err != nil {
			t.Fatal(err)
		}
		if plan, err = plan.Next(s); err != nil {
			t.Fatal(err)
		}
	}
	one, err := plan.Result()
	if err != nil {
		t.Fatal(err)
	}
	if e := ngca.SubspaceError(one.Basis, full.Basis); !(e <= 1e-10) {
		t.Errorf("ε = %.3g between ngca-beam fit -full and the single-machine fit with the same choices, want ≤ 1e-10", e)
	}
}

// ngcaBinary builds the ngca command of the repository.
func ngcaBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ngca")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/ngca")
	cmd.Dir = filepath.Join("..", "..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building ngca: %v\n%s", err, out)
	}
	return bin
}

// TestTransformIsNgcaTransform checks that every shard that transform
// writes is, to the last digit, what "ngca transform" writes for its
// file, with kept columns, labels and a row with a missing value.
func TestTransformIsNgcaTransform(t *testing.T) {
	x := data(t, 2500, 4)
	glob := shards(t, x, 3)
	// A missing value in the second file.
	second := strings.Replace(glob, "*", "1", 1)
	b, _ := os.ReadFile(second)
	lines := strings.Split(string(b), "\n")
	cells := strings.Split(lines[5], ",")
	cells[2] = "NA"
	lines[5] = strings.Join(cells, ",")
	os.WriteFile(second, []byte(strings.Join(lines, "\n")), 0o644)
	// A gross value in the first file: the fit sets its row aside, and
	// transform gives it empty coordinates, as ngca transform does.
	first := strings.Replace(glob, "*", "0", 1)
	b, _ = os.ReadFile(first)
	lines = strings.Split(string(b), "\n")
	cells = strings.Split(lines[9], ",")
	cells[1] = "1e6"
	lines[9] = strings.Join(cells, ",")
	os.WriteFile(first, []byte(strings.Join(lines, "\n")), 0o644)

	dir := t.TempDir()
	fit := filepath.Join(dir, "fit.json")
	if code, stderr := runCmd(t, "fit", "-dim", "2", "-method", "mipp", "-drop", "id", "-label-col", "label", "-missing", "drop",
		"-input", glob, "-o", fit); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	prefix := filepath.Join(dir, "proj")
	code, stderr := runCmd(t, "transform", "-basis", fit, "-keep", "id", "-with-labels", "-input", glob, "-output", prefix)
	if code != 0 {
		t.Fatalf("transform: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "1 of the 2500 rows of 3 files of") {
		t.Errorf("stderr: %s", stderr)
	}
	ngcaBin := ngcaBinary(t)
	for i := 0; i < 3; i++ {
		want, err := exec.Command(ngcaBin, "transform", "-basis", fit, "-keep", "id", "-with-labels", strings.Replace(glob, "*", strconv.Itoa(i), 1)).Output()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(shardName(prefix, i, 3))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("shard %d differs from ngca transform's output (%d and %d bytes)", i, len(got), len(want))
		}
		if (i == 0 || i == 1) && !bytes.Contains(got, []byte(",,,c")) {
			t.Errorf("shard %d has no line with empty coordinates", i)
		}
	}
}

// TestBadShard checks that a bad cell fails the pipeline with its file
// and line named.
func TestBadShard(t *testing.T) {
	x := data(t, 600, 3)
	glob := shards(t, x, 3)
	bad := strings.Replace(glob, "*", "2", 1)
	b, _ := os.ReadFile(bad)
	lines := strings.Split(string(b), "\n")
	cells := strings.Split(lines[7], ",")
	cells[1] = "1.2.3"
	lines[7] = strings.Join(cells, ",")
	os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644)
	code, stderr := runCmd(t, "fit", "-dim", "1", "-method", "mipp", "-drop", "id", "-label-col", "label", "-input", glob, "-o", filepath.Join(t.TempDir(), "f.json"))
	if code != 1 || !strings.Contains(stderr, bad+":8: column 2") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want 1 and one line naming %s:8", code, stderr, bad)
	}
}

// TestUsage checks the command line's errors.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{"fit", "-input", "x", "-o", "f.json"},
		{"fit", "-dim", "2", "-full", "-method", "mipp", "-input", "x", "-o", "f.json"},
		{"fit", "-dim", "2", "-method", "mipp", "-centers", "5", "-input", "x", "-o", "f.json"},
		{"transform", "-input", "x", "-output", "p"},
		{"nosuch"},
	} {
		if code, stderr := runCmd(t, args...); code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
