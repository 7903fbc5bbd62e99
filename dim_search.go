package ngca

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/ngca-go/ngca/internal/defaults"
	"gonum.org/v1/gonum/mat"
)

// dimSearch is the state of one EstimateDim call.
type dimSearch struct {
	pr   *prepared
	opts DimOptions
	rep  *DimReport
	// y0 is the whitened data and cols0 the directions of its columns
	// (d×d); the deflation (dim_deflate.go) finds directions one by one
	// and ranks them, and runs holds the test of each k tried.
	y0, cols0 *mat.Dense
	deflation
	runs map[int]*dimRun
}

// newDimSearch checks the data and options, standardises and whitens the
// data.
func newDimSearch(ctx context.Context, x mat.Matrix, opts DimOptions) (*dimSearch, error) {
	if opts.Alpha == 0 {
		opts.Alpha = defaults.DimAlpha
	}
	if opts.Bootstrap == 0 {
		opts.Bootstrap = defaults.DimBootstrap
	}
	switch {
	case !(opts.Alpha > 0 && opts.Alpha < 1):
		return nil, fmt.Errorf("%w: Alpha = %v, need 0 < Alpha < 1", ErrParam, opts.Alpha)
	case opts.Bootstrap < 1:
		return nil, fmt.Errorf("%w: Bootstrap = %d", ErrParam, opts.Bootstrap)
	case 1/float64(opts.Bootstrap+1) > opts.Alpha:
		return nil, fmt.Errorf("%w: Bootstrap = %d is too small to reject at Alpha = %v: need B + 1 ≥ 1/Alpha", ErrParam, opts.Bootstrap, opts.Alpha)
	}
	var aside []int
	if !opts.KeepFarRows {
		if err := checkContext(ctx); err != nil {
			return nil, err
		}
		scr, err := fitScreen(x)
		if err != nil {
			return nil, err
		}
		if aside = scr.RowsOf(x); len(aside) > 0 {
			x = withoutRows(x, aside)
		}
	}
	pr, err := prepare(ctx, x, config{src: opts.Src, workers: opts.Workers, rows: dimRows}, 0, false)
	if err != nil {
		return nil, err
	}
	if pr.d < 2 {
		return nil, fmt.Errorf("%w: data have %d column, need at least 2", ErrDim, pr.d)
	}
	if opts.MaxDim == 0 {
		opts.MaxDim = pr.d - 1
	}
	if opts.MaxDim < 1 || opts.MaxDim >= pr.d {
		return nil, fmt.Errorf("%w: MaxDim = %d, need 1 ≤ MaxDim ≤ %d for %d columns", ErrDim, opts.MaxDim, pr.d-1, pr.d)
	}
	y, cols, err := dimWhiten(pr.z)
	if err != nil {
		return nil, fmt.Errorf("ngca: EstimateDim: %w", err)
	}
	pr.progress = &reporter{fn: opts.Progress, steps: dimSearchBound(opts.MaxDim) + 1}
	return &dimSearch{pr: pr, opts: opts, y0: y, cols0: cols, deflation: newDeflation(y, cols), runs: map[int]*dimRun{},
		rep: &DimReport{
			settings: fmt.Sprintf("projection pursuit by a robust negentropy index from FOBI's %d + %d extreme eigenvectors "+
				"(FastICA, %d steps), the skewness vector and the columns, the %d best and the best of each kind refined by %d steps; Gaussian replicates",
				dimSub, dimSuper, dimSubSteps, dimKeep, dimRefine),
			alpha: opts.Alpha, bootstrap: opts.Bootstrap, maxDim: opts.MaxDim, d: pr.d, FewRows: pr.n < dimEnoughRows(pr.d),
			SetAside: aside,
		}}, nil
}

// dimRows returns EstimateDim's fewest rows for d columns, d + 2: it
// whitens the data (see whitenedRows).
func dimRows(d int) rowNeed { return whitenedRows("EstimateDim", d) }

// dimEnoughRows returns max(2d², 32d), the rows below which the report
// of d columns sets FewRows (see DimReport.FewRows).
func dimEnoughRows(d int) int {
	return max(2*d*d, 32*d)
}

// dimSearchBound bounds the stages of the search for 0 ≤ Dim ≤ maxDim:
// k = 0, the guess and the k below it, ⌈log₂⌉ probes up and as many
// bisection steps.
func dimSearchBound(maxDim int) int {
	return 3 + 2*bits.Len(uint(maxDim))
}

// dimWhiten whitens the standardised data z (n×d) with the 1/n
// covariance and returns it with the unit directions of z's columns in
// the whitened coordinates (d×d, one per column): column j of z is, up to
// scale, the projection of the whitened rows on the j-th direction.
func dimWhiten(z *mat.Dense) (*mat.Dense, *mat.Dense, error) {
	n, _ := z.Dims()
	wh, err := newWhitening(z)
	if err != nil {
		return nil, nil, err
	}
	y := wh.apply(z)
	y.Scale(math.Sqrt(float64(n)/float64(n-1)), y)
	var root mat.Dense // Σ^(1/2) = W⁻¹: its column j is column j's direction
	if err := root.Inverse(wh.w); err != nil {
		return nil, nil, fmt.Errorf("%w: the covariance cannot be inverted", ErrSingular)
	}
	normaliseCols(&root)
	return y, &root, nil
}

// complement returns the data and the columns' directions in an
// orthonormal basis of the complement of the k directions of largest
// score (ranked), refitted together by dimJointSteps steps of symmetric
// FastICA; it finds more directions if needed, and fixes the ranking of
// those found so far.
func (s *dimSearch) complement(ctx context.Context, k int) (*mat.Dense, *mat.Dense, error) {
	if k == 0 {
		return s.y0, s.cols0, nil
	}
	if err := s.extend(ctx, k); err != nil {
		return nil, nil, err
	}
	if s.frozen == 0 {
		s.frozen = len(s.found)
	}
	d := s.pr.d
	w := mat.NewDense(k, d, nil)
	for j, i := range s.ranked()[:k] {
		w.SetRow(j, s.found[i].dir)
	}
	// The k directions, found one at a time, each carry the error of
	// those before it; refitted together they leave less of the signals
	// in the complement, where a test would find it.
	w = fastICA(s.y0, w, dimJointSteps)
	var qr mat.QR
	qr.Factorize(w.T())
	var q mat.Dense
	qr.QTo(&q)
	rest := q.Slice(0, d, k, d)
	var y, cols mat.Dense
	y.Mul(s.y0, rest)
	cols.Mul(rest.T(), s.cols0)
	if _, c := y.Dims(); c != d-k {
		return nil, nil, fmt.Errorf("%w: EstimateDim: complement of %d directions has %d", ErrSingular, k, c)
	}
	return &y, &cols, nil
}

// dimRun is the test of one hypothesis "k non-Gaussian dimensions": the
// data's statistics there and the replicates run so far, in order.
type dimRun struct {
	k     int
	cols  *mat.Dense // the columns' directions outside the k directions
	data  pursuit
	seeds [][2]uint64
	reps  []pursuit // index, columns and frob of each replicate (u unset)
	test  *DimTest  // the search's decision, once made
}

// exceed counts the replicates whose index and whose column statistic
// reach the data's.
func (r *dimRun) exceed() (index, columns int) {
	for _, p := range r.reps {
		if p.index >= r.data.index {
			index++
		}
		if p.columns >= r.data.columns {
			columns++
		}
	}
	return index, columns
}

// stopped reports that both statistics have been reached by
// h = ⌊α(B + 1)⌋ replicates: whatever the rest, the combined p-value will
// then exceed α (the Besag–Clifford early stop).
func (r *dimRun) stopped(alpha float64, B int) bool {
	h := int(math.Floor(alpha * float64(B+1)))
	i, c := r.exceed()
	return i >= h && c >= h
}

// decide computes the test of r from its replicates: each statistic is
// ranked among the data's and the replicates' values, each data set is
// judged by the larger of its two ranks, ties broken by the smaller, and E
// counts the replicates judged at least as extreme as the data (ties count
// against the data). Under the hypothesis the data and the replicates are
// exchangeable, so the test is exact; a data set extreme in one statistic
// only is rejected at B = 39, α = 0.05 (p ≤ 2/40) and usually at B = 19.
func (r *dimRun) decide(alpha float64, B int) DimTest {
	b := len(r.reps)
	index := make([]float64, b+1)
	columns := make([]float64, b+1)
	index[0], columns[0] = r.data.index, r.data.columns
	for i, p := range r.reps {
		index[i+1], columns[i+1] = p.index, p.columns
	}
	// A value's rank is 1 + the number of values below it, so that ties
	// share the lowest rank: a statistic equal in every set (no column
	// left to test) ranks nothing above anything.
	rank := func(v []float64, x float64) int {
		n := 1
		for _, w := range v {
			if w < x {
				n++
			}
		}
		return n
	}
	ranks := func(i int) (hi, lo int) {
		a, c := rank(index, index[i]), rank(columns, columns[i])
		return max(a, c), min(a, c)
	}
	t := DimTest{K: r.k, Statistic: r.data.index, Columns: r.data.columns, Replicates: b,
		Null: median(index[1:]), ColumnsNull: median(columns[1:])}
	hi, lo := ranks(0)
	for i := 1; i <= b; i++ {
		if h, l := ranks(i); h > hi || (h == hi && l >= lo) {
			t.exceed++
		}
	}
	t.PValue = float64(1+t.exceed) / float64(B+1)
	if b < B {
		t.PValue = math.Max(t.PValue, float64(t.exceed)/float64(b))
	}
	t.Rejected = t.PValue <= alpha
	return t
}
