package ngca

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// whitening is the centring and symmetric whitening used by LSNGCA (and
// MIPP):
//
//	y = W·(z − μ),   W = Σ^(−1/2) = E·diag(e)^(−1/2)·Eᵀ,
//
// with Σ = E·diag(e)·Eᵀ the sample covariance (n−1 denominator) of the rows
// z. A non-Gaussian index space E_y of the whitened data corresponds to
// E_z = W·E_y (Sasaki, Niu and Sugiyama, AISTATS 2016).
type whitening struct {
	mean []float64
	w    *mat.SymDense
}

// newWhitening computes the whitening of the rows of z. It needs more rows
// than columns (ErrSamples otherwise). A covariance matrix
// whose smallest eigenvalue is not clearly positive (≤ d·ε·largest) cannot
// be whitened: that is LSNGCA's weakness on ill-conditioned data, and it is
// reported as ErrSingular rather than amplified into noise.
func newWhitening(z *mat.Dense) (whitening, error) {
	n, d := z.Dims()
	wh := whitening{mean: make([]float64, d)}
	if n <= d {
		return wh, fmt.Errorf("%w: %d rows for %d columns; whitening needs more rows than columns", ErrSamples, n, d)
	}
	for j := 0; j < d; j++ {
		var s float64
		for i := 0; i < n; i++ {
			s += z.At(i, j)
		}
		wh.mean[j] = s / float64(n)
	}
	c := wh.center(z)
	var cov mat.SymDense
	cov.SymOuterK(1/float64(n-1), c.T())
	return whiteningOf(wh.mean, &cov)
}

// whiteningOf returns the whitening of data with column means mean and
// sample covariance cov (d×d), with newWhitening's checks of cov.
func whiteningOf(mean []float64, cov *mat.SymDense) (whitening, error) {
	d := len(mean)
	wh := whitening{mean: mean}
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return wh, fmt.Errorf("%w: eigendecomposition of the covariance did not converge", ErrSingular)
	}
	e := eig.Values(nil)
	if !(e[0] > float64(d)*eps*e[d-1]) {
		return wh, fmt.Errorf("%w: covariance matrix is not positive definite (eigenvalues %.3g to %.3g); cannot whiten", ErrSingular, e[0], e[d-1])
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	wh.w = mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			var s float64
			for k := 0; k < d; k++ {
				s += vecs.At(i, k) * vecs.At(j, k) / math.Sqrt(e[k])
			}
			wh.w.SetSym(i, j, s)
		}
	}
	return wh, nil
}

// center returns z − 1μᵀ.
func (wh whitening) center(z mat.Matrix) *mat.Dense {
	n, d := z.Dims()
	c := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			c.Set(i, j, z.At(i, j)-wh.mean[j])
		}
	}
	return c
}

// apply returns the whitened rows (z − 1μᵀ)·W.
func (wh whitening) apply(z *mat.Dense) *mat.Dense {
	c := wh.center(z)
	var y mat.Dense
	y.Mul(c, wh.w)
	return &y
}

// unwhiten returns W·b, mapping a basis of E_y to one of E_z.
func (wh whitening) unwhiten(b mat.Matrix) *mat.Dense {
	var out mat.Dense
	out.Mul(wh.w, b)
	return &out
}

// toWhitened returns W⁻¹·b, mapping a basis of E_z to one of E_y, by a
// Cholesky solve with the symmetric positive definite W.
func (wh whitening) toWhitened(b mat.Matrix) (*mat.Dense, error) {
	var ch mat.Cholesky
	var out mat.Dense
	if !ch.Factorize(wh.w) || ch.SolveTo(&out, b) != nil {
		return nil, fmt.Errorf("%w: whitening matrix is singular", ErrSingular)
	}
	return &out, nil
}
