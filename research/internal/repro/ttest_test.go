package repro

import (
	"math"
	"testing"
)

func TestTTest2(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		a, b []float64
		want float64
	}{
		// One degree of freedom: t is Cauchy, p = 1 − 2·atan(|t|)/π. Here
		// s² = 2, se = √(2·(1/2 + 1)) = √3, t = −3/√3 = −√3, p = 1/3.
		{"df=1", []float64{0, 2}, []float64{4}, 1.0 / 3},
		// Two degrees of freedom: p = 1 − |t|/√(2 + t²). s² = (2 + 2)/2
		// = 2, se = √(2·(1/2 + 1/2)) = √2, t = −4/√2 = −2√2, p = 1 −
		// 2√2/√10 = 1 − 2/√5.
		{"df=2", []float64{0, 2}, []float64{4, 6}, 1 - 2/math.Sqrt(5)},
		// Means 3 and 5, both variances 2.5: se = 1, t = −2 with 8 degrees
		// of freedom, p = 0.0805 (tables of Student's t: P(|T₈| > 2) =
		// 0.08052).
		{"df=8", []float64{1, 2, 3, 4, 5}, []float64{3, 4, 5, 6, 7}, 0.080516},
		// Symmetric: swapping the samples changes the sign of t only.
		{"swapped", []float64{3, 4, 5, 6, 7}, []float64{1, 2, 3, 4, 5}, 0.080516},
		// NaN values are left out: this is the df=2 case again.
		{"NaN dropped", []float64{0, nan, 2}, []float64{4, 6, nan}, 1 - 2/math.Sqrt(5)},
		{"equal samples", []float64{1, 2, 3}, []float64{1, 2, 3}, 1},
		{"no variance, different means", []float64{1, 1, 1}, []float64{2, 2}, 0},
		{"no variance, same means", []float64{1, 1}, []float64{1, 1}, nan},
		{"too few values", []float64{1}, []float64{2}, nan},
		{"empty", nil, []float64{2, 3, 4}, nan},
	} {
		got := TTest2(tc.a, tc.b)
		if math.IsNaN(tc.want) != math.IsNaN(got) || math.Abs(got-tc.want) > 1e-5 {
			t.Errorf("%s: p = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTTest2Textbook checks a classic example: Student's (1908) sleep data
// as a two-sample test (R: t.test(extra ~ group, data = sleep, var.equal =
// TRUE) gives t = −1.8608, df = 18, p-value = 0.07919).
func TestTTest2Textbook(t *testing.T) {
	g1 := []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	g2 := []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
	if p := TTest2(g1, g2); math.Abs(p-0.07919) > 5e-5 {
		t.Errorf("sleep data: p = %.5f, want 0.07919", p)
	}
}
