// Package studyhook gives the studies (the research module) and the
// command what they read or set of the library beyond its API: the
// details of a robust fit, the alternative paths and projections the
// studies compare, the default settings that the command's help prints.
// The package ngca imports it and fills its variables in an init
// function; it holds plain data only (no ngca type, which would make an
// import cycle), and an ngca value passes as any.
package studyhook

import "gonum.org/v1/gonum/mat"

// Robust is the detail of a fit of ngca.RobustWFLSNGCA: the two
// candidates and the checks between them (docs/robust.md explains each).
type Robust struct {
	// Estimate is the estimate returned: "axes" or "equivariant" (as
	// RobustReport.Estimate).
	Estimate string
	// Wald is the statistic of the test of the axes estimate, DF its
	// degrees of freedom and P its p-value (NaN and 0 if only one path
	// ran).
	Wald, P float64
	DF      int
	// Distance is the Wald distance of the axes estimate from the
	// equivariant estimate in units of DF (NaN if only one path ran).
	Distance float64
	// MissedAxes and MissedEquivariant are the paired z-scores of the
	// evidence that each candidate misses structure the other holds (NaN
	// unless the comparison ran).
	MissedAxes, MissedEquivariant float64
	// Level, MaxDistance and MissedMargin are the limits of the adaptive
	// path's decision (zero if it did not run).
	Level, MaxDistance, MissedMargin float64
	// Refined reports whether the equivariant estimate is the refined
	// frame rather than MIPP's start (kept when the refinement moved it by
	// no more than its sampling error, or could not run).
	Refined bool
	// KernelCoords are the axes estimate's kernel coordinates (0-based);
	// SelectZ and MarginalZ the screens' z-score per column; NullCoords
	// the coordinates the null test set to zero.
	KernelCoords       []int
	SelectZ, MarginalZ []float64
	NullCoords         []int
	// Axes and Equivariant are the candidates in the caller's
	// coordinates, nil for a path that did not run.
	Axes, Equivariant *mat.Dense
	// AxesEigenvalues and StartEigenvalues are the spectra of the axes
	// estimate and of the equivariant estimate's MIPP start.
	AxesEigenvalues, StartEigenvalues []float64
	// ScreenRows is the number of rows the screens and the MIPP start ran
	// on.
	ScreenRows int
}

// Stage is a cross-validated stage of a fit: its name and its grid of
// kernel widths.
type Stage struct {
	Name   string
	Widths []float64
}

// RobustLimits are the limits of the robust variant's adaptive decision:
// the level of the test of the axes estimate, the bound on its Distance
// and the margin of the comparison.
type RobustLimits struct {
	Level, MaxDistance, MissedMargin float64
}

var (
	// Stages returns the cross-validated stages of a fit of a kernel
	// estimator (from its *ngca.LSReport or *ngca.RobustReport), in the
	// order they ran; nil for any other report.
	Stages func(report any) []Stage
	// RobustDetails returns the detail of a *ngca.RobustReport, or false
	// for any other report.
	RobustDetails func(report any) (Robust, bool)
	// SetRobustPath sets the path of a *ngca.RobustWFLSNGCA: "adaptive"
	// (the default), "axes" or "equivariant" (each estimate alone).
	SetRobustPath func(est any, path string) error
	// SetRobustNullZ sets the z threshold of a *ngca.RobustWFLSNGCA's null
	// test: 0 means the default, 3; a negative value turns the test off.
	SetRobustNullZ func(est any, z float64) error
	// RobustDefaultLimits are the limits the adaptive path applies.
	RobustDefaultLimits RobustLimits

	// SetNewPartition makes a *ngca.WFLSNGCA draw a new partition of the
	// rows for stage 2, as the authors' code does (by default stage 2
	// reuses the folds of stage 1).
	SetNewPartition func(est any) error

	// SetIMAKSymmetric makes a *ngca.IMAK take its estimate from the
	// symmetric second-order matrix, the form first reconstructed.
	SetIMAKSymmetric func(est any) error

	// SetSNGCAProjection sets the final step of a *ngca.SNGCA's last
	// pass: "sdp" (the default, the 2013 semidefinite program), "convex"
	// (the 2010 ℓ1 projection) or "residual" (the closed form).
	SetSNGCAProjection func(est any, projection string) error
	// SNGCADetails returns the detail of a fit of ngca.SNGCA (from its
	// *ngca.SNGCAReport): its settings, the defaults resolved, and the
	// solver's last penalty and gap; false for any other report.
	SNGCADetails func(report any) (SNGCA, bool)

	// DimDetails returns the settings of a run of ngca.EstimateDim (from
	// its *ngca.DimReport), the defaults resolved, with a description of
	// the test's fixed settings; false for any other value.
	DimDetails func(report any) (Dim, bool)

	// SetFamilies sets the families of index functions of a *ngca.MIPP
	// (or of test functions of a *ngca.SNGCA); nil means the paper's
	// four.
	SetFamilies func(est any, fams []Family) error
	// DefaultFamilies returns the paper's four families, in the order
	// MIPP uses them.
	DefaultFamilies func() []Family
	// MIPPDetails returns the settings and the per-family counts of a fit
	// of ngca.MIPP (from its *ngca.MIPPReport), or false for any other
	// report.
	MIPPDetails func(report any) (MIPP, bool)
)

// Dim is the settings of a run of ngca.EstimateDim.
type Dim struct {
	Settings          string
	Alpha             float64
	Bootstrap, MaxDim int
	EnoughRows        int // the rows below which the report sets FewRows
}

// Family is a family of MIPP's index functions h(y) = s_p(wᵀy) of one
// kind, one function per parameter p: listed in Params, or L values spaced
// evenly over [Min, Max] (zero values: the kind's default range and 1000
// functions). Kind is "gauss-pow3" (s(z) = z³·exp(−z²/(2p))), "tanh"
// (tanh(p·z)), "sin" (sin(p·z)) or "cos" (cos(p·z)).
type Family struct {
	Kind     string
	Params   []float64
	Min, Max float64
	L        int
}

// MIPP is the detail of a fit of ngca.MIPP: its settings, the defaults
// resolved, and for every family in order what it kept.
type MIPP struct {
	Iterations int
	Threshold  float64
	Families   []FamilyCount
}

// FamilyCount is what MIPP kept of one family: Kept functions passed the
// threshold out of Total; Degenerate were dropped untested (β vanished or
// was not finite).
type FamilyCount struct {
	Family                  string
	Kept, Total, Degenerate int
}

// SNGCA is the detail of a fit of ngca.SNGCA: its settings, the ℓ1
// penalty λ and relative duality gap of the last pass's solve, and the
// test functions of that pass dropped (values vanished or not finite).
type SNGCA struct {
	Projection                string
	Functions, FinalFunctions int
	Passes                    int
	Kappa, Tol                float64
	MaxIter                   int
	Lambda, Gap               float64
	Dropped                   int
}

// Defaults are the library's default settings, which the configuration
// structs' doc comments state; the command's help and the studies'
// reports print them. Its slices must not be modified.
type Defaults struct {
	// Centers and Folds are the kernel estimators' number of centers (at
	// most; min(n, Centers)) and of cross-validation folds; Widths and
	// Ridges their grids of σ and λ.
	Centers, Folds int
	Widths, Ridges []float64
	// MIPPIterations and MIPPThreshold are MIPP's evaluations of β per
	// index function and its cut-off τ.
	MIPPIterations int
	MIPPThreshold  float64
	// CheckRefits and CheckShare are Check's number of refits and share
	// of the rows in each.
	CheckRefits int
	CheckShare  float64
	// DimAlpha and DimBootstrap are EstimateDim's level and replicates
	// per test.
	DimAlpha     float64
	DimBootstrap int
}

// Default holds the library's defaults.
var Default Defaults
