package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTransformExports: the fit's JSON lists the index it left out, and
// transform, which streams, reads every export
// style as fit does: a fit of pandas' table projects R's and gzip's
// copies of it to the same coordinates (the index, unnamed, is not among
// the fit's columns), and a fit of a zero-based LIBSVM file projects it
// as the same fit of the same numbers does, even a file without an index
// 0, which the fit's JSON says to read zero-based.
func TestTransformExports(t *testing.T) {
	dir := t.TempDir()
	path := func(file string) string { return filepath.Join(exportsDir, file) }
	fitJSON := filepath.Join(dir, "fit.json")
	ngcaRun(t, "", "fit", "-method", "mipp", "-dim", "2", "-json", "-o", fitJSON, path("pandas-index.csv")).mustSucceed(t)
	var fit struct {
		LeftOut []leftOutColumn `json:"left_out"`
	}
	if data, err := os.ReadFile(fitJSON); err != nil || json.Unmarshal(data, &fit) != nil ||
		len(fit.LeftOut) != 1 || fit.LeftOut[0] != (leftOutColumn{Number: 1, Reason: "index"}) {
		t.Errorf("the fit's JSON lists left_out %+v (%v)", fit.LeftOut, err)
	}
	want := ngcaRun(t, "", "transform", "-basis", fitJSON, path("pandas-index.csv")).mustSucceed(t).stdout
	if strings.Count(want, "\n") != 31 {
		t.Fatalf("transform wrote\n%s", want)
	}
	for _, file := range []string{"pandas-index.csv.gz", "pandas-index.tsv", "r-write-csv.csv", "r-write-table.txt", "r-write-table-tab.tsv", "pandas-intcols-index.csv"} {
		r := ngcaRun(t, "", "transform", "-basis", fitJSON, path(file))
		if file == "pandas-intcols-index.csv" { // other column names: an error naming them
			if r.code != 1 || !strings.Contains(r.stderr, `lacks the columns "alcohol"`) {
				t.Errorf("%s: exit %d\n%s", file, r.code, r.stderr)
			}
			continue
		}
		if r.code != 0 || r.stdout != want {
			t.Errorf("%s: exit %d, stdout\n%.300s\nwant\n%.300s\n%s", file, r.code, r.stdout, want, r.stderr)
		}
	}

	zeroJSON := filepath.Join(dir, "zero.json")
	ngcaRun(t, "", "fit", "-method", "mipp", "-dim", "2", "-json", "-o", zeroJSON, path("sklearn-zero-based.svm")).mustSucceed(t)
	got := ngcaRun(t, "", "transform", "-basis", zeroJSON, path("sklearn-zero-based.svm")).mustSucceed(t).stdout
	if !sameNumbers(t, got, want) {
		t.Errorf("zero-based LIBSVM: transform wrote\n%.300s\nwant\n%.300s", got, want)
	}
	// A row without feature 0 is still read zero-based: as the same row
	// with "0:0".
	features := " 1:1.71 2:2.43 3:15.6 4:127 5:2.8 6:3.06 7:0.28 8:2.29 9:5.64 10:1.04 11:3.92 12:1065\n"
	without := ngcaRun(t, "", "transform", "-basis", zeroJSON, writeFile(t, dir, "a.svm", "0"+features)).mustSucceed(t).stdout
	with := ngcaRun(t, "", "transform", "-basis", zeroJSON, writeFile(t, dir, "b.svm", "0 0:0"+features)).mustSucceed(t).stdout
	if without != with || strings.Count(with, "\n") != 2 {
		t.Errorf("a zero-based row without feature 0:\n%s\nwith 0:0:\n%s", without, with)
	}
}

// sameNumbers reports whether two CSV outputs of transform hold the same
// numbers, headers aside.
func sameNumbers(t *testing.T, a, b string) bool {
	t.Helper()
	x, y := parseMatrix(t, a), parseMatrix(t, b)
	return mat.Equal(x, y)
}
