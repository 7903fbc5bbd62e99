package ngca_test

import (
	"testing"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
)

// FuzzSNGCA fits SNGCA with small settings decoded from the fuzz input:
// the projection, a few test functions and solver iterations, one or two
// passes, and one or two families.
func FuzzSNGCA(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		c := fc.cfg
		fams := []probe.FamilySpec{{Kind: familyKinds[c[1]%4], L: 1 + int(c[2])%8}}
		if c[1]&0x10 != 0 {
			fams = append(fams, probe.FamilySpec{Kind: familyKinds[c[1]>>2%4], Params: []float64{0.5, 2}})
		}
		fuzzFit(t, fc, func(workers int) ngca.Estimator {
			return withProjection(withFamilies(&ngca.SNGCA{Dim: fc.dim,
				Functions: 10 + int(c[2]>>3)%20, FinalFunctions: 10 + int(c[3])%12, Passes: 1 + int(c[0]>>2)%2,
				MaxIter: 1 + int(c[0]>>3)%30, Workers: workers}, fams), []string{"sdp", "convex", "residual"}[c[0]%3])
		})
	})
}
