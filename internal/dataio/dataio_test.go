package dataio

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       Format
	}{
		{"x.csv", "1\t2\n", CSV},
		{"x.TSV", "1,2\n", TSV},
		{"x.tab", "1,2\n", TSV},
		{"x.svm", "1,2\n", LIBSVM},
		{"svmguide1", "1 1:2.5 2:3\n", LIBSVM},
		{"vehicle.scale", "\n# comment\n4 1:-0.04 2:0.15\n", LIBSVM},
		{"y.t", "1\n-1 3:1\n", LIBSVM}, // a first line without features
		{"data", "a\tb\n1\t2\n", TSV},
		{"data.txt", "a,b\n1,2\n", CSV},
		{"-", "1 2 3\n", Space},
		{"-", "x y\n1 2\n3 4\n", Space},
		{"x.csv", "\"a\" \"b\"\n\"1\" 1 2\n", Space}, // R's write.table(df, "x.csv")
		{"x.csv", "a b,c\n1,2\n", CSV},
		{"x.txt", "a b\n1\n2\n", CSV}, // one column whose name has a space
		{"x.csv.gz", "1\t2\n", CSV},
		{"x.gz", "a\tb\n1\t2\n", TSV},
		{"x.dat", "1 \"a b\" 3\n4 \"c\" 6\n", Space},
		{"-", "1 \"a\n2 b\n", CSV},         // a quote left open
		{"x.svm", "0 0:1.5 3:2\n", LIBSVM}, // zero-based, as scikit-learn writes
		{"data", "# comment\n0 0:1.5 3:2\n", LIBSVM},
		{"-", "1,2:3\n", CSV},
	} {
		if got := Detect(tc.name, []byte(tc.data)); got != tc.want {
			t.Errorf("Detect(%q, %q) = %v, want %v", tc.name, tc.data, got, tc.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{Auto, CSV, TSV, LIBSVM} {
		if g, err := ParseFormat(f.String()); err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.String(), g, err)
		}
	}
	if _, err := ParseFormat("xls"); err == nil || !strings.Contains(err.Error(), `"xls"`) {
		t.Errorf("ParseFormat(xls): %v", err)
	}
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		desc, name, data string
		opt              Options
		want             [][]float64
		names, labels    []string
		fields           []int
		labelName        string
		header           bool
		format           Format
	}{
		{desc: "header detected", name: "a.csv", data: "x,y\n1,2\n3,4\n",
			want: [][]float64{{1, 2}, {3, 4}}, names: []string{"x", "y"}, header: true, format: CSV},
		{desc: "no header", name: "a.csv", data: "1,2\n3,4\n",
			want: [][]float64{{1, 2}, {3, 4}}, format: CSV},
		{desc: "header forced off keeps numbers", name: "a.csv", data: "1,2\n3,4\n", opt: Options{Header: HeaderNo},
			want: [][]float64{{1, 2}, {3, 4}}, format: CSV},
		{desc: "numeric header forced", name: "a.csv", data: "1,2\n3,4\n", opt: Options{Header: HeaderYes},
			want: [][]float64{{3, 4}}, names: []string{"1", "2"}, header: true, format: CSV},
		{desc: "single data row under a header", name: "a.csv", data: "x,y\n1,2\n",
			want: [][]float64{{1, 2}}, names: []string{"x", "y"}, header: true, format: CSV},
		{desc: "pandas index header", name: "a.csv", data: ",x,y\n0,1,2\n1,3,4\n",
			want: [][]float64{{0, 1, 2}, {1, 3, 4}}, names: []string{"", "x", "y"}, header: true, format: CSV},
		{desc: "label column by number", name: "a.csv", data: "1,a,2\n3,b,4\n", opt: Options{LabelCol: "2"},
			want: [][]float64{{1, 2}, {3, 4}}, labels: []string{"a", "b"}, format: CSV},
		{desc: "label column by name", name: "a.csv", data: "x,class,y\n1,a,2\n3,b,4\n", opt: Options{LabelCol: "class"},
			want: [][]float64{{1, 2}, {3, 4}}, names: []string{"x", "y"}, labels: []string{"a", "b"}, fields: []int{1, 3}, labelName: "class", header: true, format: CSV},
		{desc: "label column if present", name: "a.csv", data: "x,class,y\n1,a,2\n3,b,4\n", opt: Options{LabelIfPresent: "class"},
			want: [][]float64{{1, 2}, {3, 4}}, names: []string{"x", "y"}, labels: []string{"a", "b"}, fields: []int{1, 3}, labelName: "class", header: true, format: CSV},
		{desc: "label column if present, absent", name: "a.csv", data: "x,y\n1,2\n3,4\n", opt: Options{LabelIfPresent: "class"},
			want: [][]float64{{1, 2}, {3, 4}}, names: []string{"x", "y"}, header: true, format: CSV},
		{desc: "label column if present, no header", name: "a.csv", data: "1,2\n3,4\n", opt: Options{LabelIfPresent: "class"},
			want: [][]float64{{1, 2}, {3, 4}}, format: CSV},
		{desc: "text labels do not hide a header", name: "a.csv", data: "x,y,species\n1,2,setosa\n3,4,virginica\n", opt: Options{LabelCol: "3"},
			want: [][]float64{{1, 2}, {3, 4}}, names: []string{"x", "y"}, labels: []string{"setosa", "virginica"}, labelName: "species", header: true, format: CSV},
		{desc: "quotes, spaces, CRLF, BOM, blank lines", name: "a.csv", data: "\ufeff\"x\", \"y\"\r\n\r\n\"1.5\", 2e3\r\n-3 ,4\r\n",
			want: [][]float64{{1.5, 2000}, {-3, 4}}, names: []string{"x", "y"}, header: true, format: CSV},
		{desc: "comment lines", name: "a.csv", data: "# from numpy.savetxt\n# x,y\n1,2\n# between\n3,4\n",
			want: [][]float64{{1, 2}, {3, 4}}, format: CSV},
		{desc: "TSV by content", name: "-", data: "x\ty\n1\t2\n3\t4",
			want: [][]float64{{1, 2}, {3, 4}}, names: []string{"x", "y"}, header: true, format: TSV},
		{desc: "LIBSVM by content", name: "svmguide1", data: "1 1:0.5 3:2\n-1 2:1\n",
			want: [][]float64{{0.5, 0, 2}, {0, 1, 0}}, labels: []string{"1", "-1"}, format: LIBSVM},
		{desc: "LIBSVM features", name: "d.libsvm", data: "1 1:0.5\n2 2:1\n", opt: Options{Features: 3},
			want: [][]float64{{0.5, 0, 0}, {0, 1, 0}}, labels: []string{"1", "2"}, format: LIBSVM},
		{desc: "format forced", name: "d.txt", data: "1 1:0.5\n2 2:1\n", opt: Options{Format: LIBSVM},
			want: [][]float64{{0.5, 0}, {0, 1}}, labels: []string{"1", "2"}, format: LIBSVM},
	} {
		tab, err := Read(strings.NewReader(tc.data), tc.name, tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.desc, err)
			continue
		}
		want := mat.NewDense(len(tc.want), len(tc.want[0]), nil)
		for i, row := range tc.want {
			want.SetRow(i, row)
		}
		if !mat.Equal(tab.X, want) {
			t.Errorf("%s: X = %v, want %v", tc.desc, mat.Formatted(tab.X), mat.Formatted(want))
		}
		if strings.Join(tab.Names, "|") != strings.Join(tc.names, "|") || (tab.Names == nil) != (tc.names == nil) {
			t.Errorf("%s: names %q, want %q", tc.desc, tab.Names, tc.names)
		}
		if strings.Join(tab.Labels, "|") != strings.Join(tc.labels, "|") || (tab.Labels == nil) != (tc.labels == nil) {
			t.Errorf("%s: labels %q, want %q", tc.desc, tab.Labels, tc.labels)
		}
		if tc.fields != nil && fmt.Sprint(tab.Fields) != fmt.Sprint(tc.fields) {
			t.Errorf("%s: fields %v, want %v", tc.desc, tab.Fields, tc.fields)
		}
		if _, d := tab.X.Dims(); len(tab.Fields) != d {
			t.Errorf("%s: %d fields for %d columns", tc.desc, len(tab.Fields), d)
		}
		if tab.LabelName != tc.labelName || tab.Header != tc.header || tab.Format != tc.format {
			t.Errorf("%s: label name %q, header %v, format %v; want %q, %v, %v", tc.desc, tab.LabelName, tab.Header, tab.Format, tc.labelName, tc.header, tc.format)
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		opt        Options
		want       string
		empty      bool
	}{
		{"e.csv", "", Options{}, "e.csv: empty file (no data)", true},
		{"e.csv", "\n  \n\t\n", Options{}, "e.csv: empty file (no data)", true},
		{"h.csv", "x,y\n", Options{}, "h.csv:1: no data rows, only a header", true},
		{"e.svm", "# nothing\n\n", Options{}, "e.svm: no LIBSVM data (only blank lines and comments)", true},
		{"r.csv", "x,y,z\n1,2,3\n4,5\n", Options{}, "r.csv:3: 2 fields, want 3 (as on line 1)", false},
		{"r.csv", "1,2,3\n\n4,5,6,7\n", Options{}, "r.csv:3: 4 fields, want 3 (as on line 1)", false},
		{"r.tsv", "1\t2\n3\n", Options{}, "r.tsv:2: 1 field, want 2 (as on line 1)", false},
		{"n.csv", "a,b,c\n1,2,3\n4,5,abc\n", Options{}, `n.csv:3: column 3 ("c"): "abc" is not a number`, false},
		{"n.csv", "1,2,3\n4,abc,6\n", Options{}, `n.csv:2: column 2: "abc" is not a number`, false},
		{"n.csv", "a,b,c\n1,x,3\n4,5,6\n", Options{}, `n.csv:2: column 2 ("b"): "x" is not a number`, false},
		{"n.csv", "1,x,3\n4,y,6\n", Options{}, `n.csv:1: column 2: "x" is not a number`, false},
		{"n.csv", "1,2,3\n4,abc,def\n", Options{}, `n.csv:2: column 2: "abc" is not a number`, false},
		{"n.csv", "1,2\n3,\n", Options{}, `n.csv:2: column 2: missing value (empty cell) in data row 2; -missing drop leaves out the rows with missing values`, false},
		{"nan.csv", "x,y\n1,2\n3,NaN\n", Options{}, `nan.csv:3: column 2 ("y"): missing value ("NaN") in data row 2; -missing drop`, false},
		{"inf.csv", "1,-inf\n", Options{}, `inf.csv:1: column 2: "-inf" is not a finite number`, false},
		{"big.csv", "1,1e400\n", Options{}, `big.csv:1: column 2: "1e400" is too large for a float64`, false},
		{"semi.csv", "1;2\n3;4\n", Options{Format: CSV}, `semi.csv:1: column 1: "1;2" is not a number (the file has one column: are its fields separated by ";"? -format semicolon reads them)`, false},
		{"q.csv", "1,2\n3,4\"x\n", Options{}, `q.csv:2:4: bare " in non-quoted-field`, false},
		{"l.csv", "1,2\n", Options{LabelCol: "3"}, "l.csv:1: label column 3 is out of range: the file has 2 columns", false},
		{"l.csv", "x,y\n1,2\n", Options{LabelCol: "class"}, `l.csv:1: no column named "class" in the header ("x", "y")`, false},
		{"l.csv", "x,y\n1,2\n", Options{LabelCol: "x", Header: HeaderNo}, `l.csv: label column "x" is a name, but the file is read without a header`, false},
		{"l.csv", "1\n2\n", Options{LabelCol: "1"}, "l.csv:1: no data columns, only the label column", false},
		{"s.svm", "1 1:2\n1 2:x\n", Options{}, `s.svm:2:5: value "x" is not a finite number`, false},
		{"s.svm", "1 1:2\n1 -1:1\n", Options{}, `s.svm:2:3: feature index "-1" is not an integer ≥ 0`, false},
		{"s.svm", "1 1:2\n1 0:1\n", Options{Base: BaseOne}, `s.svm:2:3: feature index "0" is not an integer ≥ 1`, false},
		{"s.svm", "1 2:2\n1 0:1\n", Options{Features: 2}, `s.svm:1:3: feature index 2 exceeds the 2 features of a zero-based file (indices 0 to 1)`, false},
		{"s.svm", "1 3:2\n", Options{Features: 2}, `s.svm:1:3: feature index 3 exceeds 2 features`, false},
		{"s.svm", "1 1:2\n", Options{LabelCol: "1"}, `s.svm: a label column cannot be chosen in a LIBSVM file`, false},
	} {
		_, err := Read(strings.NewReader(tc.data), tc.name, tc.opt)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Read(%q, %q): error %v, want %q", tc.name, tc.data, err, tc.want)
			continue
		}
		if !errors.Is(err, ErrFormat) {
			t.Errorf("Read(%q, %q): error %v does not match ErrFormat", tc.name, tc.data, err)
		}
		if errors.Is(err, ErrEmpty) != tc.empty {
			t.Errorf("Read(%q, %q): errors.Is(err, ErrEmpty) = %v, want %v", tc.name, tc.data, !tc.empty, tc.empty)
		}
	}
}
