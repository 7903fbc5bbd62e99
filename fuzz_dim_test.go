package ngca_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ngca-go/ngca"
)

// FuzzEstimateDim runs EstimateDim on a small matrix decoded from the fuzz
// input (decodeFuzz, with Dim as MaxDim) and tiny settings: it must
// return either an error wrapping one of the package's sentinels or a
// report that keeps the DimReport contract, and with fc.same the same
// report on three workers.
func FuzzEstimateDim(f *testing.F) {
	alphas := []float64{0, 0.1, 0.5, 2}
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		c := fc.cfg
		alpha, boot := alphas[c[2]%4], []int{19, 9, 39, 1}[c[2]>>2%4]
		opts := func(workers int) ngca.DimOptions {
			return ngca.DimOptions{Alpha: alpha, Bootstrap: boot, MaxDim: fc.dim, Workers: workers}
		}
		rep, err := ngca.EstimateDim(context.Background(), fc.x, opts(1))
		if err != nil {
			if rep != nil {
				t.Fatalf("error %v with a report", err)
			}
			checkFitError(t, err)
			return
		}
		checkDimReport(t, rep, fc.d)
		if fc.same {
			again, err := ngca.EstimateDim(context.Background(), fc.x, opts(3))
			if err != nil || fmt.Sprintf("%+v", *rep) != fmt.Sprintf("%+v", *again) { // Separation may be NaN
				t.Fatalf("three workers: %v, report %+v, want %+v", err, again, rep)
			}
		}
	})
}
