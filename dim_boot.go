package ngca

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// dimBatch is the number of bootstrap replicates run between two checks of
// the early stop. It is fixed, not the number of workers, so that where a
// test stops does not depend on the workers.
const dimBatch = 8

// test runs the bootstrap test of "k non-Gaussian dimensions".
func (s *dimSearch) test(ctx context.Context, k int) (DimTest, error) {
	t := DimTest{K: k, Statistic: s.rep.Eigenvalues[k]}
	var basis *mat.Dense
	if k > 0 {
		r, err := s.dataFit(ctx, k)
		if err != nil {
			return t, err
		}
		basis = r.Basis
	}
	s.pr.progress.begin(fmt.Sprintf("k=%d", k))
	smp, err := newNullSampler(s.pr.z, basis)
	if err != nil {
		return t, err
	}
	B := s.opts.Bootstrap
	seeds := make([][2]uint64, B)
	for i := range seeds {
		seeds[i] = [2]uint64{s.pr.rng.Uint64(), s.pr.rng.Uint64()}
	}
	stop := max(1, int(math.Floor(s.opts.Alpha*float64(B+1))))
	stats := make([]float64, 0, B)
	for start := 0; start < B && t.Exceed < stop; start += dimBatch {
		batch := seeds[start:min(B, start+dimBatch)]
		out := make([]float64, len(batch))
		err := parallelFor(ctx, s.pr.workers, len(batch), func(_, i int) error {
			v, err := s.replicate(ctx, smp, k, batch[i])
			out[i] = v
			if err != nil {
				return fmt.Errorf("ngca: EstimateDim: bootstrap replicate %d of k = %d: %w", start+i+1, k, err)
			}
			return nil
		}, nil)
		if err != nil {
			return t, err
		}
		for _, v := range out {
			if v >= t.Statistic {
				t.Exceed++
			}
		}
		stats = append(stats, out...)
		s.pr.progress.report(len(stats), B)
	}
	t.Replicates = len(stats)
	t.Null = median(stats)
	if t.Replicates == B {
		t.PValue = float64(1+t.Exceed) / float64(B+1)
	} else {
		t.PValue = float64(t.Exceed) / float64(t.Replicates)
	}
	t.Rejected = t.PValue <= s.opts.Alpha
	return t, nil
}

// replicate draws one bootstrap data set from smp with the given seed,
// fits the tested estimator to it (one goroutine) and returns λ_{k+1}.
func (s *dimSearch) replicate(ctx context.Context, smp *nullSampler, k int, seed [2]uint64) (float64, error) {
	rng := rand.New(rand.NewPCG(seed[0], seed[1]))
	xs := smp.draw(rng)
	est := s.tester.make(1, rand.NewPCG(rng.Uint64(), rng.Uint64()), 1, nil)
	r, err := est.Fit(ctx, xs)
	var few *fewKeptError
	if errors.As(err, &few) {
		// No index function passed MIPP's threshold: the matrix of kept
		// vectors is empty, and its every eigenvalue, T* too, is zero.
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if len(r.Eigenvalues) <= k {
		return 0, fmt.Errorf("%w: %s returned no spectrum", ErrSingular, s.tester.label)
	}
	return r.Eigenvalues[k], nil
}

// median returns the median of v (NaN if v is empty); v is not changed.
func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	w := slices.Clone(v)
	slices.Sort(w)
	h := len(w) / 2
	if len(w)%2 == 1 {
		return w[h]
	}
	return (w[h-1] + w[h]) / 2
}

// nullSampler draws data sets whose projection on a subspace E has the
// distribution of the data's and whose remaining part is Gaussian: with S
// the sample covariance of z (n×d, centred), P = SE(EᵀSE)⁻¹Eᵀ and
// C = S − SE(EᵀSE)⁻¹EᵀS, a row is P·z_j + C^(1/2)·g for a row j drawn
// with replacement and g ~ N(0, I). P·z_j is the conditional mean of z
// given Eᵀz = Eᵀz_j and C the conditional covariance of a Gaussian with
// covariance S, so the rows have covariance S and the non-Gaussian index
// space E. With no subspace (k = 0) the rows are N(0, S).
type nullSampler struct {
	z    *mat.Dense // the data
	p    *mat.Dense // Pᵀ (d×d), nil for k = 0
	root *mat.Dense // (C^(1/2))ᵀ (d×d), C = V·diag(c)·Vᵀ, C^(1/2) = V·diag(√c)
}

// newNullSampler prepares the sampler of the standardised data z for the
// subspace spanned by the columns of e (d×k, or nil for k = 0).
func newNullSampler(z, e *mat.Dense) (*nullSampler, error) {
	n, d := z.Dims()
	mean := make([]float64, d)
	for j := range mean {
		mean[j] = mat.Sum(z.ColView(j)) / float64(n)
	}
	zc := mat.DenseCopyOf(z)
	for i := 0; i < n; i++ {
		row := zc.RawRowView(i)
		for j := range row {
			row[j] -= mean[j]
		}
	}
	var cov mat.SymDense
	cov.SymOuterK(1/float64(n-1), zc.T())
	smp := &nullSampler{z: zc}
	c := mat.NewSymDense(d, nil)
	c.CopySym(&cov)
	if e != nil {
		var se, ese, inv, pt mat.Dense
		se.Mul(&cov, e)     // SE, d×k
		ese.Mul(e.T(), &se) // EᵀSE, k×k
		if err := inv.Inverse(&ese); err != nil {
			return nil, fmt.Errorf("%w: EstimateDim: the estimated subspace has a singular covariance", ErrSingular)
		}
		var q mat.Dense
		q.Mul(&se, &inv) // SE(EᵀSE)⁻¹
		pt.Mul(e, q.T()) // Pᵀ = E(EᵀSE)⁻¹(SE)ᵀ
		smp.p = &pt
		var sub mat.Dense
		sub.Mul(&q, se.T())
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				c.SetSym(i, j, c.At(i, j)-(sub.At(i, j)+sub.At(j, i))/2)
			}
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(c, true) {
		return nil, fmt.Errorf("%w: EstimateDim: eigendecomposition did not converge", ErrSingular)
	}
	vals := eig.Values(nil)
	var v mat.Dense
	eig.VectorsTo(&v)
	root := mat.NewDense(d, d, nil)
	for a := 0; a < d; a++ {
		s := math.Sqrt(math.Max(vals[a], 0))
		for i := 0; i < d; i++ {
			root.Set(a, i, s*v.At(i, a))
		}
	}
	smp.root = root
	return smp, nil
}

// draw returns one data set of the sampler's shape.
func (s *nullSampler) draw(rng *rand.Rand) *mat.Dense {
	n, d := s.z.Dims()
	g := mat.NewDense(n, d, nil)
	raw := g.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.NormFloat64()
	}
	out := mat.NewDense(n, d, nil)
	out.Mul(g, s.root)
	if s.p == nil {
		return out
	}
	rows := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		rows.SetRow(i, s.z.RawRowView(rng.IntN(n)))
	}
	var sig mat.Dense
	sig.Mul(rows, s.p)
	out.Add(out, &sig)
	return out
}
