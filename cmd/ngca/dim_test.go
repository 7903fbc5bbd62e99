package main

import (
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/synth"
)

// dimFile writes a CSV data set with m non-Gaussian dimensions of 6
// (see synth.DimData) and returns its path.
func dimFile(t *testing.T, m int, rotate bool) string {
	t.Helper()
	x, _, err := synth.DimData{M: m, N: 600, D: 6, R: 0.5, Rotate: rotate}.Sample(rand.NewPCG(uint64(m), 5))
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, t.TempDir(), "m"+strconv.Itoa(m)+".csv", matrixCSV(x))
}

func TestDimCommand(t *testing.T) {
	two, gauss := dimFile(t, 2, false), dimFile(t, 0, true)
	r := ngcaRun(t, "", "dim", two).mustSucceed(t, "dim", two)
	// α and B come from the test's recorded details (internal/probe).
	if !strings.Contains(r.stdout, "dim = 2 (α = 0.05, B = 39;") || !strings.Contains(r.stdout, "p-value") || !strings.Contains(r.stdout, "the other 4 directions: jointly Gaussian") {
		t.Errorf("ngca dim: stdout\n%s", r.stdout)
	}
	r = ngcaRun(t, "", "fit", "-dim", "auto", two).mustSucceed(t, "fit -dim auto")
	if !strings.Contains(r.stderr, "-dim auto: M = 2: the test found 2 non-Gaussian directions") || strings.Contains(r.stderr, "warning") {
		t.Errorf("fit -dim auto: stderr %q", r.stderr)
	}
	if b := parseMatrix(t, r.stdout); b.RawMatrix().Cols != 2 {
		t.Errorf("fit -dim auto: basis has %d columns, want 2", b.RawMatrix().Cols)
	}
	r = ngcaRun(t, "", "fit", "-dim", "3", "-json", two).mustSucceed(t, "fit -dim 3")
	if !strings.Contains(r.stderr, "warning: weak separation: λ3/λ4") {
		t.Errorf("fit -dim 3 on m = 2: stderr %q, want a weak-separation warning", r.stderr)
	}
	png := filepath.Join(t.TempDir(), "p.png")
	r = ngcaRun(t, "", "plot", "-dim", "auto", "-method", "mipp", "-o", png, two).mustSucceed(t, "plot -dim auto")
	if !strings.Contains(r.stderr, "-dim auto: M = 2") {
		t.Errorf("plot -dim auto: stderr %q", r.stderr)
	}
	for _, tc := range []cliCase{
		{[]string{"dim", gauss}, 0, "dim = 0 (", "stdout"},
		{[]string{"dim", "-bootstrap", "19", "-max-dim", "3", two}, 0, "dim = 2 (", "stdout"},
		{[]string{"fit", "-dim", "auto", gauss}, 1, "no non-Gaussian structure found in " + gauss, "stderr"},
		{[]string{"fit", "-dim", "two", two}, 1, `"two" is neither a whole number nor auto`, "stderr"},
		{[]string{"fit", "-h"}, 0, "-dim auto", "stdout"},
		{[]string{"dim", "-h"}, 0, "-bootstrap", "stdout"},
		{[]string{"dim"}, 1, "missing input FILE", "stderr"},
		{[]string{"dim", "-alpha", "1", two}, 1, "-alpha 1: need 0 < alpha < 1", "stderr"},
		{[]string{"dim", "-bootstrap", "10", two}, 1, "-bootstrap 10: need B + 1 ≥ 1/alpha", "stderr"},
		{[]string{"dim", "-max-dim", "6", two}, 1, "-max-dim 6 is out of range", "stderr"},
		{[]string{"dim", "-workers", "-1", two}, 1, "-workers -1 is negative", "stderr"},
	} {
		r := ngcaRun(t, "", tc.args...)
		got := r.stdout
		if tc.stream == "stderr" {
			got = r.stderr
		}
		if r.code != tc.code || !strings.Contains(got, tc.contains) {
			t.Errorf("ngca %q: exit %d, %s %q; want exit %d and %q", tc.args, r.code, tc.stream, got, tc.code, tc.contains)
		}
	}
}

// TestDimFewRows: below 2d² rows the command says that the rows are few,
// and -dim auto does not call data Gaussian that the remainder test
// finds are not (twenty turned uniform signals of 30 columns, 600 rows).
func TestDimFewRows(t *testing.T) {
	if testing.Short() {
		t.Skip("two tests of a 30-column file")
	}
	x, _, err := synth.Wide{N: 600, D: 30, M: 20, Family: "uniform", Turned: true}.Sample(rand.NewPCG(0, 11))
	if err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, t.TempDir(), "few.csv", matrixCSV(x))
	r := ngcaRun(t, "", "dim", path).mustSucceed(t, "dim", path)
	if !strings.Contains(r.stdout, "dim = 0 (") || !strings.Contains(r.stdout, "the other 30 directions: not jointly Gaussian") ||
		!strings.Contains(r.stderr, "note: 600 rows are few for the dimension test on 30 columns: below about 1800 rows the test can miss a weak signal") ||
		!strings.Contains(r.stderr, "non-Gaussian structure beyond the 0 directions found") {
		t.Errorf("ngca dim: stdout\n%s\nstderr\n%s", r.stdout, r.stderr)
	}
	r = ngcaRun(t, "", "fit", "-dim", "auto", path)
	if r.code != 1 || !strings.Contains(r.stderr, "no non-Gaussian direction resolved") || !strings.Contains(r.stderr, "the data are not Gaussian") ||
		!strings.Contains(r.stderr, "600 rows are few for the dimension test on 30 columns") || strings.Contains(r.stderr, "look Gaussian") {
		t.Errorf("fit -dim auto: exit %d, stderr %q", r.code, r.stderr)
	}
}
