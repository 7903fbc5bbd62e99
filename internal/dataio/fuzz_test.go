package dataio

import (
	"bytes"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The fuzz targets of the readers. Their seed corpora are committed in
// testdata/fuzz/<target>/ and replayed by every go test; see
// docs/reliability.md for how to run the fuzzers.

// fuzzNames are the file names FuzzRead chooses from: every extension
// Detect knows, names it must detect by content, and compressed names.
var fuzzNames = []string{"data.csv", "data.tsv", "data.tab", "data.libsvm", "data.svm", "data", "data.txt", "stdin", "DATA.CSV", "data.csv.gz", "data.txt.gz"}

// fuzzOptions decodes the options of FuzzRead from two bytes and a label
// column: the format (auto, csv, tsv, libsvm; space with bit 5, or
// semicolon with bit 5 and libsvm's bits), the
// header mode, whether the label column is given as LabelCol or
// LabelIfPresent, and the first LIBSVM index (bits 6 and 7).
func fuzzOptions(mode, features byte, label string) Options {
	opt := Options{Format: Format(mode & 3), Header: Header((mode >> 2 & 3) % 3), Features: int(features % 16), Base: Base(mode >> 6 % 3)}
	switch {
	case mode&0x23 == 0x23:
		opt.Format = Semicolon
	case mode&0x20 != 0:
		opt.Format = Space
	}
	if mode&0x10 != 0 {
		opt.LabelIfPresent = label
	} else {
		opt.LabelCol = label
	}
	return opt
}

// FuzzRead reads arbitrary bytes as a data file with arbitrary options. It
// checks that Read returns an *Error matching ErrFormat or a consistent
// table of finite numbers, that the detected format is the one a forced
// format would read, and that a table written back as CSV reads back the
// same.
func FuzzRead(f *testing.F) {
	smallCells(f)
	f.Fuzz(func(t *testing.T, data []byte, nameIdx, mode, features byte, label string) {
		name := fuzzNames[int(nameIdx)%len(fuzzNames)]
		opt := fuzzOptions(mode, features, label)
		tab, err := Read(bytes.NewReader(data), name, opt)
		if err != nil {
			checkReadError(t, err, name)
			return
		}
		checkTable(t, tab, opt)
		if opt.Format == Auto {
			forced := opt
			forced.Format = tab.Format
			again, err := Read(bytes.NewReader(data), name, forced)
			if err != nil {
				t.Fatalf("read as %v after detecting %v: %v", tab.Format, tab.Format, err)
			}
			if !mat.Equal(again.X, tab.X) {
				t.Fatalf("forcing the detected format %v reads other data", tab.Format)
			}
		}
		// The numbers written back as CSV without a header read back
		// exactly.
		back, err := Read(strings.NewReader(matrixCSV(tab.X)), "back.csv", Options{Header: HeaderNo})
		if err != nil {
			t.Fatalf("reading the table back: %v", err)
		}
		if !mat.Equal(back.X, tab.X) {
			t.Fatalf("table read back as\n%v\nwant\n%v", mat.Formatted(back.X), mat.Formatted(tab.X))
		}
	})
}

// FuzzReadLIBSVM reads arbitrary bytes as bare LIBSVM data and checks that
// whatever it returns is consistent and survives a round trip through
// WriteLIBSVM.
func FuzzReadLIBSVM(f *testing.F) {
	smallCells(f)
	f.Fuzz(func(t *testing.T, data []byte, features int) {
		features = features % 64 // a negative value stays negative: an error
		x, labels, err := ReadLIBSVM(bytes.NewReader(data), features)
		if err != nil {
			if features >= 0 {
				checkReadError(t, err, "")
			}
			return
		}
		if features < 0 {
			t.Fatalf("features = %d read without an error", features)
		}
		n, d := x.Dims()
		if n == 0 || d == 0 || len(labels) != n || features > 0 && d != features {
			t.Fatalf("%d×%d data, %d labels, features %d", n, d, len(labels), features)
		}
		checkFiniteMatrix(t, x)
		for _, l := range labels {
			if math.IsNaN(l) || math.IsInf(l, 0) {
				t.Fatalf("label %v", l)
			}
		}
		var buf bytes.Buffer
		if err := WriteLIBSVM(&buf, x, labels); err != nil {
			t.Fatal(err)
		}
		back, backLabels, err := ReadLIBSVM(&buf, d)
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.String(), err)
		}
		if !mat.Equal(back, x) || !slices.Equal(backLabels, labels) {
			t.Fatalf("round trip changed the data:\n%q", buf.String())
		}
	})
}

// FuzzDetect checks that Detect always names a format, honours a known
// extension (after a .gz; a .csv may be space- or semicolon-separated),
// and calls LIBSVM only content with a line that looks like it, and
// space- or semicolon-separated only content whose lines are.
func FuzzDetect(f *testing.F) {
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		got := Detect(name, data)
		switch got {
		case CSV, TSV, LIBSVM, Space, Semicolon:
		default:
			t.Fatalf("Detect(%q) = %v", name, got)
		}
		if got == Space && !spaceSeparated(sniff(data)) {
			t.Fatalf("Detect(%q, %q) = space, for lines that are not", name, data)
		}
		if got == Semicolon && !semicolonSeparated(sniff(data)) {
			t.Fatalf("Detect(%q, %q) = semicolon, for lines that are not", name, data)
		}
		base := name
		if ext := filepath.Ext(name); strings.EqualFold(ext, ".gz") {
			base = name[:len(name)-len(ext)]
		}
		if want, ok := extensions[strings.ToLower(filepath.Ext(base))]; ok {
			if got != want && !(want == CSV && (got == Space || got == Semicolon)) {
				t.Fatalf("Detect(%q) = %v, want %v by the extension", name, got, want)
			}
			return
		}
		if got == LIBSVM {
			found := false
			for line := range strings.SplitSeq(string(data), "\n") {
				found = found || looksLIBSVM(strings.TrimSpace(line))
			}
			if !found {
				t.Fatalf("Detect(%q, %q) = LIBSVM without a LIBSVM line", name, data)
			}
		}
	})
}

// smallCells lowers the size limit of LIBSVM data for the duration of a
// fuzz target, so that a short input cannot make every execution allocate
// the default limit's 2 GiB, nor a row of 10⁶ features (read, and written
// back as CSV) take seconds of an instrumented run on a loaded machine.
func smallCells(f *testing.F) {
	old := maxCells
	maxCells = 1 << 16
	f.Cleanup(func() { maxCells = old })
}

// checkReadError fails unless err is an *Error matching ErrFormat whose
// message starts with the file name (or "ngca" without one) and gives the
// line it says.
func checkReadError(t *testing.T, err error, name string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrFormat) {
		t.Fatalf("error %v (%T) is not an *Error matching ErrFormat", err, err)
	}
	msg := err.Error()
	prefix := name
	if name == "" {
		prefix = "ngca"
	}
	if !strings.HasPrefix(msg, prefix+":") {
		t.Fatalf("message %q does not start with %q", msg, prefix+":")
	}
	if e.Line < 0 || e.Column < 0 || e.Field < 0 || e.Msg == "" {
		t.Fatalf("error fields %+v", e)
	}
	if e.Line > 0 && !strings.Contains(msg, strconv.Itoa(e.Line)) {
		t.Fatalf("message %q does not give line %d", msg, e.Line)
	}
}

// checkTable fails unless tab is a consistent table read with opt.
func checkTable(t *testing.T, tab *Table, opt Options) {
	t.Helper()
	if tab.X == nil {
		t.Fatal("nil X without an error")
	}
	n, d := tab.X.Dims()
	switch {
	case n == 0 || d == 0:
		t.Fatalf("%d×%d table", n, d)
	case len(tab.Fields) != d:
		t.Fatalf("%d fields for %d columns", len(tab.Fields), d)
	case tab.Names != nil && len(tab.Names) != d:
		t.Fatalf("%d names for %d columns", len(tab.Names), d)
	case tab.Labels != nil && len(tab.Labels) != n:
		t.Fatalf("%d labels for %d rows", len(tab.Labels), n)
	case tab.Format == Auto || opt.Format != Auto && tab.Format != opt.Format:
		t.Fatalf("format %v read with %v", tab.Format, opt.Format)
	case tab.Format == LIBSVM && (tab.Labels == nil || tab.Header):
		t.Fatal("LIBSVM table without labels or with a header")
	case tab.Header != (tab.Names != nil) && tab.Format != LIBSVM:
		t.Fatalf("header %v with names %q", tab.Header, tab.Names)
	case opt.Header == HeaderNo && tab.Header:
		t.Fatal("header read with HeaderNo")
	}
	for j, fld := range tab.Fields {
		if fld < 1 || j > 0 && fld <= tab.Fields[j-1] || fld == tab.RowNames {
			t.Fatalf("fields %v, row names in %d", tab.Fields, tab.RowNames)
		}
	}
	if len(tab.Lines) != n {
		t.Fatalf("%d lines for %d rows", len(tab.Lines), n)
	}
	for i, l := range tab.Lines {
		if l < 1 || i > 0 && l <= tab.Lines[i-1] {
			t.Fatalf("lines %v", tab.Lines)
		}
	}
	if tab.RowNames > 0 && (!tab.Header || tab.RowNames != 1) || tab.ShortHeader && !tab.Header {
		t.Fatalf("row names in column %d, header %v, short header %v", tab.RowNames, tab.Header, tab.ShortHeader)
	}
	if tab.ZeroBased && tab.Format != LIBSVM {
		t.Fatal("zero-based outside LIBSVM")
	}
	checkFiniteMatrix(t, tab.X)
}

func checkFiniteMatrix(t *testing.T, x *mat.Dense) {
	t.Helper()
	for _, v := range x.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("non-finite value %v", v)
		}
	}
}

// matrixCSV writes x as CSV lines with full precision.
func matrixCSV(x *mat.Dense) string {
	var b strings.Builder
	n, d := x.Dims()
	for i := range n {
		for j := range d {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(x.At(i, j), 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// FuzzSelect reads arbitrary bytes with arbitrary column lists (Cols,
// Drop) and missing-value modes. It checks that Read returns an *Error
// matching ErrFormat, a *SelectError matching ErrSelect, or a consistent
// table; that -missing drop leaves out rows only where the default mode
// finds a missing value; and that Drop leaves out what Cols keeps.
func FuzzSelect(f *testing.F) {
	for _, s := range []struct{ data, cols, drop string }{
		{"a,b,c\n1,2,3\n4,,6\n7,8,NA\n", "a,3", ""},
		{"a,b,c\n1,2,3\n4,5,6\n", "1-2", "b"},
		{"1,x,3\n4,y,6\n", "", "2"},
		{"1 1:2 3:4\n2 2:1\n", "1-3", "2"},
		{"0 0:2 3:4\n2 2:1\n", "1-3", "2"},
		{"\"\",\"a\",\"b\"\n\"x\",1,2\n\"y\",3,NA\n", "1,2", ""},
		{"\"\",\"a\",\"b\"\n\"x\",1,2\n\"y\",3,4\n", "", "a"},
		{"\"a\" \"b\"\n\"1\" 1 2\n\"2\" 3 NA\n", "b", ""},
		{",0,1,2\n0,1,2,3\n1,4,,6\n", "2-4", "3"},
		{string(gzipped(f, "a,b,c\n1,2,3\n4,,6\n")), "a,3", ""},
	} {
		f.Add([]byte(s.data), s.cols, s.drop, false)
		f.Add([]byte(s.data), s.cols, s.drop, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, cols, drop string, missingDrop bool) {
		opt := Options{Cols: cols, Drop: drop}
		if missingDrop {
			opt.Missing = MissingDrop
		}
		tab, err := Read(bytes.NewReader(data), "s.csv", opt)
		if err != nil {
			var se *SelectError
			if errors.As(err, &se) {
				if !errors.Is(err, ErrSelect) || se.Msg == "" {
					t.Fatalf("selection error %v", err)
				}
				return
			}
			checkReadError(t, err, "s.csv")
			return
		}
		checkTable(t, tab, opt)
		if tab.Dropped < 0 || !missingDrop && tab.Dropped != 0 {
			t.Fatalf("%d rows dropped with missingDrop %v", tab.Dropped, missingDrop)
		}
		if missingDrop && tab.Dropped == 0 {
			// Nothing was missing: the default mode reads the same.
			opt.Missing = MissingError
			same, err := Read(bytes.NewReader(data), "s.csv", opt)
			if err != nil || !mat.Equal(same.X, tab.X) {
				t.Fatalf("no row dropped, but the default mode reads %v", err)
			}
		}
		if drop != "" && cols != "" {
			kept, err := Read(bytes.NewReader(data), "s.csv", Options{Cols: cols, Missing: opt.Missing})
			if err == nil {
				_, d := kept.X.Dims()
				if _, dd := tab.X.Dims(); dd > d {
					t.Fatalf("-cols %q -drop %q keeps %d columns, -cols alone %d", cols, drop, dd, d)
				}
			}
		}
	})
}
