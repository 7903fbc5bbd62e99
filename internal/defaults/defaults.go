// Package defaults holds the library's default settings and tuned
// numbers in one place: package ngca resolves the zero values of its
// configuration structs to them (their doc comments state the same
// values), and the command's help and the studies' reports print them.
// It imports nothing of the module.
package defaults

import "math"

// The kernel estimators (WFLSNGCA, RobustWFLSNGCA, LSNGCA, LSLDG): the
// paper's §4.1 and the authors' experiment code. NumCenters = 0 means
// min(n, Centers) centers, Folds = 0 means Folds folds.
const (
	Centers = 100
	Folds   = 5
)

// Widths returns the default grid of Gaussian widths σ: 10 values spaced
// evenly in log scale over [10⁻¹, 10¹].
func Widths() []float64 { return logspace(-1, 1, 10) }

// Ridges returns the default grid of ridge parameters λ: 10 values spaced
// evenly in log scale over [10⁻⁵, 10¹].
func Ridges() []float64 { return logspace(-5, 1, 10) }

// logspace returns n values 10^(lo + (hi−lo)·i/(n−1)), i = 0..n−1, as
// MATLAB's logspace(lo, hi, n).
func logspace(lo, hi float64, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Pow(10, lo+(hi-lo)*float64(i)/float64(n-1))
	}
	return v
}

// MIPP (the paper's §4.1 and the authors' script): Iterations = 0 means
// MIPPIterations evaluations of β per index function, Threshold = 0 means
// the cut-off τ = MIPPThreshold.
const (
	MIPPIterations = 10
	MIPPThreshold  = 1.6
)

// Check: CheckOptions.Refits = 0 means CheckRefits refits, Share = 0 a
// share CheckShare of the rows in each. Four refits on three quarters of
// the rows cost as much as six on halves, and stay in the regime of the
// full fit where halves would not (docs/check.md).
const (
	CheckRefits = 4
	CheckShare  = 0.75
)

// EstimateDim: DimOptions.Alpha = 0 means the level DimAlpha, Bootstrap =
// 0 means DimBootstrap replicates per test (docs/dim.md).
const (
	DimAlpha     = 0.05
	DimBootstrap = 39
)

// The tuned numbers of RobustWFLSNGCA, the default estimator, each with
// the part of docs/robust.md ("How it works") that gives the
// measurements it rests on.
const (
	// RobustExtraCoords: the axes estimate puts its kernels on the
	// Dim + RobustExtraCoords coordinates that the screens rank first
	// (step 3, "Dimension").
	RobustExtraCoords = 2
	// RobustMarginalCenters is the number of kernel centers of the marginal
	// screen: the first of the stage centers, which are drawn rows in
	// random order. A score of one coordinate needs few; the screen's cost
	// is linear in d and quadratic in its centers (step 3, "Dimension").
	RobustMarginalCenters = 20
	// RobustNullZ is the default threshold of the null test, in standard
	// errors of the paired held-out loss difference (step 3, "Dimension").
	RobustNullZ = 3
	// RobustRounds is the number of frame refinements of the equivariant
	// estimate: the second moves the frame by less than its sampling error
	// as the tilt's covariance measures it, yet removes much of the error
	// the first leaves on signals with edges, and its regression gives the
	// covariance of the tilt at a frame already close to the estimate; a
	// third adds little (the equivariant estimate).
	RobustRounds = 2
	// RobustLevel is the level of the test of the axes estimate ("The
	// test").
	RobustLevel = 0.01
	// RobustMaxDistance is the bound on the Distance of an axes estimate
	// that the decision returns without the comparison ("The guard").
	RobustMaxDistance = 4
	// RobustMissedMargin is the margin, in paired z-scores, by which the
	// evidence that the equivariant estimate misses structure must exceed
	// the evidence that the axes estimate does, for the axes estimate
	// beyond RobustMaxDistance to be returned ("The guard").
	RobustMissedMargin = 3
	// RobustScreenRows is the most rows the variant's screens and its MIPP
	// start use: on larger data they run on that many rows drawn at
	// random, and every stage that estimates (the axes estimate's two
	// stages, the refinements and the test) on all rows. A screen only
	// ranks columns and the start only needs to be close enough for the
	// refinements, which reach the precision of all rows from it (the last
	// list of "How it works").
	RobustScreenRows = 50000
)
