package ngca

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ngca-go/ngca/internal/defaults"
	"github.com/ngca-go/ngca/ngcatest"
)

// discData draws n rows of d columns: a uniform disc on columns 0 and 1
// (signal (c), sub-Gaussian and dependent) and independent standard
// Gaussians elsewhere, and the basis e₀, e₁ of its index space.
func discData(rng *rand.Rand, n, d int) (x, truth *mat.Dense) {
	x = mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		r, a := math.Sqrt(rng.Float64()), 2*math.Pi*rng.Float64()
		x.Set(i, 0, r*math.Cos(a))
		x.Set(i, 1, r*math.Sin(a))
		for j := 2; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	truth = mat.NewDense(d, 2, nil)
	truth.Set(0, 0, 1)
	truth.Set(1, 1, 1)
	return x, truth
}

// TestAxesChecks checks the adaptive path's two checks of an axes
// estimate on aligned data at d = 30, where the equivariant estimate's own
// Wald test rejected the exact index space on most seeds (W/DF ≈ 2 to 3):
// the index space passes both; a basis turned 0.4 rad toward a noise
// column (ε = 0.076, several times the equivariant estimate's error)
// fails; one that misses a signal direction altogether (e₀, e₅), which
// the test cannot see, is far beyond defaults.RobustMaxDistance.
func TestAxesChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the equivariant estimate at d = 30")
	}
	const n, d, dim = 2000, 30, 2
	for seed := uint64(0); seed < 2; seed++ {
		x, truth := discData(rand.New(rand.NewPCG(seed, 30)), n, d)
		pr, err := prepare(context.Background(), x, config{kernel: true, src: rand.NewPCG(seed, 1)}, dim, true)
		if err != nil {
			t.Fatal(err)
		}
		wh, err := newWhitening(pr.z)
		if err != nil {
			t.Fatal(err)
		}
		ef, err := equivariantEstimate(context.Background(), pr, wh, dim, nil, &RobustReport{}, newStopwatch())
		if err != nil {
			t.Fatal(err)
		}
		check := func(a *mat.Dense) (bool, *RobustReport) {
			rep := &RobustReport{}
			keep, err := keepAxes(context.Background(), ef, a, dim, rep)
			if err != nil {
				t.Fatal(err)
			}
			if rep.detail.DF != (d-dim)*dim || len(rep.cv) != 1 || rep.P != 1-(distuv.ChiSquared{K: float64(rep.detail.DF)}).CDF(rep.detail.Wald) {
				t.Fatalf("report %+v", rep)
			}
			return keep, rep
		}
		turned := func(angle float64, col int) *mat.Dense {
			a := mat.DenseCopyOf(truth)
			a.Set(1, 1, math.Cos(angle))
			a.Set(col, 1, math.Sin(angle))
			return a
		}
		if keep, rep := check(truth); !keep {
			t.Errorf("seed %d: index space rejected: p = %.3g, Distance %.3g", seed, rep.P, rep.Distance)
		}
		if keep, rep := check(turned(0.4, 5)); keep {
			t.Errorf("seed %d: turned 0.4 rad kept: p = %.3g, Distance %.3g", seed, rep.P, rep.Distance)
		}
		if keep, rep := check(turned(math.Pi/2, 5)); keep || !(rep.Distance > 5*defaults.RobustMaxDistance) {
			t.Errorf("seed %d: missed direction: kept %v, Distance %.3g, want above %d", seed, keep, rep.Distance, 5*defaults.RobustMaxDistance)
		}
	}
}

// TestAxesCheckSingular: on columns with two or three distinct values the
// test's regression at the axes frame is singular (the frame's kernel
// parts add nothing to its linear part). The fit must not fail: the test
// reports W = +Inf and p = 0, and the equivariant estimate is returned.
func TestAxesCheckSingular(t *testing.T) {
	for _, levels := range []int{2, 3} {
		rng := rand.New(rand.NewPCG(uint64(levels), 3))
		const n, d = 500, 8
		x := mat.NewDense(n, d, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				if j < 2 {
					x.Set(i, j, float64(rng.IntN(levels)))
				} else {
					x.Set(i, j, rng.NormFloat64())
				}
			}
		}
		res, err := (&RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(1, 1)}).Fit(context.Background(), x)
		if err != nil {
			t.Fatalf("%d levels: %v", levels, err)
		}
		r := res.Report.(*RobustReport)
		if r.Estimate != robustEquivariant.String() || !math.IsInf(r.detail.Wald, 1) || r.P != 0 || r.detail.DF != (d-2)*2 || math.IsNaN(r.Distance) {
			t.Errorf("%d levels: report %+v", levels, r)
		}
	}
}

// TestMissedZ: on turned data, a basis that has lost one direction of the
// index space to a noise direction misses structure that the index space
// holds, by more evidence than the converse (the decision's margin). Two
// signals, each with its index space turned by a random rotation of all
// d coordinates: the uniform disc of the paper (sub-Gaussian, dependent
// coordinates) and two independent centred exponentials (skewed), which
// the paper does not use.
func TestMissedZ(t *testing.T) {
	const n, d, dim = 2000, 10, 2
	signals := map[string]func(rng *rand.Rand) (float64, float64){
		"disc": func(rng *rand.Rand) (float64, float64) {
			r, a := 2*math.Sqrt(rng.Float64()), 2*math.Pi*rng.Float64()
			return r * math.Cos(a), r * math.Sin(a)
		},
		"exponential": func(rng *rand.Rand) (float64, float64) {
			return rng.ExpFloat64() - 1, rng.ExpFloat64() - 1
		},
	}
	for name, draw := range signals {
		for seed := uint64(0); seed < 2; seed++ {
			rng := rand.New(rand.NewPCG(seed, 41))
			q := ngcatest.RandomRotation(rand.NewPCG(seed, 42), d)
			raw := mat.NewDense(n, d, nil)
			for i := 0; i < n; i++ {
				row := raw.RawRowView(i)
				row[0], row[1] = draw(rng)
				for j := dim; j < d; j++ {
					row[j] = rng.NormFloat64()
				}
			}
			var x mat.Dense
			x.Mul(raw, q.T()) // row i is q·s_i: the index space is span(q e₀, q e₁)
			pr, err := prepare(context.Background(), &x, config{kernel: true, src: rand.NewPCG(seed, 1)}, dim, true)
			if err != nil {
				t.Fatal(err)
			}
			wh, err := newWhitening(pr.z)
			if err != nil {
				t.Fatal(err)
			}
			inWhitened := func(cols ...int) *mat.Dense {
				b := mat.NewDense(d, len(cols), nil)
				for k, c := range cols {
					for j := 0; j < d; j++ {
						b.Set(j, k, q.At(j, c)*pr.scale.sd[j]) // E_z = D·E_x
					}
				}
				bw, err := wh.toWhitened(b)
				if err != nil {
					t.Fatal(err)
				}
				o, _ := orthonormal(bw)
				return o
			}
			truth, lost := inWhitened(0, 1), inWhitened(0, 5)
			yw := whitenedData(pr, wh)
			zTruth, err := missedZ(context.Background(), yw, truth, lost)
			if err != nil {
				t.Fatal(err)
			}
			zLost, err := missedZ(context.Background(), yw, lost, truth)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s seed %d: z of the index space %.3g, of the basis that lost a direction %.3g", name, seed, zTruth, zLost)
			if !(zLost < zTruth-defaults.RobustMissedMargin) {
				t.Errorf("%s seed %d: z of the index space %.3g, of the basis that lost a direction %.3g: want a difference above %v",
					name, seed, zTruth, zLost, defaults.RobustMissedMargin)
			}
		}
	}
}
