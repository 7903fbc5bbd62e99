package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/methods"
)

// TestResultJSONFromCommand: the JSON of "ngca fit -json -check" loads
// into an ngca.Result (json.Unmarshal) equal, bit for bit, to the
// library's fit of the same data with the same seed (TestFitJSON does the
// same without -check for every method), and its check report loads into
// an ngca.CheckReport; the command's JSON files of earlier versions in the
// fuzz corpus load too, into an ngca.Result and as a -basis file.
func TestResultJSONFromCommand(t *testing.T) {
	files := dataFiles(t, t.TempDir())
	x, _ := testSignal(t, 400, 5)
	code, stdout, stderr := runCmd(t, "fit", "-method", "imak", "-dim", "2", "-seed", "7", "-workers", "1", "-json", "-check", files["tsv"])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got ngca.Result
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	var chk struct {
		Check *ngca.CheckReport `json:"check"`
	}
	if err := json.Unmarshal([]byte(stdout), &chk); err != nil || chk.Check == nil || chk.Check.Method != "IMAK" {
		t.Fatalf("check report: %v, %+v", err, chk.Check)
	}
	want, err := methods.MustLookup("imak").New(methods.Settings{Dim: 2, Src: rand.NewPCG(7, seedStream), Workers: 1}).Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	if got.Method != want.Method || !mat.Equal(got.Basis, want.Basis) || !slicesEqual(got.Mean, want.Mean) || !slicesEqual(got.Eigenvalues, want.Eigenvalues) {
		t.Errorf("the command's fit loads as %s with another basis, mean or spectrum", got.Method)
	}
	got.Timings, want.Timings = nil, nil
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if !bytes.Equal(a, b) {
		t.Errorf("the loaded report differs from the library's")
	}

	seeds, err := filepath.Glob("testdata/fuzz/FuzzReadBasis/fit-json*")
	if err != nil || len(seeds) < 4 {
		t.Fatalf("fuzz seeds of fit -json: %v, %v", seeds, err)
	}
	for _, path := range seeds {
		data := fuzzSeedBytes(t, path)
		var r ngca.Result
		if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\ufeff")), &r); err != nil {
			t.Errorf("%s: %v", path, err)
		} else if r.Method != "WF-LSNGCA" || r.Basis == nil || len(r.Timings) == 0 || r.Timings[len(r.Timings)-1].Step != "total" {
			t.Errorf("%s: loads as %+v", path, r)
		}
		if _, err := parseBasis(path, data); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// fuzzSeedBytes returns the []byte value of a file of the fuzz corpus.
func fuzzSeedBytes(t *testing.T, path string) []byte {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(text), "\n", 2)
	lit, ok := strings.CutPrefix(strings.TrimSpace(lines[1]), "[]byte(")
	lit, ok2 := strings.CutSuffix(lit, ")")
	s, err := strconv.Unquote(lit)
	if lines[0] != "go test fuzz v1" || !ok || !ok2 || err != nil {
		t.Fatalf("%s: not a []byte seed: %v", path, err)
	}
	return []byte(s)
}

// TestResultJSONToCommand: a Result written by the library (json.Marshal)
// is a basis file for "ngca transform -basis", whose output is the
// library's projection, bit for bit.
func TestResultJSONToCommand(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	x, _ := testSignal(t, 400, 5)
	res, err := (&ngca.MIPP{Dim: 2, Src: rand.NewPCG(1, 2)}).Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	basis := filepath.Join(dir, "fit.json")
	if err := os.WriteFile(basis, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "transform", "-basis", basis, files["tsv"])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var want mat.Dense
	res.ProjectTo(&want, x)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	n, m := want.Dims()
	if len(lines) != n+1 { // a header line
		t.Fatalf("%d lines, want %d rows and a header", len(lines), n)
	}
	for i, line := range lines[1:] {
		fields := strings.Split(line, ",")
		for k := 0; k < m; k++ {
			v, err := strconv.ParseFloat(fields[k], 64)
			if err != nil || v != want.At(i, k) {
				t.Fatalf("row %d: %q, want %v", i, line, mat.Row(nil, i, &want))
			}
		}
	}
}

func slicesEqual(a, b []float64) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
