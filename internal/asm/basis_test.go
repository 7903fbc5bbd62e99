package asm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// basisCase returns random kernel values (b×ldk, some zero, as narrow
// kernels give them), centers' and points' coordinates and targets.
func basisCase(rng *rand.Rand, b, m, ldk int) (kt, cj, xj, a []float64) {
	kt = make([]float64, b*ldk)
	for i := range kt {
		if rng.IntN(4) > 0 {
			kt[i] = math.Exp(-3 * rng.Float64())
		}
	}
	cj, xj, a = make([]float64, b), make([]float64, m), make([]float64, m)
	for i := range cj {
		cj[i] = rng.NormFloat64()
	}
	for i := range xj {
		xj[i], a[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	return kt, cj, xj, a
}

// TestBasisBits checks that FillBasis (four rows at a time with AVX2)
// gives the same bits as basisRow row by row, with and without the basis
// values and the targets, for row and point counts around the steps of
// four.
func TestBasisBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ b, m int }{{1, 1}, {3, 3}, {4, 4}, {5, 9}, {8, 7}, {12, 64}, {13, 130}, {100, 515}} {
		ldk := tc.m + 3
		kt, cj, xj, a := basisCase(rng, tc.b, tc.m, ldk)
		for _, withPsi := range []bool{false, true} {
			for _, ta := range [][]float64{nil, a} {
				curv := 0.7
				wantPsi, wantH := make([]float64, tc.b*tc.m), make([]float64, tc.b)
				var psi []float64
				var wp []float64
				if withPsi {
					psi = make([]float64, tc.b*tc.m)
				}
				h := make([]float64, tc.b)
				for k := range wantH {
					h[k], wantH[k] = float64(k), float64(k)
					wp = nil
					if withPsi {
						wp = wantPsi[k*tc.m : (k+1)*tc.m]
					}
					wantH[k] += basisRow(wp, kt[k*ldk:], xj, ta, cj[k], curv, 0)
				}
				FillBasis(psi, h, kt, ldk, cj, xj, ta, curv)
				for k := range h {
					if math.Float64bits(h[k]) != math.Float64bits(wantH[k]) {
						t.Fatalf("b=%d m=%d psi=%v a=%v: h[%d] = %v, want %v", tc.b, tc.m, withPsi, ta != nil, k, h[k], wantH[k])
					}
				}
				for i := range psi {
					if math.Float64bits(psi[i]) != math.Float64bits(wantPsi[i]) {
						t.Fatalf("b=%d m=%d a=%v: psi[%d] = %v, want %v", tc.b, tc.m, ta != nil, i, psi[i], wantPsi[i])
					}
				}
			}
		}
	}
}

// TestBasisGramBits checks that AddBasisGram gives the same bits as
// FillBasis followed by AddGram, for blocks of one chunk, several chunks
// and a few points past the last multiple of four.
func TestBasisGramBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for _, tc := range []struct{ b, m int }{{4, 4}, {8, 5}, {12, 511}, {16, 1030}, {100, 2003}} {
		if !FusedGram(tc.b) {
			t.Skip("no AVX2")
		}
		ldk := tc.m + 5
		kt, cj, xj, a := basisCase(rng, tc.b, tc.m, ldk)
		for _, ta := range [][]float64{nil, a} {
			g, h := make([]float64, tc.b*tc.b), make([]float64, tc.b)
			for i := range g {
				g[i] = float64(i % 5)
			}
			for i := range h {
				h[i] = float64(i % 3)
			}
			wantG, wantH := append([]float64(nil), g...), append([]float64(nil), h...)
			psi := make([]float64, tc.b*tc.m)
			FillBasis(psi, wantH, kt, ldk, cj, xj, ta, 1.3)
			AddGram(wantG, psi, tc.b, tc.m)
			buf := make([]float64, tc.b*min(tc.m, GramChunk))
			AddBasisGram(g, h, buf, make([]float64, tc.b), kt, ldk, cj, xj, ta, 1.3)
			for i := range g {
				if math.Float64bits(g[i]) != math.Float64bits(wantG[i]) {
					t.Fatalf("b=%d m=%d a=%v: g[%d] = %v, want %v", tc.b, tc.m, ta != nil, i, g[i], wantG[i])
				}
			}
			for i := range h {
				if math.Float64bits(h[i]) != math.Float64bits(wantH[i]) {
					t.Fatalf("b=%d m=%d a=%v: h[%d] = %v, want %v", tc.b, tc.m, ta != nil, i, h[i], wantH[i])
				}
			}
		}
	}
}
