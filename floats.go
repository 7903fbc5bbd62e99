package ngca

import (
	"math"
	"slices"
	"sort"
)

// Helpers on float64 slices shared by the estimators.

const eps = 0x1p-52

// median returns the median of v (NaN if v is empty); v is not changed.
func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	w := slices.Clone(v)
	slices.Sort(w)
	h := len(w) / 2
	if len(w)%2 == 1 {
		return w[h]
	}
	return (w[h-1] + w[h]) / 2
}

// ascending returns the indices of z in increasing order of value (ties to
// the smaller index).
func ascending(z []float64) []int {
	idx := make([]int, len(z))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return z[idx[a]] < z[idx[b]] })
	return idx
}

// everyOther returns the values of v at even indices (v itself if it has
// fewer than three values).
func everyOther(v []float64) []float64 {
	if len(v) < 3 {
		return v
	}
	var out []float64
	for i := 0; i < len(v); i += 2 {
		out = append(out, v[i])
	}
	return out
}
