package ngcatest_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/ngca-go/ngca/ngcatest"
)

func TestArtificialShapeAndStandardisation(t *testing.T) {
	for _, dist := range ngcatest.Distributions() {
		for _, tc := range []struct {
			n, d   int
			rotate bool
		}{{0, 0, false}, {500, 3, false}, {700, 20, true}} {
			x, truth, err := ngcatest.Artificial{Dist: dist, N: tc.n, D: tc.d, R: 0.5, Rotate: tc.rotate}.Sample(rand.NewPCG(1, 2))
			if err != nil {
				t.Fatal(err)
			}
			n, d := x.Dims()
			wantN, wantD := max(tc.n, 2000*boolInt(tc.n == 0)), max(tc.d, 10*boolInt(tc.d == 0))
			if n != wantN || d != wantD {
				t.Fatalf("%v: data %d×%d, want %d×%d", dist, n, d, wantN, wantD)
			}
			checkOrthonormal(t, truth, d, 2)
			if tc.rotate {
				continue // rotated data are standardised before the turn
			}
			for j := 0; j < d; j++ {
				col := mat.Col(nil, j, x)
				mean, sd := stat.MeanStdDev(col, nil)
				if math.Abs(mean) > 1e-12 || math.Abs(sd-1) > 1e-12 {
					t.Errorf("%v column %d: mean %v, sd %v", dist, j, mean, sd)
				}
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestArtificialDeterministic(t *testing.T) {
	a := ngcatest.Artificial{Dist: ngcatest.SuperSubGaussian, R: 1, Rotate: true}
	x1, t1, _ := a.Sample(rand.NewPCG(5, 5))
	x2, t2, _ := a.Sample(rand.NewPCG(5, 5))
	x3, _, _ := a.Sample(rand.NewPCG(5, 6))
	if !mat.Equal(x1, x2) || !mat.Equal(t1, t2) {
		t.Error("same seed, different data")
	}
	if mat.Equal(x1, x3) {
		t.Error("different seeds, same data")
	}
}

// TestArtificialSignals checks the signal distributions by their excess
// kurtosis (on the signal columns) and the noise by its Gaussianity and
// the growth of the covariance's condition number with r.
func TestArtificialSignals(t *testing.T) {
	const n = 20000
	kurt := func(x *mat.Dense, j int) float64 { return stat.ExKurtosis(mat.Col(nil, j, x), nil) }
	xa, _, _ := ngcatest.Artificial{Dist: ngcatest.GaussianMixture, N: n}.Sample(rand.NewPCG(1, 1))
	// Mixture ½N(±3, 1): E s² = 10, E s⁴ = 3 + 6·9 + 81 = 138, so excess
	// kurtosis 138/100 − 3 = −1.62.
	for j := 0; j < 2; j++ {
		if k := kurt(xa, j); math.Abs(k+1.62) > 0.05 {
			t.Errorf("(a) column %d: excess kurtosis %.3f, want −1.62", j, k)
		}
	}
	xb, _, _ := ngcatest.Artificial{Dist: ngcatest.SuperGaussian, N: n}.Sample(rand.NewPCG(1, 1))
	// Marginal of p(s) ∝ exp(−‖s‖) in 2-D: E r² = 6, E r⁴ = 120; with a
	// uniform angle E s₁² = 3, E s₁⁴ = 3/8·120 = 45, excess 45/9 − 3 = 2.
	if k := kurt(xb, 0); math.Abs(k-2) > 0.3 {
		t.Errorf("(b): excess kurtosis %.3f, want 2", k)
	}
	xc, _, _ := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: n}.Sample(rand.NewPCG(1, 1))
	// Uniform disk: E s₁² = 1/4, E s₁⁴ = 1/8, excess kurtosis 2 − 3 = −1.
	if k := kurt(xc, 1); math.Abs(k+1) > 0.05 {
		t.Errorf("(c): excess kurtosis %.3f, want −1", k)
	}
	xd, _, _ := ngcatest.Artificial{Dist: ngcatest.SuperSubGaussian, N: n}.Sample(rand.NewPCG(1, 1))
	if k := kurt(xd, 0); math.Abs(k-3) > 0.4 { // Laplace: 3
		t.Errorf("(d) s₁: excess kurtosis %.3f, want 3", k)
	}
	for j := 2; j < 10; j++ {
		if k := kurt(xd, j); math.Abs(k) > 0.1 {
			t.Errorf("noise column %d: excess kurtosis %.3f, want 0", j, k)
		}
	}

	cond := func(r float64) float64 {
		x, _, _ := ngcatest.Artificial{R: r, N: 5000}.Sample(rand.NewPCG(2, 2))
		var c mat.SymDense
		stat.CovarianceMatrix(&c, x, nil)
		var e mat.EigenSym
		e.Factorize(&c, false)
		v := e.Values(nil)
		return v[len(v)-1] / v[0]
	}
	c0, c1, c2 := cond(0), cond(1), cond(2)
	if !(c0 < 1.5 && c1 > 20 && c2 > 20*c1) {
		t.Errorf("condition numbers %.3g, %.3g, %.3g at r = 0, 1, 2: want ≈1 and fast growth", c0, c1, c2)
	}
}

func TestArtificialBadInput(t *testing.T) {
	src := rand.NewPCG(1, 1)
	for _, tc := range []struct {
		a    ngcatest.Artificial
		want error
	}{
		{ngcatest.Artificial{N: 1}, ngcatest.ErrParam},
		{ngcatest.Artificial{D: 2}, ngcatest.ErrParam},
		{ngcatest.Artificial{R: -1}, ngcatest.ErrParam},
		{ngcatest.Artificial{R: math.NaN()}, ngcatest.ErrParam},
		{ngcatest.Artificial{Dist: 9}, ngcatest.ErrParam},
	} {
		if _, _, err := tc.a.Sample(src); !errors.Is(err, tc.want) {
			t.Errorf("%+v: error %v, want %v", tc.a, err, tc.want)
		}
	}
	if _, _, err := (ngcatest.Artificial{}).Sample(nil); !errors.Is(err, ngcatest.ErrParam) {
		t.Errorf("nil source: error %v", err)
	}
}

func TestParseDistribution(t *testing.T) {
	for _, d := range ngcatest.Distributions() {
		got, err := ngcatest.ParseDistribution(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDistribution(%q) = %v, %v", d.String(), got, err)
		}
	}
	if _, err := ngcatest.ParseDistribution("e"); !errors.Is(err, ngcatest.ErrParam) {
		t.Errorf("ParseDistribution(\"e\"): %v", err)
	}
}

func TestRandomRotation(t *testing.T) {
	q := ngcatest.RandomRotation(rand.NewPCG(3, 3), 6)
	var g mat.Dense
	g.Mul(q.T(), q)
	if !mat.EqualApprox(&g, eye(6), 1e-13) {
		t.Errorf("QᵀQ ≠ I")
	}
}

// TestDistributionsFresh checks that a caller changing the returned list
// changes neither the next call's list nor what Sample accepts.
func TestDistributionsFresh(t *testing.T) {
	ds := ngcatest.Distributions()
	ds[0] = 7
	if got := ngcatest.Distributions(); got[0] != ngcatest.GaussianMixture || len(got) != 4 {
		t.Fatalf("Distributions() = %v after changing an earlier result", got)
	}
	if _, _, err := (ngcatest.Artificial{Dist: 7}).Sample(rand.NewPCG(1, 1)); !errors.Is(err, ngcatest.ErrParam) {
		t.Errorf("Dist 7: error %v, want ErrParam", err)
	}
}
