// Package ngca implements non-Gaussian component analysis (NGCA): linear
// dimension reduction that finds the low-dimensional subspace of the data
// carrying non-Gaussian structure, so that Gaussian noise directions can be
// projected out.
//
// # The model
//
// NGCA assumes the d-dimensional observations are
//
//	x = A·s + n,
//
// with s an m-dimensional signal from an unknown non-Gaussian distribution,
// n Gaussian noise with an unknown covariance Q, and A an unknown d×m
// mixing matrix of rank m (m < d, known). The density then has the
// semi-parametric form p(x) = f(Bᵀx)·φ_Q(x), and the non-Gaussian index
// space E = Range(B) is identifiable even though A, B and f are not
// (Blanchard et al., JMLR 2006). Every estimator here returns an
// orthonormal basis of an estimate of E.
//
// # Estimators
//
// WFLSNGCA, RobustWFLSNGCA, LSNGCA, MIPP, IMAK and SNGCA implement
// Estimator; they
// share input checks, standardisation and (where used) whitening, and
// return a Result whose Report holds their own diagnostics:
//
//   - WFLSNGCA, whitening-free least-squares NGCA (Shiino, Sasaki, Niu and
//     Sugiyama, ACML 2017), estimates v(x) = ∇log p(x) − ∇²log p(x)·x, which
//     lies in E, by two least-squares fits in a Gaussian-derivative basis,
//     with no whitening and no hand-designed index functions. On data whose
//     non-Gaussian subspace lies along the columns and whose covariance is
//     moderately conditioned it is the most accurate of the published
//     methods here. Implemented faithfully, it degrades as the covariance
//     grows ill-conditioned, as the authors' own code does, contrary to the
//     paper's claim (docs/results.md, Figure 4).
//   - RobustWFLSNGCA is this library's robust variant of WF-LSNGCA, not a
//     published method (docs/robust.md). It computes two estimates: an
//     axes estimate (WF-LSNGCA on top of the Gaussian score of the sample
//     covariance, with kernels on the significant coordinates and the
//     others set to zero), exact when the non-Gaussian subspace lies along
//     the columns, however ill-conditioned the covariance; and an
//     equivariant estimate (MIPP refined by a least-squares correction of
//     its frame). It returns the axes estimate only if a test finds no
//     tilt of the index space at it and it lies near the equivariant
//     estimate, so that its error is bounded by the equivariant
//     estimate's whatever the orientation of the subspace
//     (research/docs/orientation/).
//   - LSNGCA, least-squares NGCA (Sasaki, Niu and Sugiyama, AISTATS 2016),
//     whitens the data and estimates ∇log p(y) + y, which lies in E for
//     whitened y, by one least-squares fit. On well-conditioned data it is
//     less accurate than WF-LSNGCA; on ill-conditioned data it degrades
//     less.
//   - MIPP, multi-index projection pursuit (Blanchard et al., JMLR 2006),
//     the first NGCA algorithm, whitens the data and runs FastICA-style
//     iterations of 4000 hand-designed index functions, keeping the
//     resulting vectors with a high signal-to-noise ratio. It is fast and,
//     unlike the least-squares estimators, equivariant under invertible
//     linear maps of the data.
//   - IMAK, iterative metric adaptation for radial kernel functions
//     (Kawanabe, Sugiyama, Blanchard and Müller, AISM 2007), and SNGCA,
//     sparse NGCA (Diederichs, Juditsky, Spokoiny and Schütte, IEEE TIT
//     2010; Diederichs, Juditsky, Nemirovski and Spokoiny, Machine
//     Learning 2013), complete the five methods of the paper's Table 1.
//     Neither paper's algorithm could be read in full: only their outlines
//     are confirmed, and these are this library's reconstructions on them,
//     each type's documentation and docs/imak.md and docs/sngca.md saying
//     which parts are which. IMAK whitens and adapts the metric of a
//     radial kernel over passes; it is deterministic, exactly equivariant
//     under invertible linear maps and the cheapest here. SNGCA does not
//     whiten: a linear constraint on its test functions removes the
//     covariance, and a semidefinite program finds the subspace; it is
//     equivariant too, and the slowest here.
//
// Measured accuracy, cost and the commands that reproduce them are in the
// repository's docs/ folder, not in this documentation.
//
// # The repository
//
// This module holds the library (this package), ngcatest (the paper's
// artificial data with the true subspace), the command cmd/ngca (fit,
// transform, plot, dim, demo) and the packages behind them under
// internal/. The studies behind the figures of docs/ (the paper's
// experiments, the orientation, robust, check and dimension studies),
// their data and scripts are in research/, a module of its own that go get
// does not download; docs/conventions.md lists every file.
//
// EstimateDim tests how many non-Gaussian dimensions the data have (a
// deflationary projection pursuit, each count tested against Gaussian
// data), and Result.Separation says how clearly a fit's subspace stands out
// of its spectrum.
//
// Check judges a fit without the truth: it refits the estimator to random
// subsamples of three quarters of the rows and, for the estimators that
// depend on how the columns are oriented, compares the fit with estimates
// that do not (IMAK, then MIPP). Its CheckReport says whether the fit is
// Doubtful, with the evidence in figures and words; docs/check.md gives its
// calibration on fits of known subspace.
//
// LSLDG, least-squares log-density gradients (Sasaki et al., 2014), is the
// building block of the least-squares estimators. It is not an Estimator:
// its Fit returns an LSLDGModel of ∇log p whose gradient and Jacobian can
// be evaluated at new points.
//
// WF-LSNGCA and LSNGCA fit one model per coordinate in a basis that ramps
// along that coordinate's axis, so their estimates are equivariant under
// permutations, sign flips and rescalings of the columns but not under
// general rotations of the data: as published, they need the non-Gaussian
// subspace along the columns, as in all of the paper's experiments, and
// are biased once it is mixed with other columns
// (research/docs/orientation/).
// MIPP, IMAK and SNGCA are equivariant under any invertible linear map.
//
// # Ill-conditioned and singular data
//
// Every estimator first standardises the columns, so their scales do not
// matter. What matters is the conditioning of the correlation matrix:
//
//   - Ill-conditioned but full-rank data (strongly correlated columns) are
//     fitted by every estimator. The estimators that whiten (LSNGCA, MIPP,
//     IMAK) lose accuracy as the condition number grows, and so does the
//     faithful WF-LSNGCA, as the paper's own code does; RobustWFLSNGCA's
//     axes estimate, which models the Gaussian part by the sample
//     covariance, does not.
//   - Singular data, in which a column is a copy or a linear combination
//     of others to within rounding (a one-hot group that sums to one, a
//     total beside its parts), lie in a subspace of lower dimension, on
//     which the NGCA model has no density. Every estimator leaves each
//     such column out, fits the others, returns a basis with zero rows for
//     the columns left out, and lists them in Result.Dependent. A constant
//     column is an ErrConstant error instead, and with n ≤ d rows the
//     covariance is singular whatever the columns: every estimator asks
//     for more rows than that (ErrSamples; see Errors).
//
// # Conventions
//
// Rows of a data matrix are observations and columns are variables, as in
// gonum. Basis vectors are the columns of a d×m matrix (scikit-learn's
// components_ uses rows instead). Every estimator first standardises each
// column (subtracting its mean and dividing by its sample standard
// deviation with the n−1 denominator), as Algorithm 1 of the paper
// prescribes; grids of kernel widths are absolute values on that scale. If
// the standardised data z = D⁻¹(x − μ) have index space E_z, the caller's
// data have E_x = D⁻¹E_z, and Result.Basis is an orthonormal basis of E_x,
// in the caller's coordinates. Result.ProjectTo gives the coordinates
// (x − μ)·Basis of new rows.
//
// # Determinism and concurrency
//
// Every random choice (kernel centers, cross-validation folds) is drawn
// from the estimator's Src on the calling goroutine before any work is
// fanned out over Workers goroutines, and every parallel task writes only
// its own outputs, so a given seed gives bit-identical results for any
// number of workers. A nil Src means a fixed seed. The package never
// prints; progress is reported through an optional callback.
//
// # Reuse and repeatable fits
//
// Fit never modifies its input or the estimator struct, but it draws from
// the estimator's Src, and a rand.Source has state: a second Fit of the
// same estimator value continues the source's stream and so, in general,
// returns a different (equally valid) estimate. For repeatable fits, give
// each Fit a source seeded afresh (est.Src = rand.NewPCG(1, 2) before each
// call), or leave Src nil: every fit then starts from rand.NewPCG(0, 0)
// and the same data give the same result. A rand.Source is not safe for
// concurrent use, so one estimator value may serve concurrent Fit calls
// only if its Src is nil. IMAK draws nothing and is always repeatable.
//
// # Errors
//
// Invalid data or configuration returns an error wrapping one of the
// sentinels ErrShape, ErrDim, ErrSamples, ErrNonFinite, ErrConstant,
// ErrParam or ErrSingular; a cancelled context returns an error for which
// errors.Is(err, context.Canceled) holds.
//
// Each Fit accepts no fewer rows than its doc comment states, as a
// function of the data's d columns and its k cross-validation folds:
// d + 2 for MIPP, IMAK, SNGCA and EstimateDim, max(k, ⌈k(d + 1)/(k − 1)⌉)
// for WFLSNGCA, LSNGCA and RobustWFLSNGCA (5 rows for 3 columns and 14
// for 10, with 5 folds), and k for LSLDG. Below that, the ErrSamples error
// says how many rows the method needs and how many it got, and Check
// refuses refits of fewer rows the same way. Within a cross-validation
// grid a candidate whose solve fails is not an error: it scores +Inf and
// shows in the reported score grid.
package ngca
