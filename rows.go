package ngca

import "fmt"

// rowNeed is the fewest rows a method fits: min rows for what (the data's
// columns, the cross-validation folds), for the reason why, in words.
type rowNeed struct {
	method string // the method, as its messages name it
	min    int
	what   string // "3 columns", "3 columns and 5 cross-validation folds"
	why    string
}

// needRows returns nil if n ≥ r.min, and otherwise an error wrapping
// ErrSamples that says how many rows the method needs, for what, how many
// it got and why:
//
//	ngca: too few rows: MIPP needs at least 5 rows for 3 columns (got 4): …
func needRows(n int, r rowNeed) error {
	if n >= r.min {
		return nil
	}
	return fmt.Errorf("%w: %s needs at least %d rows for %s (got %d): %s", ErrSamples, r.method, r.min, r.what, n, r.why)
}

// whitenedRows returns the rule of a method that whitens the data: n ≥
// d + 2 rows for d columns. Whitening needs more rows than columns, and
// d + 1 rows (the fewest it accepts) whiten to the corners of a regular
// simplex whatever the data: they are the image of any other d + 1 rows
// under an affine map, so a method that turns with linear maps of the
// data has no shape left to tell one direction from another.
func whitenedRows(method string, d int) rowNeed {
	return rowNeed{method: method, min: d + 2, what: countOf(d, "column"),
		why: fmt.Sprintf("whitening needs more rows than columns, and %d rows whiten to the corners of a regular simplex whatever the data, "+
			"which leaves no shape to tell one direction from another", d+1)}
}

// foldRows returns the rule of a method with k-fold cross-validation of
// models of d columns that need more rows than columns: every fold must
// hold out at least one row and leave more than d rows to fit on. The
// largest fold holds ⌈n/k⌉ rows, so
//
//	n ≥ max(k, ⌈k(d + 1)/(k − 1)⌉),
//
// which is more than d + 1, so that the rule of whitenedRows holds too.
// k must be at least 2.
func foldRows(method string, d, k int) rowNeed {
	return rowNeed{method: method, min: max(k, (k*(d+1)+k-2)/(k-1)),
		what: fmt.Sprintf("%s and %d cross-validation folds", countOf(d, "column"), k),
		why:  "every fold must hold out at least one row and leave more rows than columns to fit on"}
}

// countOf returns "1 column", "3 columns".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
