package sidestudies_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

var imakStudy = flag.Bool("imak.study", false, "run TestIMAKStudy: IMAK, MIPP and LSNGCA on the paper's data, 10 seeds per cell (minutes)")

// TestIMAKStudy measures the mean ε and time per fit of IMAK, MIPP and
// LSNGCA on the paper's data (n = 2000, d = 10, m = 2), distributions (a)
// to (d), r = 0 and 0.8, aligned and turned, 10 seeds per cell, the same
// data for every method. Run it with
//
//	nice go test -run TestIMAKStudy -imak.study -timeout 2h -v ./internal/repro/sidestudies
func TestIMAKStudy(t *testing.T) {
	if !*imakStudy {
		t.Skip("set -imak.study to run")
	}
	const seeds = 10
	methods := []struct {
		name string
		new  func(src rand.Source) ngca.Estimator
	}{
		{"IMAK", func(src rand.Source) ngca.Estimator { return &ngca.IMAK{Dim: 2, Src: src} }},
		{"MIPP", func(src rand.Source) ngca.Estimator { return &ngca.MIPP{Dim: 2, Src: src} }},
		{"LSNGCA", func(src rand.Source) ngca.Estimator { return &ngca.LSNGCA{Dim: 2, Src: src} }},
	}
	for _, turned := range []bool{false, true} {
		for _, r := range []float64{0, 0.8} {
			for _, dist := range ngcatest.Distributions() {
				line := fmt.Sprintf("turned=%v r=%v (%v):", turned, r, dist)
				for _, m := range methods {
					var mean float64
					var took time.Duration
					for s := uint64(0); s < seeds; s++ {
						x, truth, err := ngcatest.Artificial{Dist: dist, R: r, Rotate: turned}.Sample(rand.NewPCG(s, 2017))
						if err != nil {
							t.Fatal(err)
						}
						res, err := m.new(rand.NewPCG(s, 1)).Fit(context.Background(), x)
						if err != nil {
							t.Fatal(err)
						}
						mean += ngca.SubspaceError(truth, res.Basis) / seeds
						took += res.Timings[len(res.Timings)-1].Elapsed / seeds
					}
					line += fmt.Sprintf("  %s %.2e (%.3fs)", m.name, mean, took.Seconds())
				}
				t.Log(line)
			}
		}
	}
}
