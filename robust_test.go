package ngca_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/ngca-go/ngca"
)

// robustCase is a cell of docs/robust.md where the faithful method fails.
type robustCase struct {
	name string
	a    ngca.Artificial
	// robustMax bounds the robust variant's mean ε; faithfulMin is a lower
	// bound on the faithful method's mean ε, showing the gain is real.
	robustMax, faithfulMin float64
}

// TestRobustGains pins the robust variant's gains on seeded data: the
// faithful method fails on every case (mean ε above faithfulMin) and the
// robust variant passes (mean ε below robustMax). See docs/robust.md.
func TestRobustGains(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the robust variant 24 times")
	}
	cases := []robustCase{
		{"rotated (a) r=0", ngca.Artificial{Dist: ngca.GaussianMixture, Rotate: true}, 0.01, 0.2},
		{"rotated (c) r=0", ngca.Artificial{Dist: ngca.SubGaussian, Rotate: true}, 0.01, 0.2},
		{"rotated (d) r=0.8", ngca.Artificial{Dist: ngca.SuperSubGaussian, R: 0.8, Rotate: true}, 0.01, 0.2},
		{"aligned (a) d=20", ngca.Artificial{Dist: ngca.GaussianMixture, D: 20}, 0.01, 0.2},
		{"aligned (c) r=2", ngca.Artificial{Dist: ngca.SubGaussian, R: 2}, 0.01, 0.2},
		{"aligned (d) r=2", ngca.Artificial{Dist: ngca.SuperSubGaussian, R: 2}, 0.01, 0.2},
	}
	const seeds = 2
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			robust, _ := meanError(t, tc.a, seeds, func(src rand.Source) ngca.Estimator {
				return &ngca.RobustWFLSNGCA{Dim: 2, Src: src}
			})
			faithful, _ := meanError(t, tc.a, seeds, func(src rand.Source) ngca.Estimator {
				return &ngca.WFLSNGCA{Dim: 2, Src: src}
			})
			t.Logf("mean ε: robust %.2e, faithful %.2e", robust, faithful)
			if robust >= tc.robustMax {
				t.Errorf("robust mean ε = %.3g, want < %g", robust, tc.robustMax)
			}
			if faithful <= tc.faithfulMin {
				t.Errorf("faithful mean ε = %.3g: the case no longer shows a failure (want > %g)", faithful, tc.faithfulMin)
			}
		})
	}
}

// TestRobustAligned checks the robust variant on the paper's own setting:
// as accurate as the faithful method's reference figures (ε ≤ 1e-4) on
// every seed, by keeping the axes estimate. Before the comparison's frame
// was mended (finding 12 in docs/reliability.md) it moved with rounding and
// took the equivariant estimate on one of these seeds (ε about 2e-3).
func TestRobustAligned(t *testing.T) {
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	for _, dist := range ngca.Distributions {
		t.Run(dist.String(), func(t *testing.T) {
			errs := make([]float64, seeds)
			for s := range errs {
				x, truth, err := ngca.Artificial{Dist: dist, R: 0.8}.Sample(rand.NewPCG(uint64(s), 2017))
				if err != nil {
					t.Fatal(err)
				}
				res := fit(t, &ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(uint64(s), 1)}, x)
				errs[s] = ngca.SubspaceError(truth, res.Basis)
				if rep := robustReport(t, res); rep.Path != ngca.RobustAxes {
					t.Errorf("seed %d: took the %v estimate (z = %.2f) on aligned data", s, rep.Path, rep.Z)
				}
			}
			t.Logf("ε per seed: %.2g", errs)
			if worst := slices.Max(errs); worst > 1e-4 {
				t.Errorf("worst ε = %.3g at r = 0.8, want ≤ 1e-4", worst)
			}
		})
	}
}

// TestRobustReport checks the report, the paths and determinism.
func TestRobustReport(t *testing.T) {
	x, truth, err := ngca.Artificial{Dist: ngca.GaussianMixture, N: 1000, D: 6, Rotate: true}.Sample(rand.NewPCG(8, 8))
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
	if r == nil || r.Axes == nil || r.Equivariant == nil || math.IsNaN(r.Z) || len(r.KernelCoords) != 4 {
		t.Fatalf("incomplete report %+v", r)
	}
	if r.Path != ngca.RobustEquivariant || r.Z > -4 {
		t.Errorf("rotated data: path %v with z = %.2f, want the equivariant estimate", r.Path, r.Z)
	}
	if e := ngca.SubspaceError(truth, res.Basis); e > 0.01 {
		t.Errorf("ε = %.3g on rotated data", e)
	}
	checkOrthonormal(t, res.Basis, 6, 2)
	if again := fitWith(ngca.RobustWFLSNGCA{}, 3); !sameResult(res, again) || robustReport(t, again).Z != r.Z {
		t.Error("Workers = 1 and 3 differ")
	}
	ax := fitWith(ngca.RobustWFLSNGCA{Path: ngca.RobustAxes}, 0)
	if r := robustReport(t, ax); r.Equivariant != nil || !math.IsNaN(r.Z) || r.Path != ngca.RobustAxes ||
		!reflect.DeepEqual(ax.Eigenvalues, r.AxesEigenvalues) || len(ax.Eigenvalues) != 6 {
		t.Errorf("axes-only report %+v", r)
	}
	eq := fitWith(ngca.RobustWFLSNGCA{Path: ngca.RobustEquivariant}, 0)
	if r := robustReport(t, eq); r.Axes != nil || r.Equivariant == nil || r.Path != ngca.RobustEquivariant || eq.Eigenvalues != nil {
		t.Errorf("equivariant-only report %+v", r)
	}
	if res.Method != "WF-LSNGCA robust" {
		t.Errorf("Method = %q", res.Method)
	}
	if s := fmt.Sprint(ngca.RobustAdaptive, ngca.RobustAxes, ngca.RobustEquivariant); s != "adaptive axes equivariant" {
		t.Errorf("path names %q", s)
	}
}

// TestRobustSingularFrame pins the stretch case of docs/robust.md: at r = 4
// (noise variances spanning eight orders of magnitude) the frame
// refinement is numerically singular, so the equivariant path alone returns ErrSingular, while the
// adaptive fit keeps the axes estimate, says why, and stays far below
// LSNGCA's error on the same data.
func TestRobustSingularFrame(t *testing.T) {
	x, truth, err := ngca.Artificial{Dist: ngca.SubGaussian, R: 4, N: 1000}.Sample(rand.NewPCG(1, 4))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// Estimator seed 2: on 7 of the seeds 1 to 8 both the equivariant and
	// the adaptive path's refinements are singular (on seed 1 the adaptive
	// path's MIPP start, drawn after the axes estimate's partitions, gives
	// a refinement that is not, and its comparison keeps the axes, z = 11).
	eq := &ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(2, 1), Path: ngca.RobustEquivariant}
	if _, err := eq.Fit(ctx, x); !errors.Is(err, ngca.ErrSingular) {
		t.Fatalf("equivariant path: error %v, want ErrSingular (the case no longer tests the fallback)", err)
	}
	res, err := (&ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(2, 1)}).Fit(ctx, x)
	if err != nil {
		t.Fatalf("adaptive fit: %v", err)
	}
	r := robustReport(t, res)
	if r.Path != ngca.RobustAxes || !errors.Is(r.EquivariantErr, ngca.ErrSingular) || !math.IsNaN(r.Z) || r.Equivariant != nil {
		t.Errorf("report %+v, want the axes estimate with the equivariant path's ErrSingular", r)
	}
	ls, err := (&ngca.LSNGCA{Dim: 2, Src: rand.NewPCG(1, 1)}).Fit(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	robust, lsngca := ngca.SubspaceError(truth, res.Basis), ngca.SubspaceError(truth, ls.Basis)
	t.Logf("r = 4: ε robust %.2e, LSNGCA %.2e", robust, lsngca)
	if robust > 0.01 || lsngca < 0.1 {
		t.Errorf("ε robust %.3g, LSNGCA %.3g: want robust < 0.01 and LSNGCA > 0.1", robust, lsngca)
	}
}

func TestRobustBadOptions(t *testing.T) {
	x, _ := invariantData(t)
	for _, o := range []ngca.RobustWFLSNGCA{
		{Path: 7}, {KernelCoords: -1}, {KernelCoords: 1}, {SwitchZ: -1}, {SwitchZ: math.NaN()},
		{Rounds: -2}, {StartFunctions: -5}, {NullZ: math.NaN()},
	} {
		o.Dim = 2
		if _, err := o.Fit(context.Background(), x); !errors.Is(err, ngca.ErrParam) {
			t.Errorf("%+v: error %v, want ErrParam", o, err)
		}
	}
}

// robustReport returns the result's *RobustReport, failing the test if it
// has none.
func robustReport(t *testing.T, res *ngca.Result) *ngca.RobustReport {
	t.Helper()
	r, ok := res.Report.(*ngca.RobustReport)
	if !ok || r == nil {
		t.Fatalf("Report is %T, want *ngca.RobustReport", res.Report)
	}
	return r
}

// TestRobustFewRows: with no more rows than columns MIPP cannot whiten, so
// the adaptive variant keeps the axes estimate and says why, while the
// equivariant path alone reports ErrSamples.
func TestRobustFewRows(t *testing.T) {
	x, _, err := ngca.Artificial{Dist: ngca.SubGaussian, N: 30, D: 40}.Sample(rand.NewPCG(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&ngca.RobustWFLSNGCA{Dim: 2, NumCenters: 20}).Fit(context.Background(), x)
	if err != nil {
		t.Fatalf("adaptive fit with n < d: %v", err)
	}
	if r := robustReport(t, res); r.Path != ngca.RobustAxes || !errors.Is(r.EquivariantErr, ngca.ErrSamples) {
		t.Errorf("report %+v, want the axes estimate with the start's ErrSamples", r)
	}
	checkOrthonormal(t, res.Basis, 40, 2)
	if _, err := (&ngca.RobustWFLSNGCA{Dim: 2, NumCenters: 20, Path: ngca.RobustEquivariant}).Fit(context.Background(), x); !errors.Is(err, ngca.ErrSamples) {
		t.Errorf("equivariant path with n < d: error %v, want ErrSamples", err)
	}
}
