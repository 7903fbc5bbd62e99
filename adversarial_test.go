package ngca_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/ngcatest"
)

// Adversarial data for the library; docs/reliability.md lists the
// outcomes. The command's side is in cmd/ngca/adversarial_test.go.

// smallEstimators returns every estimator with one-point grids and few
// index functions, so that a fit of a few hundred rows takes well under a
// second, with a fixed seed.
func smallEstimators(dim int) map[string]ngca.Estimator {
	w, r := []float64{1}, []float64{0.1}
	return map[string]ngca.Estimator{
		"WF-LSNGCA":        &ngca.WFLSNGCA{Dim: dim, Widths: w, Ridges: r, Src: rand.NewPCG(1, 1)},
		"WF-LSNGCA robust": &ngca.RobustWFLSNGCA{Dim: dim, Widths: w, Ridges: r, Src: rand.NewPCG(1, 1)},
		"LSNGCA":           &ngca.LSNGCA{Dim: dim, Widths: w, Ridges: r, Src: rand.NewPCG(1, 1)},
		"MIPP":             withFamilies(&ngca.MIPP{Dim: dim, Src: rand.NewPCG(1, 1)}, []probe.FamilySpec{{Kind: "tanh", L: 50}, {Kind: "gauss-pow3", L: 50}}),
	}
}

// TestExtremeValues scales the columns of a data set by powers of two to
// magnitudes near ±1e308 (up to the largest float64) and 1e-308 (down into
// the subnormal numbers). Before the standardisation computed in scaled
// units, the column sums overflowed and the squares underflowed, and the
// fits failed with a wrong ErrConstant.
//
// The index space of the data with column j multiplied by 2^k_j is
// diag(2^−k_j) times that of the data, and the scaling is exact but for
// subnormal values. With one scale for all columns the bases must agree
// once the rows are scaled back. With scales far apart, the rows of the
// large columns of an orthonormal basis are tiny and hold absolute
// rounding errors of the order of ε: the basis must then agree with the
// scaled reference in the caller's coordinates, or, where the scales span
// more than the range of float64, the fit may report ErrSingular (the
// basis lost rank when mapped back).
func TestExtremeValues(t *testing.T) {
	x, _, err := ngcatest.Artificial{N: 400, D: 4}.Sample(rand.NewPCG(3, 5))
	if err != nil {
		t.Fatal(err)
	}
	n, d := x.Dims()
	// Every column of x to a largest magnitude in [½, 1).
	for j := 0; j < d; j++ {
		_, e := math.Frexp(mat.Norm(x.ColView(j), math.Inf(1)))
		for i := 0; i < n; i++ {
			x.Set(i, j, math.Ldexp(x.At(i, j), -e))
		}
	}
	ref := make(map[string]*ngca.Result)
	for name, est := range smallEstimators(2) {
		if ref[name], err = est.Fit(context.Background(), x); err != nil {
			t.Fatalf("%s on the unscaled data: %v", name, err)
		}
	}
	for _, tc := range []struct {
		name    string
		k       []int // the exponent of every column
		uniform bool
		tol     float64
	}{
		{"near +-1e308", []int{1023, 1023, 1023, 1023}, true, 1e-24},
		{"near 1e-308", []int{-1022, -1022, -1022, -1022}, true, 1e-24},
		{"subnormal", []int{-1030, -1030, -1030, -1030}, true, 1e-10},
		{"largest float64 and 1", []int{1024, 1024, 0, 0}, false, 1e-16},
		{"mixed", []int{1023, -1000, 0, -1024}, false, 1e-16},
	} {
		y := transformed(x, func(_, j int, v float64) float64 { return math.Ldexp(v, tc.k[j]) })
		for name, est := range smallEstimators(2) {
			res, err := est.Fit(context.Background(), y)
			if err != nil {
				if !tc.uniform && errors.Is(err, ngca.ErrSingular) {
					continue
				}
				t.Errorf("%s, %s: %v", tc.name, name, err)
				continue
			}
			checkOrthonormal(t, res.Basis, d, 2)
			var e float64
			if tc.uniform {
				back := transformed(res.Basis, func(i, _ int, v float64) float64 { return math.Ldexp(v, tc.k[i]) })
				e = ngca.SubspaceError(ref[name].Basis, back)
			} else {
				e = ngca.SubspaceError(scaledRows(ref[name].Basis, tc.k), res.Basis)
			}
			if !(e <= tc.tol) {
				t.Errorf("%s, %s: subspace error %.3g to the basis of the unscaled data, want ≤ %g", tc.name, name, e, tc.tol)
			}
			for j, m := range res.Mean {
				if want := math.Ldexp(ref[name].Mean[j], tc.k[j]); math.Abs(m-want) > 1e-12*math.Ldexp(1, tc.k[j]) {
					t.Errorf("%s, %s: mean %d is %v, want %v", tc.name, name, j, m, want)
				}
			}
		}
	}
}

// scaledRows returns diag(2^−k_i)·b, every column then scaled by a power
// of two that keeps its largest entry finite (which leaves its span).
func scaledRows(b *mat.Dense, k []int) *mat.Dense {
	top := math.MinInt
	for _, ki := range k {
		top = max(top, -ki)
	}
	return transformed(b, func(i, _ int, v float64) float64 { return math.Ldexp(v, -k[i]-top) })
}

// TestExtremeLSLDG: the gradient model of data scaled by 2⁻¹⁰⁰⁰ is the
// model of the unscaled data, its gradient multiplied by 2¹⁰⁰⁰ (so it
// overflows, as the true gradient does): exactly, since powers of two
// scale without rounding.
func TestExtremeLSLDG(t *testing.T) {
	x, _, err := ngcatest.Artificial{N: 200, D: 3}.Sample(rand.NewPCG(3, 5))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1000, -1000} {
		y := transformed(x, func(_, _ int, v float64) float64 { return math.Ldexp(v, k) })
		est := func() *ngca.LSLDG {
			return &ngca.LSLDG{Widths: []float64{1}, Ridges: []float64{0.1}, Src: rand.NewPCG(1, 1)}
		}
		ref, err := est().Fit(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		m, err := est().Fit(context.Background(), y)
		if err != nil {
			t.Fatalf("k = %d: %v", k, err)
		}
		if !mat.Equal(m.Theta(), ref.Theta()) {
			t.Errorf("k = %d: coefficients differ from those of the unscaled data", k)
		}
		var g, gref mat.Dense
		m.GradientTo(&g, y.Slice(0, 5, 0, 3))
		ref.GradientTo(&gref, x.Slice(0, 5, 0, 3))
		for i := 0; i < 5; i++ {
			for j := 0; j < 3; j++ {
				if want := math.Ldexp(gref.At(i, j), -k); g.At(i, j) != want {
					t.Errorf("k = %d: gradient (%d, %d) = %v, want %v", k, i, j, g.At(i, j), want)
				}
			}
		}
		for j, s := range m.Scale() {
			if want := math.Ldexp(ref.Scale()[j], k); s != want {
				t.Errorf("k = %d: scale %d = %v, want %v", k, j, s, want)
			}
		}
	}
}

// TestIdenticalRows: data whose rows are all the same have constant
// columns: ErrConstant from every estimator.
func TestIdenticalRows(t *testing.T) {
	x := mat.NewDense(50, 3, nil)
	for i := 0; i < 50; i++ {
		x.SetRow(i, []float64{1.5, -2, 1e-3})
	}
	for name, fit := range allFitters(1) {
		if err := fit(x); !errors.Is(err, ngca.ErrConstant) {
			t.Errorf("%s: error %v, want ErrConstant", name, err)
		}
	}
}

// TestFoldsPlusOne fits n = folds + 1 rows of d = 2 and 5 columns (one
// more than the kernel estimators accept for 2 columns; 5 columns need 8
// rows, an ErrSamples error): every estimator must return a valid result
// or a sentinel error, never a NaN basis. With b = n centers and folds of
// one row the fits do run.
func TestFoldsPlusOne(t *testing.T) {
	for _, d := range []int{2, 5} {
		x, _, err := ngcatest.Artificial{N: 6, D: max(d, 3)}.Sample(rand.NewPCG(7, 7))
		if err != nil {
			t.Fatal(err)
		}
		x = mat.DenseCopyOf(x.Slice(0, 6, 0, d))
		for name, est := range smallEstimators(1) {
			res, err := est.Fit(context.Background(), x)
			if err != nil {
				checkFitError(t, err)
				t.Logf("d = %d, %s: %v", d, name, err)
				continue
			}
			checkFuzzResult(t, res, d, 1)
		}
	}
}

// TestSpanFewerThanDim: with kernels so narrow that they vanish away from
// their two centers, the estimated vectors are zero but on two rows and
// span at most two dimensions; a Dim of 4 is then an ErrSingular error,
// not a basis whose last two columns are arbitrary (found by
// FuzzWFLSNGCA, testdata/fuzz/FuzzWFLSNGCA/99b13c183543faee).
func TestSpanFewerThanDim(t *testing.T) {
	x, _ := invariantData(t)
	est := &ngca.WFLSNGCA{Dim: 4, NumCenters: 2, Widths: []float64{1e-3}, Ridges: []float64{1e-12}}
	if res, err := est.Fit(context.Background(), x); !errors.Is(err, ngca.ErrSingular) || !strings.Contains(err.Error(), "span fewer than Dim = 4") {
		t.Errorf("got (%v, %v), want an ErrSingular error", res, err)
	}
}

// TestSubspaceErrorScales: the columns of a basis may differ in length by
// any factor; the rank test of the orthonormalisation is relative to each
// column's own size (it was relative to the longest, so that a basis of
// data near 1e308 and 1e-308 lost rank).
func TestSubspaceErrorScales(t *testing.T) {
	truth := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 0})
	est := mat.NewDense(3, 2, []float64{1e300, 0, 0, 1e-300, 0, 0})
	if e := ngca.SubspaceError(truth, est); e != 0 {
		t.Errorf("SubspaceError = %v, want 0", e)
	}
}
