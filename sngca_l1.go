package ngca

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// sngcaConvex is the convex projection of SNGCA (a reconstruction of
// Diederichs, Juditsky, Spokoiny and Schütte, 2010): for every probe ξ
// (a column of probes, unit length, metric coordinates)
//
//	ĉ = argmin ‖ξ − Ψc‖²  subject to  Γc = 0,  ‖c‖₁ ≤ 1,
//
// with Ψ scaled so that its largest column has unit norm, and β = Ψĉ. The
// estimate is the leading Dim eigenvectors of (1/J)Σββᵀ over the J probes.
// Each probe is solved by ADMM (Boyd et al., 2011, §5) on c = w, c in
// the null space of Γ and w in the ℓ1 ball:
//
//	c ← (RᵀR + ρI)⁻¹(Rᵀξ + ρ·Π(w − u)),   R = ΨΠ, Π = I − QQᵀ, Q = range(Γᵀ)
//	w ← the projection of c + u onto the ℓ1 ball
//	u ← u + c − w
//
// where the L×L inverse is applied through the d×d matrix ρI + RRᵀ
// (Woodbury), stopped when the primal residual ‖c − w‖ and the dual
// residual ρ‖Δw‖ are below Tol relative to their scales.
func sngcaConvex(ctx context.Context, workers int, vec sngcaVectors, probes *mat.Dense, dim int, rep *SNGCAReport) (sngcaPass, error) {
	adm, err := newSNGCAADMM(vec)
	if err != nil {
		return sngcaPass{}, err
	}
	d, j := probes.Dims()
	betas := mat.NewDense(j, d, nil)
	iters := make([]int, j)
	gaps := make([]float64, j)
	err = parallelFor(ctx, workers, j, func(_, p int) error {
		iters[p], gaps[p] = adm.solve(mat.Col(nil, p, probes), betas.RawRowView(p), rep.maxIter, rep.tol)
		return nil
	}, nil)
	if err != nil {
		return sngcaPass{}, err
	}
	res := sngcaPass{converged: true}
	for p := range iters {
		res.iterations = max(res.iterations, iters[p])
		res.gap = math.Max(res.gap, gaps[p])
	}
	res.converged = res.gap <= rep.tol
	identity := func(b mat.Matrix) *mat.Dense { return mat.DenseCopyOf(b) }
	res.basis, res.eig, err = basisFrom(betas, dim, identity, "projected probes β")
	return res, err
}

// sngcaADMM holds what every probe's ADMM shares.
type sngcaADMM struct {
	r   *mat.Dense   // R = ΨΠ, d×L
	q   *mat.Dense   // Q, L×(d+1)
	k   mat.Cholesky // ρI + RRᵀ
	rho float64
}

func newSNGCAADMM(vec sngcaVectors) (*sngcaADMM, error) {
	r := vec.residuals()
	d, l := r.Dims()
	var big float64
	for c := 0; c < l; c++ {
		big = math.Max(big, mat.Norm(r.ColView(c), 2))
	}
	if !(big > 0) || math.IsInf(big, 1) {
		return nil, fmt.Errorf("%w: SNGCA: every constrained test-function vector vanished", ErrSingular)
	}
	r.Scale(1/big, r)
	a := &sngcaADMM{r: r, q: rangeBasis(vec.gamma), rho: 1}
	var rr mat.SymDense
	rr.SymOuterK(1, a.r)
	for i := 0; i < d; i++ {
		rr.SetSym(i, i, rr.At(i, i)+a.rho)
	}
	if !a.k.Factorize(&rr) {
		return nil, fmt.Errorf("%w: SNGCA: ρI + RRᵀ is not positive definite", ErrSingular)
	}
	return a, nil
}

// solve runs ADMM for the probe xi, writes β = Rĉ to beta and returns the
// iterations and the larger relative residual at the end.
func (a *sngcaADMM) solve(xi, beta []float64, maxIter int, tol float64) (int, float64) {
	d, l := a.r.Dims()
	rtx := mat.NewVecDense(l, nil)
	rtx.MulVec(a.r.T(), mat.NewVecDense(d, xi))
	c, w, u := mat.NewVecDense(l, nil), mat.NewVecDense(l, nil), mat.NewVecDense(l, nil)
	v, rhs, tmp := mat.NewVecDense(l, nil), mat.NewVecDense(l, nil), mat.NewVecDense(l, nil)
	small, qv := mat.NewVecDense(d, nil), mat.NewVecDense(a.q.RawMatrix().Cols, nil)
	scale := math.Max(mat.Norm(rtx, 2), 1e-300)
	var it int
	var worst float64
	for it = 1; it <= maxIter; it++ {
		// rhs = Rᵀξ + ρΠ(w − u); c = (rhs − Rᵀ(ρI + RRᵀ)⁻¹R·rhs)/ρ.
		v.SubVec(w, u)
		qv.MulVec(a.q.T(), v)
		tmp.MulVec(a.q, qv)
		v.SubVec(v, tmp)
		rhs.AddScaledVec(rtx, a.rho, v)
		small.MulVec(a.r, rhs)
		if err := a.k.SolveVecTo(small, small); err != nil {
			break
		}
		tmp.MulVec(a.r.T(), small)
		c.SubVec(rhs, tmp)
		c.ScaleVec(1/a.rho, c)

		prev := mat.VecDenseCopyOf(w)
		tmp.AddVec(c, u)
		projectL1Ball(w, tmp)
		u.AddVec(u, c)
		u.SubVec(u, w)

		tmp.SubVec(c, w)
		primal := mat.Norm(tmp, 2) / math.Max(math.Max(mat.Norm(c, 2), mat.Norm(w, 2)), 1e-300)
		tmp.SubVec(w, prev)
		dual := a.rho * mat.Norm(tmp, 2) / math.Max(a.rho*mat.Norm(u, 2), scale)
		if worst = math.Max(primal, dual); worst <= tol {
			break
		}
	}
	out := mat.NewVecDense(d, beta)
	out.MulVec(a.r, c)
	return min(it, maxIter), worst
}

// projectL1Ball sets dst to the Euclidean projection of v onto the unit ℓ1
// ball: v itself if ‖v‖₁ ≤ 1, else sign(v)·(the projection of |v| onto the
// simplex).
func projectL1Ball(dst, v *mat.VecDense) {
	n := v.Len()
	abs := make([]float64, n)
	var l1 float64
	for i := 0; i < n; i++ {
		abs[i] = math.Abs(v.AtVec(i))
		l1 += abs[i]
	}
	if l1 <= 1 {
		dst.CopyVec(v)
		return
	}
	p := projectSimplex(abs)
	for i := 0; i < n; i++ {
		dst.SetVec(i, math.Copysign(p[i], v.AtVec(i)))
	}
}
