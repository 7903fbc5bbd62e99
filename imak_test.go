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
	"github.com/ngca-go/ngca/ngcatest"
)

// TestIMAKRecovery fits IMAK with its defaults to the paper's four
// distributions at r = 0 (n = 2000, d = 10, m = 2). Over 10 seeds
// (TestIMAKStudy) the mean ε is 1.1e-3 (a), 0.014 (b), 3.0e-3 (c) and
// 7.2e-3 (d); the thresholds are about twice that.
func TestIMAKRecovery(t *testing.T) {
	seeds := 3
	if testing.Short() {
		seeds = 1
	}
	limit := map[ngcatest.Distribution]float64{ngcatest.GaussianMixture: 3e-3, ngcatest.SuperGaussian: 0.03,
		ngcatest.SubGaussian: 8e-3, ngcatest.SuperSubGaussian: 0.015}
	for _, dist := range ngcatest.Distributions() {
		t.Run(dist.String(), func(t *testing.T) {
			mean, worst := meanError(t, ngcatest.Artificial{Dist: dist}, seeds, func(src rand.Source) ngca.Estimator {
				return &ngca.IMAK{Dim: 2, Src: src}
			})
			t.Logf("mean ε %.2e (worst %.2e) over %d seeds", mean, worst, seeds)
			if mean >= limit[dist] {
				t.Errorf("mean ε = %.3g, want < %g", mean, limit[dist])
			}
		})
	}
}

// TestIMAKEquivariance fits x and x·A for a random invertible A (singular
// values 0.05 to 20, condition number 400): the index space of x·A is
// A⁻¹ times that of x, and IMAK must find exactly that, with the same
// spectrum and passes.
func TestIMAKEquivariance(t *testing.T) {
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SuperSubGaussian, N: 1500, D: 7, R: 0.5}.Sample(rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	_, d := x.Dims()
	var a mat.Dense
	a.Mul(ngcatest.RandomRotation(rand.NewPCG(1, 9), d), mat.NewDiagDense(d, []float64{0.05, 0.3, 1, 1.5, 4, 9, 20}))
	a.Mul(&a, ngcatest.RandomRotation(rand.NewPCG(2, 9), d))
	var xa, inv, want mat.Dense
	xa.Mul(x, &a)
	if err := inv.Inverse(&a); err != nil {
		t.Fatal(err)
	}
	for _, sym := range []bool{false, true} {
		base := fit(t, symmetricIf(&ngca.IMAK{Dim: 2, Alpha: 0.25}, sym), x)
		res := fit(t, symmetricIf(&ngca.IMAK{Dim: 2, Alpha: 0.25}, sym), &xa)
		want.Mul(&inv, base.Basis)
		p, q := projector(orthonormalised(t, &want)), projector(res.Basis)
		p.Sub(p, q)
		if diff := mat.Norm(p, math.Inf(1)); diff > 1e-8 {
			t.Errorf("Symmetric %v: projectors of A⁻¹E and of the fit of x·A differ by %.3g", sym, diff)
		}
		for i, v := range base.Eigenvalues {
			if math.Abs(res.Eigenvalues[i]-v) > 1e-8*base.Eigenvalues[0] {
				t.Errorf("Symmetric %v: eigenvalue %d: %v after the map, %v before", sym, i, res.Eigenvalues[i], v)
			}
		}
		rb, rr := base.Report.(*ngca.IMAKReport), res.Report.(*ngca.IMAKReport)
		if rb.Passes != rr.Passes || !rb.Converged || !rr.Converged {
			t.Errorf("Symmetric %v: %d passes (converged %v) after the map, %d (%v) before", sym, rr.Passes, rr.Converged, rb.Passes, rb.Converged)
		}
	}
}

// orthonormalised returns an orthonormal basis of the columns of b.
func orthonormalised(t *testing.T, b *mat.Dense) *mat.Dense {
	t.Helper()
	var qr mat.QR
	qr.Factorize(b)
	var q mat.Dense
	qr.QTo(&q)
	_, m := b.Dims()
	d, _ := q.Dims()
	return mat.DenseCopyOf(q.Slice(0, d, 0, m))
}

// TestIMAKContract checks the Result contract, the report, progress,
// determinism for any number of workers, and that Fit mutates neither its
// input nor its receiver.
func TestIMAKContract(t *testing.T) {
	x, truth := invariantData(t)
	n, d := x.Dims()
	var seen []ngca.Progress
	est := &ngca.IMAK{Dim: 2, Workers: 1, Progress: func(p ngca.Progress) { seen = append(seen, p) }}
	before := *est
	y := mat.DenseCopyOf(x)
	res := fit(t, est, y)
	if !mat.Equal(x, y) || est.Alpha != before.Alpha || est.Schedule != nil || est.Workers != 1 {
		t.Error("Fit modified its input or its receiver")
	}
	checkOrthonormal(t, res.Basis, d, 2)
	if e := ngca.SubspaceError(truth, res.Basis); e > 0.01 {
		t.Errorf("ε = %.3g, want < 0.01", e)
	}
	for i := 1; i < d; i++ {
		if res.Eigenvalues[i] > res.Eigenvalues[i-1] || res.Eigenvalues[i] < 0 {
			t.Errorf("eigenvalues not descending and non-negative: %v", res.Eigenvalues)
		}
	}
	rep := res.Report.(*ngca.IMAKReport)
	want := &ngca.IMAKReport{MaxPasses: 50, Passes: rep.Passes, Converged: true, Changes: rep.Changes}
	if res.Method != "IMAK" || !reflect.DeepEqual(rep, want) || len(rep.Changes) != rep.Passes-1 || rep.Passes < 7 {
		t.Errorf("method %q, report %+v", res.Method, rep)
	}
	if rep.Changes[len(rep.Changes)-1] > 1e-9 {
		t.Errorf("last change %v above the tolerance", rep.Changes[len(rep.Changes)-1])
	}
	if len(seen) != rep.Passes || seen[len(seen)-1].Fraction() != 1 || seen[0] != (ngca.Progress{Stage: "imak", Step: 1, Steps: 1, Done: 1, Total: 50}) {
		t.Errorf("progress %v after %d passes", seen, rep.Passes)
	}
	if res.Timings[len(res.Timings)-1].Step != "total" || len(res.Mean) != d {
		t.Errorf("timings %v, %d means", res.Timings, len(res.Mean))
	}

	// n = 1000 rows make four blocks of rows: any worker count gives the
	// same bits, and so does a nil or a seeded source (Src is unused).
	for _, w := range []int{2, 3, 8, 0} {
		again := fit(t, &ngca.IMAK{Dim: 2, Workers: w, Src: rand.NewPCG(uint64(w), 1)}, x)
		if !sameResult(res, again) {
			t.Errorf("Workers = %d differs from Workers = 1", w)
		}
	}
	if n != 1000 {
		t.Fatalf("%d rows", n)
	}

	// A capped run reports that it did not converge.
	capped := fit(t, &ngca.IMAK{Dim: 2, MaxPasses: 7}, x).Report.(*ngca.IMAKReport)
	if capped.Passes != 7 || capped.Converged {
		t.Errorf("capped run: %+v", capped)
	}
}

func TestIMAKBadInput(t *testing.T) {
	x, _ := invariantData(t)
	_, d := x.Dims()
	copied := mat.DenseCopyOf(x)
	for i := 0; i < 1000; i++ {
		copied.Set(i, 3, 2*x.At(i, 1)-1)
	}
	nan := mat.DenseCopyOf(x)
	nan.Set(5, 2, math.NaN())
	constant := mat.DenseCopyOf(x)
	for i := 0; i < 1000; i++ {
		constant.Set(i, 0, 3)
	}
	tests := []struct {
		name string
		est  *ngca.IMAK
		x    mat.Matrix
		want error
	}{
		{"negative alpha", &ngca.IMAK{Dim: 2, Alpha: -0.5}, x, ngca.ErrParam},
		{"NaN alpha", &ngca.IMAK{Dim: 2, Alpha: math.NaN()}, x, ngca.ErrParam},
		{"Inf alpha", &ngca.IMAK{Dim: 2, Alpha: math.Inf(1)}, x, ngca.ErrParam},
		{"symmetric alpha 1", symmetricIf(&ngca.IMAK{Dim: 2, Alpha: 1}, true), x, ngca.ErrParam},
		{"schedule above 1", &ngca.IMAK{Dim: 2, Schedule: []float64{0.5, 1.5}}, x, ngca.ErrParam},
		{"schedule NaN", &ngca.IMAK{Dim: 2, Schedule: []float64{math.NaN()}}, x, ngca.ErrParam},
		{"negative max passes", &ngca.IMAK{Dim: 2, MaxPasses: -1}, x, ngca.ErrParam},
		{"max passes below schedule", &ngca.IMAK{Dim: 2, MaxPasses: 6}, x, ngca.ErrParam},
		{"negative tol", &ngca.IMAK{Dim: 2, Tol: -1}, x, ngca.ErrParam},
		{"NaN tol", &ngca.IMAK{Dim: 2, Tol: math.NaN()}, x, ngca.ErrParam},
		{"negative workers", &ngca.IMAK{Dim: 2, Workers: -1}, x, ngca.ErrParam},
		{"dim zero", &ngca.IMAK{}, x, ngca.ErrDim},
		{"dim d", &ngca.IMAK{Dim: d}, x, ngca.ErrDim},
		{"n = d", &ngca.IMAK{Dim: 2}, x.Slice(0, d, 0, d), ngca.ErrSamples},
		{"nil", &ngca.IMAK{Dim: 2}, nil, ngca.ErrShape},
		{"NaN", &ngca.IMAK{Dim: 2}, nan, ngca.ErrNonFinite},
		{"constant", &ngca.IMAK{Dim: 2}, constant, ngca.ErrConstant},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.est.Fit(context.Background(), tc.x)
			if !errors.Is(err, tc.want) || res != nil {
				t.Errorf("got (%v, %v), want an error wrapping %v", res, err, tc.want)
			}
		})
	}
	// A copied column is left out of the fit.
	if res, err := (&ngca.IMAK{Dim: 2}).Fit(context.Background(), copied); err != nil || len(res.Dependent) != 1 || res.Dependent[0] != 3 {
		t.Errorf("copied column: error %v, want column 3 left out", err)
	}
}

func TestIMAKCancel(t *testing.T) {
	x, _ := invariantData(t)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := (&ngca.IMAK{Dim: 2}).Fit(done, x); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled before: got (%v, %v)", res, err)
	}
	// Cancelled during the passes, from the progress callback.
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	est := &ngca.IMAK{Dim: 2, Workers: 2, Progress: func(p ngca.Progress) {
		if p.Done == 3 {
			stop()
		}
	}}
	if res, err := est.Fit(ctx, x); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled in pass 4: got (%v, %v)", res, err)
	}
}

// TestIMAKSymmetric checks the symmetric form: at α = 0.25 it converges to
// the same fixed point as the default form, at α = 0.5 it does not
// converge on this data.
func TestIMAKSymmetric(t *testing.T) {
	x, truth, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian}.Sample(rand.NewPCG(0, 2017))
	if err != nil {
		t.Fatal(err)
	}
	sym := fit(t, symmetricIf(&ngca.IMAK{Dim: 2, Alpha: 0.25}, true), x)
	def := fit(t, &ngca.IMAK{Dim: 2, Alpha: 0.25}, x)
	if e := ngca.SubspaceError(def.Basis, sym.Basis); e > 1e-12 || !sym.Report.(*ngca.IMAKReport).Converged {
		t.Errorf("α = 0.25: ε = %.3g between the forms, report %+v", e, sym.Report)
	}
	diverged := fit(t, symmetricIf(&ngca.IMAK{Dim: 2}, true), x)
	if diverged.Report.(*ngca.IMAKReport).Converged || ngca.SubspaceError(truth, diverged.Basis) < 0.01 {
		t.Errorf("α = 0.5: converged %v, ε = %.3g", diverged.Report.(*ngca.IMAKReport).Converged, ngca.SubspaceError(truth, diverged.Basis))
	}
}

// symmetricIf returns im, set to the symmetric form if sym.
func symmetricIf(im *ngca.IMAK, sym bool) *ngca.IMAK {
	if sym {
		if err := ngca.SetIMAKSymmetric(im); err != nil {
			panic(err)
		}
	}
	return im
}
