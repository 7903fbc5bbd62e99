package ngca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// test runs (or resumes) the test of k, stopping early once it can no
// longer reject, and records it as a decision of the search.
func (s *dimSearch) test(ctx context.Context, k int) (DimTest, error) {
	r, err := s.dimRun(ctx, k)
	if err != nil {
		return DimTest{}, err
	}
	s.pr.progress.begin(fmt.Sprintf("k=%d", k))
	if err := s.replicate(ctx, r); err != nil {
		return DimTest{}, err
	}
	t := r.decide(s.opts.Alpha, s.opts.Bootstrap)
	r.test = &t
	return t, nil
}

// remainder tests the d − k directions left after the first k by the
// Frobenius norm of FOBI's matrix, with all B replicates: those the test of
// k ran, and the rest drawn from the same seeds, of which only FOBI's
// matrix is needed.
func (s *dimSearch) remainder(ctx context.Context, k int) (DimTest, error) {
	r, err := s.dimRun(ctx, k)
	if err != nil {
		return DimTest{}, err
	}
	B := s.opts.Bootstrap
	s.pr.progress.begin("rest")
	s.pr.progress.report(len(r.reps), B)
	frobs := make([]float64, 0, B)
	for _, p := range r.reps {
		frobs = append(frobs, p.frob)
	}
	if len(frobs) < B {
		err := s.replicates(ctx, r, len(frobs), B, func(z *mat.Dense) pursuit {
			_, f := fobi(z)
			return pursuit{frob: f}
		}, func(p pursuit) bool {
			frobs = append(frobs, p.frob)
			s.pr.progress.report(len(frobs), B)
			return false
		}, s.pr.d-k)
		if err != nil {
			return DimTest{}, err
		}
	}
	t := DimTest{K: k, Statistic: r.data.frob, Replicates: len(frobs), Null: median(frobs)}
	for _, f := range frobs {
		if f >= r.data.frob {
			t.exceed++
		}
	}
	t.PValue = float64(1+t.exceed) / float64(len(frobs)+1)
	t.Rejected = t.PValue <= s.opts.Alpha
	return t, nil
}

// dimRun returns the run of k, starting it (the data's pursuit outside the
// k most non-Gaussian directions found, and the replicates' seeds, drawn
// from Src now) if needed.
func (s *dimSearch) dimRun(ctx context.Context, k int) (*dimRun, error) {
	if r, ok := s.runs[k]; ok {
		return r, nil
	}
	y, cols, err := s.complement(ctx, k)
	if err != nil {
		return nil, err
	}
	r := &dimRun{k: k, cols: cols, seeds: make([][2]uint64, s.opts.Bootstrap)}
	if k == 0 {
		r.data = s.firstPursuit()
	} else {
		r.data = pursue(y, cols)
	}
	for i := range r.seeds {
		r.seeds[i] = [2]uint64{s.pr.rng.Uint64(), s.pr.rng.Uint64()}
	}
	s.runs[k] = r
	return r, nil
}

// replicate runs the replicates of r not run yet, in parallel, until all B
// are done or the test can no longer reject. The stop is decided in the
// replicates' order, so where it falls does not depend on the workers; a
// replicate that started past it is discarded.
func (s *dimSearch) replicate(ctx context.Context, r *dimRun) error {
	B, start := s.opts.Bootstrap, len(r.reps)
	s.pr.progress.report(start, B)
	if start >= B || r.stopped(s.opts.Alpha, B) {
		return nil
	}
	q, cols := s.pr.d-r.k, r.cols
	return s.replicates(ctx, r, start, B, func(z *mat.Dense) pursuit {
		p := pursue(z, cols)
		p.u = nil
		return p
	}, func(p pursuit) bool {
		r.reps = append(r.reps, p)
		s.pr.progress.report(len(r.reps), B)
		return r.stopped(s.opts.Alpha, B)
	}, q)
}

// replicates computes stat on the data of replicates from, …, to − 1 of r
// in parallel and hands the results to keep in order until keep returns
// true.
func (s *dimSearch) replicates(ctx context.Context, r *dimRun, from, to int, stat func(*mat.Dense) pursuit, keep func(pursuit) bool, q int) error {
	todo := to - from
	out := make([]pursuit, todo)
	ready := make([]atomic.Bool, todo)
	var stop atomic.Bool
	next := 0
	err := parallelFor(ctx, s.pr.workers, todo, func(_, i int) error {
		if stop.Load() {
			return nil
		}
		seed := r.seeds[from+i]
		out[i] = stat(gaussianWhitened(rand.New(rand.NewPCG(seed[0], seed[1])), s.pr.n, q))
		ready[i].Store(true)
		return nil
	}, func() {
		for !stop.Load() && next < todo && ready[next].Load() {
			if keep(out[next]) {
				stop.Store(true)
			}
			next++
		}
	})
	if err != nil {
		return fmt.Errorf("ngca: EstimateDim: replicates of k = %d: %w", r.k, err)
	}
	return nil
}

// gaussianWhitened draws n rows of q independent N(0, 1) columns from rng
// and whitens them (centred, sample covariance I with the 1/n
// denominator, by the Cholesky factor). Whitened Gaussian data are
// distributed alike whatever the whitening, up to a rotation that the
// pursuit does not see, so these are the data of the null hypothesis.
func gaussianWhitened(rng *rand.Rand, n, q int) *mat.Dense {
	g := mat.NewDense(n, q, nil)
	raw := g.RawMatrix().Data
	for i := range raw {
		raw[i] = rng.NormFloat64()
	}
	z, ok := whitenRows(g)
	if !ok {
		// Not for n > q Gaussian rows (probability 0); a second draw is
		// as good.
		return gaussianWhitened(rng, n, q)
	}
	return z
}

// whitenRows centres the columns of g (changed) and returns g·U⁻¹, U the
// Cholesky factor of its covariance with the 1/n denominator, so that the
// result has mean 0 and covariance I; false if the covariance is not
// positive definite.
func whitenRows(g *mat.Dense) (*mat.Dense, bool) {
	n, q := g.Dims()
	mean := make([]float64, q)
	for i := 0; i < n; i++ {
		for j, v := range g.RawRowView(i) {
			mean[j] += v
		}
	}
	for i := 0; i < n; i++ {
		row := g.RawRowView(i)
		for j := range row {
			row[j] -= mean[j] / float64(n)
		}
	}
	var cov mat.SymDense
	cov.SymOuterK(1/float64(n), g.T())
	var chol mat.Cholesky
	if !chol.Factorize(&cov) {
		return nil, false
	}
	var u, inv mat.TriDense
	chol.UTo(&u)
	if err := inv.InverseTri(&u); err != nil {
		return nil, false
	}
	var z mat.Dense
	z.Mul(g, &inv)
	return &z, true
}

// stdDev returns the standard deviation of v (n − 1 denominator; 0 for
// fewer than 2 values).
func stdDev(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	var m, s float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)-1))
}
