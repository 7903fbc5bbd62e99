package ngca

import (
	"math"
	"math/rand/v2"
	"testing"
)

// closeTo reports whether a and b agree up to rounding: |a − b| ≤
// tol·(1 + |b|).
func closeTo(a, b, tol float64) bool { return math.Abs(a-b) <= tol*(1+math.Abs(b)) }

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
		w := make([]float64, d*mippLanes)
		for i := range w {
			w[i] = rng.NormFloat64()
		}
		z, zGo := make([]float64, m*mippLanes), make([]float64, m*mippLanes)
		projectLanes(y, stride, w, z)
		projectLanesGo(y, stride, w, zGo)
		for i := range z {
			if !closeTo(z[i], zGo[i], 1e-13) {
				t.Fatalf("m = %d: z[%d] = %v, Go version %v", m, i, z[i], zGo[i])
			}
		}
		b, bGo := make([]float64, d*mippLanes), make([]float64, d*mippLanes)
		for i := range b {
			b[i], bGo[i] = 1, 1
		}
		gatherLanes(y, stride, zGo, b)
		gatherLanesGo(y, stride, zGo, bGo)
		for i := range b {
			if !closeTo(b[i], bGo[i], 1e-13) {
				t.Fatalf("m = %d: β[%d] = %v, Go version %v", m, i, b[i], bGo[i])
			}
		}
	}
}

// TestLaneValues checks laneValues and indexValues for every kind against
// the standard library formulas, including arguments beyond sincosMax
// (where math.Sincos takes over) and lengths that are not a multiple of
// the lanes.
func TestLaneValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	z := make([]float64, 4*301)
	for i := range z {
		z[i] = rng.NormFloat64() * math.Exp(rng.NormFloat64())
	}
	z[5], z[6] = 0, math.Copysign(0, -1)
	for _, kind := range []familyKind{familyGaussPow3, familyTanh, familySin, familyCos} {
		for _, p := range [][mippLanes]float64{{0.05, 0.5, 2, 5}, {1, 1e-3, 37, 4}, {1, 1, 1, 1e7}} {
			s, ds := make([]float64, len(z)), make([]float64, len(z))
			var sum [mippLanes]float64
			laneValues(kind, &p, z, s, ds, &sum)
			var want [mippLanes]float64
			for i, t0 := range z {
				l := i % mippLanes
				ws, wds := referenceIndex(kind, p[l], t0)
				if !closeTo(s[i], ws, 1e-14) || !closeTo(ds[i], wds, 1e-14*max(1, p[l])) {
					t.Fatalf("%v, p = %v, z = %v: (s, s′) = (%v, %v), want (%v, %v)", kind, p[l], t0, s[i], ds[i], ws, wds)
				}
				want[l] += wds
			}
			for l := range sum {
				if !closeTo(sum[l], want[l], 1e-12*max(1, p[l])) {
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
				if !closeTo(s[i], ws, 1e-14) || !closeTo(ds[i], wds, 1e-14) {
					t.Fatalf("indexValues %v, n = %d, z = %v: (%v, %v), want (%v, %v)", kind, n, t0, s[i], ds[i], ws, wds)
				}
				want += wds
			}
			if !closeTo(got, want, 1e-12) {
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
