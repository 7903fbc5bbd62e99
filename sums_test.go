package ngca

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/ngcatest"
)

// planData returns the paper's data (a) with n rows and d columns; with
// dependent set, a last column that is the sum of the first two.
func planData(t *testing.T, n, d int, dependent bool) *mat.Dense {
	t.Helper()
	x, _, err := ngcatest.Artificial{N: n, D: d}.Sample(rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if !dependent {
		return x
	}
	y := mat.NewDense(n, d+1, nil)
	y.Slice(0, n, 0, d).(*mat.Dense).Copy(x)
	for i := 0; i < n; i++ {
		y.Set(i, d, x.At(i, 0)+x.At(i, 1))
	}
	return y
}

// runPlan runs the passes of p over the rows of x the way a distributed
// engine would: the rows in three uneven parts, each part's sums formed
// from blocks and sent as bytes, merged in another order, and the plan
// itself sent as bytes between passes.
func runPlan(t *testing.T, p *Plan, x *mat.Dense) *Plan {
	t.Helper()
	n, d := x.Dims()
	cuts := []int{0, n / 7, n/7 + 1, n / 2, n}
	for !p.Done() {
		raw, err := p.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var q Plan
		if err := q.UnmarshalBinary(raw); err != nil {
			t.Fatal(err)
		}
		var parts []*Sums
		for k := 0; k+1 < len(cuts); k++ {
			s := q.NewSums()
			if err := s.Add(x.Slice(cuts[k], cuts[k+1], 0, d)); err != nil {
				t.Fatal(err)
			}
			b, err := s.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var r Sums
			if err := r.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			parts = append(parts, &r)
		}
		total := parts[len(parts)-1]
		for _, s := range parts[:len(parts)-1] {
			if err := total.Merge(s); err != nil {
				t.Fatal(err)
			}
		}
		if total.Rows() != n {
			t.Fatalf("pass %d: %d rows summed, want %d", p.Pass()+1, total.Rows(), n)
		}
		if p, err = p.Next(total); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestFitPlanIsFit checks that FitPlan returns Fit's result bit for bit.
func TestFitPlanIsFit(t *testing.T) {
	x := planData(t, 600, 5, true)
	ctx := context.Background()
	type fitter = func(workers int) (*Result, *Plan, error)
	for _, f := range []fitter{
		func(workers int) (*Result, *Plan, error) {
			w := &WFLSNGCA{Dim: 2, Src: rand.NewPCG(1, 0), Workers: workers}
			if workers == 2 {
				res, err := w.Fit(ctx, x)
				return res, nil, err
			}
			return w.FitPlan(ctx, x)
		},
		func(workers int) (*Result, *Plan, error) {
			l := &LSNGCA{Dim: 2, Src: rand.NewPCG(1, 0), Workers: workers}
			if workers == 2 {
				res, err := l.Fit(ctx, x)
				return res, nil, err
			}
			return l.FitPlan(ctx, x)
		},
	} {
		want, _, err := f(2)
		if err != nil {
			t.Fatal(err)
		}
		got, plan, err := f(1)
		if err != nil {
			t.Fatal(err)
		}
		got.Timings, want.Timings = nil, nil
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if string(a) != string(b) {
			t.Errorf("%s: FitPlan's result\n%s\nFit's\n%s", want.Method, a, b)
		}
		if !slices.Equal(plan.dependent, []int{5}) || plan.Method() != want.Method || plan.Pass() != 0 || plan.Done() {
			t.Errorf("%s: plan of %s, dependent %v", want.Method, plan.Method(), plan.dependent)
		}
	}
	y := x.Slice(0, 600, 0, 5)
	want, err := (&LSLDG{Src: rand.NewPCG(1, 0)}).Fit(ctx, y)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := (&LSLDG{Src: rand.NewPCG(1, 0), Workers: 1}).FitPlan(ctx, y)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(got.Theta(), want.Theta()) || !mat.Equal(got.Centers(), want.Centers()) {
		t.Error("LSLDG: FitPlan's model differs from Fit's")
	}
}

// TestPlanEqualsFit checks the contract of Plan: its passes over the rows
// it was fitted to give the estimator's fit to rounding.
func TestPlanEqualsFit(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		dep  bool
		fit  func(x mat.Matrix) (*Result, *Plan, error)
	}{
		{"WF-LSNGCA", false, func(x mat.Matrix) (*Result, *Plan, error) {
			return (&WFLSNGCA{Dim: 2, Src: rand.NewPCG(2, 0)}).FitPlan(ctx, x)
		}},
		{"WF-LSNGCA/dependent", true, func(x mat.Matrix) (*Result, *Plan, error) {
			return (&WFLSNGCA{Dim: 2, Src: rand.NewPCG(2, 0)}).FitPlan(ctx, x)
		}},
		{"WF-LSNGCA/grids", false, func(x mat.Matrix) (*Result, *Plan, error) {
			// Stage 2's widths differ from stage 1's: its Gram matrices are
			// formed in the stage-1 pass.
			return (&WFLSNGCA{Dim: 2, VWidths: []float64{0.3, 0.7, 1.5}, Src: rand.NewPCG(2, 0)}).FitPlan(ctx, x)
		}},
		{"LSNGCA", true, func(x mat.Matrix) (*Result, *Plan, error) {
			return (&LSNGCA{Dim: 2, Src: rand.NewPCG(2, 0)}).FitPlan(ctx, x)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := planData(t, 3000, 6, tc.dep)
			want, plan, err := tc.fit(x)
			if err != nil {
				t.Fatal(err)
			}
			if plan.Passes() != map[bool]int{true: 4, false: 3}[plan.Method() == "WF-LSNGCA"] {
				t.Errorf("%d passes", plan.Passes())
			}
			done := runPlan(t, plan, x)
			got, err := done.Result()
			if err != nil {
				t.Fatal(err)
			}
			if e := SubspaceError(want.Basis, got.Basis); !(e <= 1e-10) {
				t.Errorf("ε = %.3g between the fit and its plan's passes, want ≤ 1e-10", e)
			}
			for i, v := range want.Eigenvalues {
				if math.Abs(got.Eigenvalues[i]-v) > 1e-9*want.Eigenvalues[0] {
					t.Errorf("eigenvalue %d: %v, fit %v", i, got.Eigenvalues[i], v)
				}
			}
			for j, v := range want.Mean {
				if math.Abs(got.Mean[j]-v) > 1e-12 {
					t.Errorf("mean %d: %v, fit %v", j, got.Mean[j], v)
				}
			}
			if !slices.Equal(got.Dependent, want.Dependent) || got.Method != want.Method {
				t.Errorf("dependent %v, method %q; fit %v, %q", got.Dependent, got.Method, want.Dependent, want.Method)
			}
			if _, err := json.Marshal(got); err != nil {
				t.Error(err)
			}
			// The same sums give the same bits.
			again, err := runPlan(t, plan, x).Result()
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(again.Basis, got.Basis) {
				t.Error("the same passes gave other bits")
			}
		})
	}
	t.Run("LSLDG", func(t *testing.T) {
		x := planData(t, 2000, 4, false)
		want, plan, err := (&LSLDG{Src: rand.NewPCG(2, 0)}).FitPlan(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		got, err := runPlan(t, plan, x).Model()
		if err != nil {
			t.Fatal(err)
		}
		var a, b mat.Dense
		want.GradientTo(&a, x)
		got.GradientTo(&b, x)
		var diff mat.Dense
		diff.Sub(&a, &b)
		if r := mat.Norm(&diff, 2) / mat.Norm(&a, 2); !(r <= 1e-9) {
			t.Errorf("gradients differ by %.3g relative", r)
		}
	})
}

// TestPlanOtherRows checks that a plan's passes over other rows than its
// own give the estimator's fit to those rows with the plan's centers and
// choices.
func TestPlanOtherRows(t *testing.T) {
	ctx := context.Background()
	x := planData(t, 3000, 5, false)
	sample := x.Slice(0, 700, 0, 5)
	grid := func(v float64) []float64 { return []float64{v} }
	w := WFLSNGCA{Dim: 2, Widths: grid(0.8), Ridges: grid(1e-3), VWidths: grid(1.3), VRidges: grid(1e-2), Src: rand.NewPCG(5, 0)}
	_, plan, err := w.FitPlan(ctx, sample)
	if err != nil {
		t.Fatal(err)
	}
	got, err := runPlan(t, plan, x).Result()
	if err != nil {
		t.Fatal(err)
	}
	w.Centers = plan.centers
	want, err := w.Fit(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	if e := SubspaceError(want.Basis, got.Basis); !(e <= 1e-10) {
		t.Errorf("ε = %.3g between the fit with the plan's centers and the plan's passes, want ≤ 1e-10", e)
	}
}

// TestPlanErrors checks the errors of Plan and Sums.
func TestPlanErrors(t *testing.T) {
	ctx := context.Background()
	x := planData(t, 400, 4, false)
	_, plan, err := (&WFLSNGCA{Dim: 1, Widths: []float64{1}, Ridges: []float64{1e-3}}).FitPlan(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	s := plan.NewSums()
	if err := s.Add(mat.NewDense(2, 3, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("3 columns for 4: %v", err)
	}
	bad := mat.DenseCopyOf(x)
	bad.Set(7, 2, math.NaN())
	if err := s.Add(bad); !errors.Is(err, ErrNonFinite) || s.Rows() != 0 {
		t.Errorf("NaN: %v, %d rows added", err, s.Rows())
	}
	if _, err := plan.Result(); !errors.Is(err, ErrParam) {
		t.Errorf("Result before the passes: %v", err)
	}
	if _, err := plan.Model(); !errors.Is(err, ErrParam) {
		t.Errorf("Model of a WF-LSNGCA plan: %v", err)
	}
	if err := s.Add(x); err != nil {
		t.Fatal(err)
	}
	p1, err := plan.Next(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p1.Next(s); !errors.Is(err, ErrParam) {
		t.Errorf("pass-1 sums for pass 2: %v", err)
	}
	s2 := p1.NewSums()
	if err := s2.Merge(s); !errors.Is(err, ErrParam) {
		t.Errorf("merging sums of two passes: %v", err)
	}
	if err := s2.Add(x.Slice(0, 100, 0, 4)); err != nil {
		t.Fatal(err)
	}
	if _, err := p1.Next(s2); !errors.Is(err, ErrSamples) {
		t.Errorf("pass 2 over fewer rows: %v", err)
	}
	raw, _ := s2.MarshalBinary()
	var r Sums
	if err := r.UnmarshalBinary(raw); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(x); !errors.Is(err, ErrParam) {
		t.Errorf("Add to decoded sums: %v", err)
	}
	var q Plan
	if err := q.UnmarshalBinary([]byte("not a plan")); !errors.Is(err, ErrParam) {
		t.Errorf("decoding junk: %v", err)
	}
	if err := r.UnmarshalBinary(raw[:len(raw)/2]); !errors.Is(err, ErrParam) {
		t.Errorf("decoding half the sums: %v", err)
	}
	// A constant column among the rows of the passes.
	c := mat.DenseCopyOf(x)
	for i := 0; i < 400; i++ {
		c.Set(i, 3, 2.5)
	}
	s = plan.NewSums()
	if err := s.Add(c); err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Next(s); !errors.Is(err, ErrConstant) {
		t.Errorf("constant column: %v", err)
	}
	done := runPlan(t, plan, x)
	if _, err := done.Next(s); !errors.Is(err, ErrParam) {
		t.Errorf("Next after the last pass: %v", err)
	}
}

// TestSumsWorkers checks that the sums of every pass are the same bits
// for one goroutine and for two.
func TestSumsWorkers(t *testing.T) {
	x := planData(t, 1500, 5, false)
	_, plan, err := (&WFLSNGCA{Dim: 2, VWidths: []float64{0.5, 2}}).FitPlan(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for !plan.Done() {
		var raw [2][]byte
		for i, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			s := plan.NewSums()
			if err := s.Add(x); err != nil {
				t.Fatal(err)
			}
			if raw[i], err = s.MarshalBinary(); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(raw[0], raw[1]) {
			t.Fatalf("pass %d: the sums of one goroutine and of two differ", plan.Pass()+1)
		}
		var s Sums
		s.UnmarshalBinary(raw[0])
		if plan, err = plan.Next(&s); err != nil {
			t.Fatal(err)
		}
	}
}
