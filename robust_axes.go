package ngca

import (
	"context"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// axesEstimate selects the kernel coordinates (the most significant kernel
// parts of a stage-1 fit in the data's axes, on every second value of the
// grids: ranking needs less resolution than fitting) and runs Algorithm 1's
// two stages with the variant's extensions: the Gaussian score of the
// sample covariance under stage 1's kernel part, kernels on the selected
// coordinates, no self-pairs and the null test in both. It returns the
// basis in standardised coordinates and fills rep's KernelCoords,
// NullCoords, AxesEigenvalues and CV.
func axesEstimate(ctx context.Context, pr *prepared, wh whitening, dim int, nullZ float64, rep *RobustReport, sw *stopwatch) (*mat.Dense, error) {
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
	sel := robustStage{stage: stage{name: "select", x: pr.z, a: gauss, centers: centers, widths: everyOther(pr.widths),
		ridges: everyOther(pr.ridges), part: newPartition(pr.rng, pr.n, pr.folds)}, zOut: z}
	_, cvSel, err := fitRobustStage(ctx, sel, &pr.plan)
	if err != nil {
		return nil, err
	}
	cols := mostNegative(z, min(dim+2, pr.d))
	sw.lap("select")

	// One partition for both stages: stage 2's basis is stage 1's (the
	// same centers, kernel coordinates and widths), so it takes stage 1's
	// fold Gram matrices (foldStore) instead of forming its own. Stage 2
	// runs on every second width: its v only feeds the null test and the
	// leading eigenvectors (docs/speed.md).
	s1, s2 := pr.wfStages(centers, false)
	s2.widths = everyOther(s2.widths)
	*s1.keep = foldStore{only: s2.widths, gramOnly: true}
	fit1 := func(ctx context.Context, st stage) (rowModel, StageCV, error) {
		st.a = gauss
		m, cv, err := fitRobustStage(ctx, robustStage{stage: st, kernelCols: cols, nullZ: nullZ}, &pr.plan)
		if m != nil {
			m.lin = lin
		}
		return m, cv, err
	}
	fit2 := func(ctx context.Context, st stage) (rowModel, StageCV, error) {
		return fitRobustStage(ctx, robustStage{stage: st, kernelCols: cols, nullZ: nullZ, minKept: dim}, &pr.plan)
	}
	v, cvs, err := twoStages(ctx, pr, s1, s2, fit1, fit2, sw)
	if err != nil {
		return nil, err
	}
	basis, eig, err := leadingEigen(v, dim)
	if err != nil {
		return nil, err
	}
	rep.AxesEigenvalues, rep.KernelCoords = eig, cols
	rep.CV = append([]StageCV{cvSel}, cvs...)
	for j := 0; j < pr.d; j++ {
		if mat.Norm(v.ColView(j), 1) == 0 {
			rep.NullCoords = append(rep.NullCoords, j)
		}
	}
	return basis, nil
}

// mostNegative returns the indices of the k smallest values of z, in
// increasing index order (ties to the smaller index).
func mostNegative(z []float64, k int) []int {
	out := append([]int(nil), ascending(z)[:k]...)
	sort.Ints(out)
	return out
}

// ascending returns the indices of z in increasing order of value (ties to
// the smaller index).
func ascending(z []float64) []int {
	idx := make([]int, len(z))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return z[idx[a]] < z[idx[b]] })
	return idx
}

// everyOther returns the values of v at even indices (v itself if it has
// fewer than three values).
func everyOther(v []float64) []float64 {
	if len(v) < 3 {
		return v
	}
	var out []float64
	for i := 0; i < len(v); i += 2 {
		out = append(out, v[i])
	}
	return out
}
