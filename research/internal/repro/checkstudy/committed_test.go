package checkstudy

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/research/internal/repro"
	"github.com/ngca-go/ngca/research/internal/repro/orientation"
)

var committed = filepath.Join("..", "..", "..", "docs", "check", "check.csv")

// TestCommittedFitsAreOrientations: the committed calibration's fits of
// the orientation study's cells are that study's fits, ε for ε (docs/check
// and docs/orientation, seed 1 of the study).
func TestCommittedFitsAreOrientations(t *testing.T) {
	rows, err := repro.ReadRows(committed, parseRow)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		cell   string
		seed   int
		method string
	}
	study := map[key]float64{}
	orient, err := repro.ReadCSV(filepath.Join("..", "..", "..", "docs", "orientation", "orientation.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range orient[1:] {
		seed, err := strconv.Atoi(rec[8])
		if err != nil {
			t.Fatal(err)
		}
		eps, _ := repro.ParseFloat(rec[10])
		study[key{rec[1], seed, rec[9]}] = eps
	}
	compared := 0
	for _, r := range rows {
		if r.Block == PaperBlock || r.failed() {
			continue
		}
		want, ok := study[key{r.Cell, r.Seed, r.Method}]
		if !ok {
			continue // SNGCA ran on the orientation study's first seed only
		}
		compared++
		if r.Epsilon != want {
			t.Errorf("%s seed %d %s: ε %v, the orientation study's %v", r.Cell, r.Seed, r.Method, r.Epsilon, want)
		}
	}
	if compared < 1000 {
		t.Errorf("only %d fits compared", compared)
	}
}

// TestCommittedRuns refits and rechecks rows of the committed calibration
// and gets the recorded ε, verdict and evidence bit for bit. Unless
// -short, also WF-LSNGCA on the paper's turned data, MIPP on wide data and
// an exact axes estimate of the robust variant at d = 30, whose refits
// follow its path.
func TestCommittedRuns(t *testing.T) {
	recorded, err := repro.ReadRows(committed, parseRow)
	if err != nil {
		t.Fatal(err)
	}
	type fit struct {
		cell   string
		seed   int
		method string
	}
	fits := []fit{{"mix n=2000 d=10 m=2 c k=1 r=0", 1, "imak"}, {"m n=2000 d=10 m=1 skewed k=1 r=0", 1, "mipp"}}
	if !testing.Short() {
		fits = append(fits, fit{"paper n=2000 d=10 m=2 b k=turn r=0.4", 1, "wflsngca"}, fit{"d50 n=2000 d=50 m=2 a k=1 r=0", 1, "mipp"},
			fit{"d n=2000 d=30 m=2 b k=0 r=0", 1, "wflsngca-robust"})
	}
	cells := map[string]orientation.Cell{}
	for _, c := range slices.Concat(OrientationCells(), WideCells(), PaperCells(0), PaperCells(synth.Turn)) {
		cells[c.Name] = c
	}
	c := Config{Seed: 1}
	for _, f := range fits {
		var want *Row
		for i, r := range recorded {
			if r.Cell == f.cell && r.Seed == f.seed && r.Method == f.method {
				want = &recorded[i]
			}
		}
		if want == nil {
			t.Fatalf("%+v: not in the committed run", f)
		}
		rows, err := c.runJob(context.Background(), job{cell: cells[f.cell], seed: f.seed, methods: []methods.Method{methods.MustLookup(f.method)}})
		if err != nil {
			t.Fatal(err)
		}
		got, w := rows[0].record(), want.record()
		for _, i := range []int{10, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24} { // all but the times
			if got[i] != w[i] && !roundingZeros(got[i], w[i]) {
				t.Errorf("%+v: %s = %q, recorded %q", f, header[i], got[i], w[i])
			}
		}
	}
}

// roundingZeros reports whether the fields a and b are both numbers below
// repro.RoundingZero in magnitude: an exact estimate's ε and spread are
// rounding errors, whose digits no change of summation order keeps.
func roundingZeros(a, b string) bool {
	x, errx := strconv.ParseFloat(a, 64)
	y, erry := strconv.ParseFloat(b, 64)
	return errx == nil && erry == nil && math.Abs(x) < repro.RoundingZero && math.Abs(y) < repro.RoundingZero
}
