package ngcatest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ngca-go/ngca/internal/colscale"
	"gonum.org/v1/gonum/mat"
)

// Distribution is one of the four two-dimensional signal distributions of
// the artificial experiments of Shiino et al. (ACML 2017, §4.2, Figure 1).
type Distribution int

const (
	// GaussianMixture is (a), independent Gaussian mixtures: each signal
	// coordinate is ½N(3, 1) + ½N(−3, 1).
	GaussianMixture Distribution = iota
	// SuperGaussian is (b), dependent super-Gaussian: p(s) ∝ exp(−‖s‖),
	// sampled exactly as a Gamma(2, 1) radius with a uniform angle.
	SuperGaussian
	// SubGaussian is (c), dependent sub-Gaussian: uniform on the unit disk.
	SubGaussian
	// SuperSubGaussian is (d), dependent super- and sub-Gaussian:
	// s₁ ~ Laplace(0, 1), s₂ ~ U[c, c+1] with c = 0 if |s₁| ≤ log 2 and
	// c = −1 otherwise.
	SuperSubGaussian
)

// ErrParam is returned (wrapped) for an invalid Artificial or distribution
// name.
var ErrParam = errors.New("ngcatest: bad parameter")

// numDistributions is the number of distributions.
const numDistributions = 4

// Distributions returns the four distributions in the paper's order.
func Distributions() []Distribution {
	return []Distribution{GaussianMixture, SuperGaussian, SubGaussian, SuperSubGaussian}
}

// String returns the paper's label, "a" to "d".
func (d Distribution) String() string {
	if d < 0 || int(d) >= numDistributions {
		return fmt.Sprintf("Distribution(%d)", int(d))
	}
	return string(rune('a' + int(d)))
}

// ParseDistribution parses "a" to "d" (or the constants' names).
func ParseDistribution(s string) (Distribution, error) {
	for _, d := range Distributions() {
		if s == d.String() || s == d.name() {
			return d, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown distribution %q (want a, b, c or d)", ErrParam, s)
}

func (d Distribution) name() string {
	return [...]string{"GaussianMixture", "SuperGaussian", "SubGaussian", "SuperSubGaussian"}[d]
}

// Artificial describes a data set of the paper's artificial experiments
// (§4.2 and Appendix A, with the conventions of the authors' code):
//
//	x = (s₁, s₂, n₁, …, n_{d−2}),
//
// two non-Gaussian signal columns followed by d−2 Gaussian noise columns,
// every column then standardised. The noise is N(0, diag(σ²₁, …, σ²_{d−2}))
// with σ²_k = 10^(−r + 2r(k−1)/(d−3)) (for d = 10, the code's 10^−r … 10^r;
// the paper's appendix writes 10^−2r … 10^2r), rotated by
// R = G(d−3, d−2)···G(1, 3)·G(1, 2), the product of all pairwise Givens
// rotations by π/4 applied in lexicographic order. Larger r makes the
// covariance worse conditioned; the paper's Figure 2 spans r = 0 … 0.8 in
// this convention. The true non-Gaussian index space is span(e₁, e₂).
//
// The zero value is case (a) with n = 2000, d = 10 and r = 0.
type Artificial struct {
	// Dist is the signal distribution.
	Dist Distribution
	// N is the number of rows; 0 means 2000.
	N int
	// D is the number of columns, at least 3; 0 means 10.
	D int
	// R is the condition-number controller r ≥ 0.
	R float64
	// Rotate, if true, turns the standardised data by a random orthogonal
	// matrix Q (Haar-distributed, drawn from the same source after the
	// data), x ← Q·x, and the true subspace with it. The paper only tests
	// subspaces along coordinate axes.
	Rotate bool
}

// Sample draws a data set from src. It returns the n×d data (rows are
// observations) and a d×2 orthonormal basis of the true non-Gaussian index
// space. Every random number comes from src, so the same seed gives the
// same data.
func (a Artificial) Sample(src rand.Source) (x, truth *mat.Dense, err error) {
	n, d := a.N, a.D
	if n == 0 {
		n = 2000
	}
	if d == 0 {
		d = 10
	}
	switch {
	case n < 2:
		return nil, nil, fmt.Errorf("%w: N = %d, need at least 2", ErrParam, n)
	case d < 3:
		return nil, nil, fmt.Errorf("%w: D = %d, need at least 3", ErrParam, d)
	case !(a.R >= 0) || math.IsInf(a.R, 1):
		return nil, nil, fmt.Errorf("%w: R = %v, need a finite r ≥ 0", ErrParam, a.R)
	case a.Dist < 0 || int(a.Dist) >= numDistributions:
		return nil, nil, fmt.Errorf("%w: unknown distribution %d", ErrParam, int(a.Dist))
	}
	if src == nil {
		return nil, nil, fmt.Errorf("%w: nil source", ErrParam)
	}
	rng := rand.New(src)
	q := d - 2
	sd := make([]float64, q)
	for k := range sd {
		e := 0.0
		if q > 1 {
			e = -a.R + 2*a.R*float64(k)/float64(q-1)
		}
		sd[k] = math.Pow(10, e/2)
	}
	rot := givensProduct(q)

	x = mat.NewDense(n, d, nil)
	noise := make([]float64, q)
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		row[0], row[1] = a.Dist.sample(rng)
		for k := range noise {
			noise[k] = sd[k] * rng.NormFloat64()
		}
		mat.NewVecDense(q, row[2:]).MulVec(rot, mat.NewVecDense(q, noise))
	}
	standardise(x)

	truth = mat.NewDense(d, 2, nil)
	truth.Set(0, 0, 1)
	truth.Set(1, 1, 1)
	if a.Rotate {
		r := RandomRotation(rng, d)
		var xr, tr mat.Dense
		xr.Mul(x, r.T())
		tr.Mul(r, truth)
		x, truth = &xr, &tr
	}
	return x, truth, nil
}

// standardise replaces every column of x by (x − mean)/sd, with the
// sample standard deviation (n − 1), computed in units of the power of two
// of the column's largest magnitude (internal/colscale), the same
// arithmetic as the ngca estimators' own standardisation.
func standardise(x *mat.Dense) {
	n, d := x.Dims()
	for j := 0; j < d; j++ {
		k, mu, sd, _ := colscale.Stats(x, j)
		for i := 0; i < n; i++ {
			x.Set(i, j, (math.Ldexp(x.At(i, j), -k)-mu)/sd)
		}
	}
}

// sample draws one signal vector (s₁, s₂).
func (d Distribution) sample(rng *rand.Rand) (float64, float64) {
	switch d {
	case GaussianMixture:
		mix := func() float64 {
			if rng.IntN(2) == 0 {
				return 3 + rng.NormFloat64()
			}
			return -3 + rng.NormFloat64()
		}
		s1 := mix()
		return s1, mix()
	case SuperGaussian:
		r := rng.ExpFloat64() + rng.ExpFloat64() // Gamma(2, 1)
		phi := 2 * math.Pi * rng.Float64()
		return r * math.Cos(phi), r * math.Sin(phi)
	case SubGaussian:
		r := math.Sqrt(rng.Float64())
		phi := 2 * math.Pi * rng.Float64()
		return r * math.Cos(phi), r * math.Sin(phi)
	default: // SuperSubGaussian
		s1 := rng.ExpFloat64()
		if rng.IntN(2) == 0 {
			s1 = -s1
		}
		c := 0.0
		if math.Abs(s1) > math.Ln2 {
			c = -1
		}
		return s1, c + rng.Float64()
	}
}

// givensProduct returns the q×q rotation G(q−1, q)···G(1, 3)·G(1, 2): the
// Givens rotations by π/4 for every pair i < j, applied in lexicographic
// order, with G(i,j)_ii = G(i,j)_jj = cos π/4, G(i,j)_ij = −sin π/4 and
// G(i,j)_ji = sin π/4.
func givensProduct(q int) *mat.Dense {
	r := mat.NewDense(q, q, nil)
	for i := 0; i < q; i++ {
		r.Set(i, i, 1)
	}
	c, s := math.Cos(math.Pi/4), math.Sin(math.Pi/4)
	for i := 0; i < q; i++ {
		for j := i + 1; j < q; j++ {
			// r ← G(i,j)·r changes rows i and j.
			for k := 0; k < q; k++ {
				ri, rj := r.At(i, k), r.At(j, k)
				r.Set(i, k, c*ri-s*rj)
				r.Set(j, k, s*ri+c*rj)
			}
		}
	}
	return r
}

// RandomRotation returns a d×d orthogonal matrix drawn from the Haar
// (uniform) distribution: the Q factor of a QR factorisation of a matrix of
// standard normal entries, with column signs fixed by the diagonal of R.
func RandomRotation(src rand.Source, d int) *mat.Dense {
	rng := rand.New(src)
	g := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q, r mat.Dense
	qr.QTo(&q)
	qr.RTo(&r)
	for j := 0; j < d; j++ {
		if r.At(j, j) < 0 {
			for i := 0; i < d; i++ {
				q.Set(i, j, -q.At(i, j))
			}
		}
	}
	return &q
}
