package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/ngcatest"
	"gonum.org/v1/gonum/mat"
)

// The data files of the tests are generated into t.TempDir(): the paper's
// artificial data (a 2-D non-Gaussian signal in columns 1-2 among d-2
// Gaussian noise columns) as CSV with a header and a label column, as TSV
// and as LIBSVM. The files with errors are committed in testdata/.

// testSignal returns the paper's data set (a) with n rows and d columns and
// a label per row (the quadrant of the signal, 1 to 4).
func testSignal(t testing.TB, n, d int) (*mat.Dense, []int) {
	t.Helper()
	x, _, err := ngcatest.Artificial{N: n, D: d}.Sample(rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = 1
		if x.At(i, 0) < 0 {
			labels[i]++
		}
		if x.At(i, 1) < 0 {
			labels[i] += 2
		}
	}
	return x, labels
}

// matrixCSV writes the rows of m as CSV lines with full precision.
func matrixCSV(m mat.Matrix) string {
	var b strings.Builder
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(m.At(i, j), 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// writeFile writes a file into dir and returns its path.
func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// dataFiles writes the artificial data (n = 400, d = 5) in every format
// and returns the paths by kind: "csv" (header x1..x5 and a "class"
// column after x2), "tsv" (no header), "libsvm" (no extension).
func dataFiles(t testing.TB, dir string) map[string]string {
	t.Helper()
	x, labels := testSignal(t, 400, 5)
	n, d := x.Dims()
	var csvb, tsvb, svmb bytes.Buffer
	csvb.WriteString("x1,x2,class,x3,x4,x5\n")
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i := 0; i < n; i++ {
		fmt.Fprintf(&csvb, "%s,%s,q%d", f(x.At(i, 0)), f(x.At(i, 1)), labels[i])
		fmt.Fprintf(&svmb, "%d", labels[i])
		for j := 0; j < d; j++ {
			if j >= 2 {
				fmt.Fprintf(&csvb, ",%s", f(x.At(i, j)))
			}
			if j > 0 {
				tsvb.WriteByte('\t')
			}
			tsvb.WriteString(f(x.At(i, j)))
			fmt.Fprintf(&svmb, " %d:%s", j+1, f(x.At(i, j)))
		}
		csvb.WriteByte('\n')
		tsvb.WriteByte('\n')
		svmb.WriteByte('\n')
	}
	return map[string]string{
		"csv":    writeFile(t, dir, "data.csv", csvb.String()),
		"tsv":    writeFile(t, dir, "data.tsv", tsvb.String()),
		"libsvm": writeFile(t, dir, "data", svmb.String()),
	}
}

// ngcaResult is the outcome of one run of the command.
type ngcaResult struct {
	code           int
	stdout, stderr string
}

// ngcaRun runs the command in-process with args, reading input (if not
// empty) as standard input.
func ngcaRun(t testing.TB, input string, args ...string) ngcaResult {
	t.Helper()
	if input != "" {
		old := stdin
		stdin = strings.NewReader(input)
		defer func() { stdin = old }()
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	r := ngcaResult{code, out.String(), errb.String()}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Errorf("ngca %q: stack trace on stderr:\n%s", args, r.stderr)
	}
	return r
}

// mustSucceed fails the test unless r is a success.
func (r ngcaResult) mustSucceed(t testing.TB, args ...string) ngcaResult {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("ngca %q: exit %d, stderr:\n%s", args, r.code, r.stderr)
	}
	return r
}

// parseMatrix parses CSV lines of numbers, skipping a first line that is
// not numeric (a header).
func parseMatrix(t testing.TB, text string) *mat.Dense {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("output is not CSV (%v):\n%s", err, text)
	}
	named := recs[0][0] == "column" || recs[0][0] == "column_number" // a basis that names its rows
	if _, err := strconv.ParseFloat(recs[0][0], 64); err != nil {
		recs = recs[1:]
	}
	if named {
		for i := range recs {
			recs[i] = recs[i][1:]
		}
	}
	m := mat.NewDense(len(recs), len(recs[0]), nil)
	for i, rec := range recs {
		for j, c := range rec {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				t.Fatalf("line %d of the output: %v", i+1, err)
			}
			m.Set(i, j, v)
		}
	}
	return m
}

// checkOrthonormal checks BᵀB = I.
func checkOrthonormal(t testing.TB, b mat.Matrix) {
	t.Helper()
	_, m := b.Dims()
	var g mat.Dense
	g.Mul(b.T(), b)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(g.At(i, j)-want) > 1e-10 {
				t.Fatalf("BᵀB is not I:\n%v", mat.Formatted(&g))
			}
		}
	}
}

func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}
