package repro

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Summary is the mean and sample standard deviation of a cell's values.
type Summary struct {
	N         int
	Mean, Std float64
}

// Summarize returns the summary of v (NaN values are left out).
func Summarize(v []float64) Summary {
	var clean []float64
	for _, x := range v {
		if !math.IsNaN(x) {
			clean = append(clean, x)
		}
	}
	s := Summary{N: len(clean), Mean: math.NaN(), Std: math.NaN()}
	switch len(clean) {
	case 0:
	case 1:
		s.Mean, s.Std = clean[0], 0
	default:
		s.Mean, s.Std = stat.MeanStdDev(clean, nil)
	}
	return s
}

// Median returns the median of v: its middle value, or the mean of the two
// middle values when len(v) is even; NaN if v is empty.
func Median(v []float64) float64 {
	n := len(v)
	if n == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
