package dataio

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestExports reads tables as pandas, R and scikit-learn write them, with
// no option: the fixtures in testdata/exports were written by those
// writers themselves (testdata/exports/generate.sh), from the first 30
// rows of the wine data (reference.csv) and R's mtcars. Row names are left
// out here; a numeric index stays data, for the command's audit to leave
// out.
func TestExports(t *testing.T) {
	dir := filepath.Join("testdata", "exports")
	read := func(file, as string, opt Options) *Table {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if as == "" {
			as = file
		}
		tab, err := Read(bytes.NewReader(data), as, opt)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return tab
	}
	ref := read("reference.csv", "", Options{Header: HeaderNo}).X
	n, d := ref.Dims()
	seq := func(from int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(from + i)
		}
		return x
	}
	withIndex := func(idx []float64) *mat.Dense {
		x := mat.NewDense(len(idx), d+1, nil)
		x.SetCol(0, idx)
		x.Slice(0, len(idx), 1, d+1).(*mat.Dense).Copy(ref)
		return x
	}
	names := read("pandas-index.csv", "", Options{}).Names[1:]
	intNames := make([]string, d)
	for j := range intNames {
		intNames[j] = strconv.Itoa(j)
	}
	empty := append([]string{""}, names...)
	for _, tc := range []struct {
		file, as string // as: read under that name
		opt      Options
		format   Format
		x        *mat.Dense
		names    []string
		rowNames int
		short    bool
		zero     bool
	}{
		{file: "pandas-intcols-noindex.csv", format: CSV, x: ref, names: intNames},
		{file: "pandas-intcols-index.csv", format: CSV, x: withIndex(seq(0)), names: append([]string{""}, intNames...)},
		{file: "pandas-index.csv", format: CSV, x: withIndex(seq(0)), names: empty},
		{file: "pandas-index.tsv", format: TSV, x: withIndex(seq(0)), names: empty},
		{file: "pandas-index.csv.gz", format: CSV, x: withIndex(seq(0)), names: empty},
		{file: "pandas-index.csv.gz", as: "stdin", format: CSV, x: withIndex(seq(0)), names: empty},
		{file: "pandas-named-index.csv", format: CSV, x: withIndex(seq(0)), names: append([]string{"sample"}, names...)},
		{file: "pandas-id-label.csv", opt: Options{LabelCol: "cultivar"}, format: CSV, x: withIndex(seq(1001)), names: append([]string{"id"}, names...)},
		{file: "sklearn-zero-based.svm", format: LIBSVM, x: ref, zero: true},
		{file: "sklearn-zero-based.svm", as: "wine.txt", format: LIBSVM, x: ref, zero: true},
		{file: "sklearn-comment.svm", format: LIBSVM, x: ref, zero: true},
		{file: "sklearn-one-based.svm", format: LIBSVM, x: ref},
		{file: "r-write-csv.csv", format: CSV, x: withIndex(seq(1)), names: empty},
		{file: "r-write-table.txt", format: Space, x: ref, names: names, rowNames: 1, short: true},
		{file: "r-write-table.txt", as: "wine.csv", format: Space, x: ref, names: names, rowNames: 1, short: true},
		{file: "r-write-table-tab.tsv", format: TSV, x: ref, names: names, rowNames: 1, short: true},
	} {
		tab := read(tc.file, tc.as, tc.opt)
		what := tc.file + " as " + tc.as
		if !mat.Equal(tab.X, tc.x) {
			t.Errorf("%s: data differ from the reference:\n%v", what, mat.Formatted(tab.X, mat.Excerpt(2)))
		}
		if tab.Format != tc.format || !slices.Equal(tab.Names, tc.names) || tab.RowNames != tc.rowNames || tab.ShortHeader != tc.short || tab.ZeroBased != tc.zero {
			t.Errorf("%s: format %v, names %q, row names %d, short header %v, zero-based %v", what, tab.Format, tab.Names, tab.RowNames, tab.ShortHeader, tab.ZeroBased)
		}
		if tab.Compressed != strings.HasSuffix(tc.file, ".gz") {
			t.Errorf("%s: compressed %v", what, tab.Compressed)
		}
		if tc.format == LIBSVM && (len(tab.Labels) != n || tab.Labels[0] != "0") {
			t.Errorf("%s: labels %q", what, tab.Labels)
		}
	}
	if l := read("pandas-id-label.csv", "", Options{LabelCol: "cultivar"}).Labels; len(l) != n || l[0] != "class_0" {
		t.Errorf("pandas-id-label.csv: labels %q", l)
	}

	// pandas after sample(): the index increases with gaps.
	tab := read("pandas-sampled.csv", "", Options{})
	for i := range tab.X.RawMatrix().Rows {
		k := int(tab.X.At(i, 0))
		if !mat.Equal(tab.X.Slice(i, i+1, 1, d+1), ref.Slice(k, k+1, 0, d)) || i > 0 && tab.X.At(i-1, 0) >= float64(k) {
			t.Errorf("pandas-sampled.csv: row %d (index %d) differs from the reference", i, k)
		}
	}
	// R's NA, left out by -missing drop: row names 1 to 30 but 3 and 7.
	tab = read("r-write-csv-na.csv", "", Options{Missing: MissingDrop})
	if r, _ := tab.X.Dims(); r != n-2 || tab.Dropped != 2 || tab.X.At(2, 0) != 4 || tab.X.At(5, 0) != 8 || tab.Lines[2] != 5 {
		t.Errorf("r-write-csv-na.csv: %d rows, %d dropped, index %v", r, tab.Dropped, mat.Col(nil, 0, tab.X))
	}
	// mtcars: text row names, under an empty header name or a short header.
	for _, file := range []string{"r-mtcars.csv", "r-mtcars.txt"} {
		tab := read(file, "", Options{})
		if r, c := tab.X.Dims(); r != 32 || c != 11 || tab.RowNames != 1 || tab.Names[0] != "mpg" || tab.X.At(0, 0) != 21 || tab.Fields[0] != 2 {
			t.Errorf("%s: %d×%d, row names %d, names %q", file, r, c, tab.RowNames, tab.Names)
		}
	}
}
