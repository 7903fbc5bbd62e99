package asm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRank2Dot checks rank2dot and its fallback rank2dotGo against their
// definition on a block inside a
// larger matrix (entries outside it must not change), for row lengths
// around the kernel's steps of eight and four.
func TestRank2Dot(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 2, 3, 4, 5, 8, 9, 13, 64, 99} {
		rows, lda := n-1, n+3
		a := make([]float64, lda*(rows+1))
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		v, w, u := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range v {
			v[i], w[i], u[i] = rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		}
		want := append([]float64(nil), a...)
		wantOut := make([]float64, rows)
		for i := 0; i < rows; i++ {
			for c := 0; c < n; c++ {
				want[i*lda+c] -= v[i+1]*w[c] + w[i+1]*v[c]
				wantOut[i] += want[i*lda+c] * u[c]
			}
		}
		a0 := append([]float64(nil), a...)
		for name, f := range map[string]func(a []float64, lda, rows, n int, v, w, u, out []float64){"rank2dot": rank2dot, "rank2dotGo": rank2dotGo} {
			copy(a, a0)
			out := make([]float64, rows)
			f(a, lda, rows, n, v, w, u, out)
			for i := range a {
				if math.Abs(a[i]-want[i]) > 1e-14 {
					t.Fatalf("%s, n=%d: entry %d = %g, want %g", name, n, i, a[i], want[i])
				}
			}
			for i := range out {
				if math.Abs(out[i]-wantOut[i]) > 1e-13*float64(n) {
					t.Fatalf("%s, n=%d: product %d = %g, want %g", name, n, i, out[i], wantOut[i])
				}
			}
		}
	}
}

// TestGaussRow checks GaussRow and its fallback gaussRowGo against Gauss (math.Exp with the cut-off)
// entry by entry, across the cut-off and for lengths around the four-wide
// steps.
func TestGaussRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{0, 1, 3, 4, 7, 64, 1001} {
		src := make([]float64, n)
		for i := range src {
			src[i] = 800 * rng.Float64()
		}
		if n > 4 {
			src[1], src[2], src[3] = 0, 345/0.5, 345/0.5*(1+1e-15)
		}
		for name, f := range map[string]func(dst, src []float64, c float64){"GaussRow": GaussRow, "gaussRowGo": gaussRowGo} {
			dst := make([]float64, n)
			f(dst, src, -0.5)
			for i, v := range src {
				want := Gauss(-0.5 * v)
				if math.Abs(dst[i]-want) > 4e-16*want || (want == 0) != (dst[i] == 0) {
					t.Fatalf("%s, n=%d: at %g = %g, Gauss %g", name, n, v, dst[i], want)
				}
			}
		}
	}
}
