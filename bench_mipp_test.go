package ngca

import (
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca/internal/asm"
)

// BenchmarkMIPPKernels times the lane kernels on one chunk of mippChunk
// rows with d = 10 (the paper's setting); ns/op divided by mippChunk·4 is
// the time per row and index function.
func BenchmarkMIPPKernels(b *testing.B) {
	const d = 10
	rng := rand.New(rand.NewPCG(1, 2))
	y := make([]float64, mippChunk*d)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	w := make([]float64, d*asm.Lanes)
	for i := range w {
		w[i] = rng.NormFloat64() / 3
	}
	z, s, ds := make([]float64, mippChunk*asm.Lanes), make([]float64, mippChunk*asm.Lanes), make([]float64, mippChunk*asm.Lanes)
	asm.ProjectLanes(y, d, w, z)
	p := [asm.Lanes]float64{0.5, 1, 2, 4}
	var sum [asm.Lanes]float64
	b.Run("project", func(b *testing.B) {
		for b.Loop() {
			asm.ProjectLanes(y, d, w, z)
		}
	})
	b.Run("gather", func(b *testing.B) {
		for b.Loop() {
			asm.GatherLanes(y, d, z, w)
		}
	})
	for _, kind := range []familyKind{familyGaussPow3, familyTanh, familySin} {
		b.Run(kind.String(), func(b *testing.B) {
			for b.Loop() {
				laneValues(kind, &p, z, s, ds, &sum)
			}
		})
	}
}
