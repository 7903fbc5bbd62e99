package asm

import "math"

// Fast elementary functions for MIPP's index functions. They use only
// multiplications, additions and bit operations, so that the same recipe
// runs four lanes at a time in the AVX2 kernels (lanes_amd64.s); these
// scalar versions are the portable fallback and the reference the kernels
// are tested against.
//
// Error bounds, measured against the standard library in sincos_test.go
// (which fails if they are exceeded):
//
//   - sincosQuadrant: |sin x − math.Sin(x)| and |cos x − math.Cos(x)| ≤
//     2.3e-16 (about one ulp of 1) for |x| ≤ sincosMax; larger |x| are not
//     reduced correctly and callers use math.Sincos.
//   - expParts (e^a = 2ᵏ(1+q)): relative error of e^a ≤ 4e-16 for
//     −708 ≤ a ≤ 0; below −708 it returns e^−708 ≈ 3.31e-308 (absolute error
//     below 3.31e-308).
//   - fastTanh: |tanh x − math.Tanh(x)| ≤ 2.3e-16 and relative error ≤ 5e-16
//     for all finite x.

// sincosMax bounds |x| for sincosQuadrant: the quadrant k = round(2x/π) then
// has |k| < 2²⁰, so that k times each 33-bit piece of π/2 is exact.
const sincosMax = 1e6

const (
	// roundMagic = 1.5·2⁵²: adding it to |t| < 2⁵¹ rounds t to an integer
	// (to nearest, ties to even), which then sits in the low bits.
	roundMagic = 0x1.8p52
	twoOverPi  = 0x1.45f306dc9c883p-01
	// π/2 = pio2a + pio2b + pio2c: the first two hold 33 significant bits
	// each, pio2c is the next 53 bits rounded (derived with math/big from
	// 110 digits of π).
	pio2a = 0x1.921fb544p+00
	pio2b = 0x1.0b4611a6p-34
	pio2c = 0x1.3198a2e037073p-69

	// ln 2 = ln2Hi + ln2Lo, ln2Hi with 40 significant bits, so that k·ln2Hi
	// is exact for |k| < 2¹³.
	ln2Hi = 0x1.62e42fefa2p-01
	ln2Lo = 0x1.9ef35793c7673p-41
	// expMin is where e^a is clamped: e^−708 is still a normal number.
	expMin = -708
)

// Taylor coefficients: sinCoef[i] = (−1)^(i+1)/(2i+3)!, the terms r³…r¹⁷ of
// sin r; cosCoef[i] = (−1)^(i+1)/(2i+2)!, the terms r²…r¹⁶ of cos r. On
// |r| ≤ π/4 the first omitted terms are below 5e-20 and 3e-21.
var (
	sinCoef = [...]float64{-1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880, -1.0 / 39916800,
		1.0 / 6227020800, -1.0 / 1307674368000, 1.0 / 355687428096000}
	cosCoef = [...]float64{-1.0 / 2, 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800,
		1.0 / 479001600, -1.0 / 87178291200, 1.0 / 20922789888000}
	// expCoef[i] = 1/(i+2)!, the terms r²…r¹³ of e^r − 1; on
	// |r| ≤ ln2/2 the first omitted term is below 4.1e-18·|r|.
	expCoef = [...]float64{1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
		1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800}
)

// horner evaluates c[0] + t·(c[1] + t·(… + t·c[len−1])).
func horner(c []float64, t float64) float64 {
	v := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		v = v*t + c[i]
	}
	return v
}

// sincosQuadrant returns sin(x + q0·π/2) and cos(x + q0·π/2) for
// |x| ≤ sincosMax. It reduces x = k·π/2 + r with |r| ≤ π/4 (Cody–Waite with
// a three-piece π/2), evaluates the Taylor polynomials of sin r and cos r
// and picks and signs them by the quadrant k + q0 mod 4.
func sincosQuadrant(x float64, q0 uint64) (sin, cos float64) {
	t := x*twoOverPi + roundMagic
	k := t - roundMagic
	r := x - k*pio2a
	r -= k * pio2b
	r -= k * pio2c
	r2 := r * r
	s := r + r*r2*horner(sinCoef[:], r2)
	c := 1 + r2*horner(cosCoef[:], r2)
	q := math.Float64bits(t) + q0
	if q&1 != 0 {
		s, c = c, s
	}
	if q&2 != 0 {
		s = -s
	}
	if (q+1)&2 != 0 {
		c = -c
	}
	return s, c
}

// expParts returns q and p = 2ᵏ with e^a = p·(1 + q) and e^a − 1 =
// p·q + (p − 1), for a ≤ 0 (a below expMin is taken as expMin): a = k·ln2 +
// r with |r| ≤ ln2/2 and q = e^r − 1 by its Taylor polynomial.
func expParts(a float64) (q, p float64) {
	a = max(a, expMin)
	t := a*math.Log2E + roundMagic
	k := t - roundMagic
	r := a - k*ln2Hi
	r -= k * ln2Lo
	q = r + r*r*horner(expCoef[:], r)
	return q, math.Float64frombits((math.Float64bits(t) + 1023) << 52)
}

// fastExp returns e^a for a ≤ 0 (e^expMin below expMin).
func fastExp(a float64) float64 {
	q, p := expParts(a)
	return p*q + p
}

// fastTanh returns tanh x = −m/(2 + m) with m = e^(−2|x|) − 1, signed as x.
func fastTanh(x float64) float64 {
	q, p := expParts(-2 * math.Abs(x))
	m := p*q + (p - 1)
	return math.Copysign(-m/(2+m), x)
}
