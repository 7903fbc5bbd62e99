package ngca_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/synth"
)

// dimData draws a data set of the study (see synth.DimData) with d = 10.
func dimData(t *testing.T, m, n int, r float64, rotate bool, seed uint64) *mat.Dense {
	t.Helper()
	x, _, err := synth.DimData{M: m, N: n, D: 10, R: r, Rotate: rotate}.Sample(rand.NewPCG(seed, 14))
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
	t.Parallel()
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
	set, ok := ngca.DimDetails(rep)
	if !ok {
		t.Fatal("no settings")
	}
	if rep.Dim < 0 || rep.Dim > set.MaxDim || len(rep.Tests) == 0 {
		t.Fatalf("bad report: Dim %d, MaxDim %d, %d tests", rep.Dim, set.MaxDim, len(rep.Tests))
	}
	byK := map[int]ngca.DimTest{}
	for i, ts := range rep.Tests {
		if (i > 0 && ts.K <= rep.Tests[i-1].K) || ts.K < 0 || ts.K >= set.MaxDim || ts.K > len(rep.Index) || !(ts.Statistic >= 0) ||
			!(ts.PValue > 0 && ts.PValue <= 1) || ts.Rejected != (ts.PValue <= set.Alpha) ||
			ts.Replicates < 1 || ts.Replicates > set.Bootstrap {
			t.Errorf("bad test %d: %+v (Dim %d)", i, ts, rep.Dim)
		}
		if ts.Rejected != (ts.K < rep.Dim) {
			t.Errorf("test %+v contradicts Dim %d", ts, rep.Dim)
		}
		byK[ts.K] = ts
	}
	if _, ok := byK[rep.Dim]; !ok && rep.Dim < set.MaxDim {
		t.Errorf("Dim %d < MaxDim %d but not tested", rep.Dim, set.MaxDim)
	}
	if _, ok := byK[rep.Dim-1]; !ok && rep.Dim > 0 {
		t.Errorf("Dim %d but k = %d not tested", rep.Dim, rep.Dim-1)
	}
	if r := rep.Remainder; r.K != rep.Dim || r.Replicates != set.Bootstrap || r.Rejected != (r.PValue <= set.Alpha) || !(r.Statistic >= 0) {
		t.Errorf("bad remainder %+v (Dim %d, B %d)", r, rep.Dim, set.Bootstrap)
	}
	if len(rep.Index) > d {
		t.Errorf("%d indices for %d columns", len(rep.Index), d)
	}
}

// TestEstimateDimWide checks wide tables: six turned uniform signals of 20
// columns at n = 2d² = 800, the weakest family where the rows suffice;
// four turned asymmetric bimodal signals of 20 at n = 800, alike in all
// but their skewness (a search by fourth moments alone merges them);
// eight bimodal signals of 30 turned columns at n = d² = 900 (strong
// enough to be found below 2d², with FewRows); ten uniform columns of 30
// at n = 600 (found as columns, with FewRows); and twenty turned uniform
// signals of 30 at n = 600, which no direction resolves, so that Dim = 0
// must come with FewRows and a rejected Remainder (never a confident
// "Gaussian").
func TestEstimateDimWide(t *testing.T) {
	if testing.Short() {
		t.Skip("three 30-column data sets")
	}
	t.Parallel()
	for i, c := range []struct {
		data     synth.Wide
		seed     uint64
		dim      int
		few      bool
		unsolved bool
	}{
		{synth.Wide{N: 800, D: 20, M: 6, Family: "uniform", Turned: true}, 0, 6, false, false},
		{synth.Wide{N: 800, D: 20, M: 4, Family: "asymmetric", Turned: true}, 0, 4, false, false},
		{synth.Wide{N: 900, D: 30, M: 8, Family: "bimodal", Turned: true}, 0, 8, true, false},
		{synth.Wide{N: 600, D: 30, M: 10, Family: "uniform"}, 1, 10, true, false},
		{synth.Wide{N: 600, D: 30, M: 20, Family: "uniform", Turned: true}, 0, 0, true, true},
	} {
		x, _, err := c.data.Sample(rand.NewPCG(c.seed, 11))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Src: rand.NewPCG(c.seed, 12)})
		if err != nil {
			t.Fatal(err)
		}
		checkDimReport(t, rep, c.data.D)
		if rep.Dim != c.dim || rep.FewRows != c.few || (c.unsolved && !rep.Remainder.Rejected) {
			t.Errorf("case %d %+v: Dim %d (want %d), FewRows %v, Remainder %+v, tests %+v", i, c.data, rep.Dim, c.dim, rep.FewRows, rep.Remainder, rep.Tests)
		}
	}
}

// TestEstimateDimFewRows checks FewRows's bound, max(2d², 32d) rows: 64
// for 2 columns, 800 for 20.
func TestEstimateDimFewRows(t *testing.T) {
	for _, c := range []struct{ n, d int }{{63, 2}, {64, 2}, {799, 20}, {800, 20}} {
		x, _, err := synth.Wide{N: c.n, D: c.d, Family: "gaussian"}.Sample(rand.NewPCG(uint64(c.n), 3))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Src: rand.NewPCG(1, 2), Bootstrap: 19, MaxDim: 1})
		if err != nil {
			t.Fatal(err)
		}
		if want := c.n < max(2*c.d*c.d, 32*c.d); rep.FewRows != want {
			t.Errorf("n = %d, d = %d: FewRows %v, want %v", c.n, c.d, rep.FewRows, want)
		}
	}
}

// TestEstimateDimOneRow pins what one far row does to data of 800 rows and
// 20 columns (docs/dim.md). Kept (KeepFarRows), it moves the test: the
// index is bounded, so a row at norm 8 (about the largest of 800 Gaussian
// rows) leaves the answer as it is without it, but through the whitening a
// row at norm 16, a third of the variance in its direction, makes that
// direction non-Gaussian. By default FarRows sets a row at norm 20 aside,
// names it, and the answer is that of the other rows: 0 on Gaussian data,
// 2 with a 2-D signal turned among the columns.
func TestEstimateDimOneRow(t *testing.T) {
	if testing.Short() {
		t.Skip("fifteen data sets of 800 rows")
	}
	t.Parallel()
	const n, d = 800, 20
	for seed := range uint64(3) {
		gauss, _, err := synth.Wide{N: n, D: d, Family: "gaussian"}.Sample(rand.NewPCG(seed, 21))
		if err != nil {
			t.Fatal(err)
		}
		signal, _, err := synth.Wide{N: n, D: d, M: 2, Family: "exponential", Turned: true}.Sample(rand.NewPCG(seed, 24))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 22))
		far := make([]float64, d) // the far row's direction
		for j := range far {
			far[j] = rng.NormFloat64()
		}
		floats.Scale(1/floats.Norm(far, 2), far)
		dim := func(data *mat.Dense, norm float64, keep bool) *ngca.DimReport {
			x := mat.DenseCopyOf(data)
			if norm > 0 {
				row := make([]float64, d)
				floats.ScaleTo(row, norm, far)
				x.SetRow(0, row)
			}
			rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Src: rand.NewPCG(seed, 23), KeepFarRows: keep})
			if err != nil {
				t.Fatal(err)
			}
			return rep
		}
		base := dim(gauss, 0, true).Dim
		if got := dim(gauss, 8, true).Dim; got != base {
			t.Errorf("seed %d: one row at norm 8 turned Dim from %d to %d", seed, base, got)
		}
		if got := dim(gauss, 16, true).Dim; got < 1 {
			t.Errorf("seed %d: one row at norm 16 kept: Dim = %d, want its direction found", seed, got)
		}
		rest, err := ngca.EstimateDim(context.Background(), gauss.Slice(1, n, 0, d), ngca.DimOptions{Src: rand.NewPCG(seed, 23)})
		if err != nil {
			t.Fatal(err)
		}
		if rep := dim(gauss, 20, false); rep.Dim != rest.Dim || !slices.Equal(rep.SetAside, []int{0}) {
			t.Errorf("seed %d: Gaussian rows and one at norm 20: Dim = %d, set aside %v; want %d (the other rows') and [0]", seed, rep.Dim, rep.SetAside, rest.Dim)
		}
		t.Logf("seed %d: Dim of the Gaussian rows %d, without the first %d", seed, base, rest.Dim)
		if rep := dim(signal, 20, false); rep.Dim != 2 || !slices.Equal(rep.SetAside, []int{0}) {
			t.Errorf("seed %d: a 2-D signal and one row at norm 20: Dim = %d, set aside %v; want 2 and [0]", seed, rep.Dim, rep.SetAside)
		}
	}
}

// TestEstimateDimTypeI runs the test on 40 Gaussian data sets of 10
// correlated columns (n = 300, B = 19): at α = 0.05 about 2 answer more
// than 0; more than 7 has probability 0.001.
func TestEstimateDimTypeI(t *testing.T) {
	if testing.Short() {
		t.Skip("40 data sets")
	}
	t.Parallel()
	wrong := 0
	for s := uint64(0); s < 40; s++ {
		x := dimData(t, 0, 300, 1, s%2 == 0, 100+s)
		rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Bootstrap: 19, Src: rand.NewPCG(s, 13)})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Dim > 0 {
			wrong++
		}
	}
	if wrong > 7 {
		t.Errorf("%d of 40 Gaussian data sets answered more than 0", wrong)
	}
	t.Logf("%d of 40 Gaussian data sets answered more than 0", wrong)
}

// TestEstimateDimWorkers wants the same report for any worker count and
// the progress to end each test at its replicates.
func TestEstimateDimWorkers(t *testing.T) {
	x := dimData(t, 1, 400, 0.5, true, 3)
	var reps []*ngca.DimReport
	for _, w := range []int{1, 3} {
		var steps []ngca.Progress
		rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Workers: w, Src: rand.NewPCG(3, 3),
			Progress: func(p ngca.Progress) { steps = append(steps, p) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(steps) == 0 || steps[0].Stage != "k=0" || steps[len(steps)-1].Stage != "rest" ||
			steps[len(steps)-1].Done != 39 {
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
		if p.Done > 0 {
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
	t.Parallel()
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
