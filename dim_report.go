package ngca

import (
	"math/rand/v2"
)

// DimOptions configure EstimateDim. The zero value gives the documented
// defaults: α = 0.05, B = 39, every dimension up to d − 1.
type DimOptions struct {
	// Alpha is the significance level of every test, 0 < Alpha < 1; 0
	// means 0.05.
	Alpha float64
	// Bootstrap is the number B of Monte Carlo replicates (Gaussian data
	// sets, a parametric bootstrap) per test; 0 means 39. A test can
	// reject only if 1/(B + 1) ≤ Alpha.
	Bootstrap int
	// MaxDim is the largest dimension the search answers, 1 ≤ MaxDim < d;
	// 0 means d − 1. Dim = MaxDim when the test of MaxDim − 1 was
	// rejected.
	MaxDim int
	// Src is the source of randomness of the replicates; EstimateDim
	// draws from it on the calling goroutine. nil means a new
	// rand.NewPCG(0, 0).
	Src rand.Source
	// Workers is the number of goroutines; 0 means GOMAXPROCS, 1 means
	// serial. Replicates run in parallel, one per goroutine, each from its
	// own source drawn from Src in order; results are bit-identical for
	// any value.
	Workers int
	// Progress, if not nil, is called from the goroutine that called
	// EstimateDim: Stage "k=0", "k=3", "k=2", … for each test, in the
	// order run, and "rest" for the test of the remainder, with Done and
	// Total counting replicates. Steps bounds the number of stages; the
	// search usually needs fewer.
	Progress func(Progress)
	// KeepFarRows keeps the rows that FarRows sets aside. By default
	// (false) EstimateDim tests the other rows and names those in
	// DimReport.SetAside: one far row stretches the whitening in its
	// direction, which then looks non-Gaussian to any index.
	KeepFarRows bool
}

// DimReport is the outcome of EstimateDim.
//
// How to read it: Tests[i] tests the hypothesis "exactly K non-Gaussian
// dimensions" (the data's other d − K directions are jointly Gaussian and
// independent of them). Its Statistic is the non-Gaussianity index of the
// most non-Gaussian direction a projection pursuit finds outside the K
// most significant directions found, and Null the median of the same on
// Gaussian data of d − K columns: Statistic ≫ Null with PValue = 1/(B + 1) is a
// clear rejection, a PValue well above Alpha a clear acceptance. Dim is the
// K at which the tests turn from rejected to accepted.
//
// Dim counts the directions that the tests can resolve one by one;
// Remainder says whether the d − Dim directions left are jointly Gaussian,
// and FewRows whether the rows are few for the columns. Dim = 0 with
// Remainder rejected means non-Gaussian structure that no single direction
// showed: with FewRows, more rows may resolve it.
type DimReport struct {
	// Dim is the estimated dimension of the non-Gaussian index space: the
	// number of non-Gaussian directions resolved. 0 means none was.
	Dim int
	// FewRows reports that the data have fewer rows n than max(2d², 32d),
	// d the number of columns: fewer rows than a weak symmetric signal in a
	// direction that mixes the columns needs to be resolved, so Dim may undercount (signals along the columns and
	// skewed or strongly non-Gaussian ones are still found). The pursuit
	// starts from fourth moments, whose matrix (FOBI's) carries noise of
	// spread about q·√(2/n) per direction for q columns: a direction of
	// excess kurtosis κ stands out of it above 2q²/κ² rows, 2d² for |κ| = 1
	// (a uniform signal has −1.2). And the index J of the best of q
	// Gaussian directions grows about as 3q, while a uniform direction's
	// is 0.13·n: below about 32 rows per column it does not stand out
	// (the larger bound below d = 16).
	FewRows bool
	// Index holds the non-Gaussianity index J of each direction the
	// deflation found, the most significant first (by J over its median on
	// Gaussian data), as far as the search went. The test of K looks
	// outside the first K of them.
	Index []float64
	// Tests holds the tests run, by ascending K: the search tests its
	// guess and the K below it, and more only when they disagree with
	// it, so that it runs a few tests, not Dim + 1.
	Tests []DimTest
	// Remainder tests whether the d − Dim directions left are jointly
	// Gaussian by all of their fourth moments at once (the squared
	// Frobenius norm of FOBI's matrix net of its Gaussian value; Columns
	// and ColumnsNull are 0), with all B replicates. Rejected means
	// non-Gaussian structure beyond the Dim directions, too weak or too
	// spread to be resolved direction by direction.
	Remainder DimTest
	// SetAside holds the indices, ascending, of the rows of x that
	// FarRows set aside and the tests left out (nil with
	// DimOptions.KeepFarRows).
	SetAside []int

	// The settings used, the defaults resolved (opts), and a description
	// of the test's fixed settings; a run records them for the command
	// (probe.RecordDim).
	settings             string
	alpha                float64
	bootstrap, maxDim, d int
}

// DimTest is the test of one hypothesis "K non-Gaussian dimensions".
type DimTest struct {
	// K is the tested dimension.
	K int
	// Statistic is the index J of the most non-Gaussian direction the
	// pursuit finds outside the K most significant directions found
	// (DimReport.Index), and Null its median over the replicates.
	Statistic, Null float64
	// Columns is the largest J of the data's columns outside the K
	// directions (unrefined: a second statistic, for signals that lie
	// along the columns), and ColumnsNull its median over the replicates.
	Columns, ColumnsNull float64
	// Replicates is the number of replicates run (fewer than Bootstrap
	// when the test stopped early, see EstimateDim).
	Replicates int
	// PValue is the Monte Carlo p-value: (1 + e)/(Replicates + 1) after
	// all B replicates, e the number of replicates at least as extreme as
	// the data; after an early stop the larger of e/Replicates and
	// (1 + e)/(B + 1).
	PValue float64
	// Rejected reports PValue ≤ Alpha.
	Rejected bool

	exceed int // the replicates at least as extreme as the data
}
