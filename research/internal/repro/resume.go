package repro

import (
	"math"
	"strconv"
)

// Finished returns the rows of an earlier run of a study that keep
// accepts, the first row of each key only, and the set of their keys: the
// fits a resumed study keeps and need not run again.
func Finished[R any, K comparable](rows []R, key func(R) K, keep func(R) bool) ([]R, map[K]bool) {
	var kept []R
	done := map[K]bool{}
	for _, r := range rows {
		k := key(r)
		if !done[k] && keep(r) {
			kept = append(kept, r)
			done[k] = true
		}
	}
	return kept, done
}

// FormatFloat formats v so that ParseFloat reads it back exactly
// (strconv's 'g' with the fewest digits), and NaN as the empty string: an
// empty CSV field is a value that does not exist.
func FormatFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// ParseFloat is the inverse of FormatFloat: the empty string is NaN.
func ParseFloat(s string) (float64, error) {
	if s == "" {
		return math.NaN(), nil
	}
	return strconv.ParseFloat(s, 64)
}
