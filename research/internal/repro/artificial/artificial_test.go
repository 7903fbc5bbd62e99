package artificial

import (
	"context"
	"encoding/csv"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/ngcatest"
)

// smallConfig is a study small enough for a smoke test.
func smallConfig(t *testing.T, out string) Config {
	t.Helper()
	// The pipeline is under test, not the estimators: the fast ones.
	ms, err := methods.Parse("wflsngca,lsngca,mipp")
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Dists:   []ngcatest.Distribution{ngcatest.GaussianMixture, ngcatest.SubGaussian},
		Rs:      []float64{0, 1},
		Runs:    2,
		N:       300,
		D:       5,
		Seed:    7,
		Rotate:  true,
		Timing:  Timing{Ns: []int{200, 400}, Ds: []int{4, 6}, Reps: 1},
		Out:     out,
		Methods: ms,
	}
}

// TestSmoke runs a tiny study and checks that every file is well formed.
func TestSmoke(t *testing.T) {
	out := t.TempDir()
	if err := Run(context.Background(), smallConfig(t, out)); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, filepath.Join(out, "errors.csv"))
	// 2 dists × 2 r × 2 runs × 2 (rotated or not) × 3 methods.
	if len(recs) != 1+2*2*2*2*3 {
		t.Fatalf("errors.csv has %d records", len(recs))
	}
	for _, rec := range recs[1:] {
		eps, err := strconv.ParseFloat(rec[5], 64)
		if err != nil || !(eps >= 0 && eps <= 1) {
			t.Errorf("bad ε in %v", rec)
		}
		if cond, err := strconv.ParseFloat(rec[7], 64); err != nil || cond < 1 {
			t.Errorf("bad condition number in %v", rec)
		}
	}
	if recs := readCSV(t, filepath.Join(out, "timing.csv")); len(recs) != 1+4*3 {
		t.Errorf("timing.csv has %d records", len(recs))
	}
	md, err := os.ReadFile(filepath.Join(out, "errors.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## (a) independent Gaussian mixture", "turned by a random rotation", "| WF-LSNGCA |", "| 1 |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("errors.md lacks %q", want)
		}
	}
	for _, fig := range []string{"figure2.png", "figure3.png", "figure4.png"} {
		checkPNG(t, filepath.Join(out, fig))
	}
}

// TestDeterministic checks that the rows do not depend on the number of
// workers (timings aside).
func TestDeterministic(t *testing.T) {
	var got [2][][]string
	for i, w := range []int{1, 2} {
		c := smallConfig(t, t.TempDir())
		c.Rotate, c.Timing.Skip, c.Workers = false, true, w
		if err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		got[i] = readCSV(t, filepath.Join(c.Out, "errors.csv"))
		for _, rec := range got[i] {
			rec[6] = "" // seconds
		}
	}
	if len(got[0]) != len(got[1]) {
		t.Fatal("different row counts")
	}
	for i := range got[0] {
		if strings.Join(got[0][i], ",") != strings.Join(got[1][i], ",") {
			t.Errorf("row %d differs: %v vs %v", i, got[0][i], got[1][i])
		}
	}
}

// TestInterrupted cancels the study and checks that the finished rows are
// written and the error says so.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	c := smallConfig(t, t.TempDir())
	c.Runs, c.Workers = 20, 1
	go func() {
		// Cancel once a few rows have reached errors.csv.
		for {
			b, _ := os.ReadFile(filepath.Join(c.Out, "errors.csv"))
			if strings.Count(string(b), "\n") > 10 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond) // leave the cores to the study
		}
	}()
	err := Run(ctx, c)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("error %v, want an interruption", err)
	}
	recs := readCSV(t, filepath.Join(c.Out, "errors.csv"))
	if len(recs) < 10 || len(recs) >= 1+2*2*20*2*3 {
		t.Errorf("%d records after the interruption", len(recs))
	}
	checkPNG(t, filepath.Join(c.Out, "figure2.png"))
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 200 {
		t.Errorf("%s is only %v", path, b)
	}
}

func TestTickLabel(t *testing.T) {
	for v, want := range map[float64]string{9.999999999999999e-05: "1e-04", 0.001: "0.001", 1000.0000001: "1000", 20000: "20000", 0.5: "0.5", 2e6: "2e+06"} {
		if got := tickLabel(v); got != want {
			t.Errorf("tickLabel(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestResume runs a study with two methods and one run, resumes it with a
// third method and a second run, and checks that the result is the study
// run at once: the kept rows as they were, the new ones as a fresh run
// makes them.
func TestResume(t *testing.T) {
	whole := smallConfig(t, t.TempDir())
	whole.Rotate, whole.Timing.Skip = false, true
	if err := Run(context.Background(), whole); err != nil {
		t.Fatal(err)
	}
	part := whole
	part.Out, part.Runs, part.Methods = t.TempDir(), 1, whole.Methods[:2]
	if err := Run(context.Background(), part); err != nil {
		t.Fatal(err)
	}
	rest := whole
	rest.Out, rest.Resume = part.Out, true
	if err := Run(context.Background(), rest); err != nil {
		t.Fatal(err)
	}
	want := readCSV(t, filepath.Join(whole.Out, "errors.csv"))
	got := readCSV(t, filepath.Join(part.Out, "errors.csv"))
	if len(got) != len(want) {
		t.Fatalf("resumed study has %d records, the whole one %d", len(got), len(want))
	}
	for i := range want {
		want[i][6], got[i][6] = "", "" // seconds
		if strings.Join(got[i], ",") != strings.Join(want[i], ",") {
			t.Errorf("record %d: resumed %v, whole %v", i, got[i], want[i])
		}
	}

	// A row that does not parse is an error naming the file and line.
	bad := filepath.Join(t.TempDir(), "errors.csv")
	if err := os.WriteFile(bad, []byte(strings.Join(rowHeader, ",")+"\na,0,x,false,MIPP,0.1,1,1,\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	rest.Out = filepath.Dir(bad)
	if err := Run(context.Background(), rest); err == nil || !strings.Contains(err.Error(), "errors.csv:2") {
		t.Errorf("bad row: %v, want an error naming errors.csv:2", err)
	}
}
