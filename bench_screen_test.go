package ngca

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca/ngcatest"
)

// BenchmarkRobustScreenRows fits the robust variant to data of n = 10⁵
// rows (d = 10, r = 0.3, each of the paper's signals, along the axes and
// turned) with its screens and MIPP start on 5000 rows drawn at random
// (the ratio of robustScreenRows to 10⁶ rows) and on every row, and
// reports the ε of each as metrics (docs/robust.md).
func BenchmarkRobustScreenRows(b *testing.B) {
	defer func(v int) { robustScreenRows = v }(robustScreenRows)
	for _, dist := range ngcatest.Distributions() {
		for _, rotate := range []bool{false, true} {
			x, truth, err := ngcatest.Artificial{Dist: dist, N: 100000, D: 10, R: 0.3, Rotate: rotate}.Sample(rand.NewPCG(3, 4))
			if err != nil {
				b.Fatal(err)
			}
			for _, rows := range []int{5000, 100000} {
				b.Run(fmt.Sprintf("%v/turned=%v/screen=%d", dist, rotate, rows), func(b *testing.B) {
					robustScreenRows = rows
					var eps float64
					for b.Loop() {
						res, err := (&RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(1, 2)}).Fit(context.Background(), x)
						if err != nil {
							b.Fatal(err)
						}
						eps = SubspaceError(truth, res.Basis)
					}
					b.ReportMetric(eps, "ε")
				})
			}
		}
	}
}
