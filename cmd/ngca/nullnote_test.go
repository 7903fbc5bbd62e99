package main

import (
	"strings"
	"testing"
)

// TestRobustNullNote: when the robust variant (the default) zeroes data
// columns, fit says so on stderr, naming the columns the basis uses and
// their screens' z-scores; the
// faithful method, which uses every column, says nothing of the kind.
func TestRobustNullNote(t *testing.T) {
	files := dataFiles(t, t.TempDir()) // signal in x1 and x2, noise in x3..x5
	for _, args := range [][]string{{"fit", "-dim", "2"}, {"fit", "-method", "robust", "-dim", "2"}} {
		code, _, stderr := runCmd(t, append(args, "-label-col", "class", files["csv"])...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, want := range []string{"note: WF-LSNGCA robust set 3 of the 5 data columns", `column 1 ("x1") and column 2 ("x2") (screen z -`, "-method wflsngca"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("ngca %q: stderr %q lacks %q", args, stderr, want)
			}
		}
		if withoutNullNote(stderr) != "" {
			t.Errorf("ngca %q: stderr %q, want the note alone", args, stderr)
		}
	}
	if code, _, stderr := runCmd(t, "fit", "-method", "wflsngca", "-dim", "2", "-label-col", "class", files["csv"]); code != 0 || strings.Contains(stderr, "note:") {
		t.Errorf("-method wflsngca: exit %d, stderr %q", code, stderr)
	}
}

// withoutNullNote returns stderr without the robust variant's note on the
// columns its null test set to zero, which the default prints on data
// whose signal sits on some of the columns.
func withoutNullNote(stderr string) string {
	var keep []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(l, "note: WF-LSNGCA robust set ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}
