package ngca

import (
	"context"
	"math/rand/v2"

	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

// WFLSNGCA is whitening-free least-squares non-Gaussian component analysis
// (Shiino, Sasaki, Niu and Sugiyama, ACML 2017, Algorithm 1). Without
// whitening the data, it estimates for every observation the vector
//
//	v(x) = ∇log p(x) − ∇²log p(x)·x,
//
// which lies in the non-Gaussian index space E (the paper's Eq. (9)), and
// returns the Dim leading eigenvectors of (1/n)Σᵢ v(xᵢ)v(xᵢ)ᵀ.
//
// The fit has two stages on the standardised data, both in the
// Gaussian-derivative basis ψ_kj(x) = (c_kj − x_j)·exp(−‖x − c_k‖²/(2σ²))
// with the same b centers:
//
//  1. LSLDG estimates g_j ≈ ∂_j log p (see LSLDG), with (σ_j, λ_j) chosen
//     from Widths × Ridges by k-fold cross-validation.
//  2. With aᵢⱼ = ∇g_j(xᵢ)ᵀxᵢ, computed in O(b) per (i, j) without forming
//     a Jacobian, v_j(x) = α_jᵀφ_j(x) minimises
//     (1/n)Σᵢ[v_j(xᵢ)² + 2∂_j v_j(xᵢ) + 2v_j(xᵢ)aᵢⱼ] + γ_j‖α_j‖², so
//     α_j = −(S_j + γ_jI)⁻¹t_j with S_j = (1/n)Σᵢφφᵀ and
//     t_j = (1/n)Σᵢ[∂_jφ(xᵢ) + φ(xᵢ)aᵢⱼ]; (t_j, γ_j) are chosen from
//     VWidths × VRidges by cross-validation on the folds of stage 1
//     (stage 1 is not refitted inside the stage-2 folds).
//
// Where the authors' code and the paper differ, this follows the code
// (σ²-scaled basis, absolute grids on standardised data), except for two
// bugs of the code that it does not copy: its centers are the first 100 rows
// (here a random subset), and its stage-2 refit divides S by the last fold's
// training size instead of n (here by n).
//
// WF-LSNGCA does not whiten, but as implemented faithfully it still loses
// accuracy as the covariance grows ill-conditioned (see the package doc,
// Ill-conditioned and singular data). A column that is a copy of another,
// up to scale and shift, or a linear combination of others (to within the
// data's rounding error) is left out of the fit (Result.Dependent), since
// the fit would otherwise take the degenerate directions for non-Gaussian
// ones. For the same reason every cross-validation fit needs more rows
// than columns: Fit returns an error wrapping ErrSamples when
//
//	n < max(k, ⌈k(d + 1)/(k − 1)⌉),   k = Folds,
//
// d the data's columns, so that every fold holds out at least one row and
// leaves more than d to fit on (with 5 folds, 5 rows for 3 columns and 14
// for 10). If the estimated vectors v(xᵢ) span fewer than Dim
// dimensions (with grids on which every kernel vanishes, say), Fit returns
// an ErrSingular error rather than a basis with arbitrary directions.
//
// The zero value (with Dim set) gives the settings of the paper.
type WFLSNGCA struct {
	// Dim is the dimension m of the non-Gaussian index space, 1 ≤ Dim < d.
	Dim int
	// NumCenters is the number of kernel centers b, drawn uniformly without
	// replacement from the rows of the data; 0 means min(n, 100). It must
	// not exceed n. It is ignored (or must agree) when Centers is set.
	NumCenters int
	// Centers, if not nil, gives the b×d centers explicitly, in the
	// caller's coordinates. Both stages use the same centers.
	Centers mat.Matrix
	// Widths and Ridges are the stage-1 (LSLDG) grids of σ and λ; nil means
	// LSLDG's defaults (10 log-spaced values of σ from 10⁻¹ to 10¹, of λ
	// from 10⁻⁵ to 10¹).
	Widths, Ridges []float64
	// VWidths and VRidges are the stage-2 grids of t and γ; nil means the
	// stage-1 grid (as in the paper).
	VWidths, VRidges []float64
	// Folds is the number of cross-validation folds; 0 means 5.
	Folds int
	// Stage 2 cross-validates on the folds of stage 1 (the paper asks for
	// no particular partition): its fold Gram matrices and their
	// tridiagonal reductions are then those of stage 1 wherever the grids
	// agree, and are reused, so that stage 2 only forms its new targets
	// and solves. newPartition draws a new random partition for stage 2
	// instead, as the authors' code does; the two choices give the same
	// accuracy (docs/speed.md), not the same results. The studies that
	// follow the authors' code set it through probe.Settings.NewPartition.
	newPartition bool
	// Src is the source of randomness (centers and the partitions).
	// Fit draws from it on the calling goroutine, so fitting twice
	// continues the stream; a Source must not be shared by concurrent fits.
	// nil means a new rand.NewPCG(0, 0) for every fit.
	// To repeat a fit, give each Fit a freshly seeded source.
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// serial. Results are bit-identical for any value.
	Workers int
	// Progress, if not nil, is called from the goroutine that called Fit as
	// cross-validation proceeds, with Stage "lsldg" (Step 1) and then "v"
	// (Step 2 of 2).
	Progress func(Progress)
}

// Fit estimates the non-Gaussian index space of the rows of x (n×d). It
// returns an error wrapping one of the package's sentinels for invalid
// data or configuration, or the context's error if ctx is done. The
// Result's Report is an *LSReport.
func (w *WFLSNGCA) Fit(ctx context.Context, x mat.Matrix) (*Result, error) {
	sw := newStopwatch()
	pr, err := prepare(ctx, x, w.config(), w.Dim, true)
	if err != nil {
		return nil, err
	}
	s1, s2 := pr.wfStages(pr.centersFrom(pr.z, nil), w.newStage2Partition(ctx))
	sw.lap("prepare")
	fit := func(ctx context.Context, st lsStage) (rowModel, stageCV, error) { return fitStage(ctx, st, &pr.plan) }
	v, cv, err := twoStages(ctx, pr, s1, s2, fit, fit, sw)
	if err != nil {
		return nil, err
	}
	basis, eig, err := basisFrom(v, w.Dim, pr.scale.unscale, "vectors v(xᵢ)")
	if err != nil {
		return nil, err
	}
	sw.lap("eigen")
	rep := &LSReport{NumCenters: pr.b, Folds: pr.folds, cv: cv}
	rep.record(ctx)
	return &Result{Method: methodWFLSNGCA, Basis: basis, Eigenvalues: eig, Mean: pr.scale.mean, Dependent: pr.dependent, Timings: sw.total(),
		Report: rep}, nil
}

// newStage2Partition reports whether stage 2 draws a new partition: w's
// own setting, or the one of ctx's probe.Settings.
func (w *WFLSNGCA) newStage2Partition(ctx context.Context) bool {
	return w.newPartition || probe.SettingsFrom(ctx).NewPartition
}

// methodWFLSNGCA is the Result.Method of WFLSNGCA's fits.
const methodWFLSNGCA = "WF-LSNGCA"

func init() { register(&WFLSNGCA{}) }

func (w *WFLSNGCA) method() string     { return methodWFLSNGCA }
func (w *WFLSNGCA) dim() int           { return w.Dim }
func (w *WFLSNGCA) equivariant() bool  { return false }
func (w *WFLSNGCA) newReport() Report  { return &LSReport{} }
func (w *WFLSNGCA) rows(d int) rowNeed { return foldRows(methodWFLSNGCA, d, foldsOf(w.Folds)) }

func (w *WFLSNGCA) with(src rand.Source, workers int) Estimator {
	c := *w
	c.Src, c.Workers, c.Progress = src, workers, nil
	return &c
}

func (w *WFLSNGCA) config() config {
	return config{kernel: true, numCenters: w.NumCenters, centers: w.Centers, widths: w.Widths, ridges: w.Ridges,
		vWidths: w.VWidths, vRidges: w.VRidges,
		folds: w.Folds, src: w.Src, workers: w.Workers, progress: w.Progress, steps: 2, rows: w.rows}
}
