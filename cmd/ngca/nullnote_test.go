package main

import (
	"strings"
	"testing"
)

// TestRobustNullNote: when the robust variant's null test zeroes data
// columns, fit says so on stderr, naming the columns the basis uses; the
// faithful method, which uses every column, says nothing of the kind.
func TestRobustNullNote(t *testing.T) {
	files := dataFiles(t, t.TempDir()) // signal in x1 and x2, noise in x3..x5
	code, _, stderr := runCmd(t, "fit", "-method", "robust", "-dim", "2", "-label-col", "class", files["csv"])
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"note: WF-LSNGCA robust set 3 of the 5 data columns", `column 1 ("x1") and column 2 ("x2")`, "-method wflsngca"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	if code, _, stderr := runCmd(t, "fit", "-dim", "2", "-label-col", "class", files["csv"]); code != 0 || strings.Contains(stderr, "note:") {
		t.Errorf("default method: exit %d, stderr %q", code, stderr)
	}
}
