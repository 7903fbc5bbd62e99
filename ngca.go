package ngca

import (
	"context"
	"errors"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Estimator estimates the non-Gaussian index space of data.
//
// Fit takes an n×d matrix whose rows are observations and returns a Result
// whose Basis spans the estimated m-dimensional non-Gaussian index space in
// the caller's coordinates. Fit never modifies x or the receiver.
//
// WFLSNGCA, RobustWFLSNGCA, LSNGCA, MIPP, IMAK and SNGCA implement
// Estimator. LSLDG does not: it estimates ∇log p, and its Fit returns an
// LSLDGModel.
type Estimator interface {
	Fit(ctx context.Context, x mat.Matrix) (*Result, error)
}

// estimator is an Estimator of this package: what Check and the JSON form
// of a Result know of it besides Fit. Each estimator implements it in its
// own file, and registers a zero value there (register), with the name of
// its fits in a constant that its Fit also uses.
type estimator interface {
	Estimator
	// method returns the Result.Method of its fits.
	method() string
	// dim returns its Dim.
	dim() int
	// with returns a copy, a new value, with the source src, workers
	// goroutines and no Progress callback.
	with(src rand.Source, workers int) Estimator
	// equivariant reports whether its estimate turns with any invertible
	// linear map of the data, so that it has no orientation of the
	// columns to be biased by (Check judges its fits by stability alone).
	equivariant() bool
	// newReport returns a zero Report of the type its fits hold.
	newReport() Report
	// rows returns the fewest rows its Fit accepts for d columns, with
	// its Folds (the rule its doc comment states).
	rows(d int) rowNeed
}

// estimators holds a zero value of every estimator of the package, in the
// order their files register them.
var estimators []estimator

// register adds an estimator of the package to estimators and the type
// of its report to those a Result's JSON can hold; each estimator's file
// calls it from an init function.
func register(e estimator) {
	estimators = append(estimators, e)
	addReportType(e.newReport())
}

// Sentinel errors. Errors returned by this package wrap one of these (or
// a context error) with %w, so callers can test them with errors.Is.
var (
	// ErrShape reports a nil or empty matrix, or a matrix of the wrong shape.
	ErrShape = errors.New("ngca: bad shape")
	// ErrDim reports a target dimension outside 1..d-1.
	ErrDim = errors.New("ngca: dimension out of range")
	// ErrSamples reports too few rows (observations) for the requested
	// fit; the message says how many the method needs and how many it got.
	ErrSamples = errors.New("ngca: too few rows")
	// ErrNonFinite reports a NaN or infinite input value.
	ErrNonFinite = errors.New("ngca: non-finite value")
	// ErrConstant reports a column with no variation, which cannot be standardised.
	ErrConstant = errors.New("ngca: constant column")
	// ErrParam reports an invalid configuration value.
	ErrParam = errors.New("ngca: invalid parameter")
	// ErrSingular reports a numerically singular problem: a covariance
	// matrix that cannot be whitened, estimated vectors that span fewer
	// than Dim dimensions, a coordinate for which every candidate of a
	// cross-validation grid failed, or, for LSLDG only, rank-deficient
	// data (a column that is a copy or a linear combination of others, to
	// within the rounding error of the data; the estimators leave such
	// columns out, see Result.Dependent).
	ErrSingular = errors.New("ngca: numerically singular")
)
