package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/dataio"
)

// withNote returns the CSV of dataFiles with a text column "note" added
// last, and the cells blanked at the given (row, column) pairs, 0-based.
func withNote(t *testing.T, blank [][2]int) string {
	t.Helper()
	files := dataFiles(t, t.TempDir())
	lines := strings.Split(strings.TrimSpace(readText(t, files["csv"])), "\n")
	var b strings.Builder
	for i, line := range lines {
		f := append(strings.Split(line, ","), "n"+strconv.Itoa(i))
		if i == 0 {
			f[len(f)-1] = "note"
		}
		for _, rc := range blank {
			if rc[0] == i-1 {
				f[rc[1]] = []string{"", "NA", "?"}[i%3]
			}
		}
		b.WriteString(strings.Join(f, ",") + "\n")
	}
	return b.String()
}

// fitJSONOf runs fit -json with args and decodes the output.
func fitJSONOf(t *testing.T, input string, args ...string) (map[string]any, ngcaResult) {
	t.Helper()
	args = append([]string{"fit", "-dim", "2", "-json"}, args...)
	r := ngcaRun(t, input, args...).mustSucceed(t, args...)
	var j map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
		t.Fatalf("ngca %q: %v", args, err)
	}
	return j, r
}

// TestColumns checks -cols and -drop in fit (the JSON records the columns
// by name and number), a text id left out, unknown names, and
// transform of the fit on a file with the columns reordered.
func TestColumns(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "note.csv", withNote(t, nil)) // x1,x2,class,x3,x4,x5,note
	j1, _ := fitJSONOf(t, "", "-label-col", "class", "-drop", "note", data)
	if got := toStrings(j1["columns"]); !slices.Equal(got, []string{"x1", "x2", "x3", "x4", "x5"}) {
		t.Errorf("columns %q", got)
	}
	if got := fmt.Sprint(j1["column_numbers"]); got != "[1 2 4 5 6]" {
		t.Errorf("column_numbers %s, want [1 2 4 5 6]", got)
	}
	j2, _ := fitJSONOf(t, "", "-cols", "1-2,x3,5-6", data)
	if fmt.Sprint(j2["basis"]) != fmt.Sprint(j1["basis"]) || fmt.Sprint(j2["column_numbers"]) != "[1 2 4 5 6]" {
		t.Errorf("-cols 1-2,x3,5-6 fitted another basis or columns than -label-col class -drop note")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-cols", "x1,zz,x2"}, `ngca fit: -cols: no column named "zz" in the header of ` + data},
		{[]string{"-drop", "9"}, "ngca fit: -drop: column 9 out of range: " + data + " has 7 columns, numbered from 1"},
	} {
		args := append([]string{"fit", "-dim", "2"}, append(tc.args, data)...)
		r := ngcaRun(t, "", args...)
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("ngca %q: exit %d, stderr %q, want %q", args, r.code, r.stderr, tc.want)
		}
	}

	// The note column, text with a different value in every row, is an
	// id: left out on its own, with a note, and listed in the JSON.
	j3, r3 := fitJSONOf(t, "", "-label-col", "class", data)
	if fmt.Sprint(j3["basis"]) != fmt.Sprint(j1["basis"]) || fmt.Sprint(j3["left_out"]) != "[map[column:note number:7 reason:id]]" ||
		!strings.Contains(r3.stderr, `note: left out column 7 ("note") of `+data+`: text with a different value in every row ("n1" in the first)`) {
		t.Errorf("a text id: left out %v, stderr\n%s", j3["left_out"], r3.stderr)
	}

	// transform matches the fit's columns by name, in any order, and
	// leaves out the others.
	js := writeFile(t, dir, "fit.json", ngcaRun(t, "", "fit", "-dim", "2", "-json", "-label-col", "class", "-drop", "note", data).stdout)
	want := ngcaRun(t, "", "transform", "-basis", js, data).mustSucceed(t).stdout
	var moved strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(readText(t, data)), "\n") {
		f := strings.Split(line, ",")
		moved.WriteString(strings.Join([]string{f[6], f[4], f[0], f[2], f[5], f[1], f[3]}, ",") + "\n")
	}
	for _, path := range []string{data, writeFile(t, dir, "moved.csv", moved.String())} {
		if got := ngcaRun(t, "", "transform", "-basis", js, path).mustSucceed(t).stdout; got != want {
			t.Errorf("transform %s: output differs from that of %s", path, data)
		}
	}
}

// TestMissingDrop checks -missing: by default a missing value is an error
// naming its row and column; with drop the rows with one in a selected
// column or the label are left out and counted, on stderr and in the JSON.
func TestMissingDrop(t *testing.T) {
	dir := t.TempDir()
	// Rows 5 (x1), 9 (class) and 20 (x5) are incomplete; row 30's gap is
	// in the note column, which is left out.
	data := writeFile(t, dir, "gaps.csv", withNote(t, [][2]int{{4, 0}, {8, 2}, {19, 5}, {29, 6}}))
	r := ngcaRun(t, "", "fit", "-dim", "2", "-label-col", "class", "-drop", "note", data)
	if want := `gaps.csv:6: column 1 ("x1"): missing value`; r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "in data row 5; -missing drop leaves out") {
		t.Errorf("missing value: exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}
	j, r := fitJSONOf(t, "", "-label-col", "class", "-drop", "note", "-missing", "drop", data)
	if j["rows_dropped"] != 3.0 || j["n"] != 397.0 {
		t.Errorf("rows_dropped %v, n %v; want 3, 397", j["rows_dropped"], j["n"])
	}
	if want := "note: -missing drop: left out 3 of the 400 rows of " + data; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	// Only the selected columns count: without x5, row 20 stays.
	j, _ = fitJSONOf(t, "", "-label-col", "class", "-cols", "1-2,4", "-missing", "drop", data)
	if j["rows_dropped"] != 2.0 {
		t.Errorf("-cols 1-2,4: rows_dropped %v, want 2", j["rows_dropped"])
	}
}

// TestReservoir checks that the sample is uniform: over 4000 seeds, every
// row of a 10-row file is kept in close to 3/10 of the samples of 3, and
// in a sample of 3 of 100 rows the first and last rows as often as the
// middle; and that a seed gives one sample, in the order of the file.
func TestReservoir(t *testing.T) {
	scan := func(rows int) *dataio.Scanner {
		var b strings.Builder
		for i := 0; i < rows; i++ {
			fmt.Fprintf(&b, "%d,%d,l%d\n", i, -i, i)
		}
		s, err := dataio.NewScanner(strings.NewReader(b.String()), "r.csv", dataio.Options{LabelCol: "3"})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	const seeds = 4000
	for _, rows := range []int{10, 100} {
		counts := make([]int, rows)
		for seed := uint64(0); seed < seeds; seed++ {
			vals, labels, _, err := reservoir(context.Background(), scan(rows), 3, rand.NewPCG(seed, sampleStream))
			if err != nil || len(vals) != 6 || len(labels) != 3 {
				t.Fatalf("sample: %v, %v, %v", vals, labels, err)
			}
			for k := 0; k < 3; k++ {
				i := int(vals[2*k])
				if vals[2*k+1] != -float64(i) || labels[k] != "l"+strconv.Itoa(i) || k > 0 && vals[2*k-2] >= vals[2*k] {
					t.Fatalf("sample %v %q: rows out of order or mixed up", vals, labels)
				}
				counts[i]++
			}
		}
		// Each count is Binomial(4000, 3/rows); chi-square over the rows.
		p := 3 / float64(rows)
		var chi2 float64
		for _, c := range counts {
			e := seeds * p
			chi2 += (float64(c) - e) * (float64(c) - e) / (e * (1 - p))
		}
		// rows−1 degrees of freedom: the 0.999 quantile is 27.9 (9 df)
		// and 149 (99 df).
		limit := map[int]float64{10: 27.9, 100: 149}[rows]
		if chi2 > limit {
			t.Errorf("%d rows: chi-square %.1f > %.1f: the sample is not uniform (counts %v)", rows, chi2, limit, counts)
		}
	}
	a, _, _, _ := reservoir(context.Background(), scan(50), 5, rand.NewPCG(7, sampleStream))
	b, _, _, _ := reservoir(context.Background(), scan(50), 5, rand.NewPCG(7, sampleStream))
	c, _, _, _ := reservoir(context.Background(), scan(50), 5, rand.NewPCG(8, sampleStream))
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Errorf("seed 7 gave %v and %v, seed 8 %v", a, b, c)
	}
}

// TestFitSample checks -sample in fit: the JSON records the sample, a
// seed gives one fit, from a file or standard input, another seed another,
// and a sample larger than the file is the whole file.
func TestFitSample(t *testing.T) {
	files := dataFiles(t, t.TempDir())
	j, r := fitJSONOf(t, "", "-sample", "150", "-seed", "4", files["tsv"])
	if j["n"] != 150.0 || j["sample"] != 150.0 || j["rows_read"] != 400.0 {
		t.Errorf("n %v, sample %v, rows_read %v; want 150, 150, 400", j["n"], j["sample"], j["rows_read"])
	}
	if want := "note: -sample: using 150 of the 400 rows of " + files["tsv"] + ", drawn at random (-seed 4)\n"; withoutSummary(r.stderr) != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	basis := func(input string, args ...string) string {
		args = append([]string{"fit", "-dim", "2"}, args...)
		return ngcaRun(t, input, args...).mustSucceed(t, args...).stdout
	}
	s4 := basis("", "-sample", "150", "-seed", "4", files["tsv"])
	if got := basis(readText(t, files["tsv"]), "-sample", "150", "-seed", "4", "-"); got != s4 {
		t.Errorf("-sample from standard input gave another basis than from the file")
	}
	if got := basis("", "-sample", "150", "-seed", "5", files["tsv"]); got == s4 {
		t.Errorf("-seed 5 drew the same sample as -seed 4")
	}
	if got, all := basis("", "-sample", "1000", files["tsv"]), basis("", files["tsv"]); got != all {
		t.Errorf("-sample 1000 of 400 rows fitted another basis than all rows")
	}
	d1 := ngcaRun(t, "", "dim", "-sample", "200", "-seed", "3", files["tsv"]).mustSucceed(t)
	d2 := ngcaRun(t, readText(t, files["tsv"]), "dim", "-sample", "200", "-seed", "3", "-").mustSucceed(t)
	if d1.stdout != d2.stdout || !strings.Contains(d1.stderr, "using 200 of the 400 rows") {
		t.Errorf("dim -sample 200: file and stdin differ, or no note (stderr %q)", d1.stderr)
	}
	png := filepath.Join(t.TempDir(), "s.png")
	r = ngcaRun(t, "", "plot", "-sample", "120", "-label-col", "class", "-o", png, files["csv"]).mustSucceed(t)
	if !strings.Contains(r.stderr, "wrote "+png+": 120 points of") {
		t.Errorf("plot -sample 120: stderr %q", r.stderr)
	}
}

// heapProbe is standard input of rows "i,i/2,-i" that records the live
// heap (after a collection) when it has produced 20000 and all rows.
type heapProbe struct {
	rows, limit int
	buf         []byte
	heap        []uint64
}

func (h *heapProbe) Read(p []byte) (int, error) {
	if len(h.buf) == 0 {
		if h.rows == h.limit {
			return 0, io.EOF
		}
		if h.rows == 0 {
			h.buf = append(h.buf, "a,b,c\n"...)
		}
		for len(h.buf) < 8192 && h.rows < h.limit {
			h.buf = fmt.Appendf(h.buf, "%d,%g,%d\n", h.rows, float64(h.rows)/2, -h.rows)
			if h.rows++; h.rows == 20000 || h.rows == h.limit {
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				h.heap = append(h.heap, ms.HeapAlloc)
			}
		}
	}
	n := copy(p, h.buf)
	h.buf = h.buf[n:]
	return n, nil
}

// lineCounter counts the lines written to it.
type lineCounter struct{ lines int }

func (l *lineCounter) Write(p []byte) (int, error) {
	l.lines += strings.Count(string(p), "\n")
	return len(p), nil
}

// TestTransformStreams checks that transform holds no more rows in
// memory at the end of 300000 rows of standard input than after 20000.
func TestTransformStreams(t *testing.T) {
	dir := t.TempDir()
	js := writeFile(t, dir, "fit.json", `{"columns": ["c", "a", "b"], "basis": [[1, 0], [0, 1], [0, 0]], "mean": [0, 0, 0]}`)
	probe := &heapProbe{limit: 300000}
	old := stdin
	stdin = probe
	defer func() { stdin = old }()
	var out lineCounter
	var errb strings.Builder
	if code := run(context.Background(), []string{"transform", "-basis", js, "-"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if out.lines != 300001 || len(probe.heap) != 2 {
		t.Fatalf("%d lines out, %d probes", out.lines, len(probe.heap))
	}
	// 280000 rows of 3 numbers are 6.7 MB.
	if grown := int64(probe.heap[1]) - int64(probe.heap[0]); grown > 2<<20 {
		t.Errorf("the live heap grew by %d bytes over 280000 rows, want < 2 MiB", grown)
	}
}
