package repro

import (
	"math"
	"slices"
	"testing"
)

func TestFinished(t *testing.T) {
	rows := []int{1, 2, 11, 3, 12, 4}
	kept, done := Finished(rows, func(r int) int { return r % 10 }, func(r int) bool { return r != 3 })
	if !slices.Equal(kept, []int{1, 2, 4}) || len(done) != 3 || !done[1] || done[3] {
		t.Errorf("kept %v, done %v", kept, done)
	}
}

func TestFormatFloat(t *testing.T) {
	for _, v := range []float64{0, 1e-300, 0.1 + 0.2, -3, math.Inf(1), math.NaN()} {
		s := FormatFloat(v)
		got, err := ParseFloat(s)
		if err != nil || !(got == v || math.IsNaN(v) && math.IsNaN(got)) {
			t.Errorf("%v: %q read back as %v, %v", v, s, got, err)
		}
	}
	if FormatFloat(math.NaN()) != "" {
		t.Error("NaN is not the empty field")
	}
}
