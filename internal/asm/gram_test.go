package asm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddGram checks AddGram (the tiles with AVX2, else the rows), the
// rows alone (the fallback) and dot4x2 against a plain triple loop, for shapes that exercise the
// remainder rows (b not a multiple of 4), the remainder points (m not a
// multiple of 4) and several chunks, with sparse rows as narrow kernels
// give them. Only the lower triangle may change.
func TestAddGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ b, m int }{{1, 1}, {3, 5}, {4, 4}, {5, 7}, {8, 513}, {13, 1030}, {100, 2000}} {
		psi := make([]float64, tc.b*tc.m)
		for i := range psi {
			if rng.IntN(3) > 0 {
				psi[i] = rng.NormFloat64()
			}
		}
		g := make([]float64, tc.b*tc.b)
		for i := range g {
			g[i] = float64(i % 7)
		}
		want := append([]float64(nil), g...)
		for i := 0; i < tc.b; i++ {
			for j := 0; j <= i; j++ {
				var s float64
				for p := 0; p < tc.m; p++ {
					s += psi[i*tc.m+p] * psi[j*tc.m+p]
				}
				want[i*tc.b+j] += s
			}
		}
		g0 := append([]float64(nil), g...)
		for name, add := range map[string]func(g, psi []float64, b, m int){
			"AddGram":     AddGram,
			"addGramRows": func(g, psi []float64, b, m int) { addGramRows(g, psi, b, m, 0) },
		} {
			copy(g, g0)
			add(g, psi, tc.b, tc.m)
			for i := range g {
				if math.Abs(g[i]-want[i]) > 1e-12*float64(tc.m) {
					t.Fatalf("%s, b=%d m=%d: entry (%d,%d) %g, want %g", name, tc.b, tc.m, i/tc.b, i%tc.b, g[i], want[i])
				}
			}
		}
		if tc.b < 4 || tc.m < 4 {
			continue
		}
		var out [8]float64
		n := tc.m &^ 3
		dot4x2(psi, tc.m, psi[tc.m:], tc.m, n, &out)
		for a := 0; a < 4; a++ {
			for c := 0; c < 2; c++ {
				var s float64
				for p := 0; p < n; p++ {
					s += psi[a*tc.m+p] * psi[(1+c)*tc.m+p]
				}
				if math.Abs(out[2*a+c]-s) > 1e-12*float64(n) {
					t.Fatalf("b=%d m=%d: dot4x2[%d][%d] = %g, want %g", tc.b, tc.m, a, c, out[2*a+c], s)
				}
			}
		}
	}
}

// BenchmarkAddGram compares the tiles and the rows at the default b = 100
// on a block of 2000 points.
func BenchmarkAddGram(b *testing.B) {
	const nb, m = 100, 2000
	rng := rand.New(rand.NewPCG(1, 1))
	psi := make([]float64, nb*m)
	for i := range psi {
		psi[i] = rng.NormFloat64()
	}
	g := make([]float64, nb*nb)
	b.Run("tiles", func(b *testing.B) {
		if !useAVX {
			b.Skip("no AVX2")
		}
		for b.Loop() {
			addGramTiles(g, psi, nb, m)
		}
	})
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			addGramRows(g, psi, nb, m, 0)
		}
	})
}

// TestAddDots checks AddDots against a plain loop, with row counts and
// lengths around the tiles' multiples and strides longer than the rows.
func TestAddDots(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, tc := range []struct{ nx, ny, n int }{{1, 1, 1}, {4, 2, 4}, {5, 3, 7}, {100, 11, 2000}, {9, 4, 1030}} {
		ldx, ldy, ldc := tc.n+3, tc.n+5, tc.ny+1
		x, y := make([]float64, tc.nx*ldx), make([]float64, tc.ny*ldy)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		for i := range y {
			y[i] = rng.NormFloat64()
		}
		c := make([]float64, tc.nx*ldc)
		for i := range c {
			c[i] = 1
		}
		want := append([]float64(nil), c...)
		for i := 0; i < tc.nx; i++ {
			for j := 0; j < tc.ny; j++ {
				for p := 0; p < tc.n; p++ {
					want[i*ldc+j] += x[i*ldx+p] * y[j*ldy+p]
				}
			}
		}
		AddDots(c, ldc, x, ldx, tc.nx, y, ldy, tc.ny, tc.n)
		for i := range c {
			if math.Abs(c[i]-want[i]) > 1e-12*float64(tc.n) {
				t.Fatalf("%v: entry %d = %g, want %g", tc, i, c[i], want[i])
			}
		}
	}
}
