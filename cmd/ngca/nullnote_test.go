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
		for _, want := range []string{"note: WF-LSNGCA robust found the non-Gaussian structure in x1 and x2 only: the rows of the other 3 columns in the basis are zero (-method mipp uses every column)"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("ngca %q: stderr %q lacks %q", args, stderr, want)
			}
		}
		if withoutSummary(stderr) != "" {
			t.Errorf("ngca %q: stderr %q, want the note and the summary alone", args, stderr)
		}
		_, _, verbose := runCmd(t, append(args, "-v", "-label-col", "class", files["csv"])...)
		if !strings.Contains(verbose, "its screens kept x1 (z = -") {
			t.Errorf("ngca %q -v: stderr %q, want the screens' z-scores", args, verbose)
		}
	}
	if code, _, stderr := runCmd(t, "fit", "-method", "wflsngca", "-dim", "2", "-label-col", "class", files["csv"]); code != 0 || strings.Contains(stderr, "note:") {
		t.Errorf("-method wflsngca: exit %d, stderr %q", code, stderr)
	}
}

// withoutSummary returns stderr without the lines every fit writes: the
// summary of its directions and, on data whose signal sits on some of the
// columns, the robust variant's note on the columns it set to zero.
func withoutSummary(stderr string) string {
	var keep []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		switch {
		case strings.HasPrefix(l, "note: WF-LSNGCA robust found the non-Gaussian structure in "):
		case strings.Contains(l, " by their largest weights on the standardised columns:"):
		case strings.HasPrefix(l, "  direction "):
		default:
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}
