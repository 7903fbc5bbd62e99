package ngca

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/ngca-go/ngca/internal/defaults"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// eqFit is the robust variant's equivariant estimate.
type eqFit struct {
	basis *mat.Dense // d×dim orthonormal, standardised coordinates
	wh    whitening  // the whitening it was refined in
	tilt  tiltFit    // its last refinement
	yw    *prepared  // the data in the whitened coordinates of wh
	// refined is false if the estimate is MIPP's start, which the
	// refinement did not move significantly or could not refine
	// (unrefinable); tilt is then unset if unrefinable.
	refined, unrefinable bool
}

// tiltFit is one refinement of a frame u (whitened coordinates): the tilt
// Δ̂ ((d−dim)×dim) of the index space toward the frame's other
// coordinates, and the covariance of vec(Δ̂) (row by row) under the
// hypothesis that the frame is the index space (tiltCovariance).
type tiltFit struct {
	u, delta *mat.Dense
	cov      *mat.SymDense
}

// equivariantEstimate starts from MIPP (default settings, on the rows sub
// of the data, all rows if sub is nil) and refines
// the frame defaults.RobustRounds times (alignStep), both in the whitened
// coordinates y = W(z − μ) of the standardised data, where every direction
// has unit variance, so that each refinement is a well-conditioned
// regression whatever the conditioning of the data. Its index space E_y
// maps back as E_z = W·E_y.
func equivariantEstimate(ctx context.Context, pr *prepared, wh whitening, dim int, sub []int, rep *RobustReport, sw *stopwatch) (*eqFit, error) {
	yw := whitenedData(pr, wh)
	ef := &eqFit{wh: wh, yw: yw}
	fams, iters, tau, err := (&MIPP{}).settings()
	if err != nil {
		return nil, err
	}
	b, eig, _, err := mippEstimate(ctx, rowsOf(yw.z, sub), dim, fams, iters, tau, &pr.plan, sw)
	if err != nil {
		return nil, fmt.Errorf("robust WF-LSNGCA: equivariant start: %w", err)
	}
	rep.detail.StartEigenvalues = eig
	start := wh.unwhiten(b)
	sq, ok := orthonormal(start)
	if !ok {
		return nil, fmt.Errorf("%w: robust WF-LSNGCA: the start lost rank", ErrSingular)
	}
	for r := 0; r < defaults.RobustRounds; r++ {
		var cv stageCV
		b, cv, err = alignStep(ctx, yw, completeFrame(b), dim, fmt.Sprintf("align %d", r+1), &ef.tilt)
		if cv.Name != "" {
			rep.cv = append(rep.cv, cv)
		}
		if errors.Is(err, ErrSingular) {
			// The regression cannot separate the frame coordinates'
			// kernel parts from their linear part, as when one of them
			// takes two values only, so that every function of it is
			// linear: MIPP's start stays the estimate.
			ef.basis, ef.unrefinable, ef.tilt = sq, true, tiltFit{}
			sw.lap("align")
			return ef, nil
		}
		if err != nil {
			return nil, err
		}
	}
	q, ok := orthonormal(wh.unwhiten(b))
	if !ok {
		return nil, fmt.Errorf("%w: robust WF-LSNGCA: the refined frame lost rank", ErrSingular)
	}
	ef.basis = q
	// The refinement replaces MIPP's estimate only if it moved it by more
	// than its own sampling error: W(start) > DF, the mean of χ²_DF. On
	// heavy-tailed signals the refinement is no more precise than MIPP and
	// now and then drifts away from it (docs/robust.md).
	if w, df := ef.wald(sq); w <= float64(df) {
		ef.basis, ef.refined = sq, false
	} else {
		ef.refined = true
	}
	sw.lap("align")
	return ef, nil
}

// whitenedData returns pr with its data (and explicit centers) in the
// whitened coordinates of wh.
func whitenedData(pr *prepared, wh whitening) *prepared {
	yw := *pr
	yw.z = wh.apply(pr.z)
	if pr.explicit != nil {
		yw.explicit = wh.apply(pr.explicit)
	}
	return &yw
}

// alignStep refines the frame u (d×d orthonormal; its first dim columns
// span the current estimate): in y = x·u it fits the first dim
// coordinates' scores with kernels on those coordinates only and a linear
// part in all of y, then fits every other coordinate's score by the same
// objective as g_j = Δ_jᵀh(y_U) + a_jᵀy + c_j, h the first fit's kernel
// parts. To first order in the frame's error, the score of coordinate j
// is exactly of that form with Δ_j the tilt of the index space toward
// coordinate j, so it returns the corrected basis u·[I; Δ] (d×dim), and
// sets tf to the frame, the tilt and its covariance.
func alignStep(ctx context.Context, pr *prepared, u *mat.Dense, dim int, name string, tf *tiltFit) (*mat.Dense, stageCV, error) {
	var y mat.Dense
	y.Mul(pr.z, u)
	n, d := y.Dims()
	yu := mat.DenseCopyOf(y.Slice(0, n, 0, dim))
	st := lsStage{name: name, x: yu, centers: pr.centersFrom(yu, inFrame(u, dim)), widths: everyOther(pr.widths),
		ridges: everyOther(pr.ridges), part: newPartition(pr.rng, n, pr.folds), noSelf: true, linear: true, linX: &y}
	g, cv, err := fitStage(ctx, st, &pr.plan)
	if err != nil {
		return nil, cv, err
	}
	h := mat.NewDense(n, dim, nil) // the kernel parts h(y_U)
	if err := g.kern.eval(ctx, pr.workers, yu, h, nil); err != nil {
		return nil, cv, err
	}
	// One Gram matrix G of the features F = (h, y, 1) serves every row:
	// the objective ½E[g_j²] + E[∂_j g_j] of g_j = −β_jᵀF has
	// G·β_j = E[∂_j F] = e_j in the y block.
	q := dim + d + 1
	f := mat.NewDense(n, q, nil)
	for i := 0; i < n; i++ {
		row := f.RawRowView(i)
		copy(row, h.RawRowView(i))
		copy(row[dim:], y.RawRowView(i))
		row[dim+d] = 1
	}
	var gram mat.SymDense
	gram.SymOuterK(1/float64(n), f.T())
	var ch mat.Cholesky
	if !ch.Factorize(&gram) {
		return nil, cv, fmt.Errorf("%w: robust WF-LSNGCA: frame refinement is singular", ErrSingular)
	}
	// Right-hand sides: e_k for the first dim columns (the h block of G⁻¹,
	// for the covariance), e_dim+j for column j ≥ dim (tilt regression j).
	rhs := mat.NewDense(q, d, nil)
	for j := 0; j < d; j++ {
		if j < dim {
			rhs.Set(j, j, 1)
		} else {
			rhs.Set(dim+j, j, 1)
		}
	}
	var beta mat.Dense
	if err := ch.SolveTo(&beta, rhs); err != nil {
		return nil, cv, fmt.Errorf("%w: robust WF-LSNGCA: frame refinement is singular", ErrSingular)
	}
	corr := mat.NewDense(d, dim, nil)
	for k := 0; k < dim; k++ {
		corr.Set(k, k, 1)
	}
	for j := dim; j < d; j++ {
		for k := 0; k < dim; k++ {
			corr.Set(j, k, -beta.At(k, j))
		}
	}
	tf.cov = tiltCovariance(f, &beta, dim)
	ai, err := scoreScale(ctx, pr.workers, g.kern, yu, &ch, d)
	if err != nil {
		return nil, cv, err
	}
	rest := corr.Slice(dim, d, 0, dim).(*mat.Dense)
	var cal mat.Dense
	cal.Mul(rest, ai.T()) // row j: (A⁻¹Δ̂_j)ᵀ
	rest.Copy(&cal)
	tf.cov = blockTransform(tf.cov, ai)
	var b mat.Dense
	b.Mul(u, corr)
	tf.u, tf.delta = u, mat.DenseCopyOf(corr.Slice(dim, d, 0, dim))
	return &b, cv, nil
}

// scoreScale returns A⁻¹, where A (dim×dim) maps the kernel parts h of
// the frame coordinates' score models to the scores themselves, s ≈ Aᵀh:
// column k of A is the h block of the same regression for the frame
// coordinate k, whose objective's linear term is E[∂_k F] = (E[∂_k h],
// e_k, 0). A ridge-penalised h is shrunk toward zero, and the tilt
// regression on it overshoots by A: the score of coordinate j is
// δ_jᵀs ≈ (Aδ_j)ᵀh, so the tilt is δ_j = A⁻¹Δ̂_j. Without this, the
// refinement of heavy-tailed signals with few rows overshoots and drifts
// away from its start (docs/robust.md). ch factorises the features' Gram
// matrix G; d is the frame's dimension.
func scoreScale(ctx context.Context, workers int, m *derivModel, yu *mat.Dense, ch *mat.Cholesky, d int) (*mat.Dense, error) {
	_, dim := yu.Dims()
	mean, err := m.meanJacobian(ctx, workers, yu)
	if err != nil {
		return nil, err
	}
	rhs := mat.NewDense(dim+d+1, dim, nil)
	for k := 0; k < dim; k++ {
		for l := 0; l < dim; l++ {
			rhs.Set(l, k, mean.At(l, k))
		}
		rhs.Set(dim+k, k, 1)
	}
	var beta mat.Dense
	if err := ch.SolveTo(&beta, rhs); err != nil {
		return nil, fmt.Errorf("%w: robust WF-LSNGCA: frame refinement is singular", ErrSingular)
	}
	a := mat.NewDense(dim, dim, nil)
	a.Scale(-1, beta.Slice(0, dim, 0, dim))
	var ai mat.Dense
	if err := ai.Inverse(a); err != nil {
		return nil, fmt.Errorf("%w: robust WF-LSNGCA: the frame coordinates' kernel parts do not explain their scores", ErrSingular)
	}
	return &ai, nil
}

// blockTransform returns B·cov·Bᵀ for B = diag(t, t, …), the covariance
// of vec(Δ) after every row Δ_j becomes t·Δ_j.
func blockTransform(cov *mat.SymDense, t *mat.Dense) *mat.SymDense {
	p := cov.SymmetricDim()
	dim, _ := t.Dims()
	big := mat.NewDense(p, p, nil)
	for j := 0; j < p; j += dim {
		big.Slice(j, j+dim, j, j+dim).(*mat.Dense).Copy(t)
	}
	var tmp mat.Dense
	tmp.Mul(big, cov)
	out := mat.NewSymDense(p, nil)
	for r := 0; r < p; r++ {
		for c := r; c < p; c++ {
			out.SetSym(r, c, mat.Dot(tmp.RowView(r), big.RowView(c)))
		}
	}
	return out
}

// wald returns the Wald statistic of the hypothesis that the index space
// is span(a) (d×dim, standardised coordinates), W = (t − δ)ᵀ Cov(δ)⁻¹ (t − δ)
// with δ = vec(Δ̂) the last refinement's tilt and t the tilt of span(a)
// in the same frame, and its degrees of freedom (d − dim)·dim. W is +Inf
// if span(a) has no tilt in that frame (it is orthogonal to part of the
// frame's first dim coordinates) or the covariance is singular.
func (ef *eqFit) wald(a *mat.Dense) (float64, int) { return ef.tilt.wald(ef.wh, a) }

// wald is eqFit.wald for the tilt tf of a frame in the whitened
// coordinates of wh.
func (tf *tiltFit) wald(wh whitening, a *mat.Dense) (float64, int) {
	d, dim := a.Dims()
	p := (d - dim) * dim
	aw, err := wh.toWhitened(a)
	if err != nil {
		return math.Inf(1), p
	}
	// In the frame, span(a) = span([A_U; A_R]) = span([I; A_R·A_U⁻¹]).
	var au, tt mat.Dense
	au.Mul(tf.u.T(), aw)
	if err := tt.Solve(au.Slice(0, dim, 0, dim).T(), au.Slice(dim, d, 0, dim).T()); err != nil {
		return math.Inf(1), p
	}
	diff := mat.NewVecDense(p, nil)
	for j := 0; j < d-dim; j++ {
		for k := 0; k < dim; k++ {
			diff.SetVec(j*dim+k, tt.At(k, j)-tf.delta.At(j, k))
		}
	}
	var ch mat.Cholesky
	var sol mat.VecDense
	if !ch.Factorize(tf.cov) || ch.SolveVecTo(&sol, diff) != nil {
		return math.Inf(1), p
	}
	return mat.Dot(diff, &sol), p
}

// tiltCovariance returns the covariance of vec(Δ̂) under the hypothesis
// that the frame's first dim coordinates span the index space, from the
// features f (n×q) and beta = G⁻¹·[E_h, e_dim+j …] (q×d). Each tilt row
// solves the estimating equation (1/n)Σᵢ F_i F_iᵀβ_j = e_dim+j, so that
// Cov(β̂_j, β̂_l)'s h block is the covariance over rows of g_ij·u_i/n, with
// g_ij = F_iᵀβ_j and u_i = (G⁻¹F_i)_h. Under the hypothesis, in whitened
// coordinates every other coordinate's score is linear and independent of
// the frame coordinates, and u_i, the kernel parts net of their regression
// on (y, 1), is to first order a function of the frame coordinates alone,
// so the expectation factors, E[g_j g_l u uᵀ] = E[g_j g_l]·E[u uᵀ], and
//
//	Cov(vec Δ̂) = (S_g ⊗ (G⁻¹)_hh)/n,
//
// S_g = (1/n)Σᵢ g_i g_iᵀ and E[u uᵀ] = (G⁻¹)_hh, the h block of beta. This
// is the covariance of a score test: estimated under the hypothesis, it
// needs second moments only, where the sandwich estimate of the
// products' covariance needs fourth moments and is too small on
// heavy-tailed signals (docs/robust.md).
func tiltCovariance(f, beta *mat.Dense, dim int) *mat.SymDense {
	n, _ := f.Dims()
	q, d := beta.Dims()
	var g mat.Dense
	g.Mul(f, beta.Slice(0, q, dim, d)) // n×(d−dim)
	var sg mat.SymDense
	sg.SymOuterK(1/float64(n), g.T())
	for j := 0; j < d-dim; j++ { // S_g/n
		for l := j; l < d-dim; l++ {
			sg.SetSym(j, l, sg.At(j, l)/float64(n))
		}
	}
	// S_g and the h block of G⁻¹ are symmetric, so is their product.
	var cov mat.Dense
	cov.Kronecker(&sg, beta.Slice(0, dim, 0, dim))
	return mat.NewSymDense((d-dim)*dim, cov.RawMatrix().Data)
}

// axesTest is the test of the axes estimate axes (standardised
// coordinates; aw in the whitened coordinates of eq): one more refinement
// step of the equivariant estimate eq, at the axes estimate's own frame,
// whose tilt is zero if the axes estimate is the index space. It fills
// rep's Wald, DF and P (the Wald statistic of that tilt against χ² with
// its degrees of freedom) and appends the step's stage to rep's CV. A
// singular step (the frame's kernel parts explain nothing the linear part
// does not) is no evidence for the axes estimate: Wald = +Inf with df
// degrees of freedom, P = 0.
func axesTest(ctx context.Context, eq *eqFit, axes, aw *mat.Dense, dim, df int, rep *RobustReport) error {
	var test tiltFit
	_, cv, err := alignStep(ctx, eq.yw, completeFrame(aw), dim, "test", &test)
	if cv.Name != "" {
		rep.cv = append(rep.cv, cv)
	}
	if errors.Is(err, ErrSingular) {
		rep.detail.Wald, rep.detail.DF, rep.P = math.Inf(1), df, 0
		return nil
	}
	if err != nil {
		return err
	}
	rep.detail.Wald, rep.detail.DF = test.wald(eq.wh, axes)
	rep.P = 1 - distuv.ChiSquared{K: float64(rep.detail.DF)}.CDF(rep.detail.Wald)
	return nil
}
