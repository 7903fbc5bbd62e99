package ngca_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

// estimatorCase is an estimator under the shared tests: newp returns it
// configured with the given target dimension, worker count, source and
// progress callback.
type estimatorCase struct {
	name string
	newp func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator
}

// new returns the estimator without a progress callback.
func (ec estimatorCase) new(dim, workers int, src rand.Source) ngca.Estimator {
	return ec.newp(dim, workers, src, nil)
}

// estimators lists every Estimator of the package; each shared test runs
// on all of them.
var estimators = []estimatorCase{
	{"WFLSNGCA", func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator {
		return &ngca.WFLSNGCA{Dim: dim, Workers: workers, Src: src, Progress: prog}
	}},
	{"LSNGCA", func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator {
		return &ngca.LSNGCA{Dim: dim, Workers: workers, Src: src, Progress: prog}
	}},
	{"WFLSNGCA-robust", func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator {
		return &ngca.RobustWFLSNGCA{Dim: dim, Workers: workers, Src: src, Progress: prog}
	}},
	{"MIPP", func(dim, workers int, src rand.Source, prog func(ngca.Progress)) ngca.Estimator {
		return &ngca.MIPP{Dim: dim, Workers: workers, Src: src, Progress: prog}
	}},
}

// invariantData is a small data set of the paper's kind with a clear
// non-Gaussian subspace (case (a), correlated noise, n = 1000, d = 6).
func invariantData(t *testing.T) (x, truth *mat.Dense) {
	t.Helper()
	x, truth, err := ngcatest.Artificial{Dist: ngcatest.GaussianMixture, N: 1000, D: 6, R: 0.5}.Sample(rand.NewPCG(11, 12))
	if err != nil {
		t.Fatal(err)
	}
	return x, truth
}

func fit(t *testing.T, e ngca.Estimator, x mat.Matrix) *ngca.Result {
	t.Helper()
	res, err := e.Fit(context.Background(), x)
	if err != nil {
		t.Fatalf("Fit: %v", err)
	}
	return res
}

// seeded returns a fresh source with a fixed seed, so that two fits see the
// same random numbers.
func seeded() rand.Source { return rand.NewPCG(3, 4) }

func projector(b mat.Matrix) *mat.Dense {
	var p mat.Dense
	p.Mul(b, b.T())
	return &p
}

// checkOrthonormal fails unless b (d×m) has orthonormal columns.
func checkOrthonormal(t *testing.T, b *mat.Dense, d, m int) {
	t.Helper()
	if r, c := b.Dims(); r != d || c != m {
		t.Fatalf("basis is %d×%d, want %d×%d", r, c, d, m)
	}
	var g mat.Dense
	g.Mul(b.T(), b)
	if !mat.EqualApprox(&g, eye(m), 1e-12) {
		t.Errorf("BᵀB = %v, want I", mat.Formatted(&g))
	}
}

func eye(m int) *mat.Dense {
	e := mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		e.Set(i, i, 1)
	}
	return e
}

// transformed returns a copy of x with every element replaced by f(i, j, x_ij).
func transformed(x *mat.Dense, f func(i, j int, v float64) float64) *mat.Dense {
	n, d := x.Dims()
	y := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			y.Set(i, j, f(i, j, x.At(i, j)))
		}
	}
	return y
}

func TestInvariants(t *testing.T) {
	t.Parallel()
	const m = 2
	x, truth := invariantData(t)
	n, d := x.Dims()
	for _, ec := range estimators {
		t.Run(ec.name, func(t *testing.T) {
			base := fit(t, ec.new(m, 0, seeded()), x)
			checkOrthonormal(t, base.Basis, d, m)
			if eps := ngca.SubspaceError(truth, base.Basis); eps > 0.01 {
				t.Errorf("ε = %.3g on the invariant data, want < 0.01", eps)
			}
			for i := 1; i < d; i++ {
				if base.Eigenvalues[i] > base.Eigenvalues[i-1] {
					t.Errorf("eigenvalues not descending: %v", base.Eigenvalues)
				}
			}
			p0 := projector(base.Basis)

			t.Run("translate", func(t *testing.T) {
				y := transformed(x, func(_, j int, v float64) float64 { return v + 5 - 3*float64(j) })
				res := fit(t, ec.new(m, 0, seeded()), y)
				if e := ngca.SubspaceError(base.Basis, res.Basis); e > 1e-9 {
					t.Errorf("ε between fits = %.3g after translation", e)
				}
			})
			t.Run("scale column", func(t *testing.T) {
				// Scaling column 1 by 1000 maps the index space E to D⁻¹E.
				y := transformed(x, func(_, j int, v float64) float64 {
					if j == 1 {
						return 1000 * v
					}
					return v
				})
				res := fit(t, ec.new(m, 0, seeded()), y)
				want := mat.DenseCopyOf(base.Basis)
				for c := 0; c < m; c++ {
					want.Set(1, c, want.At(1, c)/1000)
				}
				if e := ngca.SubspaceError(want, res.Basis); e > 1e-9 {
					t.Errorf("ε = %.3g after scaling a column, want the scaled subspace", e)
				}
			})
			t.Run("permute and flip", func(t *testing.T) {
				// Column k of y is ±column perm[k] of x; the basis rows follow.
				perm := []int{3, 0, 5, 1, 4, 2}
				sign := []float64{1, -1, 1, 1, -1, 1}
				y := transformed(x, func(i, k int, _ float64) float64 { return sign[k] * x.At(i, perm[k]) })
				res := fit(t, ec.new(m, 0, seeded()), y)
				p := projector(res.Basis)
				for a := 0; a < d; a++ {
					for b := 0; b < d; b++ {
						want := sign[a] * sign[b] * p0.At(perm[a], perm[b])
						if math.Abs(p.At(a, b)-want) > 1e-8 {
							t.Fatalf("projector[%d][%d] = %.10g, want %.10g", a, b, p.At(a, b), want)
						}
					}
				}
			})
			t.Run("twice", func(t *testing.T) {
				res := fit(t, ec.new(m, 0, seeded()), x)
				if !sameResult(base, res) {
					t.Error("fitting twice with the same seed gave different results")
				}
				// A nil source means a fixed seed: also reproducible.
				r1 := fit(t, ec.new(m, 0, nil), x)
				r2 := fit(t, ec.new(m, 0, nil), x)
				if !sameResult(r1, r2) {
					t.Error("fitting twice with a nil source gave different results")
				}
			})
			t.Run("workers", func(t *testing.T) {
				r1 := fit(t, ec.new(m, 1, seeded()), x)
				r4 := fit(t, ec.new(m, 4, seeded()), x)
				if !sameResult(r1, r4) || !sameResult(base, r1) {
					t.Error("Workers = 1 and Workers = 4 are not bit-identical")
				}
			})
			t.Run("no mutation", func(t *testing.T) {
				y := mat.DenseCopyOf(x)
				e := ec.new(m, 0, nil)
				before := reflect.ValueOf(e).Elem().Interface()
				fit(t, e, y)
				if !mat.Equal(x, y) {
					t.Error("Fit modified its input")
				}
				if !reflect.DeepEqual(before, reflect.ValueOf(e).Elem().Interface()) {
					t.Error("Fit modified its receiver")
				}
			})
			t.Run("project", func(t *testing.T) {
				var proj mat.Dense
				base.ProjectTo(&proj, x)
				if r, c := proj.Dims(); r != n || c != m {
					t.Fatalf("ProjectTo gave %d×%d, want %d×%d", r, c, n, m)
				}
				// Row 0 by hand: (x₀ − μ)·B.
				for c := 0; c < m; c++ {
					var s float64
					for j := 0; j < d; j++ {
						s += (x.At(0, j) - base.Mean[j]) * base.Basis.At(j, c)
					}
					if math.Abs(proj.At(0, c)-s) > 1e-12 {
						t.Errorf("ProjectTo[0][%d] = %v, want %v", c, proj.At(0, c), s)
					}
				}
			})
		})
	}
}

// sameResult reports whether two results are bit-identical, timings aside.
func sameResult(a, b *ngca.Result) bool {
	return mat.Equal(a.Basis, b.Basis) &&
		reflect.DeepEqual(a.Eigenvalues, b.Eigenvalues) &&
		reflect.DeepEqual(a.Mean, b.Mean) &&
		a.Method == b.Method &&
		sameReport(a.Report, b.Report)
}

// sameReport is reflect.DeepEqual for two reports, with a float field that
// is NaN in both (a figure that was not computed) counted as equal.
func sameReport(a, b ngca.Report) bool {
	a, b = ngca.NaNFreeReport(a), ngca.NaNFreeReport(b)
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Kind() != reflect.Pointer || vb.Kind() != reflect.Pointer || va.Type() != vb.Type() || va.IsNil() || vb.IsNil() {
		return reflect.DeepEqual(a, b)
	}
	ca, cb := reflect.New(va.Elem().Type()), reflect.New(vb.Elem().Type())
	ca.Elem().Set(va.Elem())
	cb.Elem().Set(vb.Elem())
	if ca.Elem().Kind() == reflect.Struct {
		for i := 0; i < ca.Elem().NumField(); i++ {
			fa, fb := ca.Elem().Field(i), cb.Elem().Field(i)
			if fa.Kind() == reflect.Float64 && fa.CanSet() && math.IsNaN(fa.Float()) && math.IsNaN(fb.Float()) {
				fa.SetFloat(0)
				fb.SetFloat(0)
			}
		}
	}
	return reflect.DeepEqual(ca.Interface(), cb.Interface())
}

func TestBadInput(t *testing.T) {
	x, _ := invariantData(t)
	n, d := x.Dims()
	small := mat.DenseCopyOf(x.Slice(0, 4, 0, d)) // fewer rows than the 5 folds
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		x    mat.Matrix
		dim  int
		ctx  context.Context
		want error
	}{
		{"NaN", transformed(x, nanAt(7, 2, math.NaN())), 2, nil, ngca.ErrNonFinite},
		{"+Inf", transformed(x, nanAt(0, 0, math.Inf(1))), 2, nil, ngca.ErrNonFinite},
		{"-Inf", transformed(x, nanAt(n-1, d-1, math.Inf(-1))), 2, nil, ngca.ErrNonFinite},
		{"n < folds", small, 2, nil, ngca.ErrSamples},
		{"one row", mat.DenseCopyOf(x.Slice(0, 1, 0, d)), 2, nil, ngca.ErrSamples},
		{"Dim = 0", x, 0, nil, ngca.ErrDim},
		{"Dim < 0", x, -1, nil, ngca.ErrDim},
		{"Dim = d", x, d, nil, ngca.ErrDim},
		{"Dim > d", x, d + 3, nil, ngca.ErrDim},
		{"one column", mat.DenseCopyOf(x.Slice(0, n, 0, 1)), 1, nil, ngca.ErrDim},
		{"constant column", transformed(x, func(_, j int, v float64) float64 {
			if j == 3 {
				return 42
			}
			return v
		}), 2, nil, ngca.ErrConstant},
		{"nil matrix", nil, 2, nil, ngca.ErrShape},
		{"empty matrix", &mat.Dense{}, 2, nil, ngca.ErrShape},
		{"cancelled", x, 2, cancelled, context.Canceled},
	}
	for _, ec := range estimators {
		for _, tc := range tests {
			t.Run(ec.name+"/"+tc.name, func(t *testing.T) {
				ctx := tc.ctx
				if ctx == nil {
					ctx = context.Background()
				}
				res, err := ec.new(tc.dim, 0, nil).Fit(ctx, tc.x)
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want one wrapping %v", err, tc.want)
				}
				if res != nil {
					t.Error("non-nil result with an error")
				}
			})
		}
	}
}

// nanAt returns an element transform that puts v at (r, c).
func nanAt(r, c int, v float64) func(i, j int, x float64) float64 {
	return func(i, j int, x float64) float64 {
		if i == r && j == c {
			return v
		}
		return x
	}
}

// TestCancelDuringFit cancels the context from the progress callback, in
// the middle of the work, and expects a context error.
func TestCancelDuringFit(t *testing.T) {
	x, _ := invariantData(t)
	for _, ec := range estimators {
		for _, w := range []int{1, 2} {
			ctx, cancel := context.WithCancel(context.Background())
			calls := 0
			est := ec.newp(2, w, nil, func(ngca.Progress) {
				calls++
				if calls == 5 {
					cancel()
				}
			})
			res, err := est.Fit(ctx, x)
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Errorf("%s, Workers = %d: got (%v, %v), want a context.Canceled error", ec.name, w, res, err)
			}
			cancel()
		}
	}
}

func TestProgress(t *testing.T) {
	x, _ := invariantData(t)
	_, d := x.Dims()
	var seen []ngca.Progress
	est := &ngca.WFLSNGCA{Dim: 2, Widths: []float64{0.5, 1, 2}, Progress: func(p ngca.Progress) { seen = append(seen, p) }}
	res := fit(t, est, x)
	// Stage 1: 3 widths × d coordinates; stage 2 (same grid): likewise.
	if want := 2 * 3 * d; len(seen) != want {
		t.Fatalf("%d progress calls, want %d", len(seen), want)
	}
	for i, p := range seen {
		stage, step, done := "lsldg", 1, i+1
		if i >= 3*d {
			stage, step, done = "v", 2, i+1-3*d
		}
		if want := (ngca.Progress{Stage: stage, Step: step, Steps: 2, Done: done, Total: 3 * d}); p != want {
			t.Fatalf("progress call %d = %+v, want %+v", i, p, want)
		}
	}
	if f := seen[len(seen)-1].Fraction(); f != 1 {
		t.Errorf("last progress fraction %v, want 1", f)
	}
	if cv := ngca.Stages(res.Report); len(cv) != 2 || cv[0].Name != "lsldg" || cv[1].Name != "v" {
		t.Errorf("CV stages %v, want lsldg and v", cv)
	}
	if last := res.Timings[len(res.Timings)-1]; last.Step != "total" || last.Elapsed <= 0 {
		t.Errorf("last timing %+v, want a positive total", last)
	}
}

// TestBadConfig checks that invalid settings are errors, not panics.
func TestBadConfig(t *testing.T) {
	x, _ := invariantData(t)
	n, d := x.Dims()
	tests := []struct {
		name string
		est  ngca.Estimator
		want error
	}{
		{"folds 1", &ngca.WFLSNGCA{Dim: 2, Folds: 1}, ngca.ErrParam},
		{"folds > n", &ngca.LSNGCA{Dim: 2, Folds: n + 1}, ngca.ErrSamples},
		{"negative workers", &ngca.WFLSNGCA{Dim: 2, Workers: -1}, ngca.ErrParam},
		{"zero width", &ngca.WFLSNGCA{Dim: 2, Widths: []float64{1, 0}}, ngca.ErrParam},
		{"NaN ridge", &ngca.LSNGCA{Dim: 2, Ridges: []float64{math.NaN()}}, ngca.ErrParam},
		{"Inf stage-2 width", &ngca.WFLSNGCA{Dim: 2, VWidths: []float64{math.Inf(1)}}, ngca.ErrParam},
		{"negative stage-2 ridge", &ngca.WFLSNGCA{Dim: 2, VRidges: []float64{-1}}, ngca.ErrParam},
		{"negative centers", &ngca.WFLSNGCA{Dim: 2, NumCenters: -3}, ngca.ErrParam},
		{"centers > n", &ngca.LSNGCA{Dim: 2, NumCenters: n + 1}, ngca.ErrSamples},
		{"centers wrong width", &ngca.WFLSNGCA{Dim: 2, Centers: mat.NewDense(3, d+1, nil)}, ngca.ErrShape},
		{"centers NaN", &ngca.LSNGCA{Dim: 2, Centers: transformed(mat.DenseCopyOf(x.Slice(0, 3, 0, d)), nanAt(1, 1, math.NaN()))}, ngca.ErrNonFinite},
		{"centers count disagrees", &ngca.WFLSNGCA{Dim: 2, NumCenters: 4, Centers: mat.DenseCopyOf(x.Slice(0, 3, 0, d))}, ngca.ErrParam},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.est.Fit(context.Background(), x); !errors.Is(err, tc.want) {
				t.Errorf("error %v, want one wrapping %v", err, tc.want)
			}
		})
	}
}

// TestSingularCovariance: collinear data are rank-deficient, an ErrSingular
// error for LSNGCA, which cannot whiten them, and for WF-LSNGCA, which does
// not whiten but would return a wrong basis (see rankdeficient_test.go).
func TestSingularCovariance(t *testing.T) {
	x, _ := invariantData(t)
	y := transformed(x, func(i, j int, v float64) float64 {
		if j == 5 {
			return x.At(i, 0) + 2*x.At(i, 4)
		}
		return v
	})
	for _, est := range []ngca.Estimator{&ngca.LSNGCA{Dim: 2}, &ngca.WFLSNGCA{Dim: 2}} {
		res, err := est.Fit(context.Background(), y)
		if err != nil || len(res.Dependent) != 1 || res.Dependent[0] != 5 {
			t.Errorf("%T on collinear columns: error %v, want column 5 left out", est, err)
		}
	}
}

// TestResultContract checks what every estimator promises in its Result:
// its name, all d eigenvalues (or, for the robust variant's equivariant
// estimate, none), a typed report, and progress that runs through its
// stages in order to a fraction of 1.
func TestResultContract(t *testing.T) {
	x, _ := invariantData(t)
	_, d := x.Dims()
	methods := map[string]string{"WFLSNGCA": "WF-LSNGCA", "LSNGCA": "LSNGCA", "WFLSNGCA-robust": "WF-LSNGCA robust", "MIPP": "MIPP"}
	for _, ec := range estimators {
		t.Run(ec.name, func(t *testing.T) {
			var seen []ngca.Progress
			res := fit(t, ec.newp(2, 0, rand.NewPCG(1, 1), func(p ngca.Progress) { seen = append(seen, p) }), x)
			if res.Method != methods[ec.name] {
				t.Errorf("Method = %q, want %q", res.Method, methods[ec.name])
			}
			switch r := res.Report.(type) {
			case *ngca.LSReport:
				if r.NumCenters != 100 || r.Folds != 5 || len(ngca.Stages(r)) == 0 {
					t.Errorf("LSReport %+v", r)
				}
			case *ngca.MIPPReport:
				if d, _ := ngca.MIPPDetails(r); d.Iterations != 10 || d.Threshold != 1.6 || len(d.Families) != 4 || r.KeptFunctions < 2 {
					t.Errorf("MIPPReport %+v, %+v", r, d)
				}
			case *ngca.RobustReport:
				d, _ := ngca.RobustDetails(r)
				want := d.AxesEigenvalues
				if r.Estimate == "equivariant" {
					want = d.StartEigenvalues
				}
				if !reflect.DeepEqual(res.Eigenvalues, want) {
					t.Errorf("robust variant on path %v: eigenvalues %v, want %v", r.Estimate, res.Eigenvalues, want)
				}
			default:
				t.Fatalf("Report is %T", res.Report)
			}
			if len(res.Eigenvalues) != d || !sort.IsSorted(sort.Reverse(sort.Float64Slice(res.Eigenvalues))) {
				t.Errorf("eigenvalues %v, want %d in descending order", res.Eigenvalues, d)
			}
			if len(seen) == 0 {
				t.Fatal("no progress reported")
			}
			last := 0.0
			for _, p := range seen {
				if f := p.Fraction(); f < last || p.Steps != seen[0].Steps || p.Step < 1 || p.Step > p.Steps {
					t.Fatalf("progress %+v after fraction %v", p, last)
				}
				last = p.Fraction()
			}
			if last != 1 {
				t.Errorf("final progress fraction %v, want 1", last)
			}
		})
	}
}
