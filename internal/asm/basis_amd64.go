//go:build !purego

package asm

// The AVX2 kernel of the basis values (basis_amd64.s).

//go:noescape
func basis4AVX(psi []float64, ldp int, kt []float64, ldk int, c *[4]float64, x, a []float64, curv float64, n int, s *[4]float64)

// basis4 runs basisRow for the four rows of c at once, one per lane
// (basis_amd64.s): rows r < 4 of psi (ldp apart; nil: not wanted) and of
// kt (ldk apart) at the points of x, whose number is a multiple of 4, with
// a nil or as long as x; s[r] receives the sums.
func basis4(psi []float64, ldp int, kt []float64, ldk int, c *[4]float64, x, a []float64, curv float64, s *[4]float64) {
	n := len(x)
	if n&3 != 0 || len(kt) < 3*ldk+n || (psi != nil && len(psi) < 3*ldp+n) || (a != nil && len(a) < n) {
		panic("ngca: basis4: bad shape")
	}
	if n == 0 {
		return
	}
	basis4AVX(psi, ldp, kt, ldk, c, x, a, curv, n, s)
}
