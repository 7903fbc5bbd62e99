//go:build !purego

package asm

// The AVX2 and FMA kernels of the least-squares stages (ls_amd64.s; the
// kernel values' gaussRowAVX is in lanes_amd64.s, with the exponential it
// shares): the Gram matrices' tiles and the tridiagonal reduction's fused
// rank-2 update and product.

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
func rank2dotAVX(a []float64, lda, rows, n int, v, w, u, out []float64)

// rank2dot updates rows 1, …, rows of a symmetric rank-2 update and takes
// their products with u in the same pass: for i < rows,
//
//	a[i·lda+c] −= v_{i+1}·w_c + w_{i+1}·v_c   (c < n),
//	out[i] = Σ_c a[i·lda+c]·u_c               (after the update),
//
// the trailing rows of Tridiagonalize's step k and step k+1's product.
// Without AVX2 it runs rank2dotGo.
func rank2dot(a []float64, lda, rows, n int, v, w, u, out []float64) {
	if !useAVX {
		rank2dotGo(a, lda, rows, n, v, w, u, out)
		return
	}
	if rows == 0 {
		return
	}
	if len(a) < (rows-1)*lda+n || len(v) < max(n, rows+1) || len(w) < max(n, rows+1) || len(u) < n || len(out) < rows {
		panic("ngca: rank2dot: bad shape")
	}
	rank2dotAVX(a, lda, rows, n, v, w, u, out)
}

//go:noescape
func gaussRowAVX(dst, src []float64, c float64)

// GaussRow sets dst[i] = Gauss(c·src[i]) for i < len(src) (dst at least
// as long), for c·src[i] ≤ 0: the Gaussian kernel's values at the scaled
// squared distances of a row. With AVX2 it uses the vectorised exponential
// of the lane kernels (sincos.go's fastExp, within 4·10⁻¹⁶ of math.Exp
// relative), four entries at a time, and Gauss for the last len(src) mod 4.
func GaussRow(dst, src []float64, c float64) {
	if !useAVX {
		gaussRowGo(dst, src, c)
		return
	}
	dst = dst[:len(src)]
	n4 := len(src) &^ 3
	gaussRowAVX(dst, src, c)
	gaussRowGo(dst[n4:], src[n4:], c)
}
