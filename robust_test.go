package ngca_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/ngcatest"
)

// robustCase is a cell of docs/robust.md where the faithful method fails.
type robustCase struct {
	name string
	a    ngcatest.Artificial
	// robustMax bounds the robust variant's mean ε; faithfulMin is a lower
	// bound on the faithful method's mean ε, showing the gain is real.
	robustMax, faithfulMin float64
}

// TestRobustGains pins the robust variant's gains on seeded data: the
// faithful method fails on every case (mean ε above faithfulMin) and the
// robust variant passes (median ε over three seeds below robustMax; its
// test of the axes estimate rejects aligned data now and then, and a
// rejection falls back on the equivariant estimate, whose ε on
// ill-conditioned data is far larger than the axes estimate's). See
// docs/robust.md.
func TestRobustGains(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the robust variant 18 times")
	}
	t.Parallel()
	cases := []robustCase{
		{"rotated (a) r=0", ngcatest.Artificial{Dist: ngcatest.GaussianMixture, Rotate: true}, 0.01, 0.2},
		{"rotated (c) r=0", ngcatest.Artificial{Dist: ngcatest.SubGaussian, Rotate: true}, 0.01, 0.2},
		{"rotated (d) r=0.8", ngcatest.Artificial{Dist: ngcatest.SuperSubGaussian, R: 0.8, Rotate: true}, 0.01, 0.2},
		{"aligned (a) d=20", ngcatest.Artificial{Dist: ngcatest.GaussianMixture, D: 20}, 0.01, 0.2},
		{"aligned (c) r=2", ngcatest.Artificial{Dist: ngcatest.SubGaussian, R: 2}, 0.01, 0.2},
		{"aligned (d) r=2", ngcatest.Artificial{Dist: ngcatest.SuperSubGaussian, R: 2}, 0.01, 0.2},
	}
	const seeds = 3
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			robust := make([]float64, seeds)
			for s := range robust {
				x, truth, err := tc.a.Sample(rand.NewPCG(uint64(s), 2017))
				if err != nil {
					t.Fatal(err)
				}
				robust[s] = ngca.SubspaceError(truth, fit(t, &ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(uint64(s), 1)}, x).Basis)
			}
			faithful, _ := meanError(t, tc.a, 2, func(src rand.Source) ngca.Estimator {
				return &ngca.WFLSNGCA{Dim: 2, Src: src}
			})
			t.Logf("robust ε per seed %.2g, faithful mean ε %.2e", robust, faithful)
			if med := median(robust); med >= tc.robustMax {
				t.Errorf("robust median ε = %.3g, want < %g", med, tc.robustMax)
			}
			if faithful <= tc.faithfulMin {
				t.Errorf("faithful mean ε = %.3g: the case no longer shows a failure (want > %g)", faithful, tc.faithfulMin)
			}
		})
	}
}

// median returns the median of v (which it sorts).
func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	return (v[(n-1)/2] + v[n/2]) / 2
}

// TestRobustAligned checks the robust variant on the paper's own setting
// (aligned, r = 0.8): its median ε over three seeds is as small as the
// faithful method's reference figures (≤ 1e-4), because the test of the
// axes estimate keeps it on most seeds, and on every seed it stays within
// the orientation study's bound, ε ≤ 2·ε_MIPP + 0.01, also when the test
// rejects the axes estimate (a false rejection, at a rate above the
// nominal level 0.01; docs/robust.md).
func TestRobustAligned(t *testing.T) {
	t.Parallel()
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	for _, dist := range ngcatest.Distributions() {
		t.Run(dist.String(), func(t *testing.T) {
			errs := make([]float64, seeds)
			kept := 0
			for s := range errs {
				x, truth, err := ngcatest.Artificial{Dist: dist, R: 0.8}.Sample(rand.NewPCG(uint64(s), 2017))
				if err != nil {
					t.Fatal(err)
				}
				res := fit(t, &ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(uint64(s), 1)}, x)
				errs[s] = ngca.SubspaceError(truth, res.Basis)
				rep := robustReport(t, res)
				if rep.Estimate == "axes" {
					kept++
				}
				mipp := ngca.SubspaceError(truth, fit(t, &ngca.MIPP{Dim: 2, Src: rand.NewPCG(uint64(s), 1)}, x).Basis)
				if errs[s] > 2*mipp+0.01 {
					t.Errorf("seed %d: ε = %.3g above 2·ε_MIPP + 0.01 = %.3g", s, errs[s], 2*mipp+0.01)
				}
			}
			t.Logf("ε per seed: %.2g; axes estimate kept on %d of %d", errs, kept, seeds)
			if med := median(errs); med > 1e-4 {
				t.Errorf("median ε = %.3g at r = 0.8, want ≤ 1e-4", med)
			}
		})
	}
}

// TestRobustReport checks the report, the paths and determinism.
func TestRobustReport(t *testing.T) {
	x, truth, err := ngcatest.Artificial{Dist: ngcatest.GaussianMixture, N: 1000, D: 6, Rotate: true}.Sample(rand.NewPCG(8, 8))
	if err != nil {
		t.Fatal(err)
	}
	fitWith := func(e ngca.RobustWFLSNGCA, workers int) *ngca.Result {
		e.Dim, e.Src, e.Workers = 2, rand.NewPCG(1, 2), workers
		res, err := e.Fit(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := fitWith(ngca.RobustWFLSNGCA{}, 1)
	r := robustReport(t, res)
	if r.Axes == nil || r.Equivariant == nil || math.IsNaN(r.Wald) || math.IsNaN(r.Distance) || r.DF != 8 || len(r.KernelCoords) != 4 {
		t.Fatalf("incomplete report %+v", r)
	}
	if r.Estimate != "equivariant" || (r.P >= r.Level && r.Distance <= 20) {
		t.Errorf("rotated data: path %v with p = %.3g and Distance %.3g, want the equivariant estimate", r.Estimate, r.P, r.Distance)
	}
	if want := 1 - (distuv.ChiSquared{K: float64(r.DF)}).CDF(r.Wald); r.P != want {
		t.Errorf("p = %v, want %v from W = %v on %d degrees of freedom", r.P, want, r.Wald, r.DF)
	}
	if r.Level != 0.01 || r.MaxDistance != 4 || r.MissedMargin != 3 {
		t.Errorf("limits %v, %v, %v; want 0.01, 4, 3", r.Level, r.MaxDistance, r.MissedMargin)
	}
	compared := r.P >= r.Level && r.Distance > r.MaxDistance
	if !compared && (!math.IsNaN(r.MissedAxes) || !math.IsNaN(r.MissedEquivariant)) {
		t.Errorf("comparison reported without running: %v, %v", r.MissedAxes, r.MissedEquivariant)
	}
	keep := r.P >= r.Level && (r.Distance <= r.MaxDistance || r.MissedEquivariant < r.MissedAxes-r.MissedMargin)
	if keep != (r.Estimate == "axes") {
		t.Errorf("path %v does not follow the decision of its report %+v", r.Estimate, r)
	}
	if e := ngca.SubspaceError(truth, res.Basis); e > 0.01 {
		t.Errorf("ε = %.3g on rotated data", e)
	}
	checkOrthonormal(t, res.Basis, 6, 2)
	if again := fitWith(ngca.RobustWFLSNGCA{}, 3); !sameResult(res, again) || robustReport(t, again).Wald != r.Wald {
		t.Error("Workers = 1 and 3 differ")
	}
	ax := fitWith(*withPath(t, &ngca.RobustWFLSNGCA{}, "axes"), 0)
	if r := robustReport(t, ax); r.Equivariant != nil || !math.IsNaN(r.Wald) || !math.IsNaN(r.P) || !math.IsNaN(r.Distance) || r.Estimate != "axes" ||
		!reflect.DeepEqual(ax.Eigenvalues, r.AxesEigenvalues) || len(ax.Eigenvalues) != 6 {
		t.Errorf("axes-only report %+v", r)
	}
	eq := fitWith(*withPath(t, &ngca.RobustWFLSNGCA{}, "equivariant"), 0)
	if r := robustReport(t, eq); r.Axes != nil || r.Equivariant == nil || r.Estimate != "equivariant" || !reflect.DeepEqual(eq.Eigenvalues, r.StartEigenvalues) || len(eq.Eigenvalues) != 6 {
		t.Errorf("equivariant-only report %+v", r)
	}
	if res.Method != "WF-LSNGCA robust" {
		t.Errorf("Method = %q", res.Method)
	}
}

// TestRobustExtremeConditioning: at r = 4 (noise variances spanning eight
// orders of magnitude) every equivariant estimate is lost along the thin
// directions (MIPP's ε ≈ 1), and so is its tilt: its covariance is so wide
// there that the test keeps the axes estimate, which stays exact, far
// below LSNGCA's error on the same data.
func TestRobustExtremeConditioning(t *testing.T) {
	x, truth, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, R: 4, N: 1000}.Sample(rand.NewPCG(1, 4))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := (&ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(2, 1)}).Fit(ctx, x)
	if err != nil {
		t.Fatalf("adaptive fit: %v", err)
	}
	r := robustReport(t, res)
	if r.Estimate != "axes" || r.Equivariant == nil {
		t.Errorf("report %+v, want the axes estimate", r)
	}
	ls, err := (&ngca.LSNGCA{Dim: 2, Src: rand.NewPCG(1, 1)}).Fit(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	robust, eq, lsngca := ngca.SubspaceError(truth, res.Basis), ngca.SubspaceError(truth, r.Equivariant), ngca.SubspaceError(truth, ls.Basis)
	t.Logf("r = 4: ε robust %.2e (equivariant estimate %.2e, p = %.3g), LSNGCA %.2e", robust, eq, r.P, lsngca)
	if robust > 0.01 || lsngca < 0.1 || eq < 0.5 {
		t.Errorf("ε robust %.3g, equivariant %.3g, LSNGCA %.3g: want robust < 0.01, equivariant > 0.5 and LSNGCA > 0.1", robust, eq, lsngca)
	}
}

func TestRobustBadOptions(t *testing.T) {
	x, _ := invariantData(t)
	for _, z := range []float64{math.NaN(), math.Inf(1)} {
		o := &ngca.RobustWFLSNGCA{Dim: 2}
		if err := ngca.SetRobustNullZ(o, z); err != nil {
			t.Fatal(err)
		}
		if _, err := o.Fit(context.Background(), x); !errors.Is(err, ngca.ErrParam) {
			t.Errorf("null test threshold %v: error %v, want ErrParam", z, err)
		}
	}
	if err := ngca.SetRobustPath(&ngca.RobustWFLSNGCA{}, "sideways"); !errors.Is(err, ngca.ErrParam) {
		t.Errorf("unknown path: error %v, want ErrParam", err)
	}
}

// robustReport returns the result's *RobustReport, failing the test if it
// has none.
func robustReport(t *testing.T, res *ngca.Result) probe.RobustDetail {
	t.Helper()
	r, ok := ngca.RobustDetails(res.Report)
	if !ok {
		t.Fatalf("Report is %T, want *ngca.RobustReport", res.Report)
	}
	return r
}

// withPath returns w on the path p ("adaptive", "axes" or "equivariant").
func withPath(t testing.TB, w *ngca.RobustWFLSNGCA, p string) *ngca.RobustWFLSNGCA {
	t.Helper()
	if err := ngca.SetRobustPath(w, p); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestRobustFewRows: with no more rows than columns the covariance cannot
// be inverted, as both estimates need: every path reports ErrSamples.
func TestRobustFewRows(t *testing.T) {
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: 30, D: 40}.Sample(rand.NewPCG(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"adaptive", "axes", "equivariant"} {
		if _, err := withPath(t, &ngca.RobustWFLSNGCA{Dim: 2, NumCenters: 20}, p).Fit(context.Background(), x); !errors.Is(err, ngca.ErrSamples) {
			t.Errorf("%v path with n < d: error %v, want ErrSamples", p, err)
		}
	}
}

// TestRobustScreenD30: two independent uniform columns among 28 Gaussian
// noise columns, n = 1500. The joint screen (kernels on all 30 columns)
// alone missed one of them on most seeds; with the marginal screen both
// rank among the Dim + 2 kernel coordinates and the axes estimate is
// exact.
func TestRobustScreenD30(t *testing.T) {
	if testing.Short() {
		t.Skip("three robust fits at d = 30")
	}
	t.Parallel()
	sig, err := synth.Lookup("uniform")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 3; seed++ {
		x, truth, err := synth.Spec{Signal: sig, N: 1500, D: 30, R: 0.3}.Sample(rand.NewPCG(seed, 77))
		if err != nil {
			t.Fatal(err)
		}
		res, err := withPath(t, &ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(seed, 1)}, "axes").Fit(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		r := robustReport(t, res)
		for j := 0; j < 30; j++ {
			if truth.At(j, 0) == 0 && truth.At(j, 1) == 0 {
				continue
			}
			if !slices.Contains(r.KernelCoords, j) {
				t.Errorf("seed %d: signal column %d: kernel coordinates %v, joint z %.3g, marginal z %.3g", seed, j, r.KernelCoords, r.SelectZ[j], r.MarginalZ[j])
			}
		}
		if eps := ngca.SubspaceError(truth, res.Basis); eps > 1e-6 {
			t.Errorf("seed %d: axes estimate ε = %.3g, want exact", seed, eps)
		}
	}
}

// TestRobustComparisonBelowD2: the paper's aligned data (a) and (c) at
// d = 50 with n = 1000 rows, below d², where an estimator blind to the
// columns cannot find the index space (its equivariant estimate is off by
// ε 0.5 to 1) and the axes estimate is exact. The axes estimate lies far
// beyond the Distance bound from the equivariant one; the comparison of the
// structure each misses must return it, on two seeds each. The log shows
// how far below zero the evidence against the exact axes estimate goes
// (docs/robust.md quotes it).
func TestRobustComparisonBelowD2(t *testing.T) {
	if testing.Short() {
		t.Skip("four robust fits at d = 50")
	}
	t.Parallel()
	for _, dist := range []ngcatest.Distribution{ngcatest.GaussianMixture, ngcatest.SubGaussian} {
		for seed := uint64(1); seed <= 2; seed++ {
			x, truth, err := ngcatest.Artificial{Dist: dist, N: 1000, D: 50}.Sample(rand.NewPCG(seed, 1))
			if err != nil {
				t.Fatal(err)
			}
			res, err := (&ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(seed, 2)}).Fit(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			r := robustReport(t, res)
			eq := ngca.SubspaceError(truth, r.Equivariant)
			t.Logf("data %v seed %d: missed: axes %.3g, equivariant %.3g (ε of the equivariant estimate %.3g)", dist, seed, r.MissedAxes, r.MissedEquivariant, eq)
			if e := ngca.SubspaceError(truth, res.Basis); r.Estimate != "axes" || e > 1e-9 || !(r.Distance > r.MaxDistance) || eq < 0.3 ||
				!(r.MissedEquivariant < r.MissedAxes-r.MissedMargin) {
				t.Errorf("data %v seed %d: path %v, ε %.3g (equivariant %.3g), Distance %.3g, missed: axes %.3g, equivariant %.3g",
					dist, seed, r.Estimate, e, eq, r.Distance, r.MissedAxes, r.MissedEquivariant)
			}
		}
	}
}

// TestRobustComparisonMargin: two uniform columns (4 and 17) among 40,
// the others Gaussian with mean 10 and standard deviation 3, n = 1200,
// below d². On seed 4 the axes estimate finds one of the two columns only
// (ε 0.5), and the evidence against the equivariant estimate is the
// stronger by about 2.3: less than the margin, so the equivariant estimate
// is returned. (A margin of 2 would return the wrong axes estimate: this
// is data the orientation study does not generate, and the reason the
// margin is not lowered to what the study alone would allow.)
func TestRobustComparisonMargin(t *testing.T) {
	if testing.Short() {
		t.Skip("a robust fit at d = 40")
	}
	const n, d, seed = 1200, 40, 4
	rng := rand.New(rand.NewPCG(seed, 9))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, 3*rng.NormFloat64()+10)
		}
		x.Set(i, 4, rng.Float64())
		x.Set(i, 17, rng.Float64())
	}
	truth := mat.NewDense(d, 2, nil)
	truth.Set(4, 0, 1)
	truth.Set(17, 1, 1)
	res, err := (&ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(seed, 1)}).Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	r := robustReport(t, res)
	diff := r.MissedAxes - r.MissedEquivariant
	if ea := ngca.SubspaceError(truth, r.Axes); ea < 0.4 || !(r.Distance > r.MaxDistance) || !(diff > 2 && diff < r.MissedMargin) || r.Estimate != "equivariant" {
		t.Errorf("path %v: ε_axes %.3g, Distance %.3g, evidence against the equivariant estimate stronger by %.3g", r.Estimate, ea, r.Distance, diff)
	}
}
