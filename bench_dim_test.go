package ngca_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/synth"
)

// BenchmarkEstimateDim times EstimateDim with its defaults (all CPUs) on
// the wide tables of the timing goals in docs/dim.md: turned data whose
// first m columns are uniform, exponential and bimodal in turn, and ten
// columns with the four families of the wide study in turn.
// One operation takes seconds: run it with -benchtime 1x.
func BenchmarkEstimateDim(b *testing.B) {
	for _, c := range []synth.Wide{
		{N: 5000, D: 40, M: 10, Family: "mixed3", Turned: true},
		{N: 1800, D: 60, M: 20, Family: "mixed3", Turned: true},
		{N: 1800, D: 60, M: 30, Family: "mixed3", Turned: true},
		{N: 2000, D: 10, M: 2, Family: "mixed", Turned: true},
	} {
		x, _, err := c.Sample(rand.NewPCG(1, 1))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/d=%d/m=%d", c.N, c.D, c.M), func(b *testing.B) {
			for b.Loop() {
				rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Src: rand.NewPCG(1, 0)})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(rep.Dim), "dim")
			}
		})
	}
}
