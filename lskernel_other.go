//go:build !amd64 || purego

package ngca

// dot4x2 is not used without the assembly (addGram then runs
// addGramRows); this version serves the tests.
func dot4x2(x []float64, ldx int, y []float64, ldy, n int, out *[8]float64) {
	for a := 0; a < 4; a++ {
		for c := 0; c < 2; c++ {
			var s float64
			for p := 0; p < n; p++ {
				s += x[a*ldx+p] * y[c*ldy+p]
			}
			out[2*a+c] = s
		}
	}
}

// rank2dot is rank2dotGo (lskernel_amd64.go documents it).
func rank2dot(a []float64, lda, rows, n int, v, w, u, out []float64) {
	rank2dotGo(a, lda, rows, n, v, w, u, out)
}

// gaussRow sets dst[i] = gauss(c·src[i]).
func gaussRow(dst, src []float64, c float64) { gaussRowGo(dst, src, c) }

// basis4 runs basisRow for the four rows of c (lskernel_amd64.go
// documents it); it serves the tests.
func basis4(psi []float64, ldp int, kt []float64, ldk int, c *[4]float64, x, a []float64, curv float64, s *[4]float64) {
	for r := range c {
		var prow []float64
		if psi != nil {
			prow = psi[r*ldp:]
		}
		s[r] = basisRow(prow, kt[r*ldk:], x, a, c[r], curv, s[r])
	}
}

// useAVX is false: no kernel runs assembly.
const useAVX = false
