package ngca_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

// benchSizes are the sizes of the benchmarks: the paper's n = 2000, d = 10,
// a larger n and larger d (BenchmarkScale has larger n still).
var benchSizes = []struct{ n, d int }{{2000, 10}, {10000, 10}, {2000, 50}, {2000, 100}}

// benchData returns the paper's data (a) at r = 0 with n rows and d columns.
func benchData(b *testing.B, n, d int) *mat.Dense {
	x, _, err := ngcatest.Artificial{N: n, D: d}.Sample(rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	return x
}

// reportProcs reports the GOMAXPROCS a benchmark ran with, and so the
// default Workers of its fits, as the metric "procs": go test measures the
// first entry of a -cpu list with the last entry's (golang/go#49980; with
// b.Loop its first run is the whole measurement), so -cpu 1,2 would time
// two workers twice, under the names of one and two (docs/speed.md#workers).
func reportProcs(b *testing.B) {
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}

func benchEstimator(b *testing.B, fit func(x *mat.Dense) error) {
	for _, s := range benchSizes {
		b.Run(fmt.Sprintf("n=%d/d=%d", s.n, s.d), func(b *testing.B) {
			x := benchData(b, s.n, s.d)
			b.ReportAllocs()
			for b.Loop() {
				if err := fit(x); err != nil {
					b.Fatal(err)
				}
			}
			reportProcs(b)
		})
	}
}

func BenchmarkWFLSNGCA(b *testing.B) {
	benchEstimator(b, func(x *mat.Dense) error {
		_, err := (&ngca.WFLSNGCA{Dim: 2}).Fit(context.Background(), x)
		return err
	})
}

func BenchmarkLSNGCA(b *testing.B) {
	benchEstimator(b, func(x *mat.Dense) error {
		_, err := (&ngca.LSNGCA{Dim: 2}).Fit(context.Background(), x)
		return err
	})
}

func BenchmarkMIPP(b *testing.B) {
	benchEstimator(b, func(x *mat.Dense) error {
		_, err := (&ngca.MIPP{Dim: 2}).Fit(context.Background(), x)
		return err
	})
}

func BenchmarkLSLDG(b *testing.B) {
	benchEstimator(b, func(x *mat.Dense) error {
		_, err := (&ngca.LSLDG{}).Fit(context.Background(), x)
		return err
	})
}

func BenchmarkWFLSNGCARobust(b *testing.B) {
	benchEstimator(b, func(x *mat.Dense) error {
		_, err := (&ngca.RobustWFLSNGCA{Dim: 2}).Fit(context.Background(), x)
		return err
	})
}

func BenchmarkIMAK(b *testing.B) {
	benchEstimator(b, func(x *mat.Dense) error {
		_, err := (&ngca.IMAK{Dim: 2}).Fit(context.Background(), x)
		return err
	})
}

func BenchmarkSNGCA(b *testing.B) {
	benchEstimator(b, func(x *mat.Dense) error {
		_, err := (&ngca.SNGCA{Dim: 2}).Fit(context.Background(), x)
		return err
	})
}

// BenchmarkScale fits WF-LSNGCA, LSNGCA, MIPP and the robust variant with
// the default settings to data (a) at r = 0 with d = 10 and n = 10⁵ or,
// unless -short, 10⁶ rows (docs/speed.md gives the command that also
// measures the peak memory).
func BenchmarkScale(b *testing.B) {
	ns := []int{100000, 1000000}
	if testing.Short() {
		ns = ns[:1]
	}
	for _, n := range ns {
		for _, m := range []struct {
			name string
			est  ngca.Estimator
		}{{"WFLSNGCA", &ngca.WFLSNGCA{Dim: 2}}, {"LSNGCA", &ngca.LSNGCA{Dim: 2}}, {"MIPP", &ngca.MIPP{Dim: 2}},
			{"Robust", &ngca.RobustWFLSNGCA{Dim: 2}}} {
			b.Run(fmt.Sprintf("%s/n=%d/d=10", m.name, n), func(b *testing.B) {
				x := benchData(b, n, 10)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := m.est.Fit(context.Background(), x); err != nil {
						b.Fatal(err)
					}
				}
				reportProcs(b)
			})
		}
	}
}
