package main

import (
	"math"
	"strings"
	"testing"
)

// FuzzReadBasis reads arbitrary bytes as the basis file of transform and
// plot (the CSV basis of fit, or its JSON). It checks that an error names
// the file and that a basis read without one is a d×M matrix of finite
// numbers whose means and eigenvalues are finite, with one mean per row,
// and one column name or number (≥ 1) per row when it names its rows.
// The seed corpus is in testdata/fuzz/FuzzReadBasis; docs/reliability.md
// says how to run the fuzzer.
func FuzzReadBasis(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		const path = "basis.json"
		b, err := parseBasis(path, data)
		if err != nil {
			if b != nil {
				t.Fatalf("basis and error %v", err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, path+":") {
				t.Fatalf("error %q does not start with the file name", msg)
			}
			return
		}
		d, m := b.basis.Dims()
		if d == 0 || m == 0 {
			t.Fatalf("%d×%d basis", d, m)
		}
		for _, v := range b.basis.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("basis holds %v", v)
			}
		}
		if b.mean != nil && len(b.mean) != d {
			t.Fatalf("%d means for %d rows", len(b.mean), d)
		}
		if b.columns != nil && len(b.columns) != d || b.numbers != nil && len(b.numbers) != d || b.columns != nil && b.numbers != nil {
			t.Fatalf("%d×%d basis with columns %q and numbers %v", d, m, b.columns, b.numbers)
		}
		for _, k := range b.numbers {
			if k < 1 {
				t.Fatalf("column number %d", k)
			}
		}
		for _, v := range append(append([]float64(nil), b.mean...), b.eigenvalues...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("mean or eigenvalue %v", v)
			}
		}
	})
}
