package dataio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gzipped returns s compressed with gzip.
func gzipped(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGzip checks that compressed files are read as their text, for every
// format, by their content whatever their name, with the format detected
// on the name without ".gz".
func TestGzip(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		format     Format
	}{
		{"a.csv.gz", "x,y\n1,2\n3,4\n", CSV},
		{"a.tsv.gz", "x\ty\n1\t2\n3\t4\n", TSV},
		{"a.txt.gz", "\"x\" \"y\"\n1 2\n3 4\n", Space},
		{"a.svm.gz", "1 1:1 2:2\n0 1:3 2:4\n", LIBSVM},
		{"a.svm.GZ", "1 0:1 1:2\n0 0:3 1:4\n", LIBSVM},
		{"stdin", "x,y\n1,2\n3,4\n", CSV},   // no extension: by the content
		{"a.csv", "x,y\n1,2\n3,4\n", CSV},   // compressed under a plain name
		{"a.gz", "x\ty\n1\t2\n3\t4\n", TSV}, // nothing but .gz
	} {
		data := gzipped(t, tc.text)
		for _, stream := range []bool{false, true} {
			tab, err := Read(bytes.NewReader(data), tc.name, Options{})
			if stream {
				s, err2 := NewScanner(bytes.NewReader(data), tc.name, Options{})
				if err2 != nil {
					t.Fatalf("%s: %v", tc.name, err2)
				}
				n := 0
				for s.Scan() {
					n++
				}
				if s.Err() != nil || n != 2 {
					t.Errorf("%s: scanned %d rows, %v", tc.name, n, s.Err())
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			want := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
			if !mat.Equal(tab.X, want) || tab.Format != tc.format || !tab.Compressed {
				t.Errorf("%s: read %v as %v (compressed %v), want %v as %v", tc.name, mat.Formatted(tab.X), tab.Format, tab.Compressed, mat.Formatted(want), tc.format)
			}
		}
	}
	// Damaged and cut-short streams are errors naming the file.
	data := gzipped(t, strings.Repeat("1,2,3\n", 1000))
	for _, bad := range [][]byte{data[:len(data)/2], append(slices.Clone(data[:len(data)-8]), 0, 0, 0, 0, 0, 0, 0, 0), data[:5]} {
		_, err := Read(bytes.NewReader(bad), "d.csv.gz", Options{})
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "d.csv.gz: ") || !strings.Contains(err.Error(), "gzip") {
			t.Errorf("damaged gzip: %v", err)
		}
	}
}

// TestBinary checks that binary files are called what they are, in one
// line, and that text that starts like a magic number is still text.
func TestBinary(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"book.xlsx", "PK\x03\x04\x14\x00\x06\x00", "book.xlsx: an Excel workbook (.xlsx, a zip archive), not a text table"},
		{"a.zip", "PK\x03\x04\x14\x00\x06\x00", "a.zip: a zip archive, not a text table"},
		{"old.xls", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", "old.xls: an Excel .xls workbook"},
		{"t.parquet", "PAR1\x15\x04\x15\x80\x01", "t.parquet: a Parquet file, not a text table: ngca reads CSV, TSV, space-separated and LIBSVM text, plain or gzip-compressed (pandas: pd.read_parquet"},
		{"x.npy", "\x93NUMPY\x01\x00v\x00{'descr'", "x.npy: a NumPy .npy array"},
		{"x.h5", "\x89HDF\r\n\x1a\n\x00\x00", "x.h5: an HDF5 file"},
		{"df.pkl", "\x80\x04\x95\x1b\x03\x00\x00", "df.pkl: a Python pickle"},
		{"x.rds", "X\n\x00\x00\x00\x03\x00\x04", "x.rds: an R data file (saveRDS)"},
		{"x.csv.bz2", "BZh91AY&SY\x01\x02", "x.csv.bz2: bzip2-compressed: decompress it first"},
		{"u16.csv", "\xff\xfea\x00,\x00b\x00\n\x00", "u16.csv: UTF-16 text: save it as UTF-8"},
		{"u16.csv", "a\x00,\x00b\x00\n\x001\x00,\x002\x00\n\x00", "u16.csv: UTF-16 text"},
		{"bin", "1,2\n\x00\x01\x02\x03", "bin: a binary file, not a text table"},
		{"ctl", strings.Repeat("\x01\x02\x03abcdefg", 10), "ctl: a binary file"},
	} {
		for _, data := range [][]byte{[]byte(tc.data), gzipped(t, tc.data)} {
			_, err := Read(bytes.NewReader(data), tc.name, Options{})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || !errors.Is(err, ErrFormat) {
				t.Errorf("%s: error %v, want %q…", tc.name, err, tc.want)
			}
		}
	}
	// Text that starts like a magic number of letters is text.
	for _, text := range []string{"ORC,b\n1,2\n", "BZh,b\n1,2\n", "PAR1,b\n1,2\n", "caf\xe9,b\n1,2\n"} {
		if _, err := Read(strings.NewReader(text), "t.csv", Options{}); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// TestSpaceSeparated checks the space-separated format: R's write.table
// with its quotes and escapes, and files of numbers in columns.
func TestSpaceSeparated(t *testing.T) {
	for _, tc := range []struct {
		desc, name, data string
		opt              Options
		want             []float64
		names, labels    []string
		rowNames         int
	}{
		{desc: "numbers in columns", name: "m.txt", data: "1 2\n  3\t 4  \n",
			want: []float64{1, 2, 3, 4}},
		{desc: "write.table with row names", name: "w.txt", data: "\"a\" \"b\"\n\"1\" 1.5 2\n\"2\" 3 4\n",
			want: []float64{1.5, 2, 3, 4}, names: []string{"a", "b"}, rowNames: 1},
		{desc: "write.table text row names", name: "w.txt", data: "\"mpg\" \"cyl\"\n\"Mazda RX4\" 21 6\n\"Datsun 710\" 22.8 4\n",
			want: []float64{21, 6, 22.8, 4}, names: []string{"mpg", "cyl"}, rowNames: 1},
		{desc: "write.table row.names=FALSE", name: "w.csv", data: "\"a\" \"b\"\n1.5 2\n3 4\n",
			want: []float64{1.5, 2, 3, 4}, names: []string{"a", "b"}},
		{desc: "escaped quotes in a label", name: "w.txt", data: "\"a\" \"s\"\n\"1\" 1 \"q\\\"z\"\n\"2\" 2 \"x \"\"y\"\"\"\n", opt: Options{LabelCol: "s"},
			want: []float64{1, 2}, names: []string{"a"}, labels: []string{`q"z`, `x "y"`}, rowNames: 1},
		{desc: "forced", name: "stdin", data: "1 2\n3 4\n", opt: Options{Format: Space},
			want: []float64{1, 2, 3, 4}},
	} {
		tab, err := Read(strings.NewReader(tc.data), tc.name, tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.desc, err)
			continue
		}
		if tab.Format != Space || !slices.Equal(tab.X.RawMatrix().Data, tc.want) || !slices.Equal(tab.Names, tc.names) ||
			!slices.Equal(tab.Labels, tc.labels) || tab.RowNames != tc.rowNames {
			t.Errorf("%s: %v %v names %q labels %q row names %d", tc.desc, tab.Format, tab.X.RawMatrix().Data, tab.Names, tab.Labels, tab.RowNames)
		}
	}
	_, err := Read(strings.NewReader("1 2\n3 \"4\n"), "q.txt", Options{Format: Space})
	if err == nil || err.Error() != "q.txt:2:3: quoted field not closed on its line" {
		t.Errorf("open quote: %v", err)
	}
	_, err = Read(strings.NewReader("1 2\n3 4 5\n"), "r.txt", Options{})
	if err == nil || err.Error() != "r.txt:2: 3 fields, want 2 (as on line 1)" {
		t.Errorf("ragged: %v", err)
	}
}

// TestRowNames checks the row names of R and pandas: text under an empty
// header cell, or a header one name short, left out of the data; numbers
// under an empty header cell stay data (the command's audit decides).
func TestRowNames(t *testing.T) {
	for _, tc := range []struct {
		desc, data string
		opt        Options
		want       []float64
		names      []string
		fields     []int
		rowNames   int
		short      bool
	}{
		{desc: "write.csv, text", data: "\"\",\"mpg\",\"cyl\"\n\"Mazda RX4\",21,6\n\"Datsun 710\",22.8,4\n",
			want: []float64{21, 6, 22.8, 4}, names: []string{"mpg", "cyl"}, fields: []int{2, 3}, rowNames: 1},
		{desc: "write.csv, one data column", data: "\"\",\"mpg\"\n\"Mazda RX4\",21\n\"Datsun 710\",22.8\n",
			want: []float64{21, 22.8}, names: []string{"mpg"}, fields: []int{2}, rowNames: 1},
		{desc: "write.csv, numbers", data: "\"\",\"a\",\"b\"\n\"1\",1.5,2\n\"2\",3,4\n",
			want: []float64{1, 1.5, 2, 2, 3, 4}, names: []string{"", "a", "b"}, fields: []int{1, 2, 3}},
		{desc: "to_csv, index", data: ",a,b\n0,1.5,2\n1,3,4\n",
			want: []float64{0, 1.5, 2, 1, 3, 4}, names: []string{"", "a", "b"}, fields: []int{1, 2, 3}},
		{desc: "write.table(sep=\",\")", data: "\"a\",\"b\"\n\"1\",1.5,2\n\"2\",3,4\n",
			want: []float64{1.5, 2, 3, 4}, names: []string{"a", "b"}, fields: []int{2, 3}, rowNames: 1, short: true},
		{desc: "label in the row names", data: "\"\",\"a\",\"b\"\n\"x\",1.5,2\n\"y\",3,4\n", opt: Options{LabelCol: "1"},
			want: []float64{1.5, 2, 3, 4}, names: []string{"a", "b"}, fields: []int{2, 3}},
		{desc: "no header", data: "x,1.5,2\ny,3,4\n", opt: Options{Header: HeaderNo, Drop: "1"},
			want: []float64{1.5, 2, 3, 4}, fields: []int{2, 3}},
	} {
		tab, err := Read(strings.NewReader(tc.data), "r.csv", tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.desc, err)
			continue
		}
		if !slices.Equal(tab.X.RawMatrix().Data, tc.want) || !slices.Equal(tab.Names, tc.names) || !slices.Equal(tab.Fields, tc.fields) ||
			tab.RowNames != tc.rowNames || tab.ShortHeader != tc.short {
			t.Errorf("%s: %v names %q fields %v row names %d short %v", tc.desc, tab.X.RawMatrix().Data, tab.Names, tab.Fields, tab.RowNames, tab.ShortHeader)
		}
	}
	_, err := Read(strings.NewReader("\"\",\"a\",\"b\"\n\"x\",1.5,2\n\"y\",3,4\n"), "r.csv", Options{Cols: "1,2"})
	if err == nil || !strings.Contains(err.Error(), "-cols: column 1 holds the row names") || !errors.Is(err, ErrSelect) {
		t.Errorf("-cols 1 of row names: %v", err)
	}
}

// TestIntegerHeader checks the header pandas writes for integer column
// names, with and without the index.
func TestIntegerHeader(t *testing.T) {
	for _, tc := range []struct {
		data  string
		names []string // nil: no header
	}{
		{"0,1,2\n1.5,2,3\n4,5,6\n", []string{"0", "1", "2"}},
		{",0,1,2\n0,1.5,2,3\n1,4,5,6\n", []string{"", "0", "1", "2"}},
		{"0,1,2\n0,1,2\n", nil},     // the same row twice: data
		{"1,2,3\n4,5,6\n", nil},     // 1, 2, 3 is data
		{"0,1\n2,3\n", nil},         // too short to tell
		{"0,1,2,4\n5,6,7,8\n", nil}, // not in order
	} {
		tab, err := Read(strings.NewReader(tc.data), "i.csv", Options{})
		if err != nil {
			t.Errorf("%q: %v", tc.data, err)
			continue
		}
		if tab.Header != (tc.names != nil) || !slices.Equal(tab.Names, tc.names) {
			t.Errorf("%q: header %v, names %q; want %q", tc.data, tab.Header, tab.Names, tc.names)
		}
		if tab.IntegerHeader != (tc.names != nil) {
			t.Errorf("%q: IntegerHeader %v, want %v", tc.data, tab.IntegerHeader, tc.names != nil)
		}
	}
}

// TestZeroBased checks LIBSVM files with indices from 0, as scikit-learn
// writes them: detected by an index 0, or forced.
func TestZeroBased(t *testing.T) {
	data := "# Generated by dump_svmlight_file\n0 0:1.5 2:3\n1 1:2\n"
	tab, err := Read(strings.NewReader(data), "z.svm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewDense(2, 3, []float64{1.5, 0, 3, 0, 2, 0})
	if !mat.Equal(tab.X, want) || !tab.ZeroBased || !slices.Equal(tab.Fields, []int{1, 2, 3}) || !slices.Equal(tab.Lines, []int{2, 3}) {
		t.Errorf("zero-based: %v, zero-based %v, fields %v, lines %v", mat.Formatted(tab.X), tab.ZeroBased, tab.Fields, tab.Lines)
	}
	// Without an index 0, a file is one-based, unless forced.
	for _, tc := range []struct {
		base Base
		want *mat.Dense
		zero bool
	}{
		{BaseAuto, mat.NewDense(1, 2, []float64{1, 2}), false},
		{BaseOne, mat.NewDense(1, 2, []float64{1, 2}), false},
		{BaseZero, mat.NewDense(1, 3, []float64{0, 1, 2}), true},
	} {
		tab, err := Read(strings.NewReader("1 1:1 2:2\n"), "o.svm", Options{Base: tc.base})
		if err != nil || !mat.Equal(tab.X, tc.want) || tab.ZeroBased != tc.zero {
			t.Errorf("base %v: %v, %v", tc.base, err, tab)
		}
	}
	// Features fixes the width: indices 0 to features-1.
	tab, err = Read(strings.NewReader("1 0:1 3:2\n"), "f.svm", Options{Features: 4})
	if err != nil || !mat.Equal(tab.X, mat.NewDense(1, 4, []float64{1, 0, 0, 2})) {
		t.Errorf("features 4: %v, %v", err, tab)
	}
	// The streaming Scanner reads the same, and widens to a fit's columns.
	s, err := NewScanner(strings.NewReader(data), "z.svm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Widen(4)
	var rows [][]float64
	for s.Scan() {
		rows = append(rows, slices.Clone(s.Row()))
	}
	if s.Err() != nil || len(rows) != 2 || !slices.Equal(rows[0], []float64{1.5, 0, 3, 0}) || !s.Layout().ZeroBased {
		t.Errorf("scanner: %v, %v", rows, s.Err())
	}
}
