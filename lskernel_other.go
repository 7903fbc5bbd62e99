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

// rank2 sets A ← A − v·pᵀ − p·vᵀ for the n×n block A of a (row-major, stride
// lda), by two Dger calls.
func rank2(a []float64, lda, n int, v, p []float64) { rank2Ger(a, lda, n, v, p) }

// gaussRow sets dst[i] = gauss(c·src[i]).
func gaussRow(dst, src []float64, c float64) { gaussRowGo(dst, src, c) }
