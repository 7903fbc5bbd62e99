package orientation

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/research/internal/repro"
)

func TestCells(t *testing.T) {
	cells := DefaultCells()
	count := map[string]int{}
	names := map[string]bool{}
	for _, c := range cells {
		count[c.Block]++
		if names[c.Name] {
			t.Errorf("cell %q twice", c.Name)
		}
		names[c.Name] = true
		spec, err := c.Spec()
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		x, truth, err := spec.Sample(rand.NewPCG(1, repro.Key("orientation", c.Name, 0)))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if r, d := x.Dims(); r != c.N || d != c.D || truth.RawMatrix().Cols != c.M {
			t.Errorf("%s: data %d×%d, truth with %d columns", c.Name, r, d, truth.RawMatrix().Cols)
		}
	}
	want := map[string]int{"mix": 135, "m": 48, "n": 45, "d": 40, "aligned": 72, "d50": 30}
	if !reflect.DeepEqual(count, want) || len(cells) != 370 {
		t.Errorf("%d cells by block %v, want 370 as %v", len(cells), count, want)
	}
	if c := cells[1]; c.Name != "mix n=2000 d=10 m=2 a k=0 r=1" {
		t.Errorf("cell name %q", c.Name)
	}
}

func TestSelectCells(t *testing.T) {
	cells, err := SelectCells([]string{"n"}, []string{"a"})
	if err != nil || len(cells) != 9 {
		t.Errorf("block n, signal a: %d cells, %v", len(cells), err)
	}
	for _, bad := range [][2][]string{{{"x"}, nil}, {nil, {"zz"}}, {{"m"}, {"d"}}} {
		if _, err := SelectCells(bad[0], bad[1]); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func TestRowRoundTrip(t *testing.T) {
	nan := math.NaN()
	for _, r := range []Row{
		{Block: "mix", Cell: "x", Signal: "a", M: 2, N: 9, D: 10, R: 1, Mix: synth.Turn, Seed: 3, Method: "mipp",
			Epsilon: 0.1 + 0.2, Seconds: 1.5, Separation: math.Inf(1), P: nan, EpsilonAxes: nan, EpsilonEquivar: nan},
		{Block: "d", Cell: "y", Signal: "b", M: 2, N: 9, D: 30, R: 0, Mix: 4, Seed: 0, Method: robustKey,
			Epsilon: 1e-7, Seconds: 2, Separation: nan, Robust: true, Path: "axes", P: 0.3, Refined: true, EpsilonAxes: 1e-7, EpsilonEquivar: nan},
		{Block: "n", Cell: "z", Signal: "c", M: 3, N: 9, D: 10, Mix: 0, Method: "sngca", Epsilon: nan, Seconds: 0.5,
			Separation: nan, P: nan, EpsilonAxes: nan, EpsilonEquivar: nan, Err: "failed, badly"},
	} {
		got, err := parseRow(r.record())
		if err != nil || !reflect.DeepEqual(got.record(), r.record()) {
			t.Errorf("%v read back as %v, %v", r.record(), got.record(), err)
		}
	}
	if _, err := parseRow(make([]string, len(header))); err == nil {
		t.Error("an empty record parses")
	}
}

func TestStatistics(t *testing.T) {
	ps := []pair{{0.1, 0.1}, {0.3, 0.1}, {0.2, 0.1}, {0.05, 0.1}}
	if b := badShare(ps); b != 0.25 { // only 0.3 > 2·0.1 + 0.01
		t.Errorf("bad share %v, want 0.25", b)
	}
	if !math.IsNaN(badShare(nil)) {
		t.Error("bad share of nothing is not NaN")
	}
	// 9 of 10 untied differences positive: P(K ≥ 9) = 11/1024; one tie
	// dropped from 11 pairs.
	nine := []pair{{1, 1}, {0, 1}}
	for range 9 {
		nine = append(nine, pair{2, 1})
	}
	if p := signTestP(nine); math.Abs(p-11.0/1024) > 1e-15 {
		t.Errorf("sign test p = %v, want %v", p, 11.0/1024)
	}
	if p := signTestP([]pair{{2, 1}, {2, 1}, {2, 1}}); p != 0.125 {
		t.Errorf("3 of 3: p = %v, want 0.125", p)
	}
	if p := signTestP([]pair{{1, 1}}); p != 1 {
		t.Errorf("all tied: p = %v", p)
	}
	for _, tc := range []struct {
		v    []float64
		want float64
	}{{[]float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}, 9}, {[]float64{3, 1, 2}, 3}, {[]float64{7}, 7}, {[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 10}} {
		if got := p90(tc.v); got != tc.want {
			t.Errorf("p90(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// ruleRows are hand-made fits of two cells: MIPP has one poor fit (worst
// 0.5) and is far from the best in c2; IMAK's median is above MIPP's in
// c1 (0.11 against 0.1, within the near-best margin) and best in c2;
// LSNGCA is worse on every seed of c1 (bad, so not safe).
func ruleRows() []Row {
	var rows []Row
	add := func(cell string, seed int, method string, eps float64) {
		rows = append(rows, Row{Block: "mix", Cell: cell, Signal: "a", M: 2, N: 2000, D: 10, Seed: seed, Method: method, Epsilon: eps})
	}
	for s := range 10 {
		add("c1", s, "mipp", 0.1)
		add("c2", s, "mipp", map[bool]float64{true: 0.5, false: 0.1}[s == 0])
		add("c1", s, "imak", map[bool]float64{true: 0.11, false: 0.09}[s < 6])
		add("c2", s, "imak", 0.05)
		add("c1", s, "lsngca", 0.3)
		add("c2", s, "lsngca", 0.1)
	}
	return rows
}

func TestDefaultByRule(t *testing.T) {
	a := analyse(ruleRows())
	var sums []summary
	for _, m := range a.methods {
		sums = append(sums, a.summarise(m))
	}
	if got := a.defaultByRule(sums); got != "imak" {
		t.Errorf("winner %q, want imak", got)
	}
	if far := a.farFromBest("mipp"); !reflect.DeepEqual(far, []string{"c2"}) {
		t.Errorf("mipp far from the best in %v, want [c2]", far)
	}
	if far := a.farFromBest("lsngca"); !reflect.DeepEqual(far, []string{"c1", "c2"}) {
		t.Errorf("lsngca far from the best in %v, want [c1 c2]", far)
	}
	imak, ls := sumOf(sums, "imak"), sumOf(sums, "lsngca")
	if !a.safe(imak) || a.safe(ls) || !a.safe(sumOf(sums, "mipp")) {
		t.Errorf("safe: imak %v, lsngca %v", a.safe(imak), a.safe(ls))
	}
	if !reflect.DeepEqual(imak.strictWorse, []string{"c1"}) || len(imak.signWorse) != 0 || imak.worst != 0.11 {
		t.Errorf("imak: %+v", imak)
	}
	if !reflect.DeepEqual(ls.signWorse, []string{"c1"}) || ls.worstBadShare != 1 || ls.worstBadCell != "c1" {
		t.Errorf("lsngca: %+v", ls)
	}
	// Without IMAK, no safe estimator is near the best everywhere: MIPP
	// (1 cell far) wins over nothing else safe.
	var noIMAK []Row
	for _, r := range ruleRows() {
		if r.Method != "imak" {
			noIMAK = append(noIMAK, r)
		}
	}
	b := analyse(noIMAK)
	var bs []summary
	for _, m := range b.methods {
		bs = append(bs, b.summarise(m))
	}
	if got := b.defaultByRule(bs); got != "mipp" {
		t.Errorf("without IMAK: winner %q, want mipp", got)
	}
	md := a.markdown("test")
	for _, want := range []string{"Winner before the cost limit: **IMAK**", "| MIPP | ✓ | 1 cell: `c2` |", "| LSNGCA | ✗ | 2 cells: `c1` and `c2` |",
		"| a k=0 r=0 | 0.3 | 0.1 | 0.11 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// tinyConfig is the study on two small cells, one seed, IMAK and MIPP.
func tinyConfig(t *testing.T) Config {
	cells, err := SelectCells([]string{"n"}, []string{"a"})
	if err != nil {
		t.Fatal(err)
	}
	cells = WithN([]Cell{cells[0], cells[len(cells)-1]}, 300)
	return Config{Cells: cells, Methods: []methods.Method{methods.MustLookup("imak"), methods.MustLookup("mipp")},
		Seeds: 1, Seed: 7, Workers: 2, Out: t.TempDir()}
}

// readRows reads orientation.csv, setting every row's seconds to s first
// if s > 0 (a mark that shows which rows a later run kept).
func readRows(t *testing.T, c Config, s float64) []Row {
	t.Helper()
	rows, err := repro.ReadRows(c.path("orientation.csv"), parseRow)
	if err != nil {
		t.Fatal(err)
	}
	if s > 0 {
		for i := range rows {
			rows[i].Seconds = s
		}
		if err := repro.WriteRows(c.path("orientation.csv"), header, rows, Row.record); err != nil {
			t.Fatal(err)
		}
	}
	return rows
}

func TestRunResumeRerun(t *testing.T) {
	c := tinyConfig(t)
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	first := readRows(t, c, 123)
	if len(first) != 4 {
		t.Fatalf("%d rows, want 4", len(first))
	}
	for _, f := range []string{"orientation-cells.csv", "orientation.md"} {
		if b, err := os.ReadFile(filepath.Join(c.Out, f)); err != nil || !strings.Contains(string(b), "imak") && !strings.Contains(string(b), "IMAK") {
			t.Errorf("%s: %v\n%s", f, err, b)
		}
	}
	c.Resume = true
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	for _, r := range readRows(t, c, 0) {
		if r.Seconds != 123 {
			t.Errorf("resumed run fitted %s on %s again", r.Method, r.Cell)
		}
	}
	c.Resume, c.Rerun = false, []string{"imak"}
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	again := readRows(t, c, 0)
	for i, r := range again {
		if refit := r.Seconds != 123; refit != (r.Method == "imak") || r.Epsilon != first[i].Epsilon {
			t.Errorf("rerun imak: %s on %s refitted %v, ε %v then %v", r.Method, r.Cell, refit, first[i].Epsilon, r.Epsilon)
		}
	}
}

// cancelling is an estimator that returns the first columns on its first
// fit and cancels the study on the next.
type cancelling struct {
	calls  *int
	cancel context.CancelFunc
}

func (e cancelling) Fit(ctx context.Context, x mat.Matrix) (*ngca.Result, error) {
	if *e.calls++; *e.calls > 1 {
		e.cancel()
		return nil, ctx.Err()
	}
	_, d := x.Dims()
	basis := mat.NewDense(d, 2, nil)
	basis.Set(0, 0, 1)
	basis.Set(1, 1, 1)
	return &ngca.Result{Basis: basis}, nil
}

func TestCancel(t *testing.T) {
	c := tinyConfig(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	stop := methods.Method{Key: "stop", Label: "stop",
		New: func(methods.Settings) ngca.Estimator { return cancelling{&calls, cancel} }}
	c.Cells, c.Seeds, c.Workers = c.Cells[:1], 2, 1
	c.Methods = []methods.Method{methods.MustLookup("mipp"), stop}
	err := Run(ctx, c)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted: 1 of 2 data sets finished") {
		t.Errorf("error %v", err)
	}
	if rows := readRows(t, c, 0); len(rows) != 2 || rows[0].Seed != 0 || rows[1].Method != "stop" {
		t.Errorf("rows after cancelling: %+v", rows)
	}
	if _, err := os.Stat(c.path("orientation.md")); err != nil {
		t.Error(err)
	}
}

func TestReportOnly(t *testing.T) {
	out := t.TempDir()
	c := Config{Out: out, ReportOnly: true}
	if err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "no fits to report") {
		t.Errorf("no CSV: %v", err)
	}
	if err := repro.WriteRows(c.path("orientation.csv"), header, ruleRows(), Row.record); err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	recs, err := repro.ReadCSV(c.path("orientation-cells.csv"))
	if err != nil || len(recs) != 1+2*3 || !reflect.DeepEqual(recs[0], cellHeader) {
		t.Errorf("orientation-cells.csv: %v %v", recs, err)
	}
}

// TestLostCells: a robust fit whose axes estimate is exact but that
// returned the equivariant estimate is counted per block and listed by
// cell; an exact axes estimate returned and an inexact one are not.
func TestLostCells(t *testing.T) {
	var rows []Row
	add := func(seed int, method, path string, eps, epsAxes float64) {
		rows = append(rows, Row{Block: "mix", Cell: "c1", Signal: "a", M: 2, N: 2000, D: 10, Seed: seed, Method: method,
			Epsilon: eps, Path: path, Robust: method == robustKey, EpsilonAxes: epsAxes, EpsilonEquivar: 0.01, P: math.NaN(), Distance: 1})
	}
	for s := range 3 {
		add(s, "mipp", "", 0.01, math.NaN())
	}
	add(0, robustKey, axesPath, 0, 0)            // exact, returned
	add(1, robustKey, "equivariant", 0.01, 1e-9) // exact, not returned
	add(2, robustKey, "equivariant", 0.01, 0.3)  // not exact
	md := analyse(rows).markdown("test")
	for _, want := range []string{"| mix | 1 / 3 | 0 / 0 | — | 0 | 2 | 1 |", "| c1 | 1 / 2 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

// TestExactAndWideGoals: the exact-axes goals count the robust variant's
// aligned fits with n ≥ 1000 and d ≤ 30 only, and the wide goal compares
// medians with MIPP's in the turned cells with d ≥ 50 and n ≥ 10000.
func TestExactAndWideGoals(t *testing.T) {
	var rows []Row
	add := func(cell string, mix, n, d, seed int, method, path string, eps, epsAxes float64) {
		rows = append(rows, Row{Block: "x", Cell: cell, Signal: "a", M: 2, N: n, D: d, Mix: mix, Seed: seed, Method: method,
			Epsilon: eps, Path: path, Robust: method == robustKey, EpsilonAxes: epsAxes, EpsilonEquivar: 0.01, P: math.NaN(), Distance: 1})
	}
	eq := "equivariant"
	for s := range 4 {
		add("al", 0, 1000, 30, s, "mipp", "", 0.01, math.NaN())
	}
	add("al", 0, 1000, 30, 0, robustKey, axesPath, 0, 0)    // exact, returned
	add("al", 0, 1000, 30, 1, robustKey, eq, 0.01, 1e-9)    // exact, not returned
	add("al", 0, 1000, 30, 2, robustKey, eq, 0.01, 0.4)     // axes estimate wrong
	add("al", 0, 1000, 30, 3, robustKey, axesPath, 0, 0)    // exact, returned
	add("small", 0, 500, 10, 0, robustKey, eq, 0.01, 1e-9)  // n < 1000: not counted
	add("wide", 0, 2000, 50, 0, robustKey, eq, 0.01, 1e-9)  // d > 30: not counted
	add("mixed", 1, 2000, 10, 0, robustKey, eq, 0.01, 1e-9) // k > 0: not counted
	for s := range 2 {
		add("turned", turnMix, 10000, 50, s, "mipp", "", 0.02, math.NaN())
		add("turned", turnMix, 10000, 50, s, robustKey, eq, 0.011, math.NaN())
	}
	a := analyse(rows)
	gs := a.exactGoals()
	if gs[0].ok || gs[0].detail != "2 of 3 (66.7 %)" || gs[1].ok || gs[1].detail != "3 of 4 (75.0 %)" {
		t.Errorf("exact goals %+v", gs)
	}
	if g := a.wideGoal(robustKey); g.ok || g.none || g.detail != "0 of 1 cells, largest ratio 0.55" {
		t.Errorf("wide goal %+v", g)
	}
}

// TestBoundGoal: the bound counts the fits at n ≤ 1000 together (at most
// 3 % bad), every fit at n ≥ 2000, and no cell with n < d².
func TestBoundGoal(t *testing.T) {
	var rows []Row
	add := func(cell string, n, d, seeds, bad int) {
		for s := range seeds {
			eps := 0.01
			if s < bad {
				eps = 0.5
			}
			rows = append(rows, Row{Block: "x", Cell: cell, Signal: "a", M: 2, N: n, D: d, Seed: s, Method: "mipp", Epsilon: 0.01, P: math.NaN(), Distance: math.NaN()},
				Row{Block: "x", Cell: cell, Signal: "a", M: 2, N: n, D: d, Seed: s, Method: "imak", Epsilon: eps, P: math.NaN(), Distance: math.NaN()})
		}
	}
	add("small", 1000, 10, 40, 1) // 1 of 40 bad at n ≤ 1000: 2.5 %
	add("wide", 2000, 50, 10, 5)  // n < d²: not counted
	add("large", 2000, 10, 10, 0) // every fit within
	if g := analyse(rows).boundGoal("imak"); !g.ok || !strings.Contains(g.detail, "n ≤ 1000: 1 of 40 fits bad (2.5 %)") {
		t.Errorf("bound goal %+v", g)
	}
	add("small2", 500, 10, 10, 1) // now 2 of 50 at n ≤ 1000: 4 %
	if g := analyse(rows).boundGoal("imak"); g.ok {
		t.Errorf("4 %% bad at n ≤ 1000 passed: %+v", g)
	}
	rows = rows[:0]
	add("large", 2000, 10, 10, 1) // one bad fit at n ≥ 2000
	if g := analyse(rows).boundGoal("imak"); g.ok || !strings.HasPrefix(g.detail, "1 cell short") {
		t.Errorf("a bad fit at n ≥ 2000 passed: %+v", g)
	}
}
