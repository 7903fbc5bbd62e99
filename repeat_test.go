package ngca_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

// TestRepeatableFits checks the package doc's account of reuse: Fit leaves
// the estimator struct unchanged; a nil Src, or a source seeded afresh
// before each Fit, repeats a fit bit for bit; a second Fit on the same
// source continues its stream.
func TestRepeatableFits(t *testing.T) {
	t.Parallel()
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: 400, D: 5}.Sample(rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	small := []float64{0.5, 1, 2}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// est returns an estimator with source src.
		est func(src rand.Source) ngca.Estimator
		// draws reports whether the estimator draws from Src.
		draws bool
	}{
		{"WFLSNGCA", func(src rand.Source) ngca.Estimator {
			return &ngca.WFLSNGCA{Dim: 2, NumCenters: 30, Widths: small, VWidths: small, Src: src}
		}, true},
		{"RobustWFLSNGCA", func(src rand.Source) ngca.Estimator {
			return &ngca.RobustWFLSNGCA{Dim: 2, NumCenters: 30, Widths: small, VWidths: small, Src: src}
		}, true},
		{"LSNGCA", func(src rand.Source) ngca.Estimator {
			return &ngca.LSNGCA{Dim: 2, NumCenters: 30, Widths: small, Src: src}
		}, true},
		{"MIPP", func(src rand.Source) ngca.Estimator { return &ngca.MIPP{Dim: 2, Src: src} }, true},
		{"IMAK", func(src rand.Source) ngca.Estimator { return &ngca.IMAK{Dim: 2, Src: src} }, false},
		{"SNGCA", func(src rand.Source) ngca.Estimator {
			return &ngca.SNGCA{Dim: 2, Functions: 200, FinalFunctions: 40, Passes: 2, MaxIter: 200, Src: src}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fit := func(est ngca.Estimator) *mat.Dense {
				t.Helper()
				res, err := est.Fit(ctx, x)
				if err != nil {
					t.Fatal(err)
				}
				return res.Basis
			}
			// nil Src: the same value twice.
			est := tc.est(nil)
			if a, b := fit(est), fit(est); !mat.Equal(a, b) {
				t.Errorf("nil Src: two fits of one value differ")
			}
			// A source seeded afresh before each fit.
			est = tc.est(rand.NewPCG(1, 2))
			a := fit(est)
			est = tc.est(rand.NewPCG(1, 2))
			if b := fit(est); !mat.Equal(a, b) {
				t.Errorf("fresh sources of one seed: fits differ")
			}
			// The same source twice: the second fit continues its stream
			// (IMAK draws nothing).
			src := rand.NewPCG(1, 2)
			est = tc.est(src)
			before := *src
			a = fit(est)
			if advanced := *src != before; advanced != tc.draws {
				t.Errorf("Src advanced: %v, want %v", advanced, tc.draws)
			}
			if b := fit(est); mat.Equal(a, b) == tc.draws {
				t.Errorf("second fit on the same source equal to the first: %v, want %v", !tc.draws, !tc.draws)
			}
		})
	}
}
