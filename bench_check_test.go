package ngca_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

// BenchmarkCheck times ngca.Check with its default options and, on the
// same data, the fit it checks, for every estimator: on the paper's data
// (a) (n = 2000, d = 10, r = 0) with the subspace on the columns, where
// every fit agrees with IMAK, and turned by a random rotation, where the
// published least-squares methods disagree with it and MIPP is fitted too.
// Their ratio is the check's cost in fits.
func BenchmarkCheck(b *testing.B) {
	ctx := context.Background()
	for _, data := range []struct {
		name   string
		rotate bool
	}{{"aligned", false}, {"turned", true}} {
		x, _, err := ngcatest.Artificial{Rotate: data.rotate}.Sample(rand.NewPCG(1, 1))
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range []struct {
			name string
			est  ngca.Estimator
		}{
			{"WFLSNGCA", &ngca.WFLSNGCA{Dim: 2}},
			{"LSNGCA", &ngca.LSNGCA{Dim: 2}},
			{"MIPP", &ngca.MIPP{Dim: 2}},
			{"IMAK", &ngca.IMAK{Dim: 2}},
			{"SNGCA", &ngca.SNGCA{Dim: 2}},
			{"WFLSNGCARobust", &ngca.RobustWFLSNGCA{Dim: 2}},
		} {
			res, err := m.est.Fit(ctx, x)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(m.name+"/"+data.name+"/fit", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := m.est.Fit(ctx, x); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(m.name+"/"+data.name+"/check", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := ngca.Check(ctx, m.est, x, res, ngca.CheckOptions{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
