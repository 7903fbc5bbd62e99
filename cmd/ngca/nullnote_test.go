package main

import (
	"os"
	"slices"
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

// TestRobustNullNoteCombination: a column that is a combination of others
// has a zero row of the basis too, counted among the columns the fit does
// not use and named by its own note, not as one the structure is in.
func TestRobustNullNoteCombination(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir) // signal in x1 and x2, noise in x3..x5
	data, err := os.ReadFile(files["csv"])
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, ",")
		if i == 0 {
			b.WriteString(line + ",x1copy\n")
			continue
		}
		k := slices.Index(strings.Split(strings.SplitN(string(data), "\n", 2)[0], ","), "x1")
		b.WriteString(line + "," + f[k] + "\n")
	}
	path := writeFile(t, dir, "copy.csv", b.String())
	code, _, stderr := runCmd(t, "fit", "-dim", "2", "-label-col", "class", path)
	want := "the rows of the other 4 columns in the basis are zero"
	if code != 0 || !strings.Contains(stderr, want) || strings.Contains(stderr, "x2 and x1copy only") {
		t.Errorf("exit %d, stderr %q; want %q", code, stderr, want)
	}
}
