package main

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/ngcatest"
	"gonum.org/v1/gonum/mat"
)

// turnedFile writes the paper's data (a), n × d, turned by a random
// rotation of all columns, as CSV; WF-LSNGCA needs the subspace along the
// columns and fails on it.
func turnedFile(t *testing.T, dir string, n, d int) string {
	t.Helper()
	x, _, err := ngcatest.Artificial{N: n, D: d, Rotate: true}.Sample(rand.NewPCG(8, 9))
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, "turned.csv", matrixCSV(x))
}

// TestFitCheck: -check leaves standard output as it is and writes the
// verdict on stderr: ok for MIPP on aligned data, doubtful (with what to
// try) for WF-LSNGCA on turned data; with -json the report is in the
// JSON and reads back into an ngca.CheckReport.
func TestFitCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("checks two fits")
	}
	dir := t.TempDir()
	files := dataFiles(t, dir)
	plain := ngcaRun(t, "", "fit", "-dim", "2", "-label-col", "class", files["csv"]).mustSucceed(t)
	checked := ngcaRun(t, "", "fit", "-dim", "2", "-check", "-label-col", "class", files["csv"]).mustSucceed(t)
	if checked.stdout != plain.stdout {
		t.Errorf("-check changed standard output:\n%s\nwant\n%s", checked.stdout, plain.stdout)
	}
	if s := withoutSummary(checked.stderr); !strings.HasPrefix(s, "check: ok: ") || strings.Count(s, "\n") != 1 {
		t.Errorf("stderr %q, want one line check: ok: …", checked.stderr)
	}

	turned := turnedFile(t, dir, 1000, 6)
	r := ngcaRun(t, "", "fit", "-dim", "2", "-check", "-method", "wflsngca", "-json", turned).mustSucceed(t)
	lines := strings.Split(strings.TrimSpace(withoutSummary(r.stderr)), "\n")
	last := len(lines) - 1
	if last < 1 || !strings.HasPrefix(lines[last-1], "check: doubtful: ") || !strings.HasPrefix(lines[last], "check: try -method mipp") {
		t.Errorf("stderr %q, want check: doubtful: … and check: try -method mipp …", r.stderr)
	}
	var j struct {
		Check *ngca.CheckReport `json:"check"`
		Basis [][]float64       `json:"basis"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
		t.Fatal(err)
	}
	if j.Check == nil || !j.Check.Doubtful || len(j.Check.Refits) != defaults.CheckRefits || len(j.Check.Reasons) == 0 {
		t.Errorf("JSON check %+v, want a doubtful report with %d refits", j.Check, defaults.CheckRefits)
	}
}

// TestFitCheckNotDone: a check that cannot be made (the estimator cannot
// fit three quarters of the rows) is said on stderr and in the JSON, and the fit is
// written all the same.
func TestFitCheckNotDone(t *testing.T) {
	files := dataFiles(t, t.TempDir())
	args := []string{"fit", "-dim", "2", "-check", "-method", "wflsngca", "-centers", "350", "-json", "-label-col", "class", files["csv"]}
	r := ngcaRun(t, "", args...).mustSucceed(t, args...)
	if !strings.Contains(r.stderr, "check: not done: ngca: Check: every refit on 300 of the 400 rows failed") {
		t.Errorf("stderr %q", r.stderr)
	}
	var j struct {
		Basis      [][]float64 `json:"basis"`
		CheckError string      `json:"check_error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || len(j.Basis) != 5 || !strings.Contains(j.CheckError, "too few rows") {
		t.Errorf("JSON %+v, %v", j, err)
	}
}

// TestPlotCheck: plot -check judges the fit it draws, and -check with
// -basis (nothing fitted) is a usage error.
func TestPlotCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("checks a fit")
	}
	dir := t.TempDir()
	files := dataFiles(t, dir)
	png := filepath.Join(dir, "p.png")
	r := ngcaRun(t, "", "plot", "-check", "-label-col", "class", "-o", png, files["csv"]).mustSucceed(t)
	if !strings.HasPrefix(withoutSummary(r.stderr), "check: ok: ") {
		t.Errorf("stderr %q, want check: ok: first", r.stderr)
	}
	basis := writeFile(t, dir, "b.csv", matrixCSV(mat.NewDense(5, 2, []float64{1, 0, 0, 1, 0, 0, 0, 0, 0, 0})))
	r = ngcaRun(t, "", "plot", "-check", "-basis", basis, "-label-col", "class", "-o", png, files["csv"])
	if r.code == 0 || !strings.Contains(r.stderr, "-check applies when plot fits the data itself") {
		t.Errorf("plot -check -basis: exit %d, stderr %q; want a usage error", r.code, r.stderr)
	}
}

// TestCheckAdvice checks what a doubtful check advises when the fit
// disagrees with a stable reference: never the method that just ran.
func TestCheckAdvice(t *testing.T) {
	rep := &ngca.CheckReport{Doubtful: true, Spread: 0.01, SpreadLimit: 0.05,
		Agreements: []ngca.Agreement{{Method: "IMAK", Distance: 0.5, Limit: 0.1, Spread: 0.02, SpreadLimit: 0.15}}}
	for key, want := range map[string]string{
		"mipp":            "-method wflsngca-robust or ",
		"wflsngca-robust": "-method mipp or ",
		"wflsngca":        "-method mipp or -method wflsngca-robust (WF-LSNGCA needs the subspace along the data's columns) or ",
	} {
		m := methods.MustLookup(key)
		got := checkAdvice(m, rep, false, nil)
		if !strings.HasPrefix(got, want) || strings.Contains(got, "-method "+key+" ") {
			t.Errorf("%s: advice %q, want it to start with %q", key, got, want)
		}
	}
}

// TestWriteCheckUnstable: an unstable fit that a reference's limit, widened
// by the fit's own Spread, would let agree is not said to agree.
func TestWriteCheckUnstable(t *testing.T) {
	rep := &ngca.CheckReport{Doubtful: true, Spread: 1, SpreadLimit: 0.05, RefitRows: 300, Refits: make([]float64, 4),
		Agreements: []ngca.Agreement{{Method: "IMAK", Distance: 0.89, Limit: 2.01, Spread: 0.02, SpreadLimit: 0.15, Agrees: true}}}
	var b strings.Builder
	writeCheck(&env{stderr: &b}, methods.MustLookup("lsngca"), rep, false, nil)
	if got := b.String(); strings.Contains(got, "same subspace") || !strings.Contains(got, "move the subspace") {
		t.Errorf("writeCheck wrote %q", got)
	}
	b.Reset()
	writeCheck(&env{stderr: &b, verbose: true}, methods.MustLookup("lsngca"), rep, false, nil)
	if got := b.String(); !strings.Contains(got, "IMAK: ε = 0.89 from the fit") {
		t.Errorf("writeCheck -v wrote %q, want IMAK's distance", got)
	}
}

// TestWriteCheckRowsNote: the check line carries Check's note that the
// rows are few (CheckReport.RowsNote) and none of the other reasons.
func TestWriteCheckRowsNote(t *testing.T) {
	note := "the refits' 750 rows are few for 30 columns: the references …"
	rep := &ngca.CheckReport{Doubtful: true, Spread: 0.01, SpreadLimit: 0.05, RefitRows: 750, Refits: make([]float64, 4), FewRows: true,
		Reasons: []string{"disagrees with IMAK …", note, "weak separation 3 (below 10)"}, RowsNote: note,
		Agreements: []ngca.Agreement{{Method: "IMAK", Distance: 0.5, Limit: 0.03, Spread: 0.3, SpreadLimit: 0.15}}}
	var b strings.Builder
	writeCheck(&env{stderr: &b}, methods.MustLookup("lsngca"), rep, false, nil)
	if got := b.String(); !strings.Contains(got, note) || strings.Contains(got, "weak separation") {
		t.Errorf("wrote %q, want the rows note and no other reason", got)
	}
}

// TestWriteCheckFailedRefit: a failed refit is said with its reason.
func TestWriteCheckFailedRefit(t *testing.T) {
	rep := &ngca.CheckReport{Spread: 0.01, SpreadLimit: 0.05, RefitRows: 300, Refits: []float64{0, 0, 0, 1},
		RefitsFailed: 1, RefitError: "ngca: numerically singular: the cause"}
	var b strings.Builder
	writeCheck(&env{stderr: &b}, methods.MustLookup("mipp"), rep, false, nil)
	if got := b.String(); !strings.Contains(got, "1 of 4 refits failed: ngca: numerically singular: the cause") {
		t.Errorf("wrote %q, want the failure with its reason", got)
	}
}
