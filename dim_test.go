package ngca_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/repro/dimstudy"
)

// dimData draws a data set of the study (see dimstudy.Data) with d = 10.
func dimData(t *testing.T, m, n int, r float64, rotate bool, seed uint64) *mat.Dense {
	t.Helper()
	x, _, err := dimstudy.Data{M: m, N: n, D: 10, R: r, Rotate: rotate}.Sample(rand.NewPCG(seed, 14))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestEstimateDim checks the answer on seeded data with m = 0 to 3
// (correlated Gaussian; a bimodal column; the paper's (a); (a) and a
// uniform column), aligned, turned and ill-conditioned, one seeded data
// set each. A test at level 0.05 may wrongly reject the true m now and
// then (docs/dim.md measures the rates), so one miss of the nine is
// allowed; the four of -short must all be right.
func TestEstimateDim(t *testing.T) {
	cases := []struct {
		m      int
		r      float64
		rotate bool
	}{
		{0, 1, true}, {1, 0, false}, {2, 0, false}, {3, 1, true},
		{0, 0, false}, {1, 1, true}, {2, 0, true}, {2, 1, false}, {3, 0, false},
	}
	if testing.Short() {
		cases = cases[:4]
	}
	misses := 0
	for i, c := range cases {
		x := dimData(t, c.m, 1000, c.r, c.rotate, uint64(i))
		rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Src: rand.NewPCG(uint64(i), 1)})
		if err != nil {
			t.Fatalf("m = %d, r = %v, rotated %v: %v", c.m, c.r, c.rotate, err)
		}
		if rep.Dim != c.m {
			misses++
			t.Logf("m = %d, r = %v, rotated %v: Dim = %d, tests %+v", c.m, c.r, c.rotate, rep.Dim, rep.Tests)
		}
		checkDimReport(t, rep, 10)
	}
	if allowed := len(cases) / 8; misses > allowed {
		t.Errorf("%d of %d answers wrong, want at most %d", misses, len(cases), allowed)
	}
}

// checkDimReport checks the invariants of a report of d-column data.
func checkDimReport(t *testing.T, rep *ngca.DimReport, d int) {
	t.Helper()
	if rep.Dim < 0 || rep.Dim > rep.MaxDim || len(rep.Eigenvalues) != d || len(rep.Tests) == 0 {
		t.Fatalf("bad report: Dim %d, MaxDim %d, %d eigenvalues, %d tests", rep.Dim, rep.MaxDim, len(rep.Eigenvalues), len(rep.Tests))
	}
	for k, ts := range rep.Tests {
		rejected := k < len(rep.Tests)-1 || rep.Dim == rep.MaxDim
		if ts.K != k || !(ts.PValue > 0 && ts.PValue <= 1) || ts.Rejected != (ts.PValue <= rep.Alpha) ||
			ts.Replicates < 1 || ts.Replicates > rep.Bootstrap || ts.Exceed > ts.Replicates || (ts.Rejected != rejected && k < rep.Dim) {
			t.Errorf("bad test %d: %+v (Dim %d)", k, ts, rep.Dim)
		}
	}
	if last := rep.Tests[len(rep.Tests)-1]; last.Rejected != (rep.Dim == rep.MaxDim) || (!last.Rejected && last.K != rep.Dim) {
		t.Errorf("last test %+v does not give Dim %d", last, rep.Dim)
	}
}

// TestEstimateDimLeastSquares runs the test on the spectra of WF-LSNGCA
// and LSNGCA (tuned by cross-validation, then fixed).
func TestEstimateDimLeastSquares(t *testing.T) {
	if testing.Short() {
		t.Skip("two cross-validated fits and 80 refits")
	}
	x := dimData(t, 2, 1000, 0, false, 7)
	for _, m := range []ngca.DimMethod{ngca.DimWFLSNGCA, ngca.DimLSNGCA} {
		rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Method: m, Bootstrap: 19, MaxDim: 3, Src: rand.NewPCG(7, 1)})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Dim != 2 || rep.Method != m.String() {
			t.Errorf("%v: Dim = %d (want 2), Method %q, tests %+v", m, rep.Dim, rep.Method, rep.Tests)
		}
		checkDimReport(t, rep, 10)
	}
}

// TestEstimateDimWorkers wants the same report for any worker count and
// the progress to end each test at its replicates.
func TestEstimateDimWorkers(t *testing.T) {
	x := dimData(t, 1, 400, 0.5, true, 3)
	var reps []*ngca.DimReport
	for _, w := range []int{1, 3} {
		var steps []ngca.Progress
		rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Workers: w, Bootstrap: 19, Src: rand.NewPCG(3, 3),
			Progress: func(p ngca.Progress) { steps = append(steps, p) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(steps) == 0 || steps[0].Stage != "fit" || steps[len(steps)-1].Stage != "k=1" ||
			steps[len(steps)-1].Done != rep.Tests[1].Replicates || steps[0].Steps != 10 {
			t.Errorf("workers %d: progress %+v", w, steps)
		}
		reps = append(reps, rep)
	}
	if !reflect.DeepEqual(reps[0], reps[1]) {
		t.Errorf("reports differ between 1 and 3 workers:\n%+v\n%+v", reps[0], reps[1])
	}
	if reps[0].Dim != 1 {
		t.Errorf("Dim = %d, want 1", reps[0].Dim)
	}
}

// TestEstimateDimErrors checks that bad input and options give the
// documented sentinels.
func TestEstimateDimErrors(t *testing.T) {
	x := dimData(t, 1, 100, 0, false, 1)
	nan := mat.DenseCopyOf(x)
	nan.Set(3, 4, math.NaN())
	constant := mat.DenseCopyOf(x)
	for i := 0; i < 100; i++ {
		constant.Set(i, 2, 5)
	}
	cases := []struct {
		name string
		x    mat.Matrix
		opts ngca.DimOptions
		want error
	}{
		{"nil", nil, ngca.DimOptions{}, ngca.ErrShape},
		{"one column", x.Slice(0, 100, 0, 1), ngca.DimOptions{}, ngca.ErrDim},
		{"few rows", x.Slice(0, 10, 0, 10), ngca.DimOptions{}, ngca.ErrSamples},
		{"NaN", nan, ngca.DimOptions{}, ngca.ErrNonFinite},
		{"constant", constant, ngca.DimOptions{}, ngca.ErrConstant},
		{"alpha", x, ngca.DimOptions{Alpha: 1}, ngca.ErrParam},
		{"alpha NaN", x, ngca.DimOptions{Alpha: math.NaN()}, ngca.ErrParam},
		{"bootstrap", x, ngca.DimOptions{Bootstrap: -1}, ngca.ErrParam},
		{"bootstrap small", x, ngca.DimOptions{Bootstrap: 10}, ngca.ErrParam},
		{"method", x, ngca.DimOptions{Method: 7}, ngca.ErrParam},
		{"workers", x, ngca.DimOptions{Workers: -1}, ngca.ErrParam},
		{"max dim", x, ngca.DimOptions{MaxDim: 10}, ngca.ErrDim},
		{"max dim negative", x, ngca.DimOptions{MaxDim: -1}, ngca.ErrDim},
	}
	for _, c := range cases {
		rep, err := ngca.EstimateDim(context.Background(), c.x, c.opts)
		if !errors.Is(err, c.want) || rep != nil {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ngca.EstimateDim(ctx, x, ngca.DimOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}

// TestEstimateDimCancelled cancels from the progress callback during the
// bootstrap.
func TestEstimateDimCancelled(t *testing.T) {
	x := dimData(t, 2, 300, 0, false, 2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := ngca.EstimateDim(ctx, x, ngca.DimOptions{Workers: 2, Progress: func(p ngca.Progress) {
		if p.Stage == "k=0" {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// TestSeparation checks λ_Dim/λ_{Dim+1} with exact zeros skipped.
func TestSeparation(t *testing.T) {
	basis := func(dim int) *mat.Dense { return mat.NewDense(5, dim, nil) }
	cases := []struct {
		dim  int
		eig  []float64
		want float64
	}{
		{2, []float64{8, 4, 0.5, 0.1, 0}, 8},
		{2, []float64{8, 0, 4, 0, 1}, 4}, // the robust variant's zeros
		{1, []float64{3, 3, 1, 1, 1}, 1},
		{2, []float64{2, 1, 0, 0, 0}, math.Inf(1)},
		{2, []float64{2, 1, -1e-18, 0, 0}, math.Inf(1)},
		{3, []float64{2, 1, 0, 0, 0}, math.NaN()},
		{2, nil, math.NaN()},
	}
	for _, c := range cases {
		r := &ngca.Result{Basis: basis(c.dim), Eigenvalues: c.eig}
		got := r.Separation()
		if got != c.want && !(math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("Dim %d, eigenvalues %v: Separation = %v, want %v", c.dim, c.eig, got, c.want)
		}
	}
	if !math.IsNaN((&ngca.Result{}).Separation()) {
		t.Error("empty Result: want NaN")
	}
}

// TestSeparationOfFits checks the diagnostic on real fits: a clear
// subspace of (a) is far above WeakSeparation, a fit with one dimension
// too many is far below it.
func TestSeparationOfFits(t *testing.T) {
	x := dimData(t, 2, 1000, 0, false, 5)
	for _, c := range []struct {
		est  ngca.Estimator
		weak bool
	}{
		{&ngca.MIPP{Dim: 2}, false}, {&ngca.WFLSNGCA{Dim: 2}, false}, {&ngca.MIPP{Dim: 3}, true},
	} {
		res, err := c.est.Fit(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if s := res.Separation(); (s < ngca.WeakSeparation) != c.weak {
			t.Errorf("%s, Dim %d: Separation %.3g, want weak = %v", res.Method, res.Basis.RawMatrix().Cols, s, c.weak)
		}
	}
}
