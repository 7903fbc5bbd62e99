package ngca

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// LSLDG estimates the gradient of the log-density, ∇log p(x), by
// least-squares log-density-gradient fitting (Cox, 1985; Sasaki, Hyvärinen
// and Sugiyama, ECML-PKDD 2014), as reviewed in Shiino et al. (ACML 2017,
// §2.3). For every coordinate j it fits
//
//	g_j(x) = Σ_k θ_kj ψ_kj(x),   ψ_kj(x) = (c_kj − x_j)·exp(−‖x − c_k‖²/(2σ_j²)),
//
// by minimising the score-matching loss (1/n)Σᵢ[g_j(xᵢ)² + 2∂_j g_j(xᵢ)] +
// λ_j‖θ_j‖², whose minimiser is θ_j = −(G_j + λ_jI)⁻¹h_j with
// G_j = (1/n)Σᵢψ_j(xᵢ)ψ_j(xᵢ)ᵀ and h_j = (1/n)Σᵢ∂_jψ_j(xᵢ). The pair
// (σ_j, λ_j) is chosen from the grids by k-fold cross-validation of the
// held-out loss; one random partition serves all coordinates and grid points,
// and the centers stay fixed during cross-validation.
//
// The data are standardised column by column before fitting (the widths are
// absolute values on the standardised scale); the returned model evaluates
// the gradient in the caller's coordinates.
//
// With more rows than columns, rank-deficient data (a column that is a copy
// of another, up to scale and shift, or a linear combination of others)
// are an ErrSingular error naming the column: their density is degenerate
// and has no gradient. With no more rows than columns the check is not
// made: LSLDG accepts fewer rows than columns. Fit returns an error
// wrapping ErrSamples when n < Folds, so that every fold holds out at
// least one row.
//
// The zero value is ready to use and gives the settings of the paper.
type LSLDG struct {
	// NumCenters is the number of kernel centers b, drawn uniformly without
	// replacement from the rows of the data; 0 means min(n, 100). It must
	// not exceed n. It is ignored (or must agree) when Centers is set.
	NumCenters int
	// Centers, if not nil, gives the b×d centers explicitly, in the
	// caller's coordinates.
	Centers mat.Matrix
	// Widths is the grid of Gaussian widths σ; nil means 10 values from
	// 10⁻¹ to 10¹, log-spaced.
	Widths []float64
	// Ridges is the grid of ridge parameters λ; nil means 10 values from
	// 10⁻⁵ to 10¹, log-spaced.
	Ridges []float64
	// Folds is the number of cross-validation folds; 0 means 5.
	Folds int
	// Src is the source of randomness (centers and folds). Fit draws from
	// it on the calling goroutine, so fitting twice continues the stream;
	// a Source must not be shared by concurrent fits. nil means a new
	// rand.NewPCG(0, 0) for every fit.
	// To repeat a fit, give each Fit a freshly seeded source.
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// serial. Results are bit-identical for any value.
	Workers int
	// Progress, if not nil, is called from the goroutine that called Fit as
	// cross-validation proceeds, with Stage "lsldg" (Step 1 of 1).
	Progress func(Progress)
}

// LSLDGModel is a fitted log-density-gradient model. Its methods evaluate
// the estimate of ∇log p and its Jacobian in the caller's coordinates:
// with z = D⁻¹(x − μ) the standardised point,
//
//	∇log p(x) ≈ D⁻¹·g(z),   ∇²log p(x) ≈ D⁻¹·J_g(z)·D⁻¹.
type LSLDGModel struct {
	// cv reports the cross-validation: the chosen width σ_j and ridge λ_j
	// of every coordinate and the full score grids.
	cv stageCV
	// Timings lists the wall time of each step of the fit.
	Timings []Timing

	model   *derivModel
	scale   scaling
	workers int
}

// Mean returns a copy of the column means μ used to standardise the data.
func (m *LSLDGModel) Mean() []float64 { return append([]float64(nil), m.scale.mean...) }

// Scale returns a copy of the column standard deviations D used to
// standardise the data; an entry is +Inf if the standard deviation of data
// near ±MaxFloat64 exceeds the range of float64 (the model itself computes
// in scaled units and stays finite).
func (m *LSLDGModel) Scale() []float64 { return append([]float64(nil), m.scale.sd...) }

// Centers returns a copy of the b×d kernel centers c_k (rows), in
// standardised coordinates.
func (m *LSLDGModel) Centers() *mat.Dense { return mat.DenseCopyOf(m.model.centers) }

// Theta returns a copy of the b×d coefficients: column j holds θ_j.
func (m *LSLDGModel) Theta() *mat.Dense { return mat.DenseCopyOf(m.model.theta) }

// Fit estimates the log-density gradient of the rows of x (n×d). It
// returns an error wrapping one of the package's sentinels for invalid
// data or configuration, or the context's error if ctx is done.
func (l *LSLDG) Fit(ctx context.Context, x mat.Matrix) (*LSLDGModel, error) {
	sw := newStopwatch()
	pr, err := prepare(ctx, x, l.config(), 0, false)
	if err != nil {
		return nil, err
	}
	centers := pr.centersFrom(pr.z, nil)
	part := newPartition(pr.rng, pr.n, pr.folds)
	sw.lap("prepare")
	g, cv, err := fitStage(ctx, lsStage{name: "lsldg", x: pr.z, centers: centers,
		widths: pr.widths, ridges: pr.ridges, part: part}, &pr.plan)
	if err != nil {
		return nil, err
	}
	sw.lap("lsldg")
	return &LSLDGModel{cv: cv, Timings: sw.total(), model: g.kern, scale: pr.scale, workers: pr.workers}, nil
}

func (l *LSLDG) config() config {
	return config{kernel: true, numCenters: l.NumCenters, centers: l.Centers, widths: l.Widths, ridges: l.Ridges,
		folds: l.Folds, src: l.Src, workers: l.Workers, progress: l.Progress, steps: 1, rows: l.rows}
}

// rows returns LSLDG's rule: n ≥ Folds (see LSLDG).
func (l *LSLDG) rows(int) rowNeed {
	k := foldsOf(l.Folds)
	return rowNeed{method: "LSLDG", min: k, what: countOf(k, "cross-validation fold"), why: "every fold must hold out at least one row"}
}

// GradientTo sets dst to the estimated ∇log p at the rows of x: row i of
// dst is the gradient at row i of x. If dst is empty it is resized to n×d;
// otherwise it must be n×d. GradientTo panics if x does not have d columns.
func (m *LSLDGModel) GradientTo(dst *mat.Dense, x mat.Matrix) {
	n, d := x.Dims()
	if d != len(m.scale.mean) {
		panic(mat.ErrShape)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, d)
	} else if r, c := dst.Dims(); r != n || c != d {
		panic(mat.ErrShape)
	}
	z := m.scale.apply(x)
	vals := mat.NewDense(n, d, nil)
	if err := m.model.eval(context.Background(), m.workers, z, vals, nil); err != nil {
		// eval fails only when its context is done, and this one never is.
		panic("ngca: unreachable: " + err.Error())
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			dst.Set(i, j, m.scale.div(vals.At(i, j), j))
		}
	}
}

// JacobianTo sets dst to the estimated Hessian of log p at the point x,
// dst[j][m] = ∂g_j/∂x_m (the Jacobian of the gradient model; each row comes
// from a separate model, so it need not be exactly symmetric). If dst is
// empty it is resized to d×d; otherwise it must be d×d. JacobianTo panics
// if len(x) is not d.
func (m *LSLDGModel) JacobianTo(dst *mat.Dense, x []float64) {
	d := len(m.scale.mean)
	if len(x) != d {
		panic(mat.ErrShape)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(d, d)
	} else if r, c := dst.Dims(); r != d || c != d {
		panic(mat.ErrShape)
	}
	z := m.scale.apply(mat.NewDense(1, d, append([]float64(nil), x...)))
	m.model.jacobianTo(dst, z.RawRowView(0))
	sc := m.scale
	for j := 0; j < d; j++ {
		for k := 0; k < d; k++ {
			dst.Set(j, k, math.Ldexp(dst.At(j, k)/(sc.unit[j]*sc.unit[k]), -sc.exp[j]-sc.exp[k]))
		}
	}
}
