package ngca

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/screen"
)

// FarRows returns the indices, ascending, of the rows of x (n×d) that lie
// far from the rest: rows that on their own carry a large share of the
// data's spread in some direction, such as a gross value, a missing-value
// code in a few rows, or a row far out only jointly. Non-Gaussian methods
// take such a row for signal, so EstimateDim sets them aside by default,
// Check names the rows that decide a fit, and the command leaves them out
// before a fit.
//
// For k rows of mean μ and covariance S (of rank r), let D²(x) be the
// squared Mahalanobis distance of x from them with x added to them (k times
// the row's leverage: the largest share of the rows' sum of squares in any
// direction that is its own). x lies far from them when
//
//	D²(x) − r > max(n/4, 2√(r·t) + 2t),  t = ln(100·n):
//
// its leverage exceeds an ordinary row's by more than a quarter (the first
// term; for any law of finite covariance the largest leverage of n rows
// tends to 0, so heavy but finite tails are kept as n grows), and more
// than n rows of Gaussian data reach with probability 1/100 (the second,
// the Laurent–Massart bound on χ²_r, which decides for few rows). A row is
// set aside when it lies far both from the rows kept, found by iteration
// from the rows within √n robust standard deviations of every column's
// median, and from all the rows, which keeps groups that carry a
// direction's spread together (a cluster, a code repeated in many rows:
// each row carries only its share). docs/rows-set-aside.md
// gives the figures: on clean Gaussian tables FarRows sets aside at most
// max(1, ⌊n/100⌋) rows, and almost always none.
//
// FarRows sets nothing aside in fewer than 10 rows, no more than 2(d + 1),
// or too few for the rule to tell (about 50 rows). It returns an error
// wrapping ErrShape for an empty or nil x, ErrSamples for fewer than 2
// rows, and ErrNonFinite for NaN or ±Inf.
func FarRows(x mat.Matrix) ([]int, error) {
	s, err := fitScreen(x)
	if err != nil {
		return nil, err
	}
	return s.RowsOf(x), nil
}

// fitScreen validates x and fits the rule of FarRows to it (nil when it
// sets nothing aside).
func fitScreen(x mat.Matrix) (*screen.Screen, error) {
	if _, _, err := checkData(x, 1); err != nil {
		return nil, err
	}
	s, err := screen.Fit(x)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNonFinite, err)
	}
	return s, nil
}

// withoutRows returns the rows of x (n×d) not listed in rows (ascending),
// as a new matrix.
func withoutRows(x mat.Matrix, rows []int) *mat.Dense {
	n, d := x.Dims()
	out := mat.NewDense(n-len(rows), d, nil)
	k, r := 0, 0
	for i := range n {
		if k < len(rows) && rows[k] == i {
			k++
			continue
		}
		mat.Row(out.RawRowView(r), i, x)
		r++
	}
	return out
}
