//go:build !amd64 || purego

package asm

// dot4x2 is not used without the assembly (AddGram then runs
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

// rank2dot is rank2dotGo (ls_amd64.go documents it).
func rank2dot(a []float64, lda, rows, n int, v, w, u, out []float64) {
	rank2dotGo(a, lda, rows, n, v, w, u, out)
}

// GaussRow sets dst[i] = Gauss(c·src[i]) for i < len(src) (dst at least
// as long): the Gaussian kernel's values at the scaled squared distances
// of a row.
func GaussRow(dst, src []float64, c float64) { gaussRowGo(dst, src, c) }
