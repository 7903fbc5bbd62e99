package main

import (
	"strings"
	"testing"
)

// TestFitTooFewRows: a table of 4 rows and 3 columns is too few for any
// estimator; with -check too, the fit is an error (exit 1, nothing on
// standard output) whose message says how many rows the method needs.
func TestFitTooFewRows(t *testing.T) {
	x := adversarialData(t)
	four := writeFile(t, t.TempDir(), "four.csv", csvText(x.Slice(0, 4, 0, 3), []string{"a", "b", "c"}, "\n"))
	for _, tc := range []struct{ method, want string }{
		{"mipp", "ngca fit: MIPP on " + four + ": ngca: too few rows: MIPP needs at least 5 rows for 3 columns (got 4)"},
		{"imak", "IMAK needs at least 5 rows for 3 columns (got 4)"},
		{"sngca", "SNGCA needs at least 5 rows for 3 columns (got 4)"},
		{"lsngca", "LSNGCA needs at least 5 rows for 3 columns and 5 cross-validation folds (got 4)"},
		{"wflsngca-robust", "WF-LSNGCA robust needs at least 5 rows for 3 columns and 5 cross-validation folds (got 4)"},
	} {
		for _, strict := range []bool{false, true} {
			args := []string{"fit", "-dim", "1", "-method", tc.method, "-check", four}
			if strict {
				args = append(args[:len(args)-1], "-strict", four)
			}
			r := ngcaRun(t, "", args...)
			if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("ngca %q: exit %d, stdout %q, stderr\n%s\nwant exit 1, no output and %q", args, r.code, r.stdout, r.stderr, tc.want)
			}
		}
	}
}

// TestFitCheckTooFewRows: 6 rows of 3 columns are enough for MIPP (5) but
// not for its check, whose refits hold three quarters of them (4): the
// basis is written, stderr says why the check was not done and how many
// rows it needs, and -strict ends the command with exit status 2.
func TestFitCheckTooFewRows(t *testing.T) {
	x := adversarialData(t)
	six := writeFile(t, t.TempDir(), "six.csv", csvText(x.Slice(0, 6, 0, 3), []string{"a", "b", "c"}, "\n"))
	want := "check: not done: ngca: too few rows: the check refits MIPP on 4 of the 6 rows (a share of 0.75), " +
		"and MIPP needs at least 5 rows for 3 columns: the check needs at least 7 rows\n"
	for _, tc := range []struct {
		strict bool
		code   int
	}{{false, 0}, {true, 2}} {
		args := []string{"fit", "-dim", "1", "-method", "mipp", "-check", six}
		if tc.strict {
			args = append(args[:len(args)-1], "-strict", six)
		}
		r := ngcaRun(t, "", args...)
		if r.code != tc.code || !strings.Contains(r.stderr, want) || !strings.HasPrefix(r.stdout, "column,c1\n") {
			t.Errorf("ngca %q: exit %d, stdout %q, stderr\n%s\nwant exit %d, the basis and %q", args, r.code, r.stdout, r.stderr, tc.code, want)
		}
	}
}
