package orientation_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/synth"
)

// orientationCase is a cell of the orientation study (docs/orientation/orientation.md):
// a signal placed on random columns and mixed with Mix noise columns (or
// turned with all of them).
type orientationCase struct {
	signal string
	spec   synth.Spec
	seeds  int
}

// TestOrientation is a small subset of the orientation study (the root
// package's tests run a smaller one still): on data
// whose non-Gaussian subspace is mixed with one noise column or fully
// turned, the robust variant's zero value stays within the study's bound,
// ε ≤ 2·ε_MIPP + 0.01 on the same data, on every fit; and the published
// least-squares methods, which need the subspace along the columns, do not:
// in at least seven of the ten cases the better of WF-LSNGCA and LSNGCA
// has a worst ε above both 0.02 and three times the robust variant's, so
// the cases still show the failure they guard against.
func TestOrientation(t *testing.T) {
	if testing.Short() {
		t.Skip("fits four estimators to 20 data sets")
	}
	cases := []orientationCase{
		{"b", synth.Spec{Mix: 1}, 2},
		{"skewed", synth.Spec{Mix: 1}, 2},
		{"student", synth.Spec{Mix: 2, R: 1}, 2},
		{"d", synth.Spec{Mix: synth.Turn}, 2},
		{"laplace", synth.Spec{Mix: synth.Turn, R: 1}, 2},
		{"ring", synth.Spec{Mix: 4, R: 2}, 2},
		{"uniform", synth.Spec{M: 3, Mix: 1}, 2},
		{"a", synth.Spec{M: 1, Mix: synth.Turn}, 2},
		{"laplace", synth.Spec{N: 500, Mix: synth.Turn}, 2},
		{"c", synth.Spec{D: 30, Mix: 1}, 2},
	}
	failures := 0
	for _, tc := range cases {
		sig, err := synth.Lookup(tc.signal)
		if err != nil {
			t.Fatal(err)
		}
		tc.spec.Signal = sig
		m := tc.spec.M
		if m == 0 {
			m = 2
		}
		name := fmt.Sprintf("%s/m=%d/n=%d/d=%d/r=%v/mix=%d", tc.signal, m, tc.spec.N, tc.spec.D, tc.spec.R, tc.spec.Mix)
		t.Run(name, func(t *testing.T) {
			var robust, faithful []float64
			for s := 0; s < tc.seeds; s++ {
				x, truth, err := tc.spec.Sample(rand.NewPCG(uint64(s), 2026))
				if err != nil {
					t.Fatal(err)
				}
				eps := func(e ngca.Estimator) float64 { return ngca.SubspaceError(truth, fit(t, e, x).Basis) }
				src := func() rand.Source { return rand.NewPCG(uint64(s), 9) }
				mipp := eps(&ngca.MIPP{Dim: m, Src: src()})
				r := eps(&ngca.RobustWFLSNGCA{Dim: m, Src: src()})
				wf := eps(&ngca.WFLSNGCA{Dim: m, Src: src()})
				ls := eps(&ngca.LSNGCA{Dim: m, Src: src()})
				t.Logf("seed %d: ε MIPP %.2e, robust %.2e, WF-LSNGCA %.2e, LSNGCA %.2e", s, mipp, r, wf, ls)
				if r > 2*mipp+0.01 {
					t.Errorf("seed %d: robust ε = %.3g above 2·ε_MIPP + 0.01 = %.3g", s, r, 2*mipp+0.01)
				}
				robust = append(robust, r)
				faithful = append(faithful, min(wf, ls))
			}
			if slices.Max(faithful) >= max(3*slices.Max(robust), 0.02) {
				failures++
			}
		})
	}
	if failures < 7 {
		t.Errorf("the published methods fail in %d of %d cases, want at least 7", failures, len(cases))
	}
}

// fit fits e to x, failing the test on an error.
func fit(t *testing.T, e ngca.Estimator, x mat.Matrix) *ngca.Result {
	t.Helper()
	res, err := e.Fit(context.Background(), x)
	if err != nil {
		t.Fatalf("Fit: %v", err)
	}
	return res
}
