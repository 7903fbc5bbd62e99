//go:build !purego

package ngca

import "golang.org/x/sys/cpu"

// The AVX2 and FMA kernels of the least-squares stages (lskernel_amd64.s):
// the Gram matrices' tiles and the tridiagonal reduction's fused rank-2
// update and product.

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
// the trailing rows of tridiagonalize's step k and step k+1's product.
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

// useAVX says whether the kernels (the least-squares ones here and MIPP's
// lane kernels) run the assembly versions.
var useAVX = cpu.X86.HasAVX2 && cpu.X86.HasFMA
