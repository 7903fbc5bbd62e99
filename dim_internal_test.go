package ngca

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestNullSampler checks the bootstrap's data: their covariance is the
// data's, their projection on E keeps the data's non-Gaussian values, and
// the rest is uncorrelated with it.
func TestNullSampler(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, d := 4000, 4
	z := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		s := math.Copysign(2, rng.NormFloat64()) + 0.3*rng.NormFloat64() // bimodal
		g := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		z.SetRow(i, []float64{s + g[0], 0.5*s - g[1], g[0] + g[2], 2 * g[1]})
	}
	e := mat.NewDense(d, 1, []float64{0.6, 0.8, 0, 0})
	smp, err := newNullSampler(z, e)
	if err != nil {
		t.Fatal(err)
	}
	xs := smp.draw(rand.New(rand.NewPCG(3, 4)))
	cov := func(x *mat.Dense) *mat.SymDense {
		var c mat.SymDense
		c.SymOuterK(1/float64(n), x.T())
		return &c
	}
	c0, c1 := cov(smp.z), cov(xs)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			if diff := math.Abs(c0.At(i, j) - c1.At(i, j)); diff > 0.15*math.Sqrt(c0.At(i, i)*c0.At(j, j)) {
				t.Errorf("covariance (%d, %d): data %.3f, bootstrap %.3f", i, j, c0.At(i, j), c1.At(i, j))
			}
		}
	}
	// Eᵀz* is resampled from Eᵀz: the same values, so the same 4th moment.
	var p0, p1 mat.Dense
	p0.Mul(smp.z, e)
	p1.Mul(xs, e)
	k0, k1 := kurt(p0.RawMatrix().Data), kurt(p1.RawMatrix().Data)
	if math.Abs(k0-k1) > 0.1 || k0 > 2.5 {
		t.Errorf("kurtosis of the projection: data %.3f, bootstrap %.3f", k0, k1)
	}
	// With no subspace the data are N(0, S): kurtosis 3 in every direction.
	smp0, err := newNullSampler(z, nil)
	if err != nil {
		t.Fatal(err)
	}
	var q mat.Dense
	q.Mul(smp0.draw(rand.New(rand.NewPCG(5, 6))), e)
	if k := kurt(q.RawMatrix().Data); math.Abs(k-3) > 0.3 {
		t.Errorf("k = 0: kurtosis %.3f, want 3", k)
	}
}

// kurt returns the standardised fourth moment of v.
func kurt(v []float64) float64 {
	var m, m2, m4 float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	for _, x := range v {
		d := (x - m) * (x - m)
		m2 += d
		m4 += d * d
	}
	m2 /= float64(len(v))
	m4 /= float64(len(v))
	return m4 / (m2 * m2)
}
