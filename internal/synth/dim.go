package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ngca-go/ngca/ngcatest"
	"gonum.org/v1/gonum/mat"
)

// DimData describes a data set with m = 0 to 3 non-Gaussian dimensions, built
// from the paper's artificial data (a) (ngcatest.Artificial, with its noise of
// condition-number controller R): its two signal columns (Gaussian
// mixtures ½N(3, 1) + ½N(−3, 1), bimodal) are kept for m ≥ 2, only the
// first for m = 1, neither for m = 0 (replaced by N(0, 1) columns), and
// for m = 3 the first noise column is replaced by a uniform column of unit
// variance. With Rotate the data (and the truth) are then turned by a
// random rotation, which also makes the Gaussian part of m = 0 fully
// correlated.
type DimData struct {
	M, N, D int
	R       float64
	Rotate  bool
}

// Sample draws the data set from src. It returns the n×d data and a d×m
// orthonormal basis of the true non-Gaussian index space (nil for m = 0).
func (c DimData) Sample(src rand.Source) (x, truth *mat.Dense, err error) {
	if c.M < 0 || c.M > 3 || c.M >= c.D {
		return nil, nil, fmt.Errorf("synth: M = %d, need 0 ≤ M ≤ 3 and M < D", c.M)
	}
	x, _, err = ngcatest.Artificial{Dist: ngcatest.GaussianMixture, N: c.N, D: c.D, R: c.R}.Sample(src)
	if err != nil {
		return nil, nil, err
	}
	rng := rand.New(src)
	n, d := x.Dims()
	for i := 0; i < n; i++ {
		for j := c.M; j < 2; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
		if c.M == 3 {
			x.Set(i, 2, math.Sqrt(3)*(2*rng.Float64()-1))
		}
	}
	if c.M > 0 {
		truth = mat.NewDense(d, c.M, nil)
		for j := 0; j < c.M; j++ {
			truth.Set(j, j, 1)
		}
	}
	if c.Rotate {
		x, truth = rotateAll(rng, x, truth)
	}
	return x, truth, nil
}

// rotateAll turns the rows of x (and the truth, a basis, if not nil) by a
// random rotation drawn from rng.
func rotateAll(rng *rand.Rand, x, truth *mat.Dense) (*mat.Dense, *mat.Dense) {
	_, d := x.Dims()
	r := ngcatest.RandomRotation(rng, d)
	var xr mat.Dense
	xr.Mul(x, r.T())
	if truth == nil {
		return &xr, nil
	}
	var tr mat.Dense
	tr.Mul(r, truth)
	return &xr, &tr
}

// WideFamilies are the signal distributions of the wide study, each of unit
// variance: uniform (sub-Gaussian, excess kurtosis −1.2), exponential
// (skewed, skewness 2), bimodal (½N(3, 1) + ½N(−3, 1) scaled, excess
// kurtosis −1.62), t5 (Student's t with 5 degrees of freedom,
// heavy-tailed, excess kurtosis 6), mixed (the four in turn, column by
// column), mixed3 (uniform, exponential and bimodal in turn, the data
// of the issue that motivated the study) and asymmetric (¾N(−1, ¼) +
// ¼N(3, ¼) scaled: skewness 1.0, excess kurtosis −0.57, non-Gaussian mostly
// by its skewness, so that two such signals look alike to a
// fourth-moment search).
var WideFamilies = []string{"uniform", "exponential", "bimodal", "t5", "mixed", "mixed3", "asymmetric"}

// Wide describes a wide data set: N rows of D independent columns, the
// first M of Family, the rest N(0, 1); with Turned, turned by a random
// rotation of all columns (so that every column mixes signal and noise).
type Wide struct {
	N, D, M int
	Family  string
	Turned  bool
}

// Sample draws the data set from src. It returns the n×d data and a d×m
// orthonormal basis of the true non-Gaussian index space (nil for m = 0).
func (w Wide) Sample(src rand.Source) (x, truth *mat.Dense, err error) {
	if w.M < 0 || w.M >= w.D || w.N <= w.D {
		return nil, nil, fmt.Errorf("synth: N = %d, D = %d, M = %d: need 0 ≤ M < D < N", w.N, w.D, w.M)
	}
	fams := []string{w.Family}
	switch w.Family {
	case "mixed":
		fams = WideFamilies[:4]
	case "mixed3":
		fams = WideFamilies[:3]
	}
	if !slices.Contains(WideFamilies, w.Family) && w.M > 0 {
		return nil, nil, fmt.Errorf("synth: unknown family %q (want one of %s)", w.Family, strings.Join(WideFamilies, ", "))
	}
	rng := rand.New(src)
	x = mat.NewDense(w.N, w.D, nil)
	for i := 0; i < w.N; i++ {
		row := x.RawRowView(i)
		for j := range row {
			if j < w.M {
				row[j] = wideSignal(rng, fams[j%len(fams)])
			} else {
				row[j] = rng.NormFloat64()
			}
		}
	}
	if w.M > 0 {
		truth = mat.NewDense(w.D, w.M, nil)
		for j := 0; j < w.M; j++ {
			truth.Set(j, j, 1)
		}
	}
	if w.Turned {
		x, truth = rotateAll(rng, x, truth)
	}
	return x, truth, nil
}

// wideSignal draws one value of the family, of mean 0 and variance 1.
func wideSignal(rng *rand.Rand, family string) float64 {
	switch family {
	case "uniform":
		return math.Sqrt(3) * (2*rng.Float64() - 1)
	case "exponential":
		return rng.ExpFloat64() - 1
	case "bimodal":
		return (math.Copysign(3, rng.Float64()-0.5) + rng.NormFloat64()) / math.Sqrt(10)
	case "asymmetric":
		x := -1 + 0.5*rng.NormFloat64()
		if rng.Float64() < 0.25 {
			x = 3 + 0.5*rng.NormFloat64()
		}
		return x / math.Sqrt(3.25)
	}
	// t5: N(0, 1)/√(χ²₅/5), of variance 5/3.
	var c float64
	for range 5 {
		g := rng.NormFloat64()
		c += g * g
	}
	return rng.NormFloat64() / math.Sqrt(c/5) / math.Sqrt(5.0/3)
}
