package sidestudies_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/ngcatest"
	"github.com/ngca-go/ngca/research/internal/repro"
)

var sngcaStudy = flag.String("sngca.study", "", "run the SNGCA study: comma-separated r values (docs/sngca.md)")
var sngcaSeeds = flag.Int("sngca.seeds", 10, "seeds per cell of the SNGCA study")
var sngcaVariants = flag.String("sngca.variants", "sdp,convex,residual,mipp", "estimators of the SNGCA study")

func sngcaVariant(name string, src rand.Source) ngca.Estimator {
	switch name {
	case "mipp":
		return &ngca.MIPP{Dim: 2, Src: src, Workers: 1}
	case "convex":
		return projection(&ngca.SNGCA{Dim: 2, Src: src, Workers: 1}, "convex")
	case "residual":
		return projection(&ngca.SNGCA{Dim: 2, Src: src, Workers: 1}, "residual")
	}
	return &ngca.SNGCA{Dim: 2, Src: src, Workers: 1}
}

// TestSNGCAStudy measures SNGCA against MIPP on the paper's data (n = 2000,
// d = 10, m = 2), the same data sets for every estimator. It runs only
// with -sngca.study.
func TestSNGCAStudy(t *testing.T) {
	if *sngcaStudy == "" {
		t.Skip("run with -sngca.study 0,0.8,1.5,2")
	}
	var rs []float64
	for _, f := range strings.Split(*sngcaStudy, ",") {
		var r float64
		fmt.Sscan(f, &r)
		rs = append(rs, r)
	}
	names := strings.Split(*sngcaVariants, ",")
	for _, r := range rs {
		for _, dist := range ngcatest.Distributions() {
			mean := make([]float64, len(names))
			secs := make([]float64, len(names))
			for s := 0; s < *sngcaSeeds; s++ {
				x, truth, err := ngcatest.Artificial{Dist: dist, R: r}.Sample(rand.NewPCG(uint64(s), 2017))
				if err != nil {
					t.Fatal(err)
				}
				for k, name := range names {
					start := time.Now()
					res, err := sngcaVariant(name, rand.NewPCG(uint64(s), 1)).Fit(context.Background(), x)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					secs[k] += time.Since(start).Seconds() / float64(*sngcaSeeds)
					mean[k] += ngca.SubspaceError(truth, res.Basis) / float64(*sngcaSeeds)
				}
			}
			line := fmt.Sprintf("r=%-4v (%v)", r, dist)
			for k, name := range names {
				line += fmt.Sprintf("  %s %.2e (%.2fs)", name, mean[k], secs[k])
			}
			t.Log(line)
		}
	}
}

// projection returns s fitted with the final step p ("convex" or
// "residual").
func projection(s *ngca.SNGCA, p string) ngca.Estimator {
	return repro.Tuned{Est: s, Settings: probe.Settings{SNGCAProjection: p}}
}
