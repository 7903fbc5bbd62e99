// Package screen finds the rows of a table that lie far from the rest:
// rows that, each on its own, carry a large share of the data's spread in
// some direction. ngca.FarRows, ngca.EstimateDim, ngca.Check and the
// command share it, so that they agree on which rows those are.
//
// The rule (docs/rows-set-aside.md gives the reasoning and the
// figures). For a set of k rows with mean μ and sample covariance S, of
// rank r, let D²(x) be the squared Mahalanobis distance of a row x from
// them with x added to them: the row's leverage, the largest share of the
// rows' sum of squares in any direction that is its own, times k. A row
// lies far from a set of k rows when
//
//	D²(x) − r > max(ε·n, 2√(r·t) + 2t),  ε = 1/4,  t = ln(n/α),  α = 1/100,
//
// for a table of n rows. The first term bounds influence: the row's
// leverage exceeds an ordinary row's, about r/n, by more than ε, so that
// alone it carries over a quarter of the spread in its direction and
// moves every whitening and standardisation (by over 15 % in scale along
// it). For any law of finite covariance
// the largest leverage of n rows tends to 0, so this term sets aside ever
// fewer rows of clean data as n grows: heavy but finite tails are kept.
// The second term is the Laurent–Massart bound on the largest of n χ²_r
// variables at level α: on Gaussian data of few rows, where ε·n is small,
// it keeps the chance that any row at all is set aside below α.
//
// A row is set aside when it lies far both from the rows kept and from
// all the rows. The rows kept are found by iteration from a robust start
// (the rows within √n robust standard deviations, 1.4826 times the median
// absolute deviation, of every column's median), then, until the set no
// longer changes (at most maxIter times), the rows that do not lie far
// from the rows kept before; a gross value cannot hide the rows near it.
// The second condition keeps groups: rows that carry a direction's spread
// together, such as a cluster of a tenth of the rows, each of which
// carries only its share of it. Far judges any row by its distance from
// the rows kept with the row added to them, and from all the rows (which
// hold it) as it is: for a row of the table that the iteration kept, the
// first is below its distance among the rows kept, so Far, applied to a
// row later (a file projected with a fit), gives for the rows of the
// table the answer that RowsOf gives.
package screen

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The rule's constants (see the package comment).
const (
	// Share is ε, the leverage beyond an ordinary row's at which a row
	// carries too large a share of its direction's spread.
	Share = 0.25
	// Alpha is α, the level of the Gaussian term.
	Alpha = 0.01
	// MinRows is the fewest rows the screen judges; it sets aside nothing
	// in fewer rows, or in no more rows than 2(d + 1).
	MinRows = 10
	// maxIter bounds the iterations from the robust start.
	maxIter = 20
	// rankTol is the smallest eigenvalue of the covariance of the
	// robustly scaled columns, relative to the largest, counted in its
	// rank.
	rankTol = 1e-10
	// hugeUnits bounds the robust units of a value that a covariance
	// takes in.
	hugeUnits = 1e100
)

// ErrNonFinite is returned for data that hold NaN or ±Inf.
var ErrNonFinite = errors.New("value is NaN or infinite")

// Screen is the fitted rule, in the columns' robust units.
type Screen struct {
	// Center and Scale are each column's median and robust scale (1
	// for a column whose values are all equal): a row x is judged in
	// robust units, z = (x − Center)/Scale.
	Center, Scale []float64
	// Rows is the number n of rows the screen was fitted to.
	Rows int
	// Kept describes the rows kept, All all the rows.
	Kept, All Set
}

// Set is a set of rows that a row may lie far from: their mean and the
// whitening of their covariance, in robust units.
type Set struct {
	// Mean is the rows' mean; W (d×r) whitens their covariance: the
	// distance of z from the rows alone is d² = ‖(z − Mean)ᵀW‖².
	Mean []float64
	W    *mat.Dense
	// Rank is r, the covariance's rank, and Size the number k of rows.
	Rank, Size int
	// Holds says that the set holds the rows it judges (all the rows):
	// D² is then d², each row's distance with itself among them, and not
	// the distance with the row added once more.
	Holds bool
	// Limit is the largest D² of a row that does not lie far from them:
	// r + max(ε·n, 2√(r·t) + 2t).
	Limit float64
}

// Limit returns the rule's largest D² of a row that does not lie far from
// rows whose covariance has rank r, in a table of n rows.
func Limit(n, r int) float64 {
	t := math.Log(float64(n) / Alpha)
	return float64(r) + max(Share*float64(n), 2*math.Sqrt(float64(r)*t)+2*t)
}

// Fit fits the screen to the rows of x. It returns nil (a screen that
// sets nothing aside) for fewer than MinRows rows, or no more rows than
// 2(d + 1), or when the rows would have no spread; ErrNonFinite if x holds
// NaN or ±Inf.
func Fit(x mat.Matrix) (*Screen, error) {
	n, d := x.Dims()
	for i := range n {
		for j := range d {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, ErrNonFinite
			}
		}
	}
	if n < MinRows || n <= 2*(d+1) {
		return nil, nil
	}
	s := &Screen{Center: make([]float64, d), Scale: make([]float64, d), Rows: n}
	col := make([]float64, n)
	dev := make([]float64, n)
	for j := range d {
		for i := range n {
			col[i] = x.At(i, j)
		}
		s.Center[j], s.Scale[j] = robustScale(col, dev)
	}
	z := mat.NewDense(n, d, nil)
	for i := range n {
		row := z.RawRowView(i)
		for j := range d {
			row[j] = s.unit(x.At(i, j), j)
		}
	}
	all := make([]bool, n)
	for i := range all {
		all[i] = true
	}
	// All the rows: rows with values beyond hugeUnits in robust units (a
	// value near the largest float, whose square would overflow) are left
	// out of it; such rows lie far from any set that does not hold them.
	finite := make([]bool, n)
	for i := range n {
		finite[i] = true
		for _, v := range z.RawRowView(i) {
			if !(math.Abs(v) <= hugeUnits) {
				finite[i] = false
				break
			}
		}
	}
	var ok bool
	if s.All, ok = newSet(z, finite, n); !ok {
		return nil, nil
	}
	s.All.Holds = true
	// The robust start: every column within √n robust units.
	lim := math.Sqrt(float64(n))
	keep := make([]bool, n)
	kept := 0
	for i := range n {
		keep[i] = finite[i]
		for _, v := range z.RawRowView(i) {
			if !(math.Abs(v) <= lim) {
				keep[i] = false
				break
			}
		}
		if keep[i] {
			kept++
		}
	}
	if kept < n/2 {
		copy(keep, finite)
	}
	for range maxIter {
		if s.Kept, ok = newSet(z, keep, n); !ok {
			return nil, nil
		}
		same := true
		for i := range n {
			// A row kept is judged among the rows kept, which hold it;
			// another with it added to them.
			k := s.Kept.dist2(z.RawRowView(i), keep[i]) <= s.Kept.Limit
			if k != keep[i] {
				same = false
			}
			keep[i] = k
		}
		if same {
			break
		}
	}
	return s, nil
}

// unit returns v in column j's robust units.
func (s *Screen) unit(v float64, j int) float64 {
	return (v - s.Center[j]) / s.Scale[j]
}

// newSet returns the set of the rows of z that keep marks, in a table of
// n rows; it reports false if they are too few or have no spread.
func newSet(z *mat.Dense, keep []bool, n int) (Set, bool) {
	rows, d := z.Dims()
	k := 0
	mean := make([]float64, d)
	for i := range rows {
		if keep[i] {
			k++
			for j, v := range z.RawRowView(i) {
				mean[j] += v
			}
		}
	}
	if k <= d+1 {
		return Set{}, false
	}
	for j := range mean {
		mean[j] /= float64(k)
	}
	c := mat.NewDense(k, d, nil)
	r := 0
	for i := range rows {
		if keep[i] {
			row := c.RawRowView(r)
			for j, v := range z.RawRowView(i) {
				row[j] = v - mean[j]
			}
			r++
		}
	}
	var cov mat.SymDense
	cov.SymOuterK(1/float64(k-1), c.T())
	var eig mat.EigenSym
	if !eig.Factorize(&cov, true) {
		return Set{}, false
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := vals[len(vals)-1]
	if !(top > 0) || math.IsInf(top, 0) {
		return Set{}, false
	}
	var idx []int
	for j := len(vals) - 1; j >= 0; j-- {
		if vals[j] > rankTol*top {
			idx = append(idx, j)
		}
	}
	w := mat.NewDense(d, len(idx), nil)
	for c, j := range idx {
		f := 1 / math.Sqrt(vals[j])
		for i := range d {
			w.Set(i, c, vecs.At(i, j)*f)
		}
	}
	return Set{Mean: mean, W: w, Rank: len(idx), Size: k, Limit: Limit(n, len(idx))}, true
}

// dist2 returns D² of a row z in robust units: if the set holds z, d²;
// else its distance from the rows of the set with z added to them,
//
//	D² = k·(k/(k+1))²·a/(1 + a·k/(k+1)),  a = d²/(k − 1),
//
// d² its distance from the k rows alone (Sherman–Morrison). It never
// exceeds k²/(k + 1), its value for a row at infinity.
func (t *Set) dist2(z []float64, holds bool) float64 {
	d, r := t.W.Dims()
	var sum float64
	for c := range r {
		var y float64
		for j := range d {
			y += (z[j] - t.Mean[j]) * t.W.At(j, c)
		}
		sum += y * y
	}
	k := float64(t.Size)
	f := k / (k + 1)
	if math.IsNaN(sum) || math.IsInf(sum, 0) {
		return k * f
	}
	if holds {
		return sum
	}
	a := sum / (k - 1)
	return k * f * f * a / (1 + a*f)
}

// far reports whether z lies far from the set.
func (t *Set) far(z []float64) bool { return t.dist2(z, t.Holds) > t.Limit }

// Dist2 returns D² of a row x (in the caller's units) from the rows kept:
// +Inf for a row that holds NaN or ±Inf. It panics if len(x) differs
// from the screen's columns.
func (s *Screen) Dist2(x []float64) float64 {
	z, ok := s.units(x)
	if !ok {
		return math.Inf(1)
	}
	return s.Kept.dist2(z, false)
}

// units returns x in robust units, or false if it holds NaN or ±Inf.
func (s *Screen) units(x []float64) ([]float64, bool) {
	if len(x) != len(s.Center) {
		panic("screen: row length mismatch")
	}
	z := make([]float64, len(x))
	for j, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		z[j] = s.unit(v, j)
	}
	return z, true
}

// Far reports whether the rule sets the row x aside: it lies far from the
// rows kept and from all the rows. A row that holds NaN or ±Inf is set
// aside; a nil screen sets nothing aside. It panics if len(x) differs
// from the screen's columns.
func (s *Screen) Far(x []float64) bool {
	if s == nil {
		return false
	}
	z, ok := s.units(x)
	return !ok || s.Kept.far(z) && s.All.far(z)
}

// RowsOf returns the indices, ascending, of the rows of x that the screen
// sets aside (nil for a nil screen).
func (s *Screen) RowsOf(x mat.Matrix) []int {
	if s == nil {
		return nil
	}
	n, d := x.Dims()
	row := make([]float64, d)
	var out []int
	for i := range n {
		mat.Row(row, i, x)
		if s.Far(row) {
			out = append(out, i)
		}
	}
	return out
}

// Farthest returns the indices of the k rows of x farthest from the rows
// kept by D², farthest first (ties by index), with their D².
func (s *Screen) Farthest(x mat.Matrix, k int) ([]int, []float64) {
	n, d := x.Dims()
	if s == nil || k <= 0 {
		return nil, nil
	}
	k = min(k, n)
	row := make([]float64, d)
	dist := make([]float64, n)
	idx := make([]int, n)
	for i := range n {
		mat.Row(row, i, x)
		dist[i] = s.Dist2(row)
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case dist[a] > dist[b]:
			return -1
		case dist[a] < dist[b]:
			return 1
		}
		return 0
	})
	out := idx[:k:k]
	ds := make([]float64, k)
	for c, i := range out {
		ds[c] = dist[i]
	}
	return out, ds
}

// robustScale returns the median of x and its robust scale: 1.4826 times
// the median absolute deviation from it, or, when more than half the
// values equal the median, 1.2533 times their mean absolute deviation
// (both the standard deviation for Gaussian data); 1 for a column whose
// values are all equal. x is not modified; dev is scratch of its length.
func robustScale(x, dev []float64) (med, scale float64) {
	copy(dev, x)
	slices.Sort(dev)
	med = middle(dev)
	for i, v := range x {
		dev[i] = math.Abs(v - med)
	}
	slices.Sort(dev)
	if mad := middle(dev); mad > 0 && !math.IsInf(mad, 0) {
		return med, 1.4826 * mad
	}
	var sum float64
	for _, v := range dev {
		sum += v / float64(len(dev))
	}
	if sum > 0 && !math.IsInf(sum, 0) {
		return med, 1.2533 * sum
	}
	return med, 1
}

// middle returns the median of sorted values.
func middle(sorted []float64) float64 {
	n := len(sorted)
	return sorted[(n-1)/2]/2 + sorted[n/2]/2
}
