//go:build !amd64 || purego

package asm

// basis4 runs basisRow for the four rows of c (basis_amd64.go documents
// it); it serves the tests.
func basis4(psi []float64, ldp int, kt []float64, ldk int, c *[4]float64, x, a []float64, curv float64, s *[4]float64) {
	for r := range c {
		var prow []float64
		if psi != nil {
			prow = psi[r*ldp:]
		}
		s[r] = basisRow(prow, kt[r*ldk:], x, a, c[r], curv, s[r])
	}
}
