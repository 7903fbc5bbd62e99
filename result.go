package ngca

import (
	"math"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Result is what an Estimator learned from the data. Every estimator sets
// every field; the one exception is stated on Eigenvalues.
type Result struct {
	// Method names the estimator that produced the result: "WF-LSNGCA",
	// "WF-LSNGCA robust", "LSNGCA", "MIPP", "IMAK" or "SNGCA".
	Method string

	// Basis is a d×Dim matrix with orthonormal columns spanning the
	// estimated non-Gaussian index space in the caller's coordinates.
	// Basis vectors are columns (as in gonum's VectorsTo), not rows. Its
	// first column is the direction of the leading vector of the
	// estimate mapped back to the caller's coordinates, and the following
	// columns are orthogonalised against the ones before (Gram–Schmidt
	// order). The sign of each column is fixed so that its entry of
	// largest magnitude is positive.
	//
	// Being orthonormal in the caller's coordinates, the basis suits data
	// whose columns have comparable scales: where they differ by a factor
	// s, the rows of the larger columns are about 1/s of the others and
	// carry absolute rounding errors of order ε, so that projections lose
	// about log₁₀ s digits. Rescale such columns before fitting when s
	// exceeds about 10⁸.
	Basis *mat.Dense

	// Eigenvalues are all eigenvalues, in descending order, of the matrix
	// whose leading Dim eigenvectors gave the basis: d of them, or
	// d − len(Dependent) when columns were left out. They are in the
	// coordinates in which that matrix was formed: (1/n)Σv(xᵢ)v(xᵢ)ᵀ on
	// standardised data for WF-LSNGCA and the robust variant's axes
	// estimate, (1/n)Σu(yᵢ)u(yᵢ)ᵀ on whitened data for LSNGCA, (1/k)Σββᵀ
	// over the k kept vectors (whitened) for MIPP and for the robust
	// variant's equivariant estimate (that of its MIPP start: the refined
	// frame is not the eigenvectors of a matrix, and the start's spectrum
	// ranks the directions it was refined from), ĜĜᵀ of the last pass
	// (whitened) for IMAK, and for SNGCA the averaged Fantope matrix of
	// its last pass, in the metric of the covariance. A clear gap after the Dim-th value
	// suggests Dim is right; Separation measures it. Every estimator sets
	// Eigenvalues (a Result read from JSON written before this field was
	// always set may lack it).
	Eigenvalues []float64

	// Mean holds the column means of the training data; ProjectTo
	// subtracts them.
	Mean []float64

	// Dependent lists the columns (0-based, ascending) that the fit left
	// out because each is a linear combination of the columns before it,
	// to within the data's rounding error: a one-hot group that sums to
	// one, a total beside its parts, a copy of a column. Such data lie in
	// a subspace of lower dimension, on which the NGCA model has no
	// density; the estimator fits the other columns, and Basis has rows of
	// exact zeros (every entry == 0) for the columns left out, so that
	// projections use the other columns only; RobustReport's NullCoords
	// are column indices of the data. A constant column is not left out
	// but an ErrConstant error. Dependent is nil when every column was
	// kept.
	Dependent []int

	// Timings lists the wall time of each step of the fit, in order,
	// ending with "total".
	Timings []Timing

	// Report holds the estimator's own diagnostics: an *LSReport from
	// WFLSNGCA and LSNGCA, a *MIPPReport from MIPP, a *RobustReport from
	// RobustWFLSNGCA, an *IMAKReport from IMAK and an *SNGCAReport from
	// SNGCA. Use a type switch or assertion to read it.
	Report Report
}

// ProjectTo sets dst to the coordinates of the rows of x in the basis,
//
//	dst = (x − 1·Meanᵀ)·Basis,
//
// an n×Dim matrix. If dst is empty it is resized; otherwise it must be n×Dim.
// ProjectTo panics, as gonum's methods do on a misuse, if r has no Basis
// (a zero Result), if x has a different number of columns than the
// training data (or Mean a different length than Basis has rows), or if
// dst has the wrong shape.
func (r *Result) ProjectTo(dst *mat.Dense, x mat.Matrix) {
	if r.Basis == nil || r.Basis.IsEmpty() {
		panic("ngca: ProjectTo on a Result with no basis")
	}
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

// WeakSeparation is the value of Result.Separation below which a fit's
// subspace is weakly separated from the rest of the spectrum and should
// not be trusted without a check (another Dim, another estimator, more
// rows; EstimateDim tests Dim). The value separates right from wrong fits
// on the paper's artificial data; elsewhere the ratio misses many wrong
// fits (docs/dim.md), and Check judges a fit itself.
const WeakSeparation = 10

// Separation returns how clearly the spectrum separates the fitted
// subspace from the rest: the ratio
//
//	λ_Dim / λ_{Dim+1}
//
// of the Dim-th and (Dim+1)-th of Eigenvalues after dropping exact zeros
// (the coordinates the robust variant set to zero), Dim being the number
// of columns of Basis. A large ratio (≫ WeakSeparation) says the leading
// Dim directions stand out; a ratio near 1 says the Dim-th direction is as
// weak as the ones left out, so the fit or Dim is doubtful. It returns
// +Inf when no nonzero eigenvalue follows the Dim-th (or it is not
// positive), and NaN when Eigenvalues is nil (a Result read from an
// older file) or has fewer than Dim nonzero values.
func (r *Result) Separation() float64 {
	if r.Basis == nil {
		return math.NaN()
	}
	_, dim := r.Basis.Dims()
	return separation(r.Eigenvalues, dim)
}

// separation is λ_dim/λ_{dim+1} of the nonzero values of the descending
// eigenvalues eig (see Result.Separation).
func separation(eig []float64, dim int) float64 {
	var nz []float64
	for _, v := range eig {
		if v != 0 {
			nz = append(nz, v)
		}
	}
	switch {
	case dim < 1 || len(nz) < dim:
		return math.NaN()
	case len(nz) == dim || !(nz[dim] > 0):
		return math.Inf(1)
	}
	return nz[dim-1] / nz[dim]
}

// Report is an estimator's own diagnostics in a Result: *LSReport,
// *MIPPReport, *RobustReport, *IMAKReport or *SNGCAReport.
type Report interface {
	isReport()
}

// LSReport is the Report of the least-squares estimators WFLSNGCA and
// LSNGCA.
type LSReport struct {
	// NumCenters and Folds are the number of kernel centers b and of
	// cross-validation folds the fit used (the defaults resolved).
	NumCenters, Folds int
	// cv reports the cross-validation of every stage, in the order the
	// stages ran: "lsldg" then "v" for WF-LSNGCA, "lsldg" for LSNGCA.
	cv []stageCV
}

func (*LSReport) isReport() {}

// stageCV reports the k-fold cross-validation of one stage: for every output
// coordinate, the held-out score of every (width, ridge) pair and the pair
// chosen.
type stageCV struct {
	// Name identifies the stage: "lsldg" for the log-density-gradient fit,
	// "v" for stage 2 of WF-LSNGCA; the robust variant has more.
	Name string
	// Widths and Ridges are the candidate grids, in the order of the rows
	// and columns of every cvChoice's Scores.
	Widths, Ridges []float64
	// Coords holds one cvChoice per output coordinate.
	Coords []cvChoice
}

// cvChoice is what cross-validation chose for one output coordinate.
type cvChoice struct {
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
