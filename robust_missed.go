package ngca

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// missedZ returns the evidence that the index space is not span(s), in
// the directions by which span(o) leaves it: both d×dim orthonormal bases
// in the whitened coordinates of yw. The directions are the k left
// singular vectors V of (I − ssᵀ)o whose singular values exceed missedTol
// (+Inf if there are none). In the frame x = y·[V s] the score of every
// coordinate of V is fitted with kernels on all k + dim coordinates on top
// of its Gaussian score −x_j, and missedZ is the most negative paired
// z-score of that model's held-out loss against the Gaussian score alone
// (NaN if the fit is singular). If span(s) is the index space, every
// coordinate of V is a standard normal independent of the others and of
// y·s, its score is −x_j, and the z-scores are those of a model with
// nothing to find.
func missedZ(ctx context.Context, yw *prepared, s, o *mat.Dense) (float64, error) {
	d, dim := s.Dims()
	var proj, res mat.Dense
	proj.Mul(s.T(), o)
	res.Mul(s, &proj)
	res.Sub(o, &res)
	var svd mat.SVD
	if !svd.Factorize(&res, mat.SVDThin) {
		return math.NaN(), nil
	}
	var v mat.Dense
	svd.UTo(&v)
	// Only the directions that do leave span(s): a singular vector of a
	// zero singular value is arbitrary, and may lie in span(s).
	k := 0
	for _, sv := range svd.Values(nil) {
		if sv > missedTol {
			k++
		}
	}
	if k == 0 {
		return math.Inf(1), nil
	}
	u := mat.NewDense(d, k+dim, nil)
	u.Slice(0, d, 0, k).(*mat.Dense).Copy(v.Slice(0, d, 0, k))
	u.Slice(0, d, k, k+dim).(*mat.Dense).Copy(s)
	var x mat.Dense
	x.Mul(yw.z, u)
	n, _ := x.Dims()
	gauss := mat.NewDense(n, k+dim, nil)
	gauss.Scale(-1, &x)
	z := make([]float64, k+dim)
	p := yw.plan
	p.progress = nil
	st := lsStage{name: "missed", x: &x, a: gauss, centers: yw.centersFrom(&x, inFrame(u, k+dim)),
		widths: everyOther(yw.widths), ridges: everyOther(yw.ridges), part: newPartition(yw.rng, n, yw.folds), noSelf: true, zOut: z}
	if _, _, err := fitStage(ctx, st, &p); errors.Is(err, ErrSingular) {
		return math.NaN(), nil
	} else if err != nil {
		return math.NaN(), err
	}
	m := math.Inf(1)
	for _, zk := range z[:k] {
		m = math.Min(m, zk)
	}
	return m, nil
}

// missedTol is the singular value of (I − ssᵀ)o below which missedZ
// counts a direction of span(o) as shared with span(s): a rank tolerance,
// far below any angle the estimates resolve.
const missedTol = 1e-8

// missedBoth fills rep's MissedAxes and MissedEquivariant (missedZ) for
// the axes estimate aw and the equivariant estimate eq (standardised
// coordinates): yw is the data in the whitened coordinates of wh, which
// aw is in.
func missedBoth(ctx context.Context, yw *prepared, wh whitening, eq, aw *mat.Dense, rep *RobustReport) error {
	ew, err := wh.toWhitened(eq)
	if err != nil {
		return err
	}
	aq, okA := orthonormal(aw)
	eqq, okE := orthonormal(ew)
	if !okA || !okE {
		return nil
	}
	if rep.detail.MissedAxes, err = missedZ(ctx, yw, aq, eqq); err != nil {
		return err
	}
	rep.detail.MissedEquivariant, err = missedZ(ctx, yw, eqq, aq)
	return err
}
