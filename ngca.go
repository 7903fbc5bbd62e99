package ngca

import (
	"context"
	"errors"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Estimator estimates the non-Gaussian index space of data.
//
// Fit takes an n×d matrix whose rows are observations and returns a Result
// whose Basis spans the estimated m-dimensional non-Gaussian index space in
// the caller's coordinates. Fit never modifies x or the receiver.
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
	// ErrSamples reports too few observations for the requested fit.
	ErrSamples = errors.New("ngca: too few samples")
	// ErrNonFinite reports a NaN or infinite input value.
	ErrNonFinite = errors.New("ngca: non-finite value")
	// ErrConstant reports a column with no variation, which cannot be standardised.
	ErrConstant = errors.New("ngca: constant column")
	// ErrParam reports an invalid configuration value.
	ErrParam = errors.New("ngca: invalid parameter")
	// ErrFormat reports a data file that does not follow its format; the
	// message gives the line and column.
	ErrFormat = errors.New("ngca: bad data format")
	// ErrSingular reports a numerically singular problem: a covariance matrix
	// that cannot be whitened, or a coordinate for which every candidate of
	// a cross-validation grid failed.
	ErrSingular = errors.New("ngca: numerically singular")
)

// Result is what an Estimator learned from the data.
type Result struct {
	// Basis is a d×Dim matrix with orthonormal columns spanning the
	// estimated non-Gaussian index space in the caller's coordinates.
	// Basis vectors are columns (as in gonum's VectorsTo), not rows. Its
	// first column is the direction of the leading eigenvector mapped back
	// to the caller's coordinates, and the following columns are
	// orthogonalised against the ones before (Gram–Schmidt order). The sign
	// of each column is fixed so that its entry of largest magnitude is
	// positive.
	Basis *mat.Dense

	// Eigenvalues are all d eigenvalues, in descending order, of the d×d
	// matrix whose leading Dim eigenvectors gave the basis, in the
	// coordinates in which that matrix was formed: (1/n)Σv(xᵢ)v(xᵢ)ᵀ on
	// standardised data for WF-LSNGCA, (1/n)Σu(yᵢ)u(yᵢ)ᵀ on whitened data
	// for LSNGCA, (1/k)Σββᵀ over the k kept vectors (whitened) for MIPP.
	// A clear gap after the Dim-th value suggests Dim is right.
	Eigenvalues []float64

	// Mean holds the column means of the training data; ProjectTo
	// subtracts them.
	Mean []float64

	// CV reports the cross-validation of every stage, in the order the
	// stages ran (WF-LSNGCA: "lsldg" then "v"; LSNGCA: "lsldg"; MIPP:
	// none).
	CV []StageCV

	// Timings lists the wall time of each step of the fit, in order,
	// ending with "total".
	Timings []Timing

	// Kept reports, for MIPP, how many index functions of each family
	// passed the signal-to-noise threshold; nil for other estimators.
	Kept []FamilyCount

	// Robust reports what the robust variant of WF-LSNGCA did; nil for
	// other estimators.
	Robust *RobustReport
}

// ProjectTo sets dst to the coordinates of the rows of x in the basis,
//
//	dst = (x − 1·Meanᵀ)·Basis,
//
// an n×Dim matrix. If dst is empty it is resized; otherwise it must be n×Dim.
// ProjectTo panics if x has a different number of columns than the
// training data or dst has the wrong shape.
func (r *Result) ProjectTo(dst *mat.Dense, x mat.Matrix) {
	n, d := x.Dims()
	bd, m := r.Basis.Dims()
	if d != bd || len(r.Mean) != d {
		panic(mat.ErrShape)
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, m)
	} else if rr, cc := dst.Dims(); rr != n || cc != m {
		panic(mat.ErrShape)
	}
	c := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			c.Set(i, j, x.At(i, j)-r.Mean[j])
		}
	}
	dst.Mul(c, r.Basis)
}

// StageCV reports the k-fold cross-validation of one stage: for every output
// coordinate, the held-out score of every (width, ridge) pair and the pair
// chosen.
type StageCV struct {
	// Name identifies the stage: "lsldg" for the log-density-gradient fit,
	// "v" for stage 2 of WF-LSNGCA.
	Name string
	// Widths and Ridges are the candidate grids, in the order of the rows
	// and columns of every Selection's Scores.
	Widths, Ridges []float64
	// Coords holds one Selection per output coordinate.
	Coords []Selection
}

// Selection is what cross-validation chose for one output coordinate.
type Selection struct {
	// Width and Ridge are the chosen kernel width and ridge parameter.
	Width, Ridge float64
	// Score is the chosen pair's mean held-out score.
	Score float64
	// Scores.At(w, l) is the held-out score of Widths[w] and Ridges[l],
	// averaged over the folds; +Inf marks a candidate whose solve failed.
	Scores *mat.Dense
}

// Timing is the wall time of one step of a fit.
type Timing struct {
	Step    string
	Elapsed time.Duration
}

// Progress reports how far a stage of a fit has got. Done counts finished
// units of work out of Total: for the least-squares estimators a unit is
// one (width, coordinate) pair of a cross-validation grid, for MIPP one
// index function.
type Progress struct {
	Stage       string
	Done, Total int
}

// stopwatch records the Timings of a fit.
type stopwatch struct {
	start, last time.Time
	steps       []Timing
}

func newStopwatch() *stopwatch {
	now := time.Now()
	return &stopwatch{start: now, last: now}
}

// lap records the time since the previous lap as the given step.
func (s *stopwatch) lap(step string) {
	now := time.Now()
	s.steps = append(s.steps, Timing{Step: step, Elapsed: now.Sub(s.last)})
	s.last = now
}

// total returns the recorded steps followed by the total time.
func (s *stopwatch) total() []Timing {
	return append(s.steps, Timing{Step: "total", Elapsed: time.Since(s.start)})
}
