// Package dimstudy runs the study behind docs/dim.md: how often
// ngca.EstimateDim finds the true dimension m of the non-Gaussian index
// space, and its type-I error on Gaussian data, by m, sample size and
// setting (aligned, turned, ill-conditioned).
package dimstudy

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ngca-go/ngca/ngcatest"
	"gonum.org/v1/gonum/mat"
)

// Data describes a data set with m = 0 to 3 non-Gaussian dimensions, built
// from the paper's artificial data (a) (ngcatest.Artificial, with its noise of
// condition-number controller R): its two signal columns (Gaussian
// mixtures ½N(3, 1) + ½N(−3, 1), bimodal) are kept for m ≥ 2, only the
// first for m = 1, neither for m = 0 (replaced by N(0, 1) columns), and
// for m = 3 the first noise column is replaced by a uniform column of unit
// variance. With Rotate the data (and the truth) are then turned by a
// random rotation, which also makes the Gaussian part of m = 0 fully
// correlated.
type Data struct {
	M, N, D int
	R       float64
	Rotate  bool
}

// Sample draws the data set from src. It returns the n×d data and a d×m
// orthonormal basis of the true non-Gaussian index space (nil for m = 0).
func (c Data) Sample(src rand.Source) (x, truth *mat.Dense, err error) {
	if c.M < 0 || c.M > 3 || c.M >= c.D {
		return nil, nil, fmt.Errorf("dimstudy: M = %d, need 0 ≤ M ≤ 3 and M < D", c.M)
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
		x, truth = turn(rng, x, truth)
	}
	return x, truth, nil
}

// turn turns the rows of x (and the truth, a basis, if not nil) by a
// random rotation drawn from rng.
func turn(rng *rand.Rand, x, truth *mat.Dense) (*mat.Dense, *mat.Dense) {
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
