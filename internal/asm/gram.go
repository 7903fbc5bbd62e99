package asm

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// AddGram adds the lower triangle of ψψᵀ to g (b×b, row-major) for the
// b×m row-major matrix psi,
//
//	g[i·b+j] += Σ_p psi[i·m+p]·psi[j·m+p]   (j ≤ i < b),
//
// leaving the strict upper triangle alone: the per-fold Gram matrices of
// the least-squares stages, about half of their arithmetic. With AVX2 and
// FMA it runs addGramTiles; otherwise, and for the rows past the last
// whole tile, addGramRows.
func AddGram(g, psi []float64, b, m int) {
	if useAVX {
		addGramTiles(g, psi, b, m)
		return
	}
	addGramRows(g, psi, b, m, 0)
}

// addGramRows adds rows from, …, b−1 of the lower triangle of ψψᵀ to g:
// row i by one Dgemv of rows 0…i, which gonum runs about twice as fast as
// Dsyrk.
func addGramRows(g, psi []float64, b, m, from int) {
	for i := from; i < b; i++ {
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: i + 1, Cols: m, Stride: m, Data: psi},
			blas64.Vector{N: m, Inc: 1, Data: psi[i*m:]}, 1, blas64.Vector{N: i + 1, Inc: 1, Data: g[i*b:]})
	}
}

// GramChunk is the number of points a tile's kernel call covers: four rows
// of psi over GramChunk points (16 KiB) stay in the level-1 cache while
// the kernel pairs them with every earlier pair of rows. AddBasisGram's
// buffer holds b·GramChunk values.
const GramChunk = 512

// addGramTiles adds the lower triangle of ψψᵀ to g in tiles of 4×2
// entries, each the eight dot products of four rows of psi with two rows
// over a chunk of points (dot4x2, eight independent fused multiply-add
// chains four lanes wide), for about three times the rate of addGramRows's
// Dgemv calls. Rows past the last multiple of four go to addGramRows, and
// the points past the last multiple of four are added in Go. The sums
// differ from addGramRows's only by rounding (TestAddGram).
func addGramTiles(g, psi []float64, b, m int) {
	m4 := m &^ 3
	for p0 := 0; p0 < m4; p0 += GramChunk {
		gramTiles(g, psi[p0:], m, b, min(GramChunk, m4-p0))
	}
	if m4 < m {
		gramTail(g, psi[m4:], m, b, m-m4)
	}
	addGramRows(g, psi, b, m, b&^3)
}

// gramTiles adds to g (b×b) the tiles of rows below the last multiple of
// four of b over the first n points (n a multiple of 4, at most
// GramChunk) of the rows of psi, ld apart.
func gramTiles(g, psi []float64, ld, b, n int) {
	var out [8]float64
	for i := 0; i < b&^3; i += 4 {
		x := psi[i*ld:]
		for j := 0; j <= i+2; j += 2 {
			dot4x2(x, ld, psi[j*ld:], ld, n, &out)
			for a := 0; a < 4; a++ {
				for c := 0; c < 2 && j+c <= i+a; c++ {
					g[(i+a)*b+j+c] += out[2*a+c]
				}
			}
		}
	}
}

// gramTail adds to g (b×b) the products over the first n points of the
// rows of psi (ld apart) for the entries of gramTiles's rows: the points
// past the last multiple of four, added in Go.
func gramTail(g, psi []float64, ld, b, n int) {
	for i := 0; i < b&^3; i++ {
		xi := psi[i*ld : i*ld+n]
		for j := 0; j <= i; j++ {
			var s float64
			for p, v := range psi[j*ld : j*ld+n] {
				s += xi[p] * v
			}
			g[i*b+j] += s
		}
	}
}

// AddDots adds to c[i·ldc+j] the dot products over n points of row i of x
// (rows ldx apart) with row j of y (rows ldy apart), for i < nx and j < ny:
// C += X·Yᵀ. With AVX2 it runs 4×2 tiles of dot4x2 over chunks of
// GramChunk points (an odd last row of y paired with itself), with the
// remainder rows and points in Go, at about three times the rate of
// gonum's Dgemm, which it runs otherwise. It serves the products of the
// basis with the robust variant's linear features and cross-validation's
// products of G_f with the candidate coefficients (package ngca).
func AddDots(c []float64, ldc int, x []float64, ldx, nx int, y []float64, ldy, ny, n int) {
	if nx == 0 || ny == 0 {
		return
	}
	if !useAVX {
		blas64.Gemm(blas.NoTrans, blas.Trans, 1,
			blas64.General{Rows: nx, Cols: n, Stride: ldx, Data: x},
			blas64.General{Rows: ny, Cols: n, Stride: ldy, Data: y},
			1, blas64.General{Rows: nx, Cols: ny, Stride: ldc, Data: c})
		return
	}
	nx4, ny2, n4 := nx&^3, ny&^1, n&^3
	var out [8]float64
	for p0 := 0; p0 < n4; p0 += GramChunk {
		w := min(GramChunk, n4-p0)
		for i := 0; i < nx4; i += 4 {
			for j := 0; j < ny2; j += 2 {
				dot4x2(x[i*ldx+p0:], ldx, y[j*ldy+p0:], ldy, w, &out)
				for a := 0; a < 4; a++ {
					c[(i+a)*ldc+j] += out[2*a]
					c[(i+a)*ldc+j+1] += out[2*a+1]
				}
			}
			if ny2 < ny { // the last row of y, twice (the linear part's constant)
				dot4x2(x[i*ldx+p0:], ldx, y[ny2*ldy+p0:], 0, w, &out)
				for a := 0; a < 4; a++ {
					c[(i+a)*ldc+ny2] += out[2*a]
				}
			}
		}
	}
	for i := 0; i < nx; i++ {
		xi := x[i*ldx : i*ldx+n]
		for j := 0; j < ny; j++ {
			from := 0
			if i < nx4 {
				from = n4 // the tiles covered the first n4 points
			}
			var s float64
			for p := from; p < n; p++ {
				s += xi[p] * y[j*ldy+p]
			}
			c[i*ldc+j] += s
		}
	}
}
