package main

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/dataio"
)

// exportsDir holds tables written by pandas, R and scikit-learn (see its
// generate.sh), the first 30 rows of the wine data.
var exportsDir = filepath.Join("..", "..", "internal", "dataio", "testdata", "exports")

// TestLoadExports: every export style gives the fit the 13 wine columns
// and nothing else, with no flag, and says in one note what it left out.
func TestLoadExports(t *testing.T) {
	ctx := context.Background()
	load := func(file string, opt dataio.Options, fl auditFlags) (*dataio.Table, loaded, string) {
		t.Helper()
		var stderr bytes.Buffer
		tab, info, err := loadTable(ctx, &env{stderr: &stderr}, filepath.Join(exportsDir, file), opt, fl, 0, 1)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		return tab, info, strings.ReplaceAll(stderr.String(), exportsDir+string(filepath.Separator), "")
	}
	ref, _, _ := load("reference.csv", dataio.Options{Header: dataio.HeaderNo}, auditFlags{})
	for _, tc := range []struct {
		file   string
		opt    dataio.Options
		reason string // of the column left out, "" for none
		note   string
	}{
		{"pandas-intcols-noindex.csv", dataio.Options{}, "", "note: the first row of pandas-intcols-noindex.csv, the numbers 0, 1, 2, … in order, is read as its header"},
		{"pandas-intcols-index.csv", dataio.Options{}, "index", "note: left out column 1 of pandas-intcols-index.csv: an index that numbers the rows (0 to 29, as pandas' to_csv writes its index, with an empty header name)"},
		{"pandas-index.csv", dataio.Options{}, "index", "0 to 29, as pandas' to_csv writes its index"},
		{"pandas-index.tsv", dataio.Options{}, "index", "0 to 29, as pandas' to_csv writes its index"},
		{"pandas-index.csv.gz", dataio.Options{}, "index", "0 to 29, as pandas' to_csv writes its index"},
		{"pandas-named-index.csv", dataio.Options{}, "id", `note: left out column 1 ("sample") of pandas-named-index.csv: a different whole number in every row (0 to 29), an id rather than a measurement; list it in -cols to fit it`},
		{"pandas-id-label.csv", dataio.Options{LabelCol: "cultivar"}, "id", `left out column 1 ("id") of pandas-id-label.csv: a different whole number in every row (1001 to 1030)`},
		{"sklearn-zero-based.svm", dataio.Options{}, "", "note: the feature indices of sklearn-zero-based.svm start at 0, as scikit-learn's dump_svmlight_file writes them"},
		{"sklearn-one-based.svm", dataio.Options{}, "", ""},
		{"r-write-csv.csv", dataio.Options{}, "index", "1 to 30, as R's write.csv writes its row names, with an empty header name"},
		{"r-write-table.txt", dataio.Options{}, "row names", "note: the header of r-write-table.txt has one name fewer than its rows have fields, as R's write.table writes row names"},
		{"r-write-table-tab.tsv", dataio.Options{}, "row names", "as R's write.table writes row names"},
	} {
		tab, info, stderr := load(tc.file, tc.opt, auditFlags{})
		if !mat.Equal(tab.X, ref.X) {
			t.Errorf("%s: the fit would get %d×%d data, not the reference's", tc.file, tab.X.RawMatrix().Rows, tab.X.RawMatrix().Cols)
		}
		var reasons []string
		for _, c := range info.audit.leftOut {
			reasons = append(reasons, c.Reason)
		}
		if tc.reason == "" && reasons != nil || tc.reason != "" && !slices.Equal(reasons, []string{tc.reason}) {
			t.Errorf("%s: left out %v, want %q", tc.file, info.audit.leftOut, tc.reason)
		}
		lines := 1
		if strings.HasPrefix(tc.file, "pandas-intcols-index") {
			lines = 2 // and the integer header's note
		}
		if tc.note == "" && stderr != "" || !strings.Contains(stderr, tc.note) || strings.Count(stderr, "\n") > lines {
			t.Errorf("%s: stderr\n%s\nwant %d line(s), one with %s", tc.file, stderr, lines, tc.note)
		}
	}

	// After -missing drop, R's row names run 1 to 30 with gaps: still an
	// index.
	tab, info, stderr := load("r-write-csv-na.csv", dataio.Options{Missing: dataio.MissingDrop}, auditFlags{})
	if _, d := tab.X.Dims(); d != 13 || len(info.audit.leftOut) != 1 || !strings.Contains(stderr, "1 to 30, increasing with gaps") {
		t.Errorf("r-write-csv-na.csv: %d columns, left out %v\n%s", d, info.audit.leftOut, stderr)
	}
	// -cols fits every column it lists, the index included.
	tab, info, _ = load("pandas-index.csv", dataio.Options{Cols: "1-14"}, auditFlags{listed: true})
	if _, d := tab.X.Dims(); d != 14 || info.audit.leftOut != nil {
		t.Errorf("-cols 1-14: %d columns, left out %v", d, info.audit.leftOut)
	}
	// mtcars: text row names, and five columns of a few values.
	for _, file := range []string{"r-mtcars.csv", "r-mtcars.txt"} {
		tab, _, stderr := load(file, dataio.Options{}, auditFlags{})
		if _, d := tab.X.Dims(); d != 11 || !strings.Contains(stderr, "-drop cyl,vs,am,gear,carb leaves them out") {
			t.Errorf("%s: %d columns\n%s", file, d, stderr)
		}
	}
}
