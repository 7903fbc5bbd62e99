package asm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sincosTestArgs returns arguments for the error tests: uniform draws over
// [−lo, lo], log-uniform magnitudes up to hi, and points next to multiples
// of π/2 (where the reduction cancels).
func sincosTestArgs(lo, hi float64) []float64 {
	rng := rand.New(rand.NewPCG(3, 14))
	var xs []float64
	for range 200000 {
		xs = append(xs, lo*(2*rng.Float64()-1))
		xs = append(xs, math.Copysign(math.Exp(math.Log(1e-8)+rng.Float64()*math.Log(hi/1e-8)), rng.Float64()-0.5))
	}
	for k := -2000; k <= 2000; k++ {
		c := float64(k) * math.Pi / 2
		xs = append(xs, c, math.Nextafter(c, 0), math.Nextafter(c, math.Inf(1)), c+1e-9, c*617)
	}
	return append(xs, 0, math.Copysign(0, -1), sincosMax, -sincosMax, math.Pi/4, 5e-324)
}

func TestSincosQuadrant(t *testing.T) {
	const bound = 2.3e-16
	var worst float64
	for _, x := range sincosTestArgs(60, sincosMax) {
		if math.Abs(x) > sincosMax {
			continue
		}
		ws, wc := math.Sincos(x)
		for q0 := uint64(0); q0 < 4; q0++ {
			s, c := sincosQuadrant(x, q0)
			// sin(x + q0·π/2) and cos(x + q0·π/2) from sin x and cos x.
			es, ec := [4]float64{ws, wc, -ws, -wc}[q0], [4]float64{wc, -ws, -wc, ws}[q0]
			err := max(math.Abs(s-es), math.Abs(c-ec))
			worst = max(worst, err)
			if err > bound {
				t.Fatalf("x = %v, q0 = %d: sincos (%v, %v), want (%v, %v), error %.3g > %.3g", x, q0, s, c, es, ec, err, bound)
			}
		}
	}
	t.Logf("largest absolute error %.3g (bound %.3g)", worst, bound)
}

func TestFastExp(t *testing.T) {
	const bound = 4e-16
	rng := rand.New(rand.NewPCG(2, 71))
	var worst float64
	for i := range 400000 {
		a := -708 * rng.Float64()
		if i%2 == 1 {
			a = -math.Exp(math.Log(1e-12) + rng.Float64()*math.Log(708/1e-12))
		}
		want := math.Exp(a)
		err := math.Abs(fastExp(a)-want) / want
		worst = max(worst, err)
		if err > bound {
			t.Fatalf("e^%v = %v, want %v, relative error %.3g > %.3g", a, fastExp(a), want, err, bound)
		}
	}
	t.Logf("largest relative error %.3g (bound %.3g)", worst, bound)
	for _, a := range []float64{0, -708.5, -1000, math.Inf(-1)} {
		if got := fastExp(a); math.Abs(got-math.Exp(a)) > 3.31e-308 {
			t.Errorf("e^%v = %v, want %v", a, got, math.Exp(a))
		}
	}
	if got := fastExp(0); got != 1 {
		t.Errorf("e^0 = %v", got)
	}
}

func TestFastTanh(t *testing.T) {
	const absBound, relBound = 2.3e-16, 5e-16
	var worstAbs, worstRel float64
	for _, x := range sincosTestArgs(25, 1e4) {
		want, got := math.Tanh(x), fastTanh(x)
		abs := math.Abs(got - want)
		rel := 0.0
		if want != 0 {
			rel = abs / math.Abs(want)
		}
		worstAbs, worstRel = max(worstAbs, abs), max(worstRel, rel)
		if abs > absBound || rel > relBound {
			t.Fatalf("tanh %v = %v, want %v: errors %.3g, %.3g (relative)", x, got, want, abs, rel)
		}
	}
	t.Logf("largest errors %.3g absolute, %.3g relative", worstAbs, worstRel)
	for _, x := range []float64{math.Inf(1), math.Inf(-1), 1e300} {
		if got := fastTanh(x); got != math.Tanh(x) {
			t.Errorf("tanh %v = %v, want %v", x, got, math.Tanh(x))
		}
	}
}
