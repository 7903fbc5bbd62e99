package ngca

import (
	"context"
	"errors"

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
