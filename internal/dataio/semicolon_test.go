package dataio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSemicolonFiles reads the semicolon-separated tables of
// testdata/semicolon, with decimal commas, as they are written where the
// decimal mark is a comma: detected by their content under a .csv name
// or none, and with Format Semicolon; their values are those of the
// reference table.
func TestSemicolonFiles(t *testing.T) {
	ref, err := Read(mustOpen(t, "exports", "reference.csv"), "reference.csv", Options{Header: HeaderNo})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols", "flavanoids",
		"nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue", "od280_od315_of_diluted_wines", "proline"}
	n, d := ref.X.Dims()
	for _, tc := range []struct {
		file string
		// index: the first column holds R's row names "1" to "30", a
		// numeric column under an empty name that dataio reads as data.
		index bool
	}{
		{"wine-excel.csv", false},
		{"wine-write-csv2.csv", true},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "semicolon", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, as := range []struct {
			name string
			opt  Options
		}{
			{tc.file, Options{}},
			{"stdin", Options{}},
			{tc.file, Options{Format: Semicolon}},
		} {
			if as.opt.Format == Auto {
				if f := Detect(as.name, data); f != Semicolon {
					t.Errorf("Detect(%s as %s) = %v, want semicolon", tc.file, as.name, f)
				}
			}
			tab, err := Read(bytes.NewReader(data), as.name, as.opt)
			if err != nil {
				t.Errorf("%s as %s: %v", tc.file, as.name, err)
				continue
			}
			x, wantNames := tab.X, names
			if tc.index {
				x, wantNames = tab.X.Slice(0, n, 1, d+1).(*mat.Dense), append([]string{""}, names...)
				for i := range n {
					if tab.X.At(i, 0) != float64(i+1) {
						t.Errorf("%s: row %d: row name read as %v", tc.file, i, tab.X.At(i, 0))
						break
					}
				}
			}
			if r, c := x.Dims(); r != n || c != d || !mat.Equal(x, ref.X) {
				t.Errorf("%s as %s: values differ from the reference:\n%v", tc.file, as.name, mat.Formatted(tab.X, mat.Excerpt(2)))
			}
			if tab.Format != Semicolon || !tab.Header || !slices.Equal(tab.Names, wantNames) || tab.Lines[0] != 2 {
				t.Errorf("%s as %s: format %v, header %v, names %q, first line %d", tc.file, as.name, tab.Format, tab.Header, tab.Names, tab.Lines[0])
			}
		}
	}
}

func mustOpen(t *testing.T, dir, file string) *bytes.Reader {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", dir, file))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(data)
}

// TestDetectSemicolon: semicolon-separated lines are told from CSV by the
// numbers each reading gives, whatever the decimal mark.
func TestDetectSemicolon(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       Format
	}{
		{"a.csv", "a;b;c\n1,25;-0,5;3\n2;0,75;-1\n", Semicolon},
		{"a", "a;b;c\n1,25;-0,5;3\n2;0,75;-1\n", Semicolon},
		{"a.txt", "1,25;-0,5;3\n2;0,75;-1\n", Semicolon},
		{"a.csv", "a;b;c\n1.25;-0.5;3\n2;0.75;-1\n", Semicolon}, // decimal points
		{"a.csv", "1;2\n3;4\n", Semicolon},                      // whole numbers
		{"a.csv", "a;b\n\"1,5\";2\n3;\"4,25\"\n", Semicolon},    // quoted
		{"a.csv.gz", "a;b;c\n1,25;-0,5;3\n", Semicolon},
		{"a.csv", "a,b,c\n1.25,-0.5,3\n2,0.75,-1\n", CSV},
		{"a.csv", "a,b\n1,x;y\n2,x;z\n", CSV},       // a ';' inside text: the header has none
		{"a.csv", "a;b,c\n1;x,3\n4;y,6\n", CSV},     // as many numbers either way
		{"a.csv", "a;b\n1;x,3\n4;y,6\n", Semicolon}, // and unequal fields at ','
		{"a.csv", "a;b,c\n1;2,3\n4;5,6\n", Semicolon},
		{"a.csv", "a,b\n1,2;3\n4,5;6\n", CSV},   // the header splits into 1 field at ';'
		{"a.csv", "a;b;c\nx;y;z\nu;v;w\n", CSV}, // no numbers: an error will name ';'
		{"a.csv", "a;b\n1;2\n3;4;5\n", CSV},     // ragged
		{"a.tsv", "a;b\n1,5;2\n", TSV},          // the extension decides
		{"a", "a\tb\n1,5\t2\n", TSV},            // a tab in the first line
		{"a", "1 1:0,5 2:1\n", CSV},             // no LIBSVM line (a comma), no ';'
	} {
		if got := Detect(tc.name, []byte(tc.data)); got != tc.want {
			t.Errorf("Detect(%q, %q) = %v, want %v", tc.name, tc.data, got, tc.want)
		}
	}
	if f, err := ParseFormat("semicolon"); err != nil || f != Semicolon || f.String() != "semicolon" {
		t.Errorf(`ParseFormat("semicolon") = %v, %v`, f, err)
	}
}

// TestSemicolonNumbers: the cells of a semicolon-separated file, with a
// decimal comma or a decimal point, one per file; thousands separators
// and a second mark are errors that give the cell and the first mark.
func TestSemicolonNumbers(t *testing.T) {
	for _, tc := range []struct {
		data string
		want []float64
	}{
		{"a;b;c\n1,25;-0,5;3\n2;0,75;-1e3\n", []float64{1.25, -0.5, 3, 2, 0.75, -1000}},
		{"a;b;c\n1.25;-0.5;3\n2;0.75;-1E3\n", []float64{1.25, -0.5, 3, 2, 0.75, -1000}},
		{"a;b\n\"1,5\"; 2,5 \n-,5;NA\n", []float64{1.5, 2.5}}, // quoted, spaces, a row dropped
		{"x;y\n1,5e-3;7\n", []float64{1.5e-3, 7}},
	} {
		tab, err := Read(strings.NewReader(tc.data), "s.csv", Options{Missing: MissingDrop})
		if err != nil {
			t.Errorf("%q: %v", tc.data, err)
			continue
		}
		if !slices.Equal(tab.X.RawMatrix().Data, tc.want) || tab.Format != Semicolon {
			t.Errorf("%q: read %v as %v, want %v", tc.data, tab.X.RawMatrix().Data, tab.Format, tc.want)
		}
	}
	for _, tc := range []struct{ data, want string }{
		{"a;b\n1.234,5;2\n", `s.csv:2: column 1 ("a"): "1.234,5" has thousands separators (a '.' and a ',', or two of either): ngca reads numbers without them, with one decimal mark`},
		{"a;b;c\n1,234,567;2;3\n", `s.csv:2: column 1 ("a"): "1,234,567" has thousands separators`},
		{"a;b;c\n2,5;1.234.567;3\n", `s.csv:2: column 2 ("b"): "1.234.567" has thousands separators`},
		{"a;b\n1,5;2\n3;1.234\n", `s.csv:3: column 2 ("b"): "1.234" has a '.', but the numbers of the file have a decimal comma ("1,5" on line 2), where a '.' separates thousands: ngca reads one decimal mark per file, and no thousands separators`},
		{"a;b\n1.5;2\n3;1,234\n", `s.csv:3: column 2 ("b"): "1,234" has a ',', but the numbers of the file have a decimal point ("1.5" on line 2), where a ',' separates thousands`},
		{"a;b\n1,5;x\n", `s.csv:2: column 2 ("b"): "x" is not a number (if the column is not data, leave it out with -drop b`},
		{"a;b\n1,5;1,x\n", `s.csv:2: column 2 ("b"): "1,x" is not a number`},
	} {
		_, err := Read(strings.NewReader(tc.data), "s.csv", Options{})
		var e *Error
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.As(err, &e) || e.Line == 0 || e.Field == 0 {
			t.Errorf("%q: error %v, want %q", tc.data, err, tc.want)
		}
	}
	// A CSV file read as semicolon-separated is one column, and the
	// message says which format reads it; so is a semicolon-separated file
	// read as CSV.
	for _, tc := range []struct {
		data   string
		format Format
		want   string
	}{
		{"1,5,2\n3,4,5\n", Semicolon, `s.csv:1: column 1: "1,5,2" has thousands separators (a '.' and a ',', or two of either): ngca reads numbers without them, with one decimal mark (the file has one column: are its fields separated by ","? -format csv reads them)`},
		{"1;2\n3;4\n", CSV, `s.csv:1: column 1: "1;2" is not a number (the file has one column: are its fields separated by ";"? -format semicolon reads them)`},
		{"a;b\nx;y\n", Auto, `s.csv:1: column 1: "a;b" is not a number (the file has one column: are its fields separated by ";"? -format semicolon reads them)`},
		{"1|2\n3|4\n", Auto, `s.csv:1: column 1: "1|2" is not a number (the file has one column: are its fields separated by "|"? ngca reads fields separated by commas, semicolons, tabs or spaces: -format csv, semicolon, tsv or space)`},
	} {
		_, err := Read(strings.NewReader(tc.data), "s.csv", Options{Format: tc.format})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q as %v: error\n%v\nwant\n%s", tc.data, tc.format, err, tc.want)
		}
	}
}

// TestTextIDs: with Options.TextIDRows, a column of text with a
// different value in every row is left out as an id; a column of text
// that repeats a value (or misses one, or in too few rows) is the error
// the first data row gives without the option, found as soon as it shows.
func TestTextIDs(t *testing.T) {
	var b strings.Builder
	b.WriteString("name,x,group,y\n")
	for i := range 12 {
		g := "a"
		if i%2 == 1 {
			g = "b"
		}
		b.WriteString(strings.Join([]string{"P" + string(rune('A'+i)), "1." + string(rune('0'+i%10)), g, "2"}, ","))
		b.WriteByte('\n')
	}
	withGroup := b.String()
	noGroup := strings.ReplaceAll(strings.ReplaceAll(withGroup, ",a,", ",1,"), ",b,", ",3,")
	opt := Options{TextIDRows: 10}

	tab, err := Read(strings.NewReader(noGroup), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []IDColumn{{Field: 1, Name: "name", First: "PA"}}
	if !slices.Equal(tab.IDs, want) || !slices.Equal(tab.Names, []string{"x", "group", "y"}) || !slices.Equal(tab.Fields, []int{2, 3, 4}) {
		t.Errorf("ids %+v, names %q, fields %v", tab.IDs, tab.Names, tab.Fields)
	}
	// Without the option, the text is an error, as with a category.
	wantErr := `t.csv:2: column 1 ("name"): "PA" is not a number (if the column is not data, leave it out with -drop name, or name it with -label-col name if it holds labels)`
	if _, err := Read(strings.NewReader(noGroup), "t.csv", Options{}); err == nil || err.Error() != wantErr {
		t.Errorf("without TextIDRows: %v", err)
	}
	// A category: the error of the first data row, found on the third,
	// before the bad cell of the last row.
	_, err = Read(strings.NewReader(withGroup+"PZ,x,a,2\n"), "t.csv", opt)
	wantErr = `t.csv:2: column 3 ("group"): "a" is not a number (if the column is not data, leave it out with -drop group, or name it with -label-col group if it holds labels)`
	if err == nil || err.Error() != wantErr {
		t.Errorf("a text category: %v, want\n%s", err, wantErr)
	}
	// Too few rows, a repeated id, a missing one: not ids.
	short := strings.Join(strings.Split(noGroup, "\n")[:10], "\n") + "\n"
	repeated := strings.Replace(noGroup, "PB,", "PA,", 1)
	missing := strings.Replace(noGroup, "PB,", "NA,", 1)
	for what, data := range map[string]string{"9 rows": short, "a repeated id": repeated, "a missing id": missing} {
		_, err := Read(strings.NewReader(data), "t.csv", opt)
		if err == nil || !strings.HasPrefix(err.Error(), `t.csv:2: column 1 ("name"): "PA" is not a number (if the column is not data`) {
			t.Errorf("%s: %v", what, err)
		}
	}
	// Two text columns that turn out no ids on the same row are named at
	// once.
	both := strings.Replace(withGroup, "PC,", "PA,", 1)
	_, err = Read(strings.NewReader(both), "t.csv", opt)
	if err == nil || !strings.Contains(err.Error(), `"PA" is not a number (column 3 ("group") holds text too: if these columns are not data, leave them out with -drop name,group`) {
		t.Errorf("two text columns: %v", err)
	}
	// Without a header, and in a semicolon-separated file; a file whose
	// only data column would be the text is the usual error.
	headerless := strings.SplitN(noGroup, "\n", 2)[1]
	tab, err = Read(strings.NewReader(headerless), "t.csv", opt)
	if err != nil || tab.Header || !slices.Equal(tab.IDs, []IDColumn{{Field: 1, First: "PA"}}) {
		t.Errorf("without a header: %v, ids %+v", err, tab)
	}
	semi := strings.ReplaceAll(strings.ReplaceAll(noGroup, ".", "!"), ",", ";")
	semi = strings.ReplaceAll(semi, "!", ",")
	tab, err = Read(strings.NewReader(semi), "t.csv", opt)
	if err != nil || tab.Format != Semicolon || len(tab.IDs) != 1 || tab.X.At(1, 0) != 1.1 {
		t.Errorf("semicolon-separated: %v, %+v", err, tab)
	}
	var only strings.Builder
	only.WriteString("name\n")
	for i := range 12 {
		only.WriteString("P" + string(rune('A'+i)) + "\n")
	}
	if _, err := Read(strings.NewReader(only.String()), "t.csv", opt); err == nil || !strings.HasPrefix(err.Error(), `t.csv:1: column 1: "name" is not a number`) {
		t.Errorf("only text: %v", err)
	}
	// The Scanner lists the ids in its layout, and streams the rows.
	s, err := NewScanner(strings.NewReader(noGroup), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	if l := s.Layout(); len(l.IDs) != 1 || len(l.Fields) != 3 {
		t.Errorf("layout %+v", l)
	}
	rows := 0
	for s.Scan() {
		rows++
	}
	if s.Err() != nil || rows != 12 {
		t.Errorf("scanned %d rows: %v", rows, s.Err())
	}
}
