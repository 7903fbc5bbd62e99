package dataio

import (
	"errors"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSelectColumns checks -cols and -drop: names, numbers, ranges, their
// combination, the label column, and the order of the file.
func TestSelectColumns(t *testing.T) {
	const data = "a,b,class,c,d-e\n1,2,x,3,4\n5,6,y,7,8\n"
	for _, tc := range []struct {
		opt    Options
		names  []string
		fields []int
		row    []float64
	}{
		{Options{Cols: "c,a"}, []string{"a", "c"}, []int{1, 4}, []float64{1, 3}},
		{Options{Cols: "1-2,5", LabelCol: "class"}, []string{"a", "b", "d-e"}, []int{1, 2, 5}, []float64{1, 2, 4}},
		{Options{Drop: "class"}, []string{"a", "b", "c", "d-e"}, []int{1, 2, 4, 5}, []float64{1, 2, 3, 4}},
		{Options{Drop: "3,d-e"}, []string{"a", "b", "c"}, []int{1, 2, 4}, []float64{1, 2, 3}},
		{Options{Cols: "1-4", Drop: "b,3"}, []string{"a", "c"}, []int{1, 4}, []float64{1, 3}},
		{Options{LabelCol: "class", Names: []string{"d-e", "a"}}, []string{"d-e", "a"}, []int{5, 1}, []float64{4, 1}},
	} {
		tab, err := Read(strings.NewReader(data), "s.csv", tc.opt)
		if err != nil {
			t.Errorf("%+v: %v", tc.opt, err)
			continue
		}
		if !slices.Equal(tab.Names, tc.names) || !slices.Equal(tab.Fields, tc.fields) || !slices.Equal(tab.X.RawRowView(0), tc.row) {
			t.Errorf("%+v: names %q fields %v row %v; want %q %v %v", tc.opt, tab.Names, tab.Fields, tab.X.RawRowView(0), tc.names, tc.fields, tc.row)
		}
	}
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Cols: "a,zz,yy"}, `-cols: no columns named "zz", "yy" in the header of s.csv ("a", "b", "class", "c", "d-e")`},
		{Options{Drop: "0,7,4-9"}, "-drop: column 0, 7, 4-9 out of range: s.csv has 5 columns, numbered from 1"},
		{Options{Cols: "class", LabelCol: "class"}, `-cols: "class" is the label column`},
		{Options{Cols: "a", Drop: "a"}, "-cols/-drop: no data column left in s.csv"},
		{Options{Cols: "3-1"}, `-cols: range "3-1" runs backwards`},
		{Options{Cols: "a", Header: HeaderNo}, "-cols/-drop: a column is given by name, but s.csv is read without a header"},
		{Options{Names: []string{"a", "q", "r"}}, `s.csv lacks the columns "q", "r" of the fit`},
	} {
		_, err := Read(strings.NewReader(data), "s.csv", tc.opt)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, ErrSelect) {
			t.Errorf("%+v: error %v, want %q matching ErrSelect", tc.opt, err, tc.want)
		}
	}
	// A text column left out by number does not stop header detection.
	tab, err := Read(strings.NewReader("name,x,y\nab,1,2\ncd,3,4\n"), "t.csv", Options{Drop: "1"})
	if err != nil || !tab.Header || !slices.Equal(tab.Names, []string{"x", "y"}) {
		t.Errorf("-drop 1: %v, %+v", err, tab)
	}
	// LIBSVM: features by number.
	tab, err = Read(strings.NewReader("1 1:1 3:3\n2 2:2 4:4\n"), "s.svm", Options{Drop: "2"})
	if err != nil || !slices.Equal(tab.Fields, []int{1, 3, 4}) || !slices.Equal(tab.X.RawRowView(1), []float64{0, 0, 4}) {
		t.Errorf("LIBSVM -drop 2: %v, %+v", err, tab)
	}
}

// TestMissing checks the spellings of a missing value, the error naming
// the row and column, and -missing drop on the selected columns and the
// label only.
func TestMissing(t *testing.T) {
	for _, c := range []string{"", " ", "NA", "na", "N/A", "NaN", "nan", "null", "NULL", "?"} {
		if !IsMissing(c) {
			t.Errorf("IsMissing(%q) = false", c)
		}
	}
	for _, c := range []string{"0", "Inf", "x", "n"} {
		if IsMissing(c) {
			t.Errorf("IsMissing(%q) = true", c)
		}
	}
	const data = "x,y,note,class\n1,2,,a\n3,NA,ok,b\n5,6,ok,\n7,8,,c\n"
	_, err := Read(strings.NewReader(data), "m.csv", Options{Drop: "note", LabelCol: "class"})
	want := `m.csv:3: column 2 ("y"): missing value ("NA") in data row 2; -missing drop`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("missing value: %v, want %q", err, want)
	}
	tab, err := Read(strings.NewReader(data), "m.csv", Options{Drop: "note", LabelCol: "class", Missing: MissingDrop})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := tab.X.Dims(); n != 2 || tab.Dropped != 2 || !slices.Equal(tab.Labels, []string{"a", "c"}) {
		t.Errorf("-missing drop: %d rows, %d dropped, labels %q; want 2, 2, [a c]", n, tab.Dropped, tab.Labels)
	}
	_, err = Read(strings.NewReader("x,y\n1,\n,2\n"), "m.csv", Options{Missing: MissingDrop})
	if err == nil || !strings.Contains(err.Error(), "every one of the 2 rows has a missing value") {
		t.Errorf("all rows dropped: %v", err)
	}
}

// TestTextColumnHint checks that a text column's error names it by number
// and header name and suggests -drop and -label-col.
func TestTextColumnHint(t *testing.T) {
	_, err := Read(strings.NewReader("x,species,y\n1,setosa,2\n"), "i.csv", Options{})
	want := `i.csv:2: column 2 ("species"): "setosa" is not a number (if the column is not data, leave it out with -drop species, or name it with -label-col species if it holds labels)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// endless is a CSV file that ends after limit rows.
type endless struct {
	rows, limit  int
	buf, pending []byte
}

func (e *endless) Read(p []byte) (int, error) {
	if len(e.pending) == 0 {
		e.buf = e.buf[:0]
		if e.rows == 0 {
			e.buf = append(e.buf, "a,b,c\n"...)
		}
		for len(e.buf) < 4096 && e.rows < e.limit {
			e.buf = strconv.AppendInt(e.buf, int64(e.rows), 10)
			e.buf = append(e.buf, ',')
			e.buf = strconv.AppendInt(e.buf, int64(e.rows%7), 10)
			e.buf = append(e.buf, ".5,-"...)
			e.buf = strconv.AppendInt(e.buf, int64(e.rows%3), 10)
			e.buf = append(e.buf, '\n')
			e.rows++
		}
		e.pending = e.buf
	}
	if len(e.pending) == 0 {
		return 0, io.EOF
	}
	n := copy(p, e.pending)
	e.pending = e.pending[n:]
	return n, nil
}

// TestScannerStreams checks that Scanner reads rows as they come: after
// the first rows of a file of 10⁹ rows it has read only a buffer's worth,
// and the memory it holds after 200000 rows is less than their data.
func TestScannerStreams(t *testing.T) {
	src := &endless{limit: 1e9}
	s, err := NewScanner(src, "big.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		if !s.Scan() {
			t.Fatalf("row %d: %v", i+1, s.Err())
		}
		if r := s.Row(); r[0] != float64(i) || r[2] != -float64(i%3) {
			t.Fatalf("row %d = %v", i+1, r)
		}
	}
	if src.rows > 20000 {
		t.Errorf("Scanner generated %d rows of the source to return 1000", src.rows)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err = NewScanner(&endless{limit: 200000}, "big.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for s.Scan() {
		sum += s.Row()[0]
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if s.Err() != nil || s.Rows() != 200000 || sum != 199999*200000/2 {
		t.Fatalf("%d rows, sum %g, %v", s.Rows(), sum, s.Err())
	}
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 1<<20 {
		t.Errorf("the heap grew by %d bytes while scanning 200000 rows (4.8 MB of data), want < 1 MiB", grown)
	}
	runtime.KeepAlive(s)
}

// TestSelectHugeNumbers checks that numbers beyond int's range end in an
// error, not a loop.
func TestSelectHugeNumbers(t *testing.T) {
	for _, list := range []string{"9223372036854775807", "9223372036854775807-9223372036854775807", "1-99999999999999999999", "99999999999999999999"} {
		_, err := Read(strings.NewReader("a,b\n1,2\n"), "h.csv", Options{Cols: list})
		if err == nil || !errors.Is(err, ErrSelect) {
			t.Errorf("-cols %s: %v", list, err)
		}
	}
}

// TestTextColumnsAtOnce: every text column of the first data row is named
// in one error, with one -drop list.
func TestTextColumnsAtOnce(t *testing.T) {
	_, err := Read(strings.NewReader("id,x,lab,y\nW001,1.5,north,2\nW002,2.5,south,3\n"), "t.csv", Options{})
	want := `t.csv:2: column 1 ("id"): "W001" is not a number (column 3 ("lab") holds text too: if these columns are not data, leave them out with -drop id,lab, or name a label column with -label-col)`
	if err == nil || err.Error() != want {
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}
}

// TestSelectDuplicateNames: a name that the header gives to two columns
// cannot say which one is meant, in -cols, -drop and -label-col.
func TestSelectDuplicateNames(t *testing.T) {
	data := "a,b,a,c\n1,2,3,4\n5,6,7,9\n"
	for _, opt := range []Options{{Drop: "a"}, {Cols: "a,b"}, {LabelCol: "a"}} {
		_, err := Read(strings.NewReader(data), "dup.csv", opt)
		if err == nil || !strings.Contains(err.Error(), `more than one column "a"`) {
			t.Errorf("%+v: error %v, want one on the name given to two columns", opt, err)
		}
	}
	if _, err := Read(strings.NewReader(data), "dup.csv", Options{Drop: "1"}); err != nil {
		t.Errorf("-drop by number: %v", err)
	}
}
