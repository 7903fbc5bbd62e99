// Package colscale computes the mean and standard deviation of a column
// of a matrix in units of a power of two, the arithmetic that the ngca
// estimators standardise their data with and that ngcatest standardises
// the paper's data with, so that both agree bit for bit.
package colscale

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Stats returns, for column j of x (n ≥ 2 rows), the binary exponent k
// of its largest magnitude maxAbs, and its mean mu and sample standard
// deviation sd (n − 1 denominator) in units of 2^k: the column times 2⁻ᵏ
// lies in [−1, 1], so that the sums of values near ±1e308 cannot overflow
// nor the squares of values near 1e-308 underflow. In the caller's units
// the mean is mu·2ᵏ and the standard deviation sd·2ᵏ.
func Stats(x mat.Matrix, j int) (k int, mu, sd, maxAbs float64) {
	n, _ := x.Dims()
	for i := 0; i < n; i++ {
		maxAbs = math.Max(maxAbs, math.Abs(x.At(i, j)))
	}
	_, k = math.Frexp(maxAbs)
	var sum float64
	for i := 0; i < n; i++ {
		sum += math.Ldexp(x.At(i, j), -k)
	}
	mu = sum / float64(n)
	var ss float64
	for i := 0; i < n; i++ {
		dv := math.Ldexp(x.At(i, j), -k) - mu
		ss += dv * dv
	}
	return k, mu, math.Sqrt(ss / float64(n-1)), maxAbs
}
