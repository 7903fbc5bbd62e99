// Package dataio reads data tables for the ngca command: CSV, TSV,
// space-separated, semicolon-separated (with decimal commas) and LIBSVM
// text files, plain or gzip-compressed, whole
// (Read) or row by row (Scanner), with the format, a header line and a
// column of row names detected, an optional label column, a selection of
// columns, missing values as errors or dropped rows, and errors (*Error values, matching ErrFormat)
// that give the file, line and column of the problem as fields. It also
// reads and writes bare LIBSVM data (ReadLIBSVM, WriteLIBSVM) for the
// benchmark study and tests. File formats belong to the command: dataio is
// used by it, never by the library.
//
// Rows of the returned matrix are observations and columns are variables,
// as everywhere in ngca.
package dataio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// Format is a data file format.
type Format int

const (
	// Auto detects the format from the file name, or else from the content
	// (see Detect).
	Auto Format = iota
	// CSV is comma-separated values, with optional quoting (RFC 4180).
	CSV
	// TSV is tab-separated values.
	TSV
	// LIBSVM is LIBSVM's sparse text format, "label index:value ...", with
	// feature indices from 1, or from 0 as scikit-learn writes them.
	LIBSVM
	// Space is space-separated values: fields separated by runs of spaces
	// and tabs, optionally quoted with double quotes, as R's write.table
	// writes them by default.
	Space
	// Semicolon is semicolon-separated values, as spreadsheets and R's
	// write.csv2 write CSV where the decimal mark is a comma: fields
	// separated by ';', optionally quoted (RFC 4180), numbers with a
	// decimal comma (1,25) or a decimal point (1.25), one mark for the
	// whole file. A number with both marks, or with more than one comma,
	// holds thousands separators and is an error, as is a number with the
	// other mark than the file's first (a '.' in a file of decimal commas
	// is a thousands separator there): ngca never reads 1.234 as 1234.
	Semicolon
)

var formatNames = [...]string{Auto: "auto", CSV: "csv", TSV: "tsv", LIBSVM: "libsvm", Space: "space", Semicolon: "semicolon"}

// String returns the format's name: "auto", "csv", "tsv", "libsvm",
// "space" or "semicolon".
func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return fmt.Sprintf("Format(%d)", int(f))
	}
	return formatNames[f]
}

// ParseFormat returns the format named s (as String writes it).
func ParseFormat(s string) (Format, error) {
	for f, name := range formatNames {
		if s == name {
			return Format(f), nil
		}
	}
	return Auto, fmt.Errorf("unknown format %q (want auto, csv, semicolon, tsv, space or libsvm)", s)
}

// Base is the first feature index of a LIBSVM file.
type Base int

const (
	// BaseAuto detects it as scikit-learn's load_svmlight_file does with
	// zero_based="auto": a file with an index 0 is zero-based, any other
	// one-based.
	BaseAuto Base = iota
	// BaseOne reads indices from 1 (LIBSVM's own convention); an index 0
	// is an error.
	BaseOne
	// BaseZero reads indices from 0, as scikit-learn's dump_svmlight_file
	// writes them by default.
	BaseZero
)

// Header says whether the first row of a CSV, TSV or space-separated file
// is a header.
type Header int

const (
	// HeaderAuto detects a header (see Read).
	HeaderAuto Header = iota
	// HeaderYes treats the first row as a header.
	HeaderYes
	// HeaderNo treats the first row as data.
	HeaderNo
)

// Options controls Read. The zero value detects the format and the header
// and reads no labels.
type Options struct {
	// Format is the file's format; Auto means detect it.
	Format Format
	// Header says whether the first CSV or TSV row is a header; ignored for
	// LIBSVM.
	Header Header
	// LabelCol, if not empty, names the CSV or TSV column that holds labels
	// rather than data: a 1-based column number or a header name. It must
	// be empty for LIBSVM, whose labels come from the file.
	LabelCol string
	// LabelIfPresent, if LabelCol is empty, names a column to use as the
	// label column if the first row of a CSV or TSV file has a cell of that
	// name (and Header is not HeaderNo); the row is then a header.
	LabelIfPresent string
	// Features fixes the number of columns of a LIBSVM file (features not
	// listed are zero); 0 means the largest index in the file.
	Features int
	// Base is the first feature index of a LIBSVM file; BaseAuto detects
	// it.
	Base Base
	// Cols, if not empty, keeps only the data columns it lists, and Drop
	// leaves out those it lists (after Cols): comma-separated header names,
	// 1-based column numbers (feature indices for LIBSVM) and ranges a-b.
	// An item of digits is a number, anything else a name, which implies
	// a header. The data columns keep the order of the file. Listing the
	// label column is an error.
	Cols, Drop string
	// Names, if not nil, selects the data columns of a CSV or TSV file by
	// header name, in this order, when the file has a header (a fit's
	// columns); Cols and Drop, if set, must keep every one of them. Without
	// a header it is ignored.
	Names []string
	// Missing says what to do with a missing value; the zero value makes
	// it an error.
	Missing Missing
	// Keep, if not empty, lists columns of a CSV or TSV file (as Cols does)
	// whose cells Scanner.Kept returns as text with every row, whether or
	// not they are data columns (ids, labels to carry through).
	Keep string
	// TextIDRows, if positive, leaves text ids out of the data of a CSV,
	// TSV, space- or semicolon-separated file: a selected data column
	// whose cell in the first data row is text (neither a number nor
	// missing) is read as an id, not as data, if the file has at least
	// TextIDRows data rows and the column holds a value in every one of
	// them, no two the same (ids, names, UUIDs). Table.IDs lists such
	// columns. Any other column of text is the error it is with
	// TextIDRows 0, located at the first data row, but found at the row
	// that repeats a value or misses one (or at the end of a file of too
	// few rows). Columns of text are not read as ids if they are all the
	// data columns there are.
	TextIDRows int
}

// IDColumn is a column of text read as an id (Options.TextIDRows).
type IDColumn struct {
	// Field is the 1-based column of the file.
	Field int
	// Name is its header name, empty without one.
	Name string
	// First is its cell in the first data row, spaces trimmed.
	First string
}

// Table is a data file's content.
type Table struct {
	// X holds the data, n×d: rows are observations, columns the data
	// columns of the file (without the label column).
	X *mat.Dense
	// Names holds the header names of the columns of X; nil without a
	// header.
	Names []string
	// Fields holds the 1-based column of the file (CSV, TSV, space) or
	// feature number (LIBSVM: the index, plus 1 in a zero-based file) of
	// every column of X.
	Fields []int
	// Lines holds the 1-based line of the file of every row of X.
	Lines []int
	// Labels holds one label per row, or nil without labels. LIBSVM labels
	// are formatted with strconv.FormatFloat(v, 'g', -1, 64).
	Labels []string
	// LabelName is the header name of the label column, if it has one.
	LabelName string
	// Format is the format the file was read in (never Auto).
	Format Format
	// Header reports whether the first row was read as a header.
	Header bool
	// RowNames is the 1-based column of the file that holds row names
	// rather than data, left out of X (0 for none): the first column, if
	// the header is one name short of the rows (as R's write.table writes
	// row names), or if its header cell is empty and its first value is
	// text (as R's write.csv and pandas' to_csv write row names). A
	// numeric column under an empty name is read as data.
	RowNames int
	// ShortHeader reports that the header is one name short of the rows.
	ShortHeader bool
	// ZeroBased reports a LIBSVM file read with feature indices from 0.
	ZeroBased bool
	// IntegerHeader reports a first row of the integers 0, 1, 2, … read as
	// the header (as pandas writes integer column names), not as data.
	IntegerHeader bool
	// Compressed reports that the file was gzip-compressed.
	Compressed bool
	// KeptNames names the columns of Options.Keep: header names (empty
	// where the header's is), or 1-based column numbers without a header.
	KeptNames []string
	// Dropped is the number of rows left out for a missing value
	// (Options.Missing = MissingDrop).
	Dropped int
	// IDs lists the columns of text read as ids (Options.TextIDRows),
	// which are left out of X, in the order of the file. In a Scanner's
	// Layout they are the columns that the rows must confirm as ids: Scan
	// ends with an error instead if one is not.
	IDs []IDColumn
}

// ErrFormat reports data that do not follow their format. Every *Error
// unwraps to it, so errors.Is(err, ErrFormat) holds for any problem with
// the content of a file, whatever its format.
var ErrFormat = errors.New("ngca: bad data format")

// ErrEmpty reports a file with no data (nothing, or only blank lines and
// comments). Errors for such files are *Error values matching ErrEmpty.
var ErrEmpty = errors.New("empty file")

// Error is a problem with the content of a data file. Its fields locate
// the problem, so that callers need not parse the message; it unwraps to
// ErrFormat.
type Error struct {
	// File is the name of the file, as given to Read; empty for data read
	// by ReadLIBSVM.
	File string
	// Line is the 1-based line of the problem, 0 if it concerns the whole
	// file.
	Line int
	// Field is the 1-based field (column) number of a CSV or TSV cell, 0 if
	// the problem is not in one cell.
	Field int
	// FieldName is the header name of that column, if known.
	FieldName string
	// Column is the 1-based byte column on the line (LIBSVM files and CSV
	// quoting errors), 0 if unknown.
	Column int
	// Msg says what is wrong.
	Msg string

	empty bool // the file has no data: Is(ErrEmpty) holds
}

// Error formats the problem as "file:line: column 3 ("x3"): msg" for a
// cell, "file:line:col: msg" for a position on a line, "file:line: msg"
// or "file: msg". Without a file name it reads "ngca: line 2, column 5:
// msg", "ngca: line 2: column 3: msg", "ngca: line 2: msg" or "ngca: msg".
func (e *Error) Error() string {
	var b bytes.Buffer
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
			if e.Column > 0 && e.Field == 0 {
				fmt.Fprintf(&b, ":%d", e.Column)
			}
		}
	} else {
		b.WriteString("ngca")
		if e.Line > 0 {
			fmt.Fprintf(&b, ": line %d", e.Line)
			if e.Column > 0 && e.Field == 0 {
				fmt.Fprintf(&b, ", column %d", e.Column)
			}
		}
	}
	b.WriteString(": ")
	if e.Field > 0 {
		fmt.Fprintf(&b, "column %d", e.Field)
		if e.FieldName != "" {
			fmt.Fprintf(&b, " (%s)", strconv.Quote(e.FieldName))
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns ErrFormat.
func (e *Error) Unwrap() error { return ErrFormat }

// Is reports whether target is ErrEmpty and the file has no data.
func (e *Error) Is(target error) bool { return e.empty && target == ErrEmpty }

// Read reads a data table from r. name is used in error messages and, when
// opt.Format is Auto, to detect the format from the extension (see
// Detect). Data that start with gzip's magic bytes are decompressed,
// whatever the name; binary files (a zip archive or Excel workbook,
// Parquet, NumPy, HDF5, a Python pickle, ...) are errors that name their
// kind.
//
// CSV, TSV, space- and semicolon-separated files hold one observation per line and
// the same number of fields on every line; blank lines and comment lines
// (starting with '#') are skipped, and fields may be quoted.
// With opt.Header set to HeaderAuto, the first row is a header if some of its
// cells (outside the label column, ignoring empty cells) are not numbers
// and either the second row is all numeric (or missing), or no cell of the
// first row is a number and it has more such cells than the second row (a
// header above a row with a typo); if its cells are the integers 0, 1,
// 2, … in order, at least 3 of them, after an empty cell or not (the
// header pandas writes for a frame with integer column names), and the
// second row differs; or if it holds text and has one field fewer than the
// second row (R's write.table, whose rows start with a row name). A label column
// given by name implies a header. Row names (see Table.RowNames) are left
// out of the data.
//
// Every data cell must be a finite number (see Semicolon for the decimal
// commas of semicolon-separated files) or missing (see IsMissing and
// Options.Missing); text or ±Inf is an error giving the line and column,
// except in the text ids that Options.TextIDRows leaves out. A ragged row, an empty
// file, a file with only a header, and (for LIBSVM, see ReadLIBSVM) a
// malformed pair are errors too. All are *Error values.
func Read(r io.Reader, name string, opt Options) (*Table, error) {
	if opt.Missing == MissingKeep {
		return nil, errors.New("dataio: Read does not take MissingKeep")
	}
	s, err := NewScanner(r, name, opt)
	if err != nil {
		return nil, err
	}
	t := s.Layout()
	var vals []float64
	for s.Scan() {
		vals = append(vals, s.Row()...)
		t.Lines = append(t.Lines, s.Line())
		if s.HasLabels() {
			t.Labels = append(t.Labels, s.Label())
		}
	}
	if err := s.Err(); err != nil {
		return nil, err
	}
	t.X = mat.NewDense(s.Rows(), len(t.Fields), vals)
	t.Dropped = s.Dropped()
	return &t, nil
}

// ColumnName names column j of the data of t, read from the file named
// file: `column 3 ("x3") of data.csv` (LIBSVM: `feature 3 of …`).
func (t *Table) ColumnName(file string, j int) string {
	s := fmt.Sprintf("column %d", t.Fields[j])
	if t.Format == LIBSVM {
		s = fmt.Sprintf("feature %d", t.Fields[j])
	}
	if t.Names != nil && t.Names[j] != "" {
		s += fmt.Sprintf(" (%q)", t.Names[j])
	}
	return s + " of " + file
}
