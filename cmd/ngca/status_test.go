package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/methods"
	"gonum.org/v1/gonum/mat"
)

// noiseFile writes n rows of d columns drawn by draw into dir.
func noiseFile(t *testing.T, dir, name string, n, d int, draw func(r *rand.Rand) float64) string {
	t.Helper()
	r := rand.New(rand.NewPCG(11, 12))
	var b strings.Builder
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%.6g", draw(r))
		}
		b.WriteByte('\n')
	}
	return writeFile(t, dir, name, b.String())
}

// TestUsageErrorShort checks that a usage error prints its message and a
// line pointing to the help, five lines at most, while -h and help CMD
// still print the whole help.
func TestUsageErrorShort(t *testing.T) {
	for _, args := range [][]string{
		{"fit", "-method", "nope", "-dim", "2", "x.csv"},
		{"fit", "x.csv"},
		{"fit", "-dim", "2", "-bogus", "x.csv"},
		{"transform", "x.csv"},
		{"plot", "-strict", "x.csv"},
		{"dim", "-alpha", "2", "x.csv"},
		{"nope"},
	} {
		r := ngcaRun(t, "", args...)
		lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
		if r.code != 1 || len(lines) > 5 || !strings.Contains(r.stderr, `Run "ngca help`) || strings.Contains(r.stderr, "Flags") || strings.Contains(r.stderr, "Examples") {
			t.Errorf("ngca %q: exit %d, %d lines:\n%s", args, r.code, len(lines), r.stderr)
		}
	}
	for _, args := range [][]string{{"help", "fit"}, {"fit", "-h"}, {"help", "fit", "-v"}} {
		r := ngcaRun(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Examples:") || !strings.Contains(r.stdout, "-strict") || !strings.Contains(r.stdout, "Exit status") {
			t.Errorf("ngca %q: exit %d, want the whole help with the exit statuses", args, r.code)
		}
	}
	if r := ngcaRun(t, "", "help"); !strings.Contains(r.stdout, "Exit status: 0") || !strings.Contains(r.stdout, "2 when") {
		t.Errorf("ngca help does not document the exit statuses:\n%s", r.stdout)
	}
}

// TestStrict checks that -check -strict exits with status 2 on a doubtful
// fit (of Gaussian noise, which has no non-Gaussian subspace), with the
// result written, and 0 on a good one.
func TestStrict(t *testing.T) {
	dir := t.TempDir()
	noise := noiseFile(t, dir, "noise.csv", 400, 5, func(r *rand.Rand) float64 { return r.NormFloat64() })
	files := dataFiles(t, dir)
	png := filepath.Join(dir, "p.png")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"fit", "-dim", "2", "-check", "-strict", noise}, 2},
		{[]string{"fit", "-dim", "2", "-check", noise}, 0},
		{[]string{"plot", "-check", "-strict", "-o", png, noise}, 2},
		{[]string{"fit", "-dim", "2", "-check", "-strict", files["tsv"]}, 0},
	} {
		r := ngcaRun(t, "", tc.args...)
		if r.code != tc.code {
			t.Errorf("ngca %q: exit %d, want %d; stderr:\n%s", tc.args, r.code, tc.code, r.stderr)
		}
		if tc.args[0] == "fit" && len(strings.Split(strings.TrimSpace(r.stdout), "\n")) != 6 {
			t.Errorf("ngca %q: stdout %q, want the basis", tc.args, r.stdout)
		}
		if doubtful := strings.Contains(r.stderr, "check: doubtful"); doubtful != (tc.code == 2) && tc.args[3] != "-check" {
			t.Errorf("ngca %q: stderr %q", tc.args, r.stderr)
		}
	}
	r := ngcaRun(t, "", "fit", "-dim", "2", "-strict", noise)
	if r.code != 1 || !strings.Contains(r.stderr, "-strict needs -check") {
		t.Errorf("-strict without -check: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestModelNote checks that when the dimension test finds most directions
// non-Gaussian, dim and fit -dim auto say that NGCA's model does not
// describe the data, and fit leaves out the weak-separation warning.
func TestModelNote(t *testing.T) {
	dir := t.TempDir()
	uniform := noiseFile(t, dir, "uniform.csv", 600, 4, func(r *rand.Rand) float64 { return r.Float64() })
	for _, args := range [][]string{{"dim", uniform}, {"fit", "-dim", "auto", uniform}} {
		r := ngcaRun(t, "", args...).mustSucceed(t, args...)
		if !strings.Contains(r.stderr, "does not describe these data; the components are still ranked by how non-Gaussian they are") || strings.Contains(r.stderr, "weak separation") {
			t.Errorf("ngca %q: stderr %q", args, r.stderr)
		}
	}
}

// TestSeparationAdvice checks that the weak-separation warning never
// advises what just ran.
func TestSeparationAdvice(t *testing.T) {
	dir := t.TempDir()
	noise := noiseFile(t, dir, "noise.csv", 400, 5, func(r *rand.Rand) float64 { return r.NormFloat64() })
	for _, tc := range []struct {
		args []string
		not  []string
	}{
		{[]string{"fit", "-dim", "2", noise}, []string{"-method wflsngca-robust"}},
		{[]string{"fit", "-method", "mipp", "-dim", "2", noise}, []string{"-method mipp"}},
	} {
		r := ngcaRun(t, "", tc.args...).mustSucceed(t, tc.args...)
		if !strings.Contains(r.stderr, "weak separation") {
			t.Errorf("ngca %q: no warning on noise: %q", tc.args, r.stderr)
		}
		for _, s := range tc.not {
			if strings.Contains(r.stderr, s) {
				t.Errorf("ngca %q advises %q: %q", tc.args, s, r.stderr)
			}
		}
	}
	weak := &ngca.Result{Basis: mat.NewDense(2, 1, []float64{1, 0}), Eigenvalues: []float64{2, 1}}
	w := separationWarning(weak, &fitArgs{dim: 1, auto: true}, methods.MustLookup("lsngca"))
	if strings.Contains(w, "-dim auto") || !strings.Contains(w, "-method mipp, -method wflsngca-robust") {
		t.Errorf("-dim auto: %q", w)
	}
	w = separationWarning(weak, &fitArgs{dim: 1}, methods.MustLookup("robust"))
	if strings.Contains(w, "-method wflsngca-robust") || !strings.Contains(w, "-method mipp") || !strings.Contains(w, "-dim auto") {
		t.Errorf("-method robust: %q", w)
	}
}
