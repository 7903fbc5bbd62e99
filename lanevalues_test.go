package ngca

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca/internal/asm"
	"github.com/ngca-go/ngca/internal/numtest"
)

// TestLaneValues checks laneValues and indexValues for every kind against
// the standard library formulas, including arguments beyond the lane
// kernels' range |p·z| ≤ 10⁶ (where asm.SincosLanesStd takes over) and
// lengths that are not a multiple of the lanes.
func TestLaneValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	z := make([]float64, 4*301)
	for i := range z {
		z[i] = rng.NormFloat64() * math.Exp(rng.NormFloat64())
	}
	z[5], z[6] = 0, math.Copysign(0, -1)
	for _, kind := range []familyKind{familyGaussPow3, familyTanh, familySin, familyCos} {
		for _, p := range [][asm.Lanes]float64{{0.05, 0.5, 2, 5}, {1, 1e-3, 37, 4}, {1, 1, 1, 1e7}} {
			s, ds := make([]float64, len(z)), make([]float64, len(z))
			var sum [asm.Lanes]float64
			laneValues(kind, &p, z, s, ds, &sum)
			var want [asm.Lanes]float64
			for i, t0 := range z {
				l := i % asm.Lanes
				ws, wds := referenceIndex(kind, p[l], t0)
				if !numtest.CloseTo(s[i], ws, 1e-14) || !numtest.CloseTo(ds[i], wds, 1e-14*max(1, p[l])) {
					t.Fatalf("%v, p = %v, z = %v: (s, s′) = (%v, %v), want (%v, %v)", kind, p[l], t0, s[i], ds[i], ws, wds)
				}
				want[l] += wds
			}
			for l := range sum {
				if !numtest.CloseTo(sum[l], want[l], 1e-12*max(1, p[l])) {
					t.Errorf("%v, p = %v: Σ s′ = %v, want %v", kind, p[l], sum[l], want[l])
				}
			}
		}
		for _, n := range []int{0, 1, 2, 3, 6, 1001} {
			s, ds := make([]float64, n), make([]float64, n)
			var want float64
			got := indexValues(kind, 0.7, z[:n], s, ds)
			for i, t0 := range z[:n] {
				ws, wds := referenceIndex(kind, 0.7, t0)
				if !numtest.CloseTo(s[i], ws, 1e-14) || !numtest.CloseTo(ds[i], wds, 1e-14) {
					t.Fatalf("indexValues %v, n = %d, z = %v: (%v, %v), want (%v, %v)", kind, n, t0, s[i], ds[i], ws, wds)
				}
				want += wds
			}
			if !numtest.CloseTo(got, want, 1e-12) {
				t.Errorf("indexValues %v, n = %d: Σ s′ = %v, want %v", kind, n, got, want)
			}
		}
	}
}

// referenceIndex is s_p(z) and s′_p(z) with the standard library.
func referenceIndex(kind familyKind, p, z float64) (s, ds float64) {
	switch kind {
	case familyGaussPow3:
		e := math.Exp(-z * z / (2 * p))
		return z * z * z * e, z * z * (3 - z*z/p) * e
	case familyTanh:
		h := math.Tanh(p * z)
		return h, p * (1 - h*h)
	case familySin:
		return math.Sin(p * z), p * math.Cos(p*z)
	default:
		return math.Cos(p * z), -p * math.Sin(p*z)
	}
}
