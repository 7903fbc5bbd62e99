package ngca_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/ngcatest"
)

// TestMIPPRecovery runs MIPP with the paper's settings on its four
// distributions at r = 0 (n = 2000, d = 10, m = 2). The authors' script gets
// a mean ε of 5.6e-4 (a), 0.011 (b), 5.9e-3 (c) and 1.8e-3 (d)
// (docs/results.md).
func TestMIPPRecovery(t *testing.T) {
	t.Parallel()
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	for _, dist := range ngcatest.Distributions() {
		t.Run(dist.String(), func(t *testing.T) {
			mean, worst := meanError(t, ngcatest.Artificial{Dist: dist}, seeds, func(src rand.Source) ngca.Estimator {
				return &ngca.MIPP{Dim: 2, Src: src}
			})
			t.Logf("mean ε %.2e (worst %.2e) over %d seeds", mean, worst, seeds)
			if mean >= 0.02 {
				t.Errorf("mean ε = %.3g, want < 0.02", mean)
			}
		})
	}
}

func TestMIPPEquivariance(t *testing.T) {
	x, _ := invariantData(t)
	_, d := x.Dims()
	base := fit(t, &ngca.MIPP{Dim: 2, Src: seeded()}, x)

	// M = Q₁·diag(s)·Q₂ with singular values from 0.3 to 4.
	q1 := ngcatest.RandomRotation(rand.NewPCG(5, 6), d)
	q2 := ngcatest.RandomRotation(rand.NewPCG(7, 8), d)
	var m mat.Dense
	m.Mul(q1, mat.NewDiagDense(d, []float64{0.3, 0.8, 1, 1.7, 2.5, 4}))
	m.Mul(&m, q2)
	var y mat.Dense
	y.Mul(x, m.T())
	res := fit(t, &ngca.MIPP{Dim: 2, Src: seeded()}, &y)

	var inv, want mat.Dense
	if err := inv.Inverse(&m); err != nil {
		t.Fatal(err)
	}
	want.Mul(inv.T(), base.Basis)
	if e := ngca.SubspaceError(&want, res.Basis); e > 1e-9 {
		t.Errorf("ε = %.3g between the fit of M·x and M⁻ᵀ times the fit of x", e)
	}
	for i, v := range base.Eigenvalues {
		if math.Abs(res.Eigenvalues[i]-v) > 1e-9*base.Eigenvalues[0] {
			t.Errorf("eigenvalue %d: %v after the map, %v before", i, res.Eigenvalues[i], v)
		}
	}
	if !reflect.DeepEqual(familyCounts(base), familyCounts(res)) {
		t.Errorf("kept %v after the map, %v before", familyCounts(res), familyCounts(base))
	}
}

// mippIndex is an independent implementation of the index functions s_p and
// their derivatives.
func mippIndex(kind string, p, z float64) (s, ds float64) {
	switch kind {
	case "gauss-pow3":
		e := math.Exp(-z * z / (2 * p))
		return z * z * z * e, (3*z*z - z*z*z*z/p) * e
	case "tanh":
		return math.Tanh(p * z), p / (math.Cosh(p*z) * math.Cosh(p*z))
	case "sin":
		return math.Sin(p * z), p * math.Cos(p*z)
	default:
		return math.Cos(p * z), -p * math.Sin(p*z)
	}
}

func TestMIPPIndexDerivatives(t *testing.T) {
	const h = 1e-5
	for _, kind := range familyKinds {
		for _, p := range []float64{0.05, 0.5, 2, 5} {
			for _, z := range []float64{-3.1, -0.7, 0, 0.2, 1.3, 4} {
				sp, _ := mippIndex(kind, p, z+h)
				sm, _ := mippIndex(kind, p, z-h)
				_, ds := mippIndex(kind, p, z)
				if fd := (sp - sm) / (2 * h); math.Abs(fd-ds) > 1e-6*math.Max(1, math.Abs(ds)) {
					t.Errorf("%v, p = %v: s′(%v) = %v, finite difference %v", kind, p, z, ds, fd)
				}
			}
		}
	}
}

// TestMIPPOneFunction checks a fit with a single index function against a
// direct computation from the documented recipe: standardise, centre,
// whiten symmetrically, start from w ∝ Yᵀg with the documented random signs,
// iterate, normalise. With one kept β and Dim = 1, the eigenvalue is ‖β‖²
// and the basis is D⁻¹Wβ, normalised.
func TestMIPPOneFunction(t *testing.T) {
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SuperSubGaussian, N: 300, D: 4}.Sample(rand.NewPCG(9, 9))
	if err != nil {
		t.Fatal(err)
	}
	// Scale and shift the columns so that the map back matters.
	x = transformed(x, func(_, j int, v float64) float64 { return float64(j+1)*v + 1 })
	n, d := x.Dims()

	// Standardise and whiten.
	sd := make([]float64, d)
	z := mat.NewDense(n, d, nil)
	for j := 0; j < d; j++ {
		var mu, ss float64
		for i := 0; i < n; i++ {
			mu += x.At(i, j) / float64(n)
		}
		for i := 0; i < n; i++ {
			ss += (x.At(i, j) - mu) * (x.At(i, j) - mu)
		}
		sd[j] = math.Sqrt(ss / float64(n-1))
		for i := 0; i < n; i++ {
			z.Set(i, j, (x.At(i, j)-mu)/sd[j])
		}
	}
	var cov mat.SymDense
	cov.SymOuterK(1/float64(n-1), z.T())
	var eig mat.EigenSym
	if !eig.Factorize(&cov, true) {
		t.Fatal("eigendecomposition failed")
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	vals := eig.Values(nil)
	for k := range vals {
		vals[k] = 1 / math.Sqrt(vals[k])
	}
	var w mat.Dense
	w.Mul(&vecs, mat.NewDiagDense(d, vals))
	w.Mul(&w, vecs.T())
	var y mat.Dense
	y.Mul(z, &w)

	for _, kind := range familyKinds {
		for _, iters := range []int{1, 4} {
			const p = 0.9
			rng := rand.New(rand.NewPCG(1, 2))
			words := make([]uint64, (n+63)/64)
			for k := range words {
				words[k] = rng.Uint64()
			}
			dir := make([]float64, d)
			for i := 0; i < n; i++ {
				g := 1.0
				if words[i/64]>>(i%64)&1 == 1 {
					g = -1
				}
				for j := range dir {
					dir[j] += g * y.At(i, j)
				}
			}
			unit := func(v []float64) []float64 {
				nrm := math.Sqrt(mat.Dot(mat.NewVecDense(d, v), mat.NewVecDense(d, v)))
				u := make([]float64, len(v))
				for j := range v {
					u[j] = v[j] / nrm
				}
				return u
			}
			dir = unit(dir)
			var beta []float64
			var noise float64
			for it := 0; it < iters; it++ {
				if it > 0 {
					dir = unit(beta)
				}
				beta = make([]float64, d)
				a := make([][]float64, n)
				for i := 0; i < n; i++ {
					var proj float64
					for j := range dir {
						proj += dir[j] * y.At(i, j)
					}
					s, ds := mippIndex(kind, p, proj)
					a[i] = make([]float64, d)
					for j := range dir {
						a[i][j] = y.At(i, j)*s - ds*dir[j]
						beta[j] += a[i][j] / float64(n)
					}
				}
				noise = 0
				for i := range a {
					for j := range a[i] {
						noise += a[i][j] * a[i][j] / float64(n)
					}
				}
			}
			var bb float64
			for _, v := range beta {
				bb += v * v
			}
			noise -= bb
			wantEig := bb / noise // ‖β‖² after normalisation
			wantBasis := mat.NewDense(d, 1, nil)
			wantBasis.Mul(&w, mat.NewDense(d, 1, beta))
			for j := 0; j < d; j++ {
				wantBasis.Set(j, 0, wantBasis.At(j, 0)/sd[j])
			}

			res := fit(t, withFamilies(&ngca.MIPP{Dim: 1, Src: rand.NewPCG(1, 2), Iterations: iters, Threshold: 1e-9}, []probe.FamilySpec{{Kind: kind, Params: []float64{p}}}), x)
			if math.Abs(res.Eigenvalues[0]-wantEig) > 1e-9*wantEig {
				t.Errorf("%v, %d iterations: eigenvalue %.12g, want ‖β‖² = %.12g", kind, iters, res.Eigenvalues[0], wantEig)
			}
			if e := ngca.SubspaceError(wantBasis, res.Basis); e > 1e-12 {
				t.Errorf("%v, %d iterations: ε = %.3g from D⁻¹Wβ", kind, iters, e)
			}
			if want := []probe.FamilyCount{{Family: kind, Kept: 1, Total: 1}}; !reflect.DeepEqual(familyCounts(res), want) {
				t.Errorf("%v: Kept = %v, want %v", kind, familyCounts(res), want)
			}
		}
	}
}

// TestMIPPTooFewKept: fewer surviving vectors than Dim is an ErrSingular
// error, not an arbitrary basis.
func TestMIPPTooFewKept(t *testing.T) {
	x, _ := invariantData(t)
	tests := []struct {
		name string
		est  *ngca.MIPP
		msg  string
	}{
		{"one function", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "tanh", Params: []float64{1}}}),
			"only 1 of 1 index functions passed the threshold τ = 1.6, need at least Dim = 2"},
		{"huge threshold", withFamilies(&ngca.MIPP{Dim: 2, Threshold: 1e6}, []probe.FamilySpec{{Kind: "gauss-pow3", L: 20}, {Kind: "cos", L: 20}}),
			"only 0 of 40 index functions passed the threshold τ = 1e+06, need at least Dim = 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.est.Fit(context.Background(), x)
			if !errors.Is(err, ngca.ErrSingular) || res != nil {
				t.Fatalf("got (%v, %v), want an ErrSingular error", res, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
	// One function is enough for Dim = 1.
	fit(t, withFamilies(&ngca.MIPP{Dim: 1}, []probe.FamilySpec{{Kind: "tanh", Params: []float64{1}}}), x)
}

func TestMIPPBadConfig(t *testing.T) {
	x, _ := invariantData(t)
	_, d := x.Dims()
	tests := []struct {
		name string
		est  *ngca.MIPP
		want error
	}{
		{"negative iterations", &ngca.MIPP{Dim: 2, Iterations: -1}, ngca.ErrParam},
		{"negative threshold", &ngca.MIPP{Dim: 2, Threshold: -1.6}, ngca.ErrParam},
		{"NaN threshold", &ngca.MIPP{Dim: 2, Threshold: math.NaN()}, ngca.ErrParam},
		{"Inf threshold", &ngca.MIPP{Dim: 2, Threshold: math.Inf(1)}, ngca.ErrParam},
		{"negative workers", &ngca.MIPP{Dim: 2, Workers: -2}, ngca.ErrParam},
		{"negative L", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "tanh", L: -5}}), ngca.ErrParam},
		{"Min > Max", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "sin", Min: 2, Max: 1}}), ngca.ErrParam},
		{"Min only", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "sin", Min: 0.5}}), ngca.ErrParam},
		{"Max only", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "sin", Max: 3}}), ngca.ErrParam},
		{"negative Min", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "cos", Min: -1, Max: 1}}), ngca.ErrParam},
		{"NaN Max", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "cos", Min: 1, Max: math.NaN()}}), ngca.ErrParam},
		{"Inf Max", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "cos", Min: 1, Max: math.Inf(1)}}), ngca.ErrParam},
		{"zero param", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "gauss-pow3", Params: []float64{1, 0}}}), ngca.ErrParam},
		{"NaN param", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "tanh", Params: []float64{math.NaN()}}}), ngca.ErrParam},
		{"Params and L", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "tanh", Params: []float64{1, 2}, L: 2}}), ngca.ErrParam},
		{"Params and range", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "tanh", Params: []float64{1, 2}, Min: 1, Max: 2}}), ngca.ErrParam},
		{"second family bad", withFamilies(&ngca.MIPP{Dim: 2}, []probe.FamilySpec{{Kind: "tanh"}, {Kind: "sin", L: -1}}), ngca.ErrParam},
		// Whitening needs more rows than columns.
		{"n = d", &ngca.MIPP{Dim: 2}, ngca.ErrSamples},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := mat.Matrix(x)
			if tc.want == ngca.ErrSamples {
				data = x.Slice(0, d, 0, d)
			}
			res, err := tc.est.Fit(context.Background(), data)
			if !errors.Is(err, tc.want) || res != nil {
				t.Errorf("got (%v, %v), want an error wrapping %v", res, err, tc.want)
			}
		})
	}
}

// TestMIPPKept checks the per-family counts, the progress reports and the
// parameter grids.
func TestMIPPKept(t *testing.T) {
	x, _ := invariantData(t)
	var seen []ngca.Progress
	est := &ngca.MIPP{Dim: 2, Src: seeded(), Progress: func(p ngca.Progress) { seen = append(seen, p) }}
	res := fit(t, est, x)
	if len(familyCounts(res)) != 4 {
		t.Fatalf("Kept = %v, want 4 families", familyCounts(res))
	}
	var total int
	for i, name := range []string{"gauss-pow3", "tanh", "sin", "cos"} {
		c := familyCounts(res)[i]
		if c.Family != name || c.Total != 1000 || c.Kept < 0 || c.Degenerate < 0 || c.Kept+c.Degenerate > c.Total {
			t.Errorf("Kept[%d] = %+v, want family %s with 1000 functions", i, c, name)
		}
		total += c.Kept
	}
	if total < 2 {
		t.Errorf("only %d vectors kept in all", total)
	}
	if len(seen) != 4000 {
		t.Fatalf("%d progress calls, want 4000", len(seen))
	}
	for i, p := range seen {
		if p != (ngca.Progress{Stage: "mipp", Step: 1, Steps: 1, Done: i + 1, Total: 4000}) {
			t.Fatalf("progress call %d = %+v", i, p)
		}
	}
	if steps := fmt.Sprint(res.Timings); !strings.Contains(steps, "mipp") || res.Timings[len(res.Timings)-1].Step != "total" {
		t.Errorf("timings %v", res.Timings)
	}

	// The counts do not depend on the number of workers either.
	r1 := fit(t, &ngca.MIPP{Dim: 2, Src: seeded(), Workers: 1}, x)
	r3 := fit(t, &ngca.MIPP{Dim: 2, Src: seeded(), Workers: 3}, x)
	if !reflect.DeepEqual(familyCounts(r1), familyCounts(res)) || !reflect.DeepEqual(familyCounts(r3), familyCounts(res)) {
		t.Errorf("Kept differs with the number of workers: %v, %v, %v", familyCounts(r1), familyCounts(r3), familyCounts(res))
	}

	// The zero-valued families are the defaults, in the same order.
	def := fit(t, withFamilies(&ngca.MIPP{Dim: 2, Src: seeded()}, ngca.DefaultFamilies()), x)
	zero := fit(t, withFamilies(&ngca.MIPP{Dim: 2, Src: seeded()}, []probe.FamilySpec{
		{Kind: "gauss-pow3"}, {Kind: "tanh"}, {Kind: "sin"}, {Kind: "cos"}}), x)
	if !sameResult(def, res) || !sameResult(zero, res) || !reflect.DeepEqual(familyCounts(def), familyCounts(res)) {
		t.Error("DefaultFamilies() or zero-valued families differ from the nil default")
	}

	// Custom families: an explicit list, a range, a single value.
	custom := fit(t, withFamilies(&ngca.MIPP{Dim: 2, Src: seeded()}, []probe.FamilySpec{
		{Kind: "tanh", Params: []float64{0.5, 1, 2}},
		{Kind: "gauss-pow3", Min: 1, Max: 2, L: 50},
		{Kind: "sin", Min: 1, Max: 1, L: 1},
	}), x)
	for i, want := range []struct {
		name  string
		total int
	}{{"tanh", 3}, {"gauss-pow3", 50}, {"sin", 1}} {
		if c := familyCounts(custom)[i]; c.Family != want.name || c.Total != want.total {
			t.Errorf("custom Kept[%d] = %+v, want %s with %d functions", i, c, want.name, want.total)
		}
	}

	// A range is L evenly spaced values, endpoints included.
	ranged := fit(t, withFamilies(&ngca.MIPP{Dim: 2, Src: seeded()}, []probe.FamilySpec{{Kind: "tanh", Min: 0.5, Max: 2, L: 4}}), x)
	listed := fit(t, withFamilies(&ngca.MIPP{Dim: 2, Src: seeded()}, []probe.FamilySpec{{Kind: "tanh", Params: []float64{0.5, 1, 1.5, 2}}}), x)
	if !sameResult(ranged, listed) {
		t.Error("range [0.5, 2] with L = 4 differs from the list 0.5, 1, 1.5, 2")
	}
}

func TestDefaultFamilies(t *testing.T) {
	want := []probe.FamilySpec{
		{Kind: "gauss-pow3", Min: 0.5, Max: 5, L: 1000},
		{Kind: "tanh", Min: 0.05, Max: 5, L: 1000},
		{Kind: "sin", Min: 0.05, Max: 4, L: 1000},
		{Kind: "cos", Min: 0.05, Max: 4, L: 1000},
	}
	if got := ngca.DefaultFamilies(); !reflect.DeepEqual(got, want) {
		t.Errorf("DefaultFamilies() = %v, want %v", got, want)
	}
	for _, e := range []any{&ngca.MIPP{}, &ngca.SNGCA{}} {
		if err := ngca.SetFamilies(e, []probe.FamilySpec{{Kind: "exp"}}); !errors.Is(err, ngca.ErrParam) {
			t.Errorf("%T, unknown kind: error %v, want ErrParam", e, err)
		}
	}
}
