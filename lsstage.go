package ngca

import "gonum.org/v1/gonum/mat"

// lsStage describes one least-squares fit of d per-coordinate models
// f_j(x) = θ_jᵀψ_j(x) in the Gaussian-derivative basis (kernels.go), each
// minimising
//
//	(1/n) Σᵢ [ f_j(xᵢ)² + 2 ∂_j f_j(xᵢ) + 2 f_j(xᵢ)·a_ij ] + λ_j‖θ_j‖²,
//	θ_j = −(G_j + λ_j I)⁻¹ h_j,  G_j = (1/n)Σᵢ ψ_j(xᵢ)ψ_j(xᵢ)ᵀ,
//	h_j = (1/n)Σᵢ [∂_jψ_j(xᵢ) + ψ_j(xᵢ)·a_ij],
//
// with (σ_j, λ_j) chosen by k-fold cross-validation on the held-out value of
// the same objective. With a = 0 this is LSLDG (Sasaki et al., 2014), whose
// f_j estimates ∂_j log p. With a_ij = ∇ĝ_j(xᵢ)ᵀxᵢ it is stage 2 of
// WF-LSNGCA (Shiino et al., ACML 2017, §3.2), whose f_j estimates
// v_j(x) = ∂_j log p(x) − (∇∂_j log p(x))ᵀx.
type lsStage struct {
	name           string
	x              *mat.Dense // n×d points
	a              *mat.Dense // n×d, or nil for a = 0
	centers        *mat.Dense // b×d
	widths, ridges []float64
	part           partition
	// keep, if not nil, receives the stage's fold Gram matrices and
	// reductions; reuse, if not nil, holds those of an earlier stage on
	// the same points, centers and partition (see foldStore).
	keep, reuse *foldStore

	// The options below are the robust variant's (RobustWFLSNGCA, and
	// docs/robust.md "How it works"); their zero values give the stage
	// above.

	// noSelf gives a center and its own data row kernel value zero
	// (kernelNoSelf).
	noSelf bool
	// linear adds to every f_j an unpenalised linear part a_jᵀ(ℓ, 1) with
	// ℓ the row of linX (nil: of x), profiled out exactly (cvScorer's
	// linear part, cv.go). Output j of x is then column j of linX, so linX
	// must hold x's columns first.
	linear bool
	linX   *mat.Dense
	// kernelCols, if not nil, restricts the kernels' distances to these
	// columns (in increasing order); every output keeps its own ramp
	// (c_kj − x_j).
	kernelCols []int
	// nullZ, if positive, keeps a coordinate's kernel part only if its
	// held-out loss beats the null model's (the linear part alone, or
	// f_j = 0 without one) by nullZ standard errors of the per-row paired
	// difference; otherwise θ_j = 0 (nulltest.go).
	nullZ float64
	// minKept is the fewest coordinates whose kernel part the null test
	// keeps: if fewer pass, those with the lowest z are kept too.
	minKept int
	// zOut, if not nil (length d), receives every coordinate's paired
	// z-score of the held-out loss difference between its fitted model and
	// its null model (negative: the kernel part helps).
	zOut []float64
}

// testsNull reports whether the stage runs the null test: for its
// decision or its z-scores.
func (st *lsStage) testsNull() bool {
	return st.nullZ > 0 || st.zOut != nil
}

// kernel returns the stage's kernel: kernelNoSelf with noSelf, else
// kernelT.
func (st *lsStage) kernel() kernelFunc {
	if st.noSelf {
		return kernelNoSelf
	}
	return kernelT
}
