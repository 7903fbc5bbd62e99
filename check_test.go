package ngca_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/ngcatest"
)

// checkCase draws a data set of the orientation study's generator.
func checkData(t *testing.T, signal string, spec synth.Spec, seed uint64) (x, truth *mat.Dense) {
	t.Helper()
	sig, err := synth.Lookup(signal)
	if err != nil {
		t.Fatal(err)
	}
	spec.Signal = sig
	x, truth, err = spec.Sample(rand.NewPCG(seed, 2027))
	if err != nil {
		t.Fatal(err)
	}
	return x, truth
}

// TestCheckVerdicts: a clearly right fit (ε < 0.01) is not doubtful and a
// clearly wrong one (ε > 0.1) is, on data the check's thresholds were not
// chosen on (this test's own seeds).
func TestCheckVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("fits and checks several estimators")
	}
	t.Parallel()
	for _, tc := range []struct {
		name   string
		signal string
		spec   synth.Spec
		est    ngca.Estimator
	}{
		{"wflsngca aligned", "a", synth.Spec{}, &ngca.WFLSNGCA{Dim: 2}},
		{"wflsngca turned", "b", synth.Spec{Mix: synth.Turn}, &ngca.WFLSNGCA{Dim: 2}},
		{"lsngca mixed", "uniform", synth.Spec{Mix: 1, R: 1}, &ngca.LSNGCA{Dim: 2}},
		{"wflsngca d=30 fails", "c", synth.Spec{D: 30}, &ngca.WFLSNGCA{Dim: 2}},
		{"lsngca turned", "laplace", synth.Spec{Mix: synth.Turn}, &ngca.LSNGCA{Dim: 2}},
		{"mipp turned", "a", synth.Spec{Mix: synth.Turn}, &ngca.MIPP{Dim: 2}},
		{"imak turned", "c", synth.Spec{Mix: synth.Turn}, &ngca.IMAK{Dim: 2}},
		{"robust mixed", "skewed", synth.Spec{Mix: 1}, &ngca.RobustWFLSNGCA{Dim: 2}},
		// d = 30 at n = 2000: refits on half the rows (1000, about d²)
		// broke down on these right fits, refits on three quarters do not.
		{"robust d=30 mixed", "uniform", synth.Spec{D: 30, Mix: 1}, &ngca.RobustWFLSNGCA{Dim: 2}},
		{"mipp d=30 n=1000 fails", "c", synth.Spec{D: 30, N: 1000, Mix: synth.Turn}, &ngca.MIPP{Dim: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, truth := checkData(t, tc.signal, tc.spec, 1)
			res, err := tc.est.Fit(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			eps := ngca.SubspaceError(truth, res.Basis)
			rep, err := ngca.Check(context.Background(), tc.est, x, res, ngca.CheckOptions{Src: rand.NewPCG(1, 1)})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("ε %.3g doubtful %v spread %.3g agreements %+v reasons %q", eps, rep.Doubtful, rep.Spread, rep.Agreements, rep.Reasons)
			switch {
			case eps >= 0.01 && eps <= 0.1:
				t.Fatalf("ε = %.3g: the case is neither clearly right nor clearly wrong", eps)
			case eps < 0.01 && rep.Doubtful:
				t.Errorf("ε = %.3g but doubtful: %q", eps, rep.Reasons)
			case eps > 0.1 && !rep.Doubtful:
				t.Errorf("ε = %.3g but not doubtful", eps)
			}
		})
	}
}

// TestCheckInputs: bad input and a cancelled context give the package's
// errors, and the check changes neither the data nor the result.
func TestCheckInputs(t *testing.T) {
	x, _ := checkData(t, "a", synth.Spec{N: 400}, 3)
	est := &ngca.MIPP{Dim: 2, Src: rand.NewPCG(1, 2)}
	res, err := est.Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	xCopy, resJSON := mat.DenseCopyOf(x), mustJSON(t, res)
	ctx := context.Background()
	nan := mat.DenseCopyOf(x)
	nan.Set(5, 3, math.NaN())
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	short := mat.NewDense(400, 9, nil)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		est  ngca.Estimator
		x    mat.Matrix
		res  *ngca.Result
		opts ngca.CheckOptions
		want error
	}{
		{"nil estimator", ctx, nil, x, res, ngca.CheckOptions{}, ngca.ErrParam},
		{"nil result", ctx, est, x, nil, ngca.CheckOptions{}, ngca.ErrShape},
		{"empty result", ctx, est, x, &ngca.Result{}, ngca.CheckOptions{}, ngca.ErrShape},
		{"NaN", ctx, est, nan, res, ngca.CheckOptions{}, ngca.ErrNonFinite},
		{"columns", ctx, est, short, res, ngca.CheckOptions{}, ngca.ErrShape},
		{"dim", ctx, &ngca.MIPP{Dim: 3}, x, res, ngca.CheckOptions{}, ngca.ErrDim},
		{"refits", ctx, est, x, res, ngca.CheckOptions{Refits: 1}, ngca.ErrParam},
		{"another estimator's fit", ctx, &ngca.IMAK{Dim: 2}, x, res, ngca.CheckOptions{}, ngca.ErrParam},
		{"workers", ctx, est, x, res, ngca.CheckOptions{Workers: -1}, ngca.ErrParam},
		{"cancelled", cancelled, est, x, res, ngca.CheckOptions{}, context.Canceled},
		{"share 1", ctx, est, x, res, ngca.CheckOptions{Share: 1}, ngca.ErrParam},
		{"share negative", ctx, est, x, res, ngca.CheckOptions{Share: -0.5}, ngca.ErrParam},
		{"share NaN", ctx, est, x, res, ngca.CheckOptions{Share: math.NaN()}, ngca.ErrParam},
		{"share leaves no rows in", ctx, est, x, res, ngca.CheckOptions{Share: 0.001}, ngca.ErrParam},
		{"too few rows", ctx, &ngca.MIPP{Dim: 2}, x.Slice(0, 12, 0, 10), res, ngca.CheckOptions{}, ngca.ErrSamples},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := ngca.Check(tc.ctx, tc.est, tc.x, tc.res, tc.opts)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if rep != nil {
				t.Errorf("report %+v with an error", rep)
			}
		})
	}
	if !mat.Equal(x, xCopy) || mustJSON(t, res) != resJSON {
		t.Error("Check modified its inputs")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCheckDeterministic: the report depends on the source only, not on
// the number of workers, and reads back from JSON bit for bit; cancelling
// during the refits stops the check with the context's error.
func TestCheckDeterministic(t *testing.T) {
	x, _ := checkData(t, "b", synth.Spec{N: 600, Mix: 1}, 4)
	est := &ngca.WFLSNGCA{Dim: 2, NumCenters: 50}
	res, err := est.Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	var reports []*ngca.CheckReport
	for _, w := range []int{1, 2, 3, 16} { // 16: fits of two workers
		var last ngca.Progress
		rep, err := ngca.Check(context.Background(), est, x, res, ngca.CheckOptions{Refits: 4, Workers: w, Src: rand.NewPCG(5, 6),
			Progress: func(p ngca.Progress) { last = p }})
		if err != nil {
			t.Fatal(err)
		}
		if last.Fraction() != 1 {
			t.Errorf("workers %d: last progress %+v, want the whole check", w, last)
		}
		rep.Timings = nil
		reports = append(reports, rep)
	}
	for _, r := range reports[1:] {
		if !reflect.DeepEqual(r, reports[0]) {
			t.Errorf("reports differ with the number of workers:\n%+v\n%+v", reports[0], r)
		}
	}
	var back ngca.CheckReport
	if err := json.Unmarshal([]byte(mustJSON(t, reports[0])), &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, reports[0]) {
		t.Errorf("JSON round trip:\n%+v\n%+v", reports[0], &back)
	}
	// By value and inside a struct, the same object.
	type holder struct {
		V ngca.CheckReport
		P *ngca.CheckReport
	}
	want := mustJSON(t, reports[0])
	if got := mustJSON(t, *reports[0]); got != want {
		t.Errorf("by value:\n%s\nby pointer:\n%s", got, want)
	}
	inf := *reports[0]
	inf.Separation = math.Inf(1) // which the default encoding refuses
	var h holder
	if err := json.Unmarshal([]byte(mustJSON(t, holder{V: inf})), &h); err != nil || !reflect.DeepEqual(h.V, inf) || h.P != nil {
		t.Errorf("in a struct: %v\n%+v", err, h)
	}
	other, err := ngca.Check(context.Background(), est, x, res, ngca.CheckOptions{Refits: 4, Src: rand.NewPCG(5, 7)})
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(other.Refits, reports[0].Refits) {
		t.Error("another source gave the same refits")
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = ngca.Check(ctx, est, x, res, ngca.CheckOptions{Refits: 4, Progress: func(p ngca.Progress) {
		if p.Done > 0 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled during the refits: error %v", err)
	}
}

// freshMIPP is an Estimator of another type than the package's: Check
// refits it as given, one refit at a time.
type freshMIPP struct{ dim int }

func (f freshMIPP) Fit(ctx context.Context, x mat.Matrix) (*ngca.Result, error) {
	return (&ngca.MIPP{Dim: f.dim, Src: rand.NewPCG(1, 1)}).Fit(ctx, x)
}

// TestCheckOtherEstimator: an estimator of another type is refitted as
// given, and the report is as reproducible as its fits.
func TestCheckOtherEstimator(t *testing.T) {
	x, _ := checkData(t, "laplace", synth.Spec{N: 800, Mix: 1}, 5)
	est := freshMIPP{2}
	res, err := est.Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	var reports []*ngca.CheckReport
	for _, w := range []int{1, 2} {
		rep, err := ngca.Check(context.Background(), est, x, res, ngca.CheckOptions{Refits: 3, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Refits) != 3 || rep.RefitsFailed != 0 || len(rep.Agreements) == 0 {
			t.Fatalf("report %+v, want 3 refits and an agreement", rep)
		}
		rep.Timings = nil
		reports = append(reports, rep)
	}
	if !reflect.DeepEqual(reports[0], reports[1]) {
		t.Errorf("reports differ:\n%+v\n%+v", reports[0], reports[1])
	}
}

// TestCheckFewRows: an unstable fit whose refits have fewer than d² rows
// says in words that the rows are few for the columns.
func TestCheckFewRows(t *testing.T) {
	t.Parallel()
	sig, err := synth.Lookup("uniform")
	if err != nil {
		t.Fatal(err)
	}
	x, _, err := synth.Spec{Signal: sig, N: 400, D: 30, Mix: synth.Turn}.Sample(rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	rep := fitCheck(t, &ngca.MIPP{Dim: 2, Src: rand.NewPCG(1, 1)}, x)
	want := "400 rows are few for 30 columns"
	if !rep.Doubtful || !slices.ContainsFunc(rep.Reasons, func(r string) bool { return strings.HasPrefix(r, want) && strings.Contains(r, "the robust variant") }) {
		t.Errorf("doubtful %v, reasons %q; want a reason starting %q that advises the robust variant", rep.Doubtful, rep.Reasons, want)
	}
	// The robust variant's own check does not advise itself.
	rep = fitCheck(t, &ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(1, 1)}, x)
	for _, r := range rep.Reasons {
		if strings.HasPrefix(r, want) && strings.Contains(r, "robust variant") {
			t.Errorf("the robust variant's check advises it: %q", r)
		}
	}
	// Below d² rows the references' Spreads, measured on refits in a
	// harder regime than their fits, do not widen the agreement limit.
	if !rep.FewRows || len(rep.Agreements) == 0 {
		t.Fatalf("FewRows %v, %d agreements; want few rows and a reference", rep.FewRows, len(rep.Agreements))
	}
	for _, a := range rep.Agreements {
		if want := 2*rep.Spread + 0.01; a.Err == "" && a.Limit != want {
			t.Errorf("%s: limit %g with few rows, want 2·Spread + 0.01 = %g (reference's Spread %g left out)", a.Method, a.Limit, want, a.Spread)
		}
	}
}

// fitCheck fits est to x and checks the fit with a fixed source.
func fitCheck(t *testing.T, est ngca.Estimator, x mat.Matrix) *ngca.CheckReport {
	t.Helper()
	res, err := est.Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ngca.Check(context.Background(), est, x, res, ngca.CheckOptions{Src: rand.NewPCG(2, 2)})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCheckLimit: with rows enough, the agreement limit is
// 2·(Spread + reference's Spread) + 0.01.
func TestCheckLimit(t *testing.T) {
	x, _ := checkData(t, "b", synth.Spec{N: 1000, Mix: 1}, 7)
	rep := fitCheck(t, &ngca.WFLSNGCA{Dim: 2}, x)
	if rep.FewRows || len(rep.Agreements) == 0 {
		t.Fatalf("FewRows %v, %d agreements", rep.FewRows, len(rep.Agreements))
	}
	for _, a := range rep.Agreements {
		if want := 2*(rep.Spread+a.Spread) + 0.01; a.Limit != want {
			t.Errorf("%s: limit %g, want %g", a.Method, a.Limit, want)
		}
	}
}

// TestCheckRobustPath: a fit of the robust variant's adaptive path is
// refitted on the path it took, the axes estimate on aligned data and the
// equivariant estimate on turned data: the refits are those of an
// estimator set to that path, bit for bit, and an exact axes estimate has
// no spread.
func TestCheckRobustPath(t *testing.T) {
	if testing.Short() {
		t.Skip("checks two robust fits twice")
	}
	t.Parallel()
	for _, tc := range []struct {
		name string
		mix  int
		want string
	}{{"aligned", 0, "axes"}, {"turned", synth.Turn, "equivariant"}} {
		t.Run(tc.name, func(t *testing.T) {
			x, truth := checkData(t, "a", synth.Spec{N: 1000, Mix: tc.mix}, 8)
			est := &ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(1, 2)}
			res, err := est.Fit(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			if p := res.Report.(*ngca.RobustReport).Estimate; p != tc.want {
				t.Fatalf("the fit took the %v path, want %v", p, tc.want)
			}
			rep, err := ngca.Check(context.Background(), est, x, res, ngca.CheckOptions{Src: rand.NewPCG(3, 4)})
			if err != nil {
				t.Fatal(err)
			}
			pinned := &ngca.RobustWFLSNGCA{Dim: 2}
			if err := ngca.SetRobustPath(pinned, tc.want); err != nil {
				t.Fatal(err)
			}
			want, err := ngca.Check(context.Background(), pinned, x, res, ngca.CheckOptions{Src: rand.NewPCG(3, 4)})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rep.Refits, want.Refits) {
				t.Errorf("refits %v, those of the %v path %v", rep.Refits, tc.want, want.Refits)
			}
			eps := ngca.SubspaceError(truth, res.Basis)
			t.Logf("ε %.3g spread %.3g doubtful %v %q", eps, rep.Spread, rep.Doubtful, rep.Reasons)
			if tc.want == "axes" && (eps > 1e-12 || rep.Spread > 1e-12 || rep.Doubtful) {
				t.Errorf("exact axes estimate (ε %.3g): spread %.3g, doubtful %v", eps, rep.Spread, rep.Doubtful)
			}
		})
	}
}

// failingEstimator fits its estimator but fails on the fits listed in fail
// (counted from 0, the calls of Check in order: it is not a package
// estimator, so its refits run one at a time).
type failingEstimator struct {
	ngca.Estimator
	calls *int
	fail  map[int]bool
}

func (f failingEstimator) Fit(ctx context.Context, x mat.Matrix) (*ngca.Result, error) {
	i := *f.calls
	*f.calls++
	if f.fail[i] {
		return nil, errors.New("synthetic failure of refit")
	}
	return f.Estimator.Fit(ctx, x)
}

// TestCheckRefitFailureSaysWhy: a refit that fails is counted, and its
// error is in the report and in the reasons.
func TestCheckRefitFailureSaysWhy(t *testing.T) {
	x, _ := checkData(t, "a", synth.Spec{N: 1000}, 3)
	ctx := context.Background()
	mipp := &ngca.MIPP{Dim: 2}
	res, err := mipp.Fit(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	est := failingEstimator{Estimator: mipp, calls: &calls, fail: map[int]bool{1: true}}
	rep, err := ngca.Check(ctx, est, x, res, ngca.CheckOptions{Src: rand.NewPCG(1, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.RefitsFailed != 1 || !strings.Contains(rep.RefitError, "synthetic failure") {
		t.Fatalf("RefitsFailed %d, RefitError %q", rep.RefitsFailed, rep.RefitError)
	}
	if !slices.ContainsFunc(rep.Reasons, func(r string) bool { return strings.Contains(r, "synthetic failure") }) {
		t.Errorf("no reason quotes the failure: %q", rep.Reasons)
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "synthetic failure") {
		t.Errorf("the JSON report does not say why: %s", data)
	}
}

// TestCheckDirections: on data with one non-Gaussian direction, a 2-D fit
// has a stable first direction and an unstable second one, which
// Directions tells apart although the subspace as a whole is unstable.
func TestCheckDirections(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 5))
	n, d := 2000, 6
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
		x.Set(i, 0, x.At(i, 0)*0.4+float64(4*rng.IntN(2)-2)) // bimodal
	}
	rot := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			rot.Set(i, j, rng.NormFloat64())
		}
	}
	var xt mat.Dense
	xt.Mul(x, rot) // the direction turned: any orientation
	ctx := context.Background()
	est := &ngca.MIPP{Dim: 2, Src: rand.NewPCG(1, 2)}
	res, err := est.Fit(ctx, &xt)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ngca.Check(ctx, est, &xt, res, ngca.CheckOptions{Src: rand.NewPCG(1, 3)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Directions) != 2 {
		t.Fatalf("Directions %v, want 2", rep.Directions)
	}
	t.Logf("Spread %.3g, Directions %.3g", rep.Spread, rep.Directions)
	if !(rep.Directions[0] < 0.01) || !(rep.Directions[1] > rep.SpreadLimit) || !(rep.Spread > rep.SpreadLimit) {
		t.Errorf("Directions %v (limit %g), Spread %g: want the first stable, the second and the whole unstable", rep.Directions, rep.SpreadLimit, rep.Spread)
	}
}

// TestCheckReferencesKeepDefaults checks that study settings in Check's
// context (internal/probe) leave its reference fits at their defaults: a
// setting of IMAK, one of the references, does not change the check of a
// WF-LSNGCA fit.
func TestCheckReferencesKeepDefaults(t *testing.T) {
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SuperGaussian, N: 300, D: 4}.Sample(rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	est := &ngca.WFLSNGCA{Dim: 2, NumCenters: 30, Src: rand.NewPCG(1, 2)}
	res, err := est.Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	check := func(ctx context.Context) *ngca.CheckReport {
		t.Helper()
		rep, err := ngca.Check(ctx, est, x, res, ngca.CheckOptions{Refits: 3, Src: rand.NewPCG(5, 6)})
		if err != nil {
			t.Fatal(err)
		}
		rep.Timings = nil
		return rep
	}
	want := check(context.Background())
	if len(want.Agreements) == 0 {
		t.Fatal("the check made no reference fits")
	}
	got := check(probe.WithSettings(context.Background(), probe.Settings{IMAKSymmetric: true}))
	if !reflect.DeepEqual(got.Agreements, want.Agreements) {
		t.Errorf("the references changed with IMAKSymmetric in the context:\n%+v\n%+v", got.Agreements, want.Agreements)
	}
}
