package ngca

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// compareFrames fits the equivariant estimate's score model in the frame
// of comparisonFrame on the same folds as the axes estimate's stage 1, on
// every second value of its grids (as the selection: a coarser grid can
// only make the switch more reluctant), with the same null test (the minimum of a cross-validation grid is an
// optimistic estimate, and a test applied to one model only would hand
// that optimism to the other), and returns the paired z-score of the
// per-row held-out loss difference (negative favours the equivariant
// estimate).
func compareFrames(ctx context.Context, pr *prepared, bEq *mat.Dense, o robustSettings, ax *axesFit, rep *RobustReport, sw *stopwatch) (float64, error) {
	u, err := comparisonFrame(bEq, ax.cols, ax.selZ)
	if err != nil {
		return 0, err
	}
	var y mat.Dense
	y.Mul(pr.z, u)
	first := make([]int, len(ax.cols))
	for i := range first {
		first[i] = i
	}
	loss := make([]float64, pr.n)
	st := robustStage{stage: stage{name: "compare", x: &y, centers: pr.centersFrom(&y, inFrame(u, pr.d)), widths: everyOther(pr.widths),
		ridges: everyOther(pr.ridges), part: ax.part}, linear: true, kernelCols: first, nullZ: o.nullZ, lossOut: loss}
	_, cv, err := fitRobustStage(ctx, st, &pr.plan)
	if err != nil {
		return 0, err
	}
	rep.CV = append(rep.CV, cv)
	sw.lap("compare")
	return pairedZ(loss, ax.loss), nil
}

// comparisonFrame returns the orthonormal d×d frame u in which the
// equivariant estimate b (d×m) is compared with the axes estimate, whose
// kernels use the coordinates cols (k of them, increasing) chosen by the
// selection z-scores selZ. Every column of u is a smooth function of span(b)
// and of the data's axes, so that the comparison does not move with
// rounding (reliability.md, finding 12):
//
//   - Drop: the m coordinate axes D most in span(b), chosen greedily as the
//     pivots of a column-pivoted QR of bᵀ (ties to the smaller index).
//   - The first m columns are the orthonormal basis of span(b) closest to
//     e_D: q·V·Wᵀ with E_Dᵀq = WΣVᵀ, so that E_Dᵀu_{1..m} is symmetric.
//   - The other d−m columns are the axes S outside D with span(b)
//     projected out, orthonormalised symmetrically (Löwdin):
//     (I − qqᵀ)E_S·(E_Sᵀ(I − qqᵀ)E_S)^(−1/2), the orthonormal basis of the
//     complement closest to e_S. The k−m kernel coordinates of cols
//     outside D with the lowest selZ come first, so that the comparison
//     model's kernels use span(b) and the axes model's next most
//     significant coordinates.
//
// On data whose estimate lies along axes, u is those axes, and the two
// models differ only where the estimates do. It returns an ErrSingular
// error if b is not of full column rank.
func comparisonFrame(b *mat.Dense, cols []int, selZ []float64) (*mat.Dense, error) {
	d, m := b.Dims()
	q, ok := orthonormal(b)
	if !ok {
		return nil, fmt.Errorf("%w: robust WF-LSNGCA: the equivariant estimate lost rank", ErrSingular)
	}
	drop := pivotRows(q)
	// Turn q to the basis closest to e_D (the polar factor of E_Dᵀq).
	var svd mat.SVD
	if !svd.Factorize(rowsOf(q, drop), mat.SVDFull) {
		return nil, fmt.Errorf("%w: robust WF-LSNGCA: comparison frame", ErrSingular)
	}
	var wl, vr, rot, qr mat.Dense
	svd.UTo(&wl)
	svd.VTo(&vr)
	rot.Mul(&vr, wl.T())
	qr.Mul(q, &rot)
	// The axes outside D: the kernel coordinates with the lowest selZ
	// first, then the others, each group in increasing order.
	var extra, rest []int
	for _, c := range ascending(selZ) {
		if slices.Contains(cols, c) && !slices.Contains(drop, c) && len(extra) < len(cols)-m {
			extra = append(extra, c)
		}
	}
	slices.Sort(extra)
	for j := 0; j < d; j++ {
		if !slices.Contains(drop, j) && !slices.Contains(extra, j) {
			rest = append(rest, j)
		}
	}
	s := append(extra, rest...)
	w, err := lowdinComplement(&qr, s)
	if err != nil {
		return nil, err
	}
	u := mat.NewDense(d, d, nil)
	u.Slice(0, d, 0, m).(*mat.Dense).Copy(&qr)
	u.Slice(0, d, m, d).(*mat.Dense).Copy(w)
	return u, nil
}

// pivotRows returns the m rows of q (d×m) chosen greedily as pivots: at
// each step the row of largest norm after projecting out the rows already
// chosen (ties to the smaller index), in increasing order.
func pivotRows(q *mat.Dense) []int {
	d, m := q.Dims()
	r := mat.DenseCopyOf(q)
	var out []int
	for t := 0; t < m; t++ {
		best, bestNorm := -1, -1.0
		for i := 0; i < d; i++ {
			if v := mat.Norm(r.RowView(i), 2); v > bestNorm && !slices.Contains(out, i) {
				best, bestNorm = i, v
			}
		}
		out = append(out, best)
		p := mat.VecDenseCopyOf(r.RowView(best))
		if bestNorm > 0 {
			p.ScaleVec(1/bestNorm, p)
		}
		for i := 0; i < d; i++ {
			row := r.RowView(i).(*mat.VecDense)
			row.AddScaledVec(row, -mat.Dot(row, p), p)
		}
	}
	slices.Sort(out)
	return out
}

// lowdinComplement returns (I − qqᵀ)E_S·M^(−1/2), M = E_Sᵀ(I − qqᵀ)E_S =
// I − B·Bᵀ with B = E_Sᵀq, for q (d×m) orthonormal and the d−m axes s
// outside span(q)'s pivots: the orthonormal basis of the complement of
// span(q) closest to e_S. With BᵀB = VΛVᵀ, M^(−1/2) = I + B·V·F·Vᵀ·Bᵀ,
// F = diag(((1−λ)^(−1/2) − 1)/λ) = diag(1/(s(1 + s))), s = √(1−λ): a smooth
// function of B, formed without cancellation.
func lowdinComplement(q *mat.Dense, s []int) (*mat.Dense, error) {
	d, m := q.Dims()
	bs := rowsOf(q, s)
	var k mat.SymDense
	k.SymOuterK(1, bs.T())
	var eig mat.EigenSym
	if !eig.Factorize(&k, true) {
		return nil, fmt.Errorf("%w: robust WF-LSNGCA: comparison frame", ErrSingular)
	}
	var v mat.Dense
	eig.VectorsTo(&v)
	lam := eig.Values(nil)
	f := mat.NewDiagDense(m, nil)
	for i, t := range lam {
		if t >= 1-1e-10 {
			return nil, fmt.Errorf("%w: robust WF-LSNGCA: comparison frame", ErrSingular)
		}
		sq := math.Sqrt(1 - t)
		f.SetDiag(i, 1/(sq*(1+sq)))
	}
	// a = (I − qqᵀ)E_S = E_S − q·Bᵀ (d×(d−m)); w = a + (a·B)·(V·F·Vᵀ)·Bᵀ.
	a := mat.NewDense(d, len(s), nil)
	a.Mul(q, bs.T())
	a.Scale(-1, a)
	for c, j := range s {
		a.Set(j, c, a.At(j, c)+1)
	}
	var vf, g, ab, t, w mat.Dense
	vf.Mul(&v, f)
	g.Mul(&vf, v.T())
	ab.Mul(a, bs)
	t.Mul(&ab, &g)
	w.Mul(&t, bs.T())
	w.Add(&w, a)
	return &w, nil
}

// rowsOf returns the rows idx of a.
func rowsOf(a *mat.Dense, idx []int) *mat.Dense {
	_, c := a.Dims()
	out := mat.NewDense(len(idx), c, nil)
	for k, i := range idx {
		out.SetRow(k, a.RawRowView(i))
	}
	return out
}
