package ngca

import (
	"context"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// LSNGCA is least-squares non-Gaussian component analysis (Sasaki, Niu and
// Sugiyama, AISTATS 2016), as reviewed in Shiino et al. (ACML 2017, §2.3).
// It whitens the standardised data, y = W·(z − μ) with W = Σ^(−1/2), uses
// that for whitened data
//
//	u(y) = ∇log p(y) + y
//
// lies in the non-Gaussian index space, estimates ∇log p(y) by LSLDG (with
// centers drawn from the whitened rows), and returns W·B, orthonormalised
// in the caller's coordinates, where B holds the Dim leading eigenvectors
// of (1/n)Σᵢ u(yᵢ)u(yᵢ)ᵀ.
//
// Whitening makes LSNGCA unreliable when the covariance is ill-conditioned;
// a covariance that is not positive definite is reported as ErrSingular,
// while a column that is a copy of another, up to scale and shift, or a
// linear combination of others is left out of the fit (Result.Dependent).
// If the vectors u(yᵢ) span fewer than Dim dimensions, Fit returns
// an ErrSingular error rather than a basis with arbitrary directions.
//
// Fit returns an error wrapping ErrSamples when
//
//	n < max(k, ⌈k(d + 1)/(k − 1)⌉),   k = Folds,
//
// d the data's columns, as WFLSNGCA does: every fold holds out at least
// one row and leaves more than d to fit on, since fewer whitened rows lie
// in a subspace of lower dimension. That is more than the d + 2 rows that
// whitening needs to leave the data a shape (see MIPP).
//
// The zero value (with Dim set) gives the settings of the paper.
type LSNGCA struct {
	// Dim is the dimension m of the non-Gaussian index space, 1 ≤ Dim < d.
	Dim int
	// NumCenters is the number of kernel centers b, drawn uniformly without
	// replacement from the rows of the data; 0 means min(n, 100). It must
	// not exceed n. It is ignored (or must agree) when Centers is set.
	NumCenters int
	// Centers, if not nil, gives the b×d centers explicitly, in the
	// caller's coordinates; they are standardised and whitened with the
	// data.
	Centers mat.Matrix
	// Widths and Ridges are the LSLDG grids of σ and λ; nil means
	// LSLDG's defaults (10 log-spaced values of σ from 10⁻¹ to 10¹, of λ
	// from 10⁻⁵ to 10¹).
	Widths, Ridges []float64
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

// Fit estimates the non-Gaussian index space of the rows of x (n×d). It
// returns an error wrapping one of the package's sentinels for invalid
// data or configuration, or the context's error if ctx is done. The
// Result's Report is an *LSReport.
func (l *LSNGCA) Fit(ctx context.Context, x mat.Matrix) (*Result, error) {
	sw := newStopwatch()
	pr, err := prepare(ctx, x, l.config(), l.Dim, true)
	if err != nil {
		return nil, err
	}
	st, err := fitLS(ctx, pr, sw)
	if err != nil {
		return nil, err
	}
	back := func(b mat.Matrix) *mat.Dense { return pr.scale.unscale(st.wh.unwhiten(b)) }
	basis, eig, err := basisFrom(st.u, l.Dim, back, "vectors u(yᵢ)")
	if err != nil {
		return nil, err
	}
	sw.lap("eigen")
	rep := &LSReport{NumCenters: pr.b, Folds: pr.folds, cv: []stageCV{st.cv}}
	rep.record(ctx)
	return &Result{Method: methodLSNGCA, Basis: basis, Eigenvalues: eig, Mean: pr.scale.mean, Dependent: pr.dependent, Timings: sw.total(),
		Report: rep}, nil
}

// methodLSNGCA is the Result.Method of LSNGCA's fits.
const methodLSNGCA = "LSNGCA"

func init() { register(&LSNGCA{}) }

func (l *LSNGCA) method() string     { return methodLSNGCA }
func (l *LSNGCA) dim() int           { return l.Dim }
func (l *LSNGCA) equivariant() bool  { return false }
func (l *LSNGCA) newReport() Report  { return &LSReport{} }
func (l *LSNGCA) rows(d int) rowNeed { return foldRows(methodLSNGCA, d, foldsOf(l.Folds)) }

func (l *LSNGCA) with(src rand.Source, workers int) Estimator {
	c := *l
	c.Src, c.Workers, c.Progress = src, workers, nil
	return &c
}

func (l *LSNGCA) config() config {
	return config{kernel: true, numCenters: l.NumCenters, centers: l.Centers, widths: l.Widths, ridges: l.Ridges,
		folds: l.Folds, src: l.Src, workers: l.Workers, progress: l.Progress, steps: 1, rows: l.rows}
}

// lsStages is the outcome of the whitening and LSLDG steps of LSNGCA.
type lsStages struct {
	wh whitening
	y  *mat.Dense  // whitened data
	g  *derivModel // ∇log p model of the whitened data
	u  *mat.Dense  // u(yᵢ) = ĝ(yᵢ) + yᵢ, n×d
	cv stageCV
}

// fitLS whitens the standardised data of pr and fits LSLDG to it.
func fitLS(ctx context.Context, pr *prepared, sw *stopwatch) (*lsStages, error) {
	wh, err := newWhitening(pr.z)
	if err != nil {
		return nil, err
	}
	y := wh.apply(pr.z)
	centers := pr.centersFrom(y, wh.apply)
	part := newPartition(pr.rng, pr.n, pr.folds)
	sw.lap("prepare")

	m, cv, err := fitStage(ctx, lsStage{name: "lsldg", x: y, centers: centers,
		widths: pr.widths, ridges: pr.ridges, part: part}, &pr.plan)
	if err != nil {
		return nil, err
	}
	g := m.kern
	u := mat.NewDense(pr.n, pr.d, nil)
	if err := g.eval(ctx, pr.workers, y, u, nil); err != nil {
		return nil, err
	}
	u.Add(u, y)
	sw.lap("lsldg")
	return &lsStages{wh: wh, y: y, g: g, u: u, cv: cv}, nil
}
