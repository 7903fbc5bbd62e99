package checkstudy

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/research/internal/repro"
	"github.com/ngca-go/ngca/research/internal/repro/orientation"
)

// TestRun runs a small study (two cells at n = 400, two methods), checks
// its files, that -report-only rebuilds the same report, and that a
// resumed run keeps every row and fits nothing new.
func TestRun(t *testing.T) {
	cells, err := orientation.SelectCells([]string{"m"}, []string{"skewed"})
	if err != nil {
		t.Fatal(err)
	}
	cells = orientation.WithN(cells[:2], 400)
	out := t.TempDir()
	cfg := Config{Cells: cells, PaperSeeds: -1, TurnedSeeds: -1, Methods: []methods.Method{methods.MustLookup("imak"), methods.MustLookup("wflsngca")},
		Seed: 1, Workers: 2, Out: out, Command: "test"}
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	rows, err := repro.ReadRows(filepath.Join(out, "check.csv"), parseRow)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, r := range rows {
		if r.failed() || r.Spread < 0 || !(r.CheckSeconds > 0) || (r.Method == "imak") == !isNaN(r.IMAK.Distance) {
			t.Errorf("row %+v", r)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "check.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Goals", "## Verdict against ε, per estimator", "| WF-LSNGCA |", "| IMAK |", "## Cost"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("check.md lacks %q", want)
		}
	}
	cfg.ReportOnly = true
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(filepath.Join(out, "check.md"))
	if string(again) != string(md) {
		t.Error("-report-only wrote another report")
	}
	cfg.ReportOnly, cfg.Resume = false, true
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	resumed, _ := repro.ReadRows(filepath.Join(out, "check.csv"), parseRow)
	if len(resumed) != 4 || resumed[0].record()[12] != rows[0].record()[12] {
		t.Errorf("resumed run has %d rows (want the 4 kept)", len(resumed))
	}
}

func isNaN(v float64) bool { return v != v }

// TestPaperCells: the paper's cells, aligned and turned, have distinct
// names and draw their data.
func TestPaperCells(t *testing.T) {
	seen := map[string]bool{}
	c := Config{Seed: 1}
	for _, mix := range []int{0, synth.Turn} {
		for _, cell := range PaperCells(mix) {
			if seen[cell.Name] {
				t.Errorf("cell %q twice", cell.Name)
			}
			seen[cell.Name] = true
		}
	}
	if len(seen) != 40 {
		t.Errorf("%d cells, want 40", len(seen))
	}
	x, truth, err := c.sample(PaperCells(synth.Turn)[3], 0)
	if err != nil {
		t.Fatal(err)
	}
	if r, d := x.Dims(); r != 2000 || d != 10 || truth.At(9, 1) == 0 {
		t.Errorf("turned paper data %d×%d, truth %v", r, d, truth)
	}
}

func TestRowRoundTrip(t *testing.T) {
	nan := math.NaN()
	for _, r := range []Row{
		{Block: "mix", Cell: "x", Signal: "a", M: 2, N: 9, D: 10, R: 1, Mix: synth.Turn, Seed: 3, Method: "mipp",
			Epsilon: 0.1 + 0.2, FitSeconds: 1.5, CheckSeconds: 7, Doubtful: true, Spread: 0.3, RefitsFailed: 1, Separation: math.Inf(1),
			IMAK: ref{0.5, 0.01, 0.03}, MIPP: noRef, Reasons: "unstable: a, b; weak"},
		{Block: PaperBlock, Cell: "y", Signal: "b", M: 2, N: 9, D: 10, R: 0.4, Seed: 0, Method: "sngca", Epsilon: nan,
			FitSeconds: 3, CheckSeconds: nan, Spread: nan, Separation: nan, IMAK: noRef, MIPP: noRef, Err: "failed, badly"},
	} {
		got, err := parseRow(r.record())
		if err != nil || !reflect.DeepEqual(got.record(), r.record()) {
			t.Errorf("%v read back as %v, %v", r.record(), got.record(), err)
		}
	}
	if _, err := parseRow(make([]string, len(header))); err == nil {
		t.Error("an empty record parsed")
	}
}

// TestWideCells: the wide cells have distinct names that no cell of the
// orientation blocks the study calibrates on has, and draw data of their
// size.
func TestWideCells(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range OrientationCells() {
		seen[c.Name] = true
	}
	cells := WideCells()
	if len(cells) != 45 {
		t.Errorf("%d wide cells, want 45", len(cells))
	}
	for _, c := range cells {
		if seen[c.Name] {
			t.Errorf("cell %q twice", c.Name)
		}
		seen[c.Name] = true
	}
	c := Config{Seed: 1}
	x, _, err := c.sample(cells[len(cells)-1], 0)
	if err != nil {
		t.Fatal(err)
	}
	if r, d := x.Dims(); r != 10000 || d != 50 {
		t.Errorf("last wide cell %d×%d, want 10000×50", r, d)
	}
}

// TestWideReport: the report's wide section tallies each n and d and
// applies the goal that n against d² sets: below d², every bad fit
// doubtful.
func TestWideReport(t *testing.T) {
	row := func(n, d int, eps float64, doubtful bool) Row {
		return Row{Block: D50Block, Cell: "c", Method: "mipp", N: n, D: d, Epsilon: eps, Doubtful: doubtful}
	}
	var b strings.Builder
	wide(&b, []Row{
		row(2000, 10, 0.5, false), // not wide
		row(2000, 50, 0.5, true), row(2000, 50, 0.2, false), row(2000, 50, 0.001, true),
		row(10000, 50, 0.5, true), row(10000, 50, 0.001, false),
	})
	md := b.String()
	for _, want := range []string{
		"| n = 2000, d = 50 | n < d² | 1 / 1 (100.0 %) | — | 1 / 2 (50.0 %) | ✗ |",
		"| n = 10000, d = 50 | n ≥ d² | 0 / 1 (0.0 %) | — | 1 / 1 (100.0 %) | ✓ |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "d = 10") {
		t.Errorf("a d = 10 fit in the wide section:\n%s", md)
	}
	b.Reset()
	if wide(&b, []Row{row(2000, 10, 0.5, false)}); b.Len() != 0 {
		t.Errorf("a section without wide fits: %q", b.String())
	}
}
