package ngca

import (
	"context"
	"math"
	"sort"

	"github.com/ngca-go/ngca/internal/defaults"
	"gonum.org/v1/gonum/mat"
)

// axesEstimate selects the kernel coordinates and runs Algorithm 1's
// two stages with the variant's extensions: the Gaussian score of the
// sample covariance under stage 1's kernel part, kernels on the selected
// coordinates, no self-pairs and the null test in both. It returns the
// basis in standardised coordinates and fills rep's KernelCoords,
// SelectZ, MarginalZ, NullCoords, AxesEigenvalues and CV.
//
// The selection ranks every coordinate j by two screens, each the paired
// z-score of the per-row held-out loss of a score model with a kernel part
// against the same model without it (the Gaussian score of the sample
// covariance), on one partition and every second value of the grids
// (ranking needs less resolution than fitting): the joint screen fits the
// score of coordinate j with kernels on all coordinates (a stage-1 fit in
// the data's axes), which sees a coordinate whose score depends on others
// but blurs as d grows; the marginal screen with a kernel on coordinate j
// alone, which sees a non-Gaussian marginal at any d. The Dim +
// defaults.RobustExtraCoords coordinates with the most negative of their two
// z-scores are kept. Both
// screens run on the rows sub of the data (all rows if sub is nil).
func axesEstimate(ctx context.Context, pr *prepared, wh whitening, dim int, nullZ float64, sub []int, rep *RobustReport, sw *stopwatch) (*mat.Dense, error) {
	// g_j = f_j + ℓ_j with ℓ(x) = −Σ̂⁻¹x: the stage objective's offset a
	// (stage.go) is ℓ, and stage 2's a = ∇g_jᵀx includes it.
	var prec mat.Dense
	prec.Mul(wh.w, wh.w)
	gauss := mat.NewDense(pr.n, pr.d, nil)
	gauss.Mul(wh.center(pr.z), &prec)
	gauss.Scale(-1, gauss)
	lin := make([]float64, pr.d*(pr.d+1))
	for j := 0; j < pr.d; j++ {
		for l := 0; l < pr.d; l++ {
			lin[j*(pr.d+1)+l] = -prec.At(j, l)
		}
	}

	centers := pr.centersFrom(pr.z, nil)
	z := make([]float64, pr.d)
	sz, sg := rowsOf(pr.z, sub), rowsOf(gauss, sub)
	sn, _ := sz.Dims()
	part := newPartition(pr.rng, sn, pr.folds)
	sel := lsStage{name: "select", x: sz, a: sg, centers: centers, widths: everyOther(pr.widths),
		ridges: everyOther(pr.ridges), part: part, noSelf: true, zOut: z}
	_, cvSel, err := fitStage(ctx, sel, &pr.plan)
	if err != nil {
		return nil, err
	}
	zm, err := marginalScreen(ctx, pr, sz, sg, centers, part)
	if err != nil {
		return nil, err
	}
	rank := make([]float64, pr.d)
	for j := range rank {
		rank[j] = math.Min(z[j], zm[j])
	}
	cols := mostNegative(rank, min(dim+defaults.RobustExtraCoords, pr.d))
	rep.detail.SelectZ, rep.detail.MarginalZ = z, zm
	sw.lap("select")

	// One partition for both stages: stage 2's basis is stage 1's (the
	// same centers, kernel coordinates and widths), so it takes stage 1's
	// fold Gram matrices and their reductions (foldStore) instead of
	// forming its own. Stage 2
	// runs on every second width: its v only feeds the null test and the
	// leading eigenvectors (docs/speed.md).
	s1, s2 := pr.wfStages(centers, false)
	s2.widths = everyOther(s2.widths)
	*s1.keep = foldStore{only: s2.widths}
	fit1 := func(ctx context.Context, st lsStage) (rowModel, stageCV, error) {
		st.a, st.noSelf, st.kernelCols, st.nullZ = gauss, true, cols, nullZ
		m, cv, err := fitStage(ctx, st, &pr.plan)
		if m != nil {
			m.lin = lin
		}
		return m, cv, err
	}
	fit2 := func(ctx context.Context, st lsStage) (rowModel, stageCV, error) {
		st.noSelf, st.kernelCols, st.nullZ, st.minKept = true, cols, nullZ, dim
		return fitStage(ctx, st, &pr.plan)
	}
	v, cvs, err := twoStages(ctx, pr, s1, s2, fit1, fit2, sw)
	if err != nil {
		return nil, err
	}
	basis, eig, err := leadingEigen(v, dim)
	if err != nil {
		return nil, err
	}
	rep.detail.AxesEigenvalues, rep.detail.KernelCoords = eig, cols
	rep.cv = append([]stageCV{cvSel}, cvs...)
	for j := 0; j < pr.d; j++ {
		if mat.Norm(v.ColView(j), 1) == 0 {
			rep.NullCoords = append(rep.NullCoords, j)
		}
	}
	return basis, nil
}

// marginalScreen returns, for every coordinate j of z, the paired
// z-score of the held-out loss of the score model of coordinate j with a
// kernel on coordinate j alone (and the Gaussian offset gauss) against the
// offset alone, fitted on the partition part with the centers' coordinate
// j (the first defaults.RobustMarginalCenters of them), every second value of the
// grids and no progress of its own.
func marginalScreen(ctx context.Context, pr *prepared, z, gauss, centers *mat.Dense, part partition) ([]float64, error) {
	p := pr.plan
	p.progress = nil
	b, _ := centers.Dims()
	few := centers.Slice(0, min(b, defaults.RobustMarginalCenters), 0, pr.d).(*mat.Dense)
	zm := make([]float64, pr.d)
	for j := range zm {
		zj := make([]float64, 1)
		col := []int{j}
		st := lsStage{name: "marginal", x: columns(z, col), a: columns(gauss, col), centers: columns(few, col),
			widths: everyOther(pr.widths), ridges: everyOther(pr.ridges), part: part, noSelf: true, zOut: zj}
		if _, _, err := fitStage(ctx, st, &p); err != nil {
			return nil, err
		}
		zm[j] = zj[0]
	}
	return zm, nil
}

// mostNegative returns the indices of the k smallest values of z, in
// increasing index order (ties to the smaller index).
func mostNegative(z []float64, k int) []int {
	out := append([]int(nil), ascending(z)[:k]...)
	sort.Ints(out)
	return out
}
