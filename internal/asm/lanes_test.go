package asm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca/internal/numtest"
)

// TestLaneKernels checks the lane kernels in use (the assembly on amd64
// with AVX2 and FMA) against the portable Go versions, on rows of mixed
// magnitudes, odd row counts, column counts around the kernels' blocks of
// four and an odd stride.
func TestLaneKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	const stride = 11
	for _, c := range []struct{ d, m int }{{7, 0}, {7, 1}, {7, 3}, {7, 4}, {7, 5}, {7, 37}, {7, 256}, {1, 13}, {4, 9}, {10, 128}, {11, 67}} {
		d, m := c.d, c.m
		y := make([]float64, max(0, (m-1)*stride+d))
		for i := range y {
			y[i] = rng.NormFloat64() * math.Exp(3*rng.NormFloat64())
		}
		w := make([]float64, d*Lanes)
		for i := range w {
			w[i] = rng.NormFloat64()
		}
		z, zGo := make([]float64, m*Lanes), make([]float64, m*Lanes)
		ProjectLanes(y, stride, w, z)
		projectLanesGo(y, stride, w, zGo)
		for i := range z {
			if !numtest.CloseTo(z[i], zGo[i], 1e-13) {
				t.Fatalf("m = %d: z[%d] = %v, Go version %v", m, i, z[i], zGo[i])
			}
		}
		b, bGo := make([]float64, d*Lanes), make([]float64, d*Lanes)
		for i := range b {
			b[i], bGo[i] = 1, 1
		}
		GatherLanes(y, stride, zGo, b)
		gatherLanesGo(y, stride, zGo, bGo)
		for i := range b {
			if !numtest.CloseTo(b[i], bGo[i], 1e-13) {
				t.Fatalf("m = %d: β[%d] = %v, Go version %v", m, i, b[i], bGo[i])
			}
		}
	}
}
