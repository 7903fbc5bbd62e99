package main

import (
	"testing"

	"github.com/ngca-go/ngca/internal/dataio"
)

// TestColumnRefs checks the translation of the library's 0-based column
// indices into the file's 1-based numbers and names.
func TestColumnRefs(t *testing.T) {
	tab := &dataio.Table{Fields: []int{1, 2, 4, 5}, Names: []string{"a", "b", "c", "d"}}
	for _, tc := range []struct{ in, want string }{
		{"ngca: column index 3 (0-based) is a linear combination of column indices 0, 1 and 2: remove the column",
			`ngca: column 5 ("d") is a linear combination of columns 1 ("a"), 2 ("b") and 4 ("c"): remove the column`},
		{"column index 2 (0-based) is a copy of column index 0 (up to scale and shift)",
			`column 4 ("c") is a copy of column 1 ("a") (up to scale and shift)`},
		{"column index 3 is a linear combination of column indices 0..2",
			`column 5 ("d") is a linear combination of columns 1 ("a") to 4 ("c")`},
		{"column index 7 (0-based) has standard deviation 0", "column index 7 (0-based) has standard deviation 0"}, // out of range: kept
		{"stage \"v\", coordinate 2: failed", "stage \"v\", coordinate 2: failed"},
	} {
		if got := columnRefs(tc.in, tab); got != tc.want {
			t.Errorf("columnRefs(%q)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}
