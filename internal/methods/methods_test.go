package methods

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/ngcatest"
	"gonum.org/v1/gonum/mat"
)

// TestRegistry checks every entry: a unique key, aliases and label, known
// setting names, and a fit of a small data set whose Result.Method is the
// entry's Label and whose progress reaches 1 without going back.
func TestRegistry(t *testing.T) {
	x, _, err := ngcatest.Artificial{N: 300, D: 4}.Sample(rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	owner := map[string]string{}
	for _, m := range All() {
		for _, name := range append([]string{m.Key, m.Label}, m.Aliases...) {
			n := strings.ToLower(name)
			if k, taken := owner[n]; taken && k != m.Key {
				t.Errorf("%s: name %q is taken by %s", m.Key, name, k)
			}
			owner[n] = m.Key
		}
		for _, s := range m.Settings {
			if !slices.Contains(SettingNames(), s) {
				t.Errorf("%s: unknown setting %q", m.Key, s)
			}
		}
		last := 0.0
		prog := func(p ngca.Progress) {
			f := p.Fraction()
			if f < last {
				t.Errorf("%s: progress went back from %v to %v", m.Key, last, f)
			}
			last = f
		}
		res, err := m.New(Settings{Dim: 2, Workers: 1, Src: rand.NewPCG(2, 2), Progress: prog}).Fit(context.Background(), x)
		if err != nil {
			t.Fatalf("%s: %v", m.Key, err)
		}
		if res.Method != m.Label || last != 1 {
			t.Errorf("%s: Result.Method %q (want %q), final progress %v", m.Key, res.Method, m.Label, last)
		}
	}
}

// TestSettingsReachTheEstimator checks that every setting an entry lists
// reaches its estimator: the Report shows the value set.
func TestSettingsReachTheEstimator(t *testing.T) {
	x, _, err := ngcatest.Artificial{N: 200, D: 4}.Sample(rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	s := Settings{Dim: 1, Workers: 1, Centers: 30, Folds: 3, Widths: []float64{1, 2}, Ridges: []float64{0.1},
		VWidths: []float64{3}, VRidges: []float64{0.01, 0.1}, Iterations: 4, Threshold: 1.2}
	rec := probe.NewRecorder()
	ctx := probe.WithRecorder(context.Background(), rec)
	for _, m := range All() {
		res, err := m.New(s).Fit(ctx, x)
		if err != nil {
			t.Fatalf("%s: %v", m.Key, err)
		}
		var centers, folds int
		var cv []probe.StageDetail
		switch r := res.Report.(type) {
		case *ngca.LSReport:
			centers, folds, cv = r.NumCenters, r.Folds, rec.StagesOf(r)
		case *ngca.RobustReport:
			centers, folds, cv = r.NumCenters, r.Folds, rec.StagesOf(r)
		case *ngca.MIPPReport:
			if d, _ := rec.MIPPOf(r); !m.Applies(SetIterations) || d.Iterations != 4 || d.Threshold != 1.2 {
				t.Errorf("%s: MIPP report %+v", m.Key, r)
			}
			continue
		case *ngca.IMAKReport, *ngca.SNGCAReport: // no settings of their own on the command line
			continue
		default:
			t.Fatalf("%s: report %T", m.Key, res.Report)
		}
		if len(cv) == 0 {
			t.Errorf("%s: no stages recorded", m.Key)
		}
		if p, ok := m.New(s).(interface {
			FitPlan(context.Context, mat.Matrix) (*ngca.Result, *ngca.Plan, error)
		}); ok {
			pres, _, err := p.FitPlan(ctx, x)
			if err != nil {
				t.Fatalf("%s: FitPlan: %v", m.Key, err)
			}
			if got := rec.StagesOf(pres.Report); !reflect.DeepEqual(got, cv) {
				t.Errorf("%s: FitPlan recorded stages %v, Fit %v", m.Key, got, cv)
			}
		}
		if !m.Kernel || centers != 30 || folds != 3 {
			t.Errorf("%s: %d centers, %d folds (want 30, 3)", m.Key, centers, folds)
		}
		for _, st := range cv {
			want := []float64{1, 2}
			if st.Name == "v" && m.Applies(SetVWidths) {
				want = []float64{3}
			}
			if st.Name != "select" && !slices.Equal(st.Widths, want) {
				t.Errorf("%s: stage %s widths %v (want %v)", m.Key, st.Name, st.Widths, want)
			}
		}
	}
}

func TestLookup(t *testing.T) {
	for _, m := range All() {
		for _, name := range append([]string{m.Key, strings.ToUpper(m.Key), m.Label, " " + strings.ToLower(m.Label)}, m.Aliases...) {
			got, err := Lookup(name)
			if err != nil || got.Key != m.Key {
				t.Errorf("Lookup(%q) = %q, %v (want %q)", name, got.Key, err, m.Key)
			}
		}
	}
	if m, err := Lookup("robust"); err != nil || m.Label != "WF-LSNGCA robust" {
		t.Errorf(`Lookup("robust") = %q, %v`, m.Label, err)
	}
	_, err := Lookup("pca")
	if err == nil {
		t.Fatal(`Lookup("pca"): no error`)
	}
	for _, m := range All() {
		if !strings.Contains(err.Error(), m.Key) {
			t.Errorf("the error %q does not list %q", err, m.Key)
		}
	}
}

func TestParse(t *testing.T) {
	ms, err := Parse("wflsngca, MIPP,WF-LSNGCA robust")
	if err != nil || Keys(ms) != "wflsngca,mipp,wflsngca-robust" {
		t.Fatalf("Parse: %v, %v", Keys(ms), err)
	}
	all, err := Parse(Keys(All()))
	if err != nil || len(all) != len(All()) {
		t.Errorf("Parse(Keys(All())): %d methods, %v", len(all), err)
	}
	for _, bad := range []string{"", " , ", "pca", "wflsngca,x"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// TestKeysAreStable pins the keys and labels: the studies seed their fits
// with the keys and write the labels into their committed results.
func TestKeysAreStable(t *testing.T) {
	var got []string
	for _, m := range All() {
		got = append(got, m.Key+"="+m.Label)
	}
	want := []string{"wflsngca=WF-LSNGCA", "lsngca=LSNGCA", "mipp=MIPP", "imak=IMAK", "sngca=SNGCA", "wflsngca-robust=WF-LSNGCA robust"}
	if !slices.Equal(got, want) {
		t.Errorf("registry %v, want %v", got, want)
	}
}
