package ngca

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/defaults"
	"gonum.org/v1/gonum/mat"
)

// tinyTable returns n rows of d columns: a two-point mixture in the first
// column, Gaussian noise in the others.
func tinyTable(n, d int) *mat.Dense {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			v := rng.NormFloat64()
			if j == 0 {
				v = float64(2*rng.IntN(2)-1) + 0.3*v
			}
			x.Set(i, j, v)
		}
	}
	return x
}

// documentedRows gives, by Result.Method, the fewest rows each estimator's
// doc comment states for d columns and k folds.
var documentedRows = map[string]func(d, k int) int{
	methodMIPP:     func(d, _ int) int { return d + 2 },
	methodIMAK:     func(d, _ int) int { return d + 2 },
	methodSNGCA:    func(d, _ int) int { return d + 2 },
	methodWFLSNGCA: foldRule,
	methodLSNGCA:   foldRule,
	methodRobust:   foldRule,
}

// foldRule is max(k, ⌈k(d + 1)/(k − 1)⌉).
func foldRule(d, k int) int {
	return max(k, int(math.Ceil(float64(k*(d+1))/float64(k-1))))
}

// withDimFolds returns a copy of e with Dim set, and Folds if it has them
// (ok is false if folds is not 0 and it has none).
func withDimFolds(e estimator, dim, folds int) (estimator, bool) {
	c := e.with(rand.NewPCG(1, 1), 1).(estimator)
	v := reflect.ValueOf(c).Elem()
	v.FieldByName("Dim").SetInt(int64(dim))
	f := v.FieldByName("Folds")
	if !f.IsValid() {
		return c, folds == 0
	}
	f.SetInt(int64(folds))
	return c, true
}

// wantFewRows fails unless err wraps ErrSamples and says that at least
// min rows are needed and n were given.
func wantFewRows(t *testing.T, what string, err error, min, n int) {
	t.Helper()
	if !errors.Is(err, ErrSamples) {
		t.Fatalf("%s: error %v, want ErrSamples", what, err)
	}
	for _, s := range []string{"too few rows", fmt.Sprintf("needs at least %d rows", min), fmt.Sprintf("(got %d)", n)} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%s: error %q does not say %q", what, err, s)
		}
	}
}

// TestTinyTables: every registered estimator refuses fewer rows than its
// doc comment states (tables of 3 and 4 rows, d + 1 rows, one row short)
// with an ErrSamples error that says how many rows it needs and got, and
// does not refuse the stated number; so do LSLDG and EstimateDim.
func TestTinyTables(t *testing.T) {
	ctx := context.Background()
	for _, zero := range estimators {
		rule, ok := documentedRows[zero.method()]
		if !ok {
			t.Errorf("%s: no documented rows in this test", zero.method())
			continue
		}
		for _, tc := range []struct{ d, folds int }{{3, 0}, {6, 0}, {3, 3}, {3, 7}} {
			est, ok := withDimFolds(zero, 1, tc.folds)
			if !ok {
				continue
			}
			name := fmt.Sprintf("%s/d=%d,folds=%d", zero.method(), tc.d, tc.folds)
			t.Run(name, func(t *testing.T) {
				min := rule(tc.d, foldsOf(tc.folds))
				if got := est.rows(tc.d).min; got != min {
					t.Fatalf("rows(%d) = %d, the doc comment says %d", tc.d, got, min)
				}
				var ns []int
				for _, n := range []int{2, 3, 4, tc.d + 1, min - 1} {
					if n < min && !slices.Contains(ns, n) {
						ns = append(ns, n)
					}
				}
				for _, n := range ns {
					res, err := est.Fit(ctx, tinyTable(n, tc.d))
					wantFewRows(t, fmt.Sprintf("%d rows", n), err, min, n)
					if res != nil {
						t.Errorf("%d rows: a result with the error", n)
					}
				}
				if _, err := est.Fit(ctx, tinyTable(min, tc.d)); errors.Is(err, ErrSamples) {
					t.Errorf("%d rows, the minimum: %v", min, err)
				} else if err != nil {
					t.Logf("%d rows, the minimum: %v", min, err) // another sentinel: a fit that fails, not one refused
				}
			})
		}
	}
	t.Run("LSLDG", func(t *testing.T) {
		for _, folds := range []int{0, 3} {
			k := foldsOf(folds)
			l := &LSLDG{Folds: folds, Widths: []float64{1}, Ridges: []float64{0.1}}
			_, err := l.Fit(ctx, tinyTable(k-1, 3))
			wantFewRows(t, fmt.Sprintf("%d folds, %d rows", k, k-1), err, k, k-1)
			if _, err := l.Fit(ctx, tinyTable(k, 3)); err != nil {
				t.Errorf("%d folds, %d rows: %v", k, k, err)
			}
		}
	})
	t.Run("EstimateDim", func(t *testing.T) {
		for _, d := range []int{3, 6} {
			for _, n := range []int{3, d + 1} {
				_, err := EstimateDim(ctx, tinyTable(n, d), DimOptions{})
				wantFewRows(t, fmt.Sprintf("%d rows of %d columns", n, d), err, d+2, n)
			}
			if _, err := EstimateDim(ctx, tinyTable(d+2, d), DimOptions{}); errors.Is(err, ErrSamples) {
				t.Errorf("%d rows of %d columns: %v", d+2, d, err)
			}
		}
	})
}

// TestCheckTinyTables: a fit at its fewest rows cannot be checked, since
// the refits hold three quarters of them; Check says so with an ErrSamples
// error naming the rows the check needs, and checks a fit of that many.
func TestCheckTinyTables(t *testing.T) {
	ctx := context.Background()
	const d = 3
	for _, zero := range estimators {
		t.Run(zero.method(), func(t *testing.T) {
			est, _ := withDimFolds(zero, 1, 0)
			min := est.rows(d).min
			need := min + 1
			for int(defaults.CheckShare*float64(need)) < min {
				need++
			}
			for _, n := range []int{min, need - 1, need} {
				x := tinyTable(n, d)
				res, err := est.Fit(ctx, x)
				if err != nil {
					t.Fatalf("%d rows: %v", n, err)
				}
				rep, err := Check(ctx, est, x, res, CheckOptions{Refits: 2, Src: rand.NewPCG(1, 1)})
				if n == need {
					if errors.Is(err, ErrSamples) {
						t.Errorf("%d rows, as many as the check needs: %v", n, err)
					}
					continue
				}
				if !errors.Is(err, ErrSamples) || rep != nil {
					t.Fatalf("check of %d rows: report %v, error %v; want ErrSamples", n, rep, err)
				}
				for _, want := range []string{fmt.Sprintf("needs at least %d rows", min), fmt.Sprintf("the check needs at least %d rows", need)} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("check of %d rows: error %q does not say %q", n, err, want)
					}
				}
			}
		})
	}
}
