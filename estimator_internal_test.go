package ngca

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ngca-go/ngca/ngcatest"
)

// TestEstimatorsRegistered checks that every estimator of the package is
// registered once, under a name of its own and with a report type that a
// Result's JSON can hold.
func TestEstimatorsRegistered(t *testing.T) {
	want := []Estimator{&WFLSNGCA{}, &RobustWFLSNGCA{}, &LSNGCA{}, &MIPP{}, &IMAK{}, &SNGCA{}}
	if len(estimators) != len(want) {
		t.Errorf("%d estimators registered, want %d", len(estimators), len(want))
	}
	for _, w := range want {
		n := 0
		for _, e := range estimators {
			if reflect.TypeOf(e) == reflect.TypeOf(w) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%T registered %d times", w, n)
		}
	}
	names := map[string]bool{}
	for _, e := range estimators {
		if names[e.method()] {
			t.Errorf("%T: method %q taken", e, e.method())
		}
		names[e.method()] = true
		rt := reflect.TypeOf(e.newReport()).Elem()
		if reportTypes[rt.Name()] != rt {
			t.Errorf("%T: report %v has no JSON form", e, rt)
		}
	}
}

// TestEstimatorInterface checks each registered estimator against a fit
// of small data: method() is the Result.Method, newReport() the type of
// its Report, dim() its Dim; with() returns a new value with the source
// and workers given and no callback, leaving the receiver as it was; and
// Check accepts the fit (references only for an estimator that is not
// equivariant) and refuses another estimator's.
func TestEstimatorInterface(t *testing.T) {
	x, _, err := ngcatest.Artificial{N: 300, D: 4}.Sample(rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	results := map[string]*Result{}
	for _, zero := range estimators {
		t.Run(zero.method(), func(t *testing.T) {
			// A configured estimator: Dim 2, a source, 3 workers, a
			// callback, and SNGCA's cheapest projection.
			e := zero.with(nil, 0).(estimator)
			v := reflect.ValueOf(e).Elem()
			v.FieldByName("Dim").SetInt(2)
			src := rand.NewPCG(2, 2)
			v.FieldByName("Src").Set(reflect.ValueOf(src))
			v.FieldByName("Workers").SetInt(3)
			calls := 0
			v.FieldByName("Progress").Set(reflect.ValueOf(func(Progress) { calls++ }))
			if small, ok := e.(*SNGCA); ok {
				small.projection, small.Passes = projResidual, 2
			}
			if e.dim() != 2 {
				t.Errorf("dim() = %d, want 2", e.dim())
			}

			src1 := rand.NewPCG(3, 3)
			c := e.with(src1, 1)
			if c == Estimator(e) || reflect.TypeOf(c) != reflect.TypeOf(e) {
				t.Fatalf("with returned %T %p for %T %p", c, c, e, e)
			}
			cv := reflect.ValueOf(c).Elem()
			if cv.FieldByName("Src").Interface() != rand.Source(src1) || cv.FieldByName("Workers").Int() != 1 ||
				!cv.FieldByName("Progress").IsNil() || cv.FieldByName("Dim").Int() != 2 {
				t.Errorf("copy has Src %v, Workers %d, Progress set %v, Dim %d", cv.FieldByName("Src"), cv.FieldByName("Workers").Int(),
					!cv.FieldByName("Progress").IsNil(), cv.FieldByName("Dim").Int())
			}
			cv.FieldByName("Dim").SetInt(1)
			if v.FieldByName("Src").Interface() != rand.Source(src) || v.FieldByName("Workers").Int() != 3 ||
				v.FieldByName("Progress").IsNil() || e.dim() != 2 {
				t.Errorf("with changed the receiver")
			}
			cv.FieldByName("Dim").SetInt(2)

			res, err := c.Fit(ctx, x)
			if err != nil {
				t.Fatal(err)
			}
			if calls != 0 {
				t.Errorf("the copy called the receiver's Progress %d times", calls)
			}
			if res.Method != e.method() {
				t.Errorf("Result.Method %q, method() %q", res.Method, e.method())
			}
			if reflect.TypeOf(res.Report) != reflect.TypeOf(e.newReport()) {
				t.Errorf("Report %T, newReport() %T", res.Report, e.newReport())
			}
			results[e.method()] = res

			rep, err := Check(ctx, e, x, res, CheckOptions{Refits: 2, Workers: 1, Src: rand.NewPCG(4, 4)})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Method != e.method() || (len(rep.Agreements) == 0) != e.equivariant() {
				t.Errorf("Check: Method %q, %d agreements, equivariant %v", rep.Method, len(rep.Agreements), e.equivariant())
			}
		})
	}
	// Check refuses a fit of another estimator of the package.
	for _, e := range estimators {
		for m, res := range results {
			if m == e.method() {
				continue
			}
			c := e.with(nil, 1)
			reflect.ValueOf(c).Elem().FieldByName("Dim").SetInt(2)
			if _, err := Check(ctx, c, x, res, CheckOptions{}); !errors.Is(err, ErrParam) {
				t.Errorf("Check of %s with a fit of %s: %v, want ErrParam", e.method(), m, err)
			}
		}
	}
}
