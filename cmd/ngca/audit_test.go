package main

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/dataio"
)

// auditColumns builds a table of the columns cols named names (nil: no
// header), its rows on lines 2, 3, … (1, 2, … without a header), audits
// it and returns the table, the result and what it wrote on stderr.
func auditColumns(t *testing.T, names []string, cols [][]float64, fl auditFlags, verbose bool) (*dataio.Table, auditResult, string, error) {
	t.Helper()
	n, d := len(cols[0]), len(cols)
	x := mat.NewDense(n, d, nil)
	for j, c := range cols {
		x.SetCol(j, c)
	}
	tab := &dataio.Table{X: x, Names: names, Header: names != nil, Format: dataio.CSV}
	for j := range d {
		tab.Fields = append(tab.Fields, j+1)
	}
	for i := range n {
		tab.Lines = append(tab.Lines, i+1+min(len(names), 1))
	}
	var stderr bytes.Buffer
	e := &env{stderr: &stderr, verbose: verbose}
	res, err := auditTable(e, tab, "t.csv", fl)
	return tab, res, stderr.String(), err
}

func normals(rng *rand.Rand, n int, scale float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = scale * rng.NormFloat64()
	}
	return x
}

func uniforms(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.Float64()*2 - 1
	}
	return x
}

// lines returns the lines of s that start with prefix.
func lines(s, prefix string) []string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// TestAuditGrossValue: one gross value (1e4 in a column of standard
// normals, as a data-entry error gives) is named with its line, column
// and value, and -outliers far (the default) and drop leave its row out;
// nothing else is named.
func TestAuditGrossValue(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 45))
		n := 300 + 200*int(seed)
		cols := [][]float64{normals(rng, n, 1), normals(rng, n, 3), uniforms(rng, n), normals(rng, n, 0.01)}
		cols[0][57] = 1e4
		names := []string{"a", "b", "u", "tiny"}
		_, _, stderr, err := auditColumns(t, names, cols, auditFlags{}, false)
		if err != nil {
			t.Fatal(err)
		}
		want := `note: 1 row of t.csv lies far from the rest: alone it carries over a quarter of the rows' spread in its direction: line 59 (column 1 ("a") = 10000); ` +
			`kept with -outliers keep, which may decide the fit (by default such rows are left out)`
		if strings.TrimSpace(stderr) != want {
			t.Errorf("seed %d: stderr\n%s\nwant\n%s", seed, stderr, want)
		}
		for _, mode := range []string{outliersFar, outliersDrop} {
			tab, res, stderr, err := auditColumns(t, names, cols, auditFlags{outliers: mode}, false)
			if err != nil {
				t.Fatal(err)
			}
			if r, _ := tab.X.Dims(); r != n-1 || res.outlierRows != 1 || slices.Contains(tab.Lines, 59) || tab.X.At(57, 0) == 1e4 {
				t.Errorf("seed %d: -outliers %s kept %d rows of %d, %d dropped", seed, mode, r, n, res.outlierRows)
			}
			if !strings.HasSuffix(strings.TrimSpace(stderr), "left out (-outliers keep keeps it)") || !slices.Equal(res.farLines, []int{59}) {
				t.Errorf("seed %d: -outliers %s says\n%s", seed, mode, stderr)
			}
		}
	}
}

// TestAuditMissingCodes: 9999 and -999 standing for missing values are
// named as such, with their rows, and not as outliers.
func TestAuditMissingCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 45))
	n := 400
	age := make([]float64, n)
	for i := range age {
		age[i] = math.Round(40 + 12*rng.NormFloat64())
	}
	income := normals(rng, n, 1)
	for i := range income {
		income[i] = math.Round(3000 + 500*income[i])
	}
	for _, i := range []int{3, 17, 200, 300} {
		age[i] = -999
	}
	income[9] = 9999999
	cols := [][]float64{age, income, normals(rng, n, 1)}
	tab, res, stderr, err := auditColumns(t, []string{"age", "income", "z"}, cols, auditFlags{outliers: outliersDrop}, false)
	if err != nil {
		t.Fatal(err)
	}
	notes := lines(stderr, "note:")
	if len(notes) != 1 || !strings.Contains(notes[0], "those rows are left out (-outliers keep keeps them)") ||
		!strings.Contains(notes[0], `-999 in column 1 ("age") (4 rows, lines 5, 19, 202, …)`) ||
		!strings.Contains(notes[0], `9999999 in column 2 ("income") (1 row, line 11)`) || !strings.Contains(notes[0], "common codes for a missing value") {
		t.Errorf("notes:\n%s", stderr)
	}
	if r, _ := tab.X.Dims(); r != n-5 || res.outlierRows != 5 {
		t.Errorf("-outliers drop kept %d of %d rows", r, n)
	}
	// 99 inside the range of the other values is no code.
	pct := uniforms(rng, n)
	for i := range pct {
		pct[i] = math.Round(50 + 50*pct[i])
	}
	pct[5] = 99
	if _, _, stderr, _ := auditColumns(t, []string{"pct", "z"}, [][]float64{pct, normals(rng, n, 1)}, auditFlags{}, false); stderr != "" {
		t.Errorf("a percentage column: %s", stderr)
	}
}

// TestAuditFewValues: a flag and a 1–5 scale are named with the -drop that
// removes them; a sparse column, mostly zero, is not, and its nonzero
// values are not outliers of the column (though the largest carry over a
// tenth of its spread each, which the note on rows far from the rest
// says).
func TestAuditFewValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 45))
	n := 500
	flag, scale, sparse := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		if rng.Float64() < 0.1 {
			flag[i] = 1
		}
		scale[i] = float64(1 + rng.IntN(5))
		if rng.Float64() < 0.05 {
			sparse[i] = math.Abs(rng.NormFloat64()) * 100
		}
	}
	cols := [][]float64{normals(rng, n, 1), flag, scale, sparse, uniforms(rng, n)}
	_, _, stderr, err := auditColumns(t, []string{"x", "smoker", "rating", "sparse", "u"}, cols, auditFlags{}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := `warning: 2 columns of t.csv take only a few distinct values (column 2 ("smoker"): 2; column 3 ("rating"): 5), as flags and rating scales do: ` +
		`NGCA finds such columns first, since they are far from Gaussian; -drop smoker,rating leaves them out`
	if w := lines(stderr, "warning:"); len(w) != 1 || w[0] != want || strings.Contains(stderr, "far outside the rest of") {
		t.Errorf("stderr\n%s\nwant\n%s", stderr, want)
	}
}

// TestAuditHeavyTails: columns with heavy tails (Cauchy, Student's t with
// 2 degrees of freedom, log-normal, Pareto) do not flood the notes: at most
// one note naming the rows far from the rest, one naming a few values far
// out in their columns, and one on long tails.
func TestAuditHeavyTails(t *testing.T) {
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 46))
		n := []int{100, 300, 1000, 5000}[seed%4]
		cauchy, t2, lognormal, pareto, skew := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			cauchy[i] = rng.NormFloat64() / rng.NormFloat64()
			c := rng.NormFloat64()*rng.NormFloat64() + rng.NormFloat64()*rng.NormFloat64()
			t2[i] = rng.NormFloat64() / math.Sqrt(c*c/2+1e-300)
			lognormal[i] = math.Exp(rng.NormFloat64())
			pareto[i] = math.Pow(1-rng.Float64(), -1/1.5)
			skew[i] = rng.ExpFloat64()
		}
		cols := [][]float64{cauchy, t2, lognormal, pareto, skew, normals(rng, n, 1)}
		_, _, stderr, err := auditColumns(t, []string{"cauchy", "t2", "lognormal", "pareto", "exp", "normal"}, cols, auditFlags{}, false)
		if err != nil {
			t.Fatal(err)
		}
		notes := lines(stderr, "note:")
		if len(notes) > 3 || len(lines(stderr, "warning:")) > 0 || strings.Count(stderr, "\n") > 3 {
			t.Errorf("seed %d, n = %d: heavy tails flood stderr:\n%s", seed, n, stderr)
		}
		for _, l := range notes {
			if len(l) > 600 || strings.Contains(l, `"normal"`) || strings.Contains(l, `"exp"`) {
				t.Errorf("seed %d, n = %d: note %s", seed, n, l)
			}
		}
	}
}

// TestAuditIDs checks the index and id rules, and that -cols fits every
// column it lists.
func TestAuditIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 45))
	n := 200
	seq := func(from int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(from + i)
		}
		return x
	}
	shuffled := seq(1)
	rng.Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	gaps := make([]float64, n)
	for i := range gaps {
		gaps[i] = float64(3*i + rng.IntN(3))
	}
	distinct := slices.Clone(gaps)
	rng.Shuffle(n, func(i, j int) { distinct[i], distinct[j] = distinct[j], distinct[i] })
	for _, tc := range []struct {
		desc    string
		names   []string
		cols    [][]float64
		listed  bool
		leftOut []leftOutColumn
		stderr  []string
	}{
		{"pandas index", []string{"", "a", "b"}, [][]float64{seq(0), normals(rng, n, 1), uniforms(rng, n)}, false,
			[]leftOutColumn{{Number: 1, Reason: "index"}},
			[]string{"note: left out column 1 of t.csv: an index that numbers the rows (0 to 199, as pandas' to_csv writes its index, with an empty header name), not a measurement; list it in -cols to fit it"}},
		{"index after -sample, no header", nil, [][]float64{gaps, normals(rng, n, 1), uniforms(rng, n)}, false,
			[]leftOutColumn{{Number: 1, Reason: "index"}}, []string{"increasing with gaps"}},
		{"Unnamed: 0", []string{"Unnamed: 0", "a", "b"}, [][]float64{seq(1), normals(rng, n, 1), uniforms(rng, n)}, false,
			[]leftOutColumn{{Column: "Unnamed: 0", Number: 1, Reason: "index"}}, []string{"1 to 200, as R's write.csv writes its row names, named \"Unnamed: 0\""}},
		{"a dense id in any order", []string{"a", "key2", "b"}, [][]float64{normals(rng, n, 1), shuffled, uniforms(rng, n)}, false,
			[]leftOutColumn{{Column: "key2", Number: 2, Reason: "id"}}, []string{`left out column 2 ("key2") of t.csv: a different whole number in every row (1 to 200), an id rather than a measurement`}},
		{"an id by its name", []string{"a", "patientID", "b"}, [][]float64{normals(rng, n, 1), distinct, uniforms(rng, n)}, false,
			[]leftOutColumn{{Column: "patientID", Number: 2, Reason: "id"}}, []string{`column 2 ("patientID")`}},
		{"distinct whole numbers", []string{"a", "count", "b"}, [][]float64{normals(rng, n, 1), distinct, uniforms(rng, n)}, false, nil,
			[]string{`warning: column 2 ("count") of t.csv holds a different whole number in every row, as an id does; if it is one, -drop count leaves it out`}},
		{"-cols fits an id", []string{"id", "a", "b"}, [][]float64{seq(1), normals(rng, n, 1), uniforms(rng, n)}, true, nil, nil},
		{"x is a measurement", []string{"x", "a", "b"}, [][]float64{gaps, normals(rng, n, 1), uniforms(rng, n)}, false, nil,
			[]string{`warning: column 1 ("x") of t.csv holds a different whole number in every row`}},
		{"X is R's row names read back", []string{"X", "a", "b"}, [][]float64{gaps, normals(rng, n, 1), uniforms(rng, n)}, false,
			[]leftOutColumn{{Column: "X", Number: 1, Reason: "index"}}, []string{`named "X"`}},
		{"the index is the first column only", []string{"a", "", "b"}, [][]float64{normals(rng, n, 1), gaps, uniforms(rng, n)}, false, nil,
			[]string{`warning: column 2 of t.csv holds a different whole number in every row, as an id does; if it is one, -drop 2 leaves it out`}},
	} {
		tab, res, stderr, err := auditColumns(t, tc.names, tc.cols, auditFlags{listed: tc.listed}, false)
		if err != nil {
			t.Errorf("%s: %v", tc.desc, err)
			continue
		}
		if !slices.Equal(res.leftOut, tc.leftOut) {
			t.Errorf("%s: left out %+v, want %+v", tc.desc, res.leftOut, tc.leftOut)
		}
		if _, d := tab.X.Dims(); d != 3-len(tc.leftOut) || len(tab.Fields) != d {
			t.Errorf("%s: %d columns left, fields %v", tc.desc, d, tab.Fields)
		}
		for _, w := range tc.stderr {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr\n%s\nlacks %s", tc.desc, stderr, w)
			}
		}
		if tc.stderr == nil && stderr != "" {
			t.Errorf("%s: stderr %s", tc.desc, stderr)
		}
	}
}

// TestAuditConstant: every constant column is named in one note and left
// out; a table left with no column is an error.
func TestAuditConstant(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 45))
	n := 100
	c := func(v float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = v
		}
		return x
	}
	tab, res, stderr, err := auditColumns(t, []string{"p0", "a", "p32", "b", "p39"}, [][]float64{c(0), normals(rng, n, 1), c(0), uniforms(rng, n), c(7)}, auditFlags{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := `note: left out 3 constant columns of t.csv, which carry no information: column 1 ("p0"), column 3 ("p32") and column 5 ("p39")`; !strings.HasPrefix(stderr, want+"\n") ||
		!strings.Contains(stderr, `  column 5 ("p39"): every value is 7`) {
		t.Errorf("stderr\n%s\nwant\n%s", stderr, want)
	}
	if !slices.Equal(tab.Names, []string{"a", "b"}) || !slices.Equal(tab.Fields, []int{2, 4}) || len(res.leftOut) != 3 {
		t.Errorf("names %q, fields %v, left out %v", tab.Names, tab.Fields, res.leftOut)
	}
	if _, _, _, err := auditColumns(t, []string{"a", "b"}, [][]float64{c(1), c(2)}, auditFlags{}, false); err == nil || !strings.Contains(err.Error(), "no data column left") {
		t.Errorf("all constant: %v", err)
	}
	// A column constant but for an outlier is left out with it.
	x := c(3)
	x[10] = 9999
	tab, _, stderr, err = auditColumns(t, []string{"x", "a", "b"}, [][]float64{x, normals(rng, n, 1), uniforms(rng, n)}, auditFlags{outliers: outliersDrop}, false)
	if err != nil || !slices.Equal(tab.Names, []string{"a", "b"}) || !strings.Contains(stderr, `left out column 1 ("x") of t.csv: it is constant`) {
		t.Errorf("constant but for 9999: %v, %q\n%s", err, tab.Names, stderr)
	}
}

// BenchmarkAudit audits a table of 10⁵ rows and 50 columns of normals
// (sorting every column is its main cost).
func BenchmarkAudit(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 45))
	const n, d = 100000, 50
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	fields := make([]int, d)
	for j := range fields {
		fields[j] = j + 1
	}
	e := &env{stderr: io.Discard}
	for b.Loop() {
		t := &dataio.Table{X: x, Fields: fields, Format: dataio.CSV}
		if _, err := auditTable(e, t, "b.csv", auditFlags{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAuditFixed: with the columns of a basis to project on, no column is
// left out or warned about, constant or id; rows are still named.
func TestAuditFixed(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 45))
	n := 100
	id, flag, c := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		id[i], flag[i], c[i] = float64(i+1), float64(i%2), 3
	}
	x := normals(rng, n, 1)
	x[4] = 1e4
	tab, res, stderr, err := auditColumns(t, []string{"id", "flag", "c", "x"}, [][]float64{id, flag, c, x}, auditFlags{fixed: true}, false)
	if err != nil || res.leftOut != nil || len(tab.Fields) != 4 {
		t.Fatalf("%v, left out %v, fields %v", err, res.leftOut, tab.Fields)
	}
	if want := `note: 1 row of t.csv lies far from the rest: alone it carries over a quarter of the rows' spread in its direction: line 6 (column 4 ("x") = 10000); ` +
		`kept with -outliers keep, which may stretch the picture (by default such rows are left out)`; strings.TrimSpace(stderr) != want {
		t.Errorf("stderr\n%s\nwant\n%s", stderr, want)
	}
}
