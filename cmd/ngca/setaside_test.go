package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
)

// dirtyTable writes a table of 1500 rows: a uniform and a skewed signal
// turned with four Gaussian columns by a random rotation, and edit's
// changes; it returns the file and the true subspace.
func dirtyTable(t *testing.T, dir, name string, edit func(x *mat.Dense)) (string, *mat.Dense) {
	t.Helper()
	const n, d = 1500, 6
	rng := rand.New(rand.NewPCG(5, 5))
	g := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	s := mat.NewDense(n, d, nil)
	for i := range n {
		s.Set(i, 0, math.Sqrt(3)*(2*rng.Float64()-1))
		s.Set(i, 1, rng.ExpFloat64()-1)
		for j := 2; j < d; j++ {
			s.Set(i, j, rng.NormFloat64())
		}
	}
	var x mat.Dense
	x.Mul(s, q.T()) // row i: Q·s_i
	truth := mat.DenseCopyOf(q.Slice(0, d, 0, 2))
	edit(&x)
	var b strings.Builder
	b.WriteString("x1,x2,x3,x4,x5,x6\n")
	for i := range n {
		for j := range d {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(fmt.Sprint(x.At(i, j)))
		}
		b.WriteByte('\n')
	}
	return writeFile(t, dir, name, b.String()), truth
}

// TestDirtyTables follows a table with one gross value and one with a
// missing-value code through fit, -dim auto, -check, dim, transform and
// plot: by default every command leaves out the same rows, names them, and
// fits the rest as well as the clean table; -outliers keep keeps them,
// and the check then says that they decide the fit and advises leaving
// them out.
func TestDirtyTables(t *testing.T) {
	if testing.Short() {
		t.Skip("fits and checks of 1500 rows")
	}
	dir := t.TempDir()
	clean, truth := dirtyTable(t, dir, "clean.csv", func(*mat.Dense) {})
	gross, _ := dirtyTable(t, dir, "gross.csv", func(x *mat.Dense) { x.Set(57, 3, 1e6) })
	coded, _ := dirtyTable(t, dir, "coded.csv", func(x *mat.Dense) {
		for i := 100; i < 1300; i += 40 {
			x.Set(i, 1, -999)
		}
	})
	eps := func(file string, args ...string) (float64, ngcaResult) {
		out := filepath.Join(dir, "fit.json")
		r := ngcaRun(t, "", append(append([]string{"fit", "-o", out}, args...), file)...).mustSucceed(t, args...)
		b, err := readBasis(out)
		if err != nil {
			t.Fatal(err)
		}
		return ngca.SubspaceError(truth, b.basis), r
	}
	base, _ := eps(clean, "-dim", "2")
	if base > 0.01 {
		t.Fatalf("clean table: ε = %.3g", base)
	}
	for _, tc := range []struct {
		file, named string
		rows        int
	}{
		{gross, `line 59 (column 4 ("x4") = 1000000)`, 1},
		{coded, `-999 in column 2 ("x2") (30 rows, lines 102, 142, 182, …)`, 30},
	} {
		e, r := eps(tc.file, "-dim", "auto", "-check")
		if e > max(2*base, 0.01) || !strings.Contains(r.stderr, tc.named) || !strings.Contains(r.stderr, "left out") ||
			!strings.Contains(r.stderr, "M = 2") || !strings.Contains(r.stderr, "check: ok") {
			t.Errorf("%s: ε = %.3g (clean %.3g), stderr:\n%s", tc.file, e, base, r.stderr)
		}
		dim := ngcaRun(t, "", "dim", tc.file).mustSucceed(t)
		if !strings.Contains(dim.stderr, tc.named) || !strings.Contains(dim.stdout, "dim = 2 ") {
			t.Errorf("%s: dim:\nstdout %s\nstderr %s", tc.file, dim.stdout, dim.stderr)
		}
		tr := ngcaRun(t, "", "transform", "-basis", filepath.Join(dir, "fit.json"), tc.file).mustSucceed(t)
		empty := strings.Count(tr.stdout, "\n,\n")
		if empty != tc.rows || !strings.Contains(tr.stderr, "empty coordinates") {
			t.Errorf("%s: transform wrote %d empty lines, want %d; stderr %s", tc.file, empty, tc.rows, tr.stderr)
		}
		pl := ngcaRun(t, "", "plot", "-dim", "2", "-o", filepath.Join(dir, "p.png"), tc.file).mustSucceed(t)
		if !strings.Contains(pl.stderr, tc.named) || !strings.Contains(pl.stderr, fmt.Sprintf("%d points", 1500-tc.rows)) {
			t.Errorf("%s: plot says %s", tc.file, pl.stderr)
		}
	}
	e, r := eps(gross, "-dim", "2", "-check", "-outliers", "keep")
	if e < 0.1 || !strings.Contains(r.stderr, "check: doubtful: a few rows decide the fit") ||
		!strings.Contains(r.stderr, "check: try leaving out the rows that decide the fit (line 59: far from the other rows fitted") || strings.Contains(checkLines(r.stderr, "check: try"), "more rows") {
		t.Errorf("-outliers keep: ε = %.3g, stderr:\n%s", e, r.stderr)
	}
}

// checkLines returns the lines of stderr that begin with prefix.
func checkLines(stderr, prefix string) string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
