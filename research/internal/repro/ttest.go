package repro

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// TTest2 returns the p-value of the two-sided two-sample Student t-test of
// equal means with pooled variance, as MATLAB's ttest2 computes it by
// default (the test behind the bold entries of the paper's tables):
//
//	s²  = ((n₁−1)s₁² + (n₂−1)s₂²) / (n₁+n₂−2)
//	t   = (x̄₁ − x̄₂) / (s·√(1/n₁ + 1/n₂))
//	p   = 2·F(−|t|),
//
// where F is the CDF of Student's t distribution with n₁+n₂−2 degrees of
// freedom. NaN values are left out, as ttest2 does. The result is NaN when
// the test is undefined: fewer than 3 values in all, or zero pooled
// variance with equal means. Zero variance with different means gives 0.
func TTest2(a, b []float64) float64 {
	a, b = dropNaN(a), dropNaN(b)
	n1, n2 := float64(len(a)), float64(len(b))
	df := n1 + n2 - 2
	if len(a) == 0 || len(b) == 0 || df < 1 {
		return math.NaN()
	}
	m1, m2 := stat.Mean(a, nil), stat.Mean(b, nil)
	var ss float64
	for _, v := range a {
		ss += (v - m1) * (v - m1)
	}
	for _, v := range b {
		ss += (v - m2) * (v - m2)
	}
	se := math.Sqrt(ss / df * (1/n1 + 1/n2))
	diff := m1 - m2
	switch {
	case se == 0 && diff == 0:
		return math.NaN()
	case se == 0:
		return 0
	}
	t := diff / se
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.CDF(-math.Abs(t))
}

func dropNaN(v []float64) []float64 {
	var out []float64
	for _, x := range v {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}
