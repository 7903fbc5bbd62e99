//go:build !purego

package ngca

// The AVX2 and FMA kernels of the least-squares stages (lskernel_amd64.s):
// the Gram matrices' tiles and the tridiagonal reduction's rank-2 update.

// dot4x2AVX is dot4x2 in assembly.
//
//go:noescape
func dot4x2AVX(x []float64, ldx int, y []float64, ldy, n int, out *[8]float64)

// dot4x2 sets out[2a+c] to the dot product over the first n points (n a
// multiple of 4) of row a of x and row c of y, rows ldx and ldy apart:
// a < 4, c < 2.
func dot4x2(x []float64, ldx int, y []float64, ldy, n int, out *[8]float64) {
	if n&3 != 0 || len(x) < 3*ldx+n || len(y) < ldy+n {
		panic("ngca: dot4x2: bad shape")
	}
	dot4x2AVX(x, ldx, y, ldy, n, out)
}

//go:noescape
func rank2AVX(a []float64, lda, n int, v, p []float64)

// rank2 sets A ← A − v·pᵀ − p·vᵀ for the n×n block A of a (row-major, stride
// lda): with AVX2 one pass over A, otherwise two Dger calls.
func rank2(a []float64, lda, n int, v, p []float64) {
	if !useAVX {
		rank2Ger(a, lda, n, v, p)
		return
	}
	if n == 0 {
		return
	}
	if len(a) < (n-1)*lda+n || len(v) < n || len(p) < n {
		panic("ngca: rank2: bad shape")
	}
	rank2AVX(a, lda, n, v, p)
}

//go:noescape
func gaussRowAVX(dst, src []float64, c float64)

// gaussRow sets dst[i] = gauss(c·src[i]): with AVX2 by the vectorised
// exponential of MIPP's kernels (sincos.go's fastExp, within 4·10⁻¹⁶ of
// math.Exp relative), four entries at a time.
func gaussRow(dst, src []float64, c float64) {
	if !useAVX {
		gaussRowGo(dst, src, c)
		return
	}
	dst = dst[:len(src)]
	n4 := len(src) &^ 3
	gaussRowAVX(dst, src, c)
	gaussRowGo(dst[n4:], src[n4:], c)
}
