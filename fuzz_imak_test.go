package ngca_test

import (
	"testing"

	"github.com/ngca-go/ngca"
)

// FuzzIMAK fits IMAK to fuzz data (see decodeFuzz) with settings decoded
// from cfg: α from a small list, a schedule of 1 to 3 values, the cap on
// passes, the tolerance and the form.
func FuzzIMAK(f *testing.F) {
	alphas := []float64{0, 0.01, 0.25, 1, 3, 100}
	schedules := [][]float64{nil, {0}, {1}, {0.5, 0}, {0.3, 0.1, 0.02}}
	tols := []float64{0, 1e-300, 1e-3, 10}
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		c := fc.cfg
		alpha := alphas[int(c[0]&0x1f)%len(alphas)]
		sched := schedules[int(c[1])%len(schedules)]
		passes := 0
		if c[1]&0x80 != 0 {
			passes = len(sched) + 1 + int(c[1]>>4)%3
			if sched == nil {
				passes += 6
			}
		}
		sym := c[2]&1 != 0 && alpha != 1
		fuzzFit(t, fc, func(workers int) ngca.Estimator {
			return symmetricIf(&ngca.IMAK{Dim: fc.dim, Alpha: alpha, Schedule: sched, MaxPasses: passes, Tol: tols[c[2]>>1%4], Workers: workers}, sym)
		})
	})
}
