package dataio

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Missing says what Read and Scanner do with a missing value in a CSV or
// TSV file: an empty cell or one of the spellings IsMissing accepts, in a
// selected data column or the label column.
type Missing int

const (
	// MissingError makes a missing value an error giving its line and column.
	MissingError Missing = iota
	// MissingDrop leaves out every row with a missing value (Scanner.Dropped
	// and Table.Dropped count them).
	MissingDrop
	// MissingKeep returns a row with a missing value as it is, NaN in each
	// missing data cell (and "" for a missing label); Scanner.Incomplete
	// reports such a row. Read does not take it.
	MissingKeep
)

// IsMissing reports whether the cell c is a missing value: empty (or only
// spaces), or NA, N/A, NaN, null or ? in any case.
func IsMissing(c string) bool {
	s := strings.TrimSpace(c)
	switch strings.ToLower(s) {
	case "", "na", "n/a", "nan", "null", "?":
		return true
	}
	return false
}

// peekSize is how much of the input Scanner looks at to detect the format.
const peekSize = 1 << 16

// Scanner reads a data file row by row: CSV and TSV files are read as
// they come, so that memory does not grow with the number of rows; a
// LIBSVM file, whose width is known only at its end, is read whole first.
// Its options, header detection and errors are those of Read.
type Scanner struct {
	name   string
	layout Table // X, Labels and Dropped unset
	opt    Options

	// CSV and TSV:
	next     func() ([]string, int, error)
	pending  []pendingRec
	width    int
	label    int   // 0-based label column, -1 for none
	rowNames int   // 0-based column of row names, -1 for none
	sel      []int // 0-based file column of every data column
	header   []string
	line1    int

	// LIBSVM (read whole):
	lx   *libsvmData
	full []float64

	row    []float64
	lbl    string
	keep   []int     // 0-based file columns of Options.Keep
	kept   []string  // their cells in the current row
	ids    []idCheck // the text id columns (Options.TextIDRows)
	idLine int       // the line of the first data row
	idSeed maphash.Seed
	// decimal is the decimal mark of a semicolon-separated file, 0 until
	// a number shows it, and decimalAt the cell and line that showed it.
	decimal   byte
	decimalAt string
	gap       bool // the current row has a missing value (MissingKeep)
	line      int
	rows      int // rows returned
	dropped   int
	err       error
	finished  bool
}

type pendingRec struct {
	rec  []string
	line int
}

// idCheck follows a column of text read as an id: the hashes of its
// values so far (nil once it is no id: a value repeats or is missing).
type idCheck struct {
	j     int // 0-based column of the file
	first string
	seen  map[uint64]struct{}
}

// NewScanner reads the start of r (the header, for CSV, TSV and
// space-separated files; the whole file, for LIBSVM) and returns a Scanner
// of its rows. name is used as in Read.
func NewScanner(r io.Reader, name string, opt Options) (*Scanner, error) {
	br, head, detectName, gz, err := open(r, name)
	if err != nil {
		return nil, err
	}
	f := opt.Format
	if f == Auto {
		f = Detect(detectName, head)
	}
	s := &Scanner{name: name, opt: opt, label: -1, rowNames: -1}
	s.layout.Compressed = gz
	switch f {
	case CSV, TSV, Space, Semicolon:
		err = s.startDelimited(br, f)
	case LIBSVM:
		err = s.startLIBSVM(br)
	default:
		return nil, fmt.Errorf("dataio: bad format %v", f)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Layout returns the table's description: Names, Fields, LabelName,
// Format and Header; its X and Labels are nil.
func (s *Scanner) Layout() Table {
	t := s.layout
	t.Names, t.Fields = slices.Clone(t.Names), slices.Clone(t.Fields)
	return t
}

// Widen makes the rows of a LIBSVM file read without Cols or Drop d
// features wide, if the file has fewer (its last features are absent,
// so zero). It does nothing to other files, and must be called before
// Scan.
func (s *Scanner) Widen(d int) {
	if s.layout.Format != LIBSVM || s.opt.Cols != "" || s.opt.Drop != "" || len(s.full) >= d {
		return
	}
	for j := len(s.full); j < d; j++ {
		s.sel = append(s.sel, j)
		s.layout.Fields = append(s.layout.Fields, j+1)
	}
	s.full = append(s.full, make([]float64, d-len(s.full))...)
	s.row = make([]float64, len(s.sel))
}

// HasLabels reports whether rows have labels (a label column, or LIBSVM).
func (s *Scanner) HasLabels() bool { return s.label >= 0 || s.layout.Format == LIBSVM }

// Row returns the data of the current row. The slice is reused by Scan.
func (s *Scanner) Row() []float64 { return s.row }

// Label returns the label of the current row ("" without labels).
func (s *Scanner) Label() string { return s.lbl }

// Kept returns the cells of the columns of Options.Keep in the current row,
// as text (spaces trimmed). The slice is reused by Scan.
func (s *Scanner) Kept() []string { return s.kept }

// Incomplete reports whether the current row has a missing value, which
// only Options.Missing = MissingKeep returns.
func (s *Scanner) Incomplete() bool { return s.gap }

// Line returns the 1-based line of the current row.
func (s *Scanner) Line() int { return s.line }

// Rows returns the number of rows returned so far.
func (s *Scanner) Rows() int { return s.rows }

// Dropped returns the number of rows left out so far for a missing value.
func (s *Scanner) Dropped() int { return s.dropped }

// Err returns the error that ended Scan, nil at the end of the data. A
// file whose rows were all left out, or that has only a header, is an
// error.
func (s *Scanner) Err() error { return s.err }

// Scan advances to the next row and reports whether there is one.
func (s *Scanner) Scan() bool {
	if s.err != nil || s.finished {
		return false
	}
	if s.layout.Format == LIBSVM {
		if s.rows == len(s.lx.rows) {
			s.finished = true
			return false
		}
		s.lbl = strconv.FormatFloat(s.lx.labels[s.rows], 'g', -1, 64)
		s.line = s.lx.lines[s.rows]
		clear(s.full)
		for _, e := range s.lx.rows[s.rows] {
			s.full[e.j] = e.v
		}
		for k, j := range s.sel {
			s.row[k] = s.full[j]
		}
		s.lx.rows[s.rows] = nil
		s.rows++
		return true
	}
	for {
		var rec []string
		var line int
		var err error
		if len(s.pending) > 0 {
			rec, line = s.pending[0].rec, s.pending[0].line
			s.pending = s.pending[1:]
		} else {
			rec, line, err = s.next()
		}
		if err == io.EOF {
			s.finished = true
			switch {
			case s.rows == 0 && s.dropped > 0:
				s.err = &Error{File: s.name, Msg: fmt.Sprintf("every one of the %s has a missing value (in a selected column or the label); -missing drop left none", plural(s.dropped, "row"))}
			case s.rows == 0:
				s.err = &Error{File: s.name, Line: s.line1, Msg: "no data rows, only a header", empty: true}
			default:
				s.err = s.confirmIDs()
			}
			return false
		}
		if err != nil {
			s.err = err
			return false
		}
		complete, err := s.parse(rec, line)
		if err != nil {
			s.err = err
			return false
		}
		if complete {
			s.line = line
			s.rows++
			return true
		}
		s.dropped++
	}
}

// startDelimited reads the first rows of a CSV, TSV or space-separated
// file (format f): the header, the label column, the row names and the
// selected columns.
func (s *Scanner) startDelimited(br *bufio.Reader, f Format) error {
	name, opt := s.name, s.opt
	s.layout.Format = f
	if f == Space {
		sr := &spaceReader{br: br, name: name}
		s.next = sr.read
	} else {
		s.next = csvRecords(br, name, comma(f))
	}

	first, line1, err := s.next()
	if err == io.EOF {
		return &Error{File: name, Msg: "empty file (no data)", empty: true}
	}
	if err != nil {
		return err
	}
	first = slices.Clone(first)
	second, line2, err := s.next()
	if err != nil && err != io.EOF {
		return err
	}
	hasSecond := err == nil
	second = slices.Clone(second)
	header := opt.Header
	if header != HeaderNo && hasSecond && len(first) > 0 && len(first)+1 == len(second) &&
		(header == HeaderYes || hasText(first, f)) {
		// R's write.table: a header one name short, rows that start with
		// their name.
		first = append([]string{""}, first...)
		header, s.layout.ShortHeader, s.rowNames = HeaderYes, true, 0
	}
	s.width, s.line1 = len(first), line1

	opt.Header = header
	label, header, err := labelColumn(name, first, line1, opt)
	if err != nil {
		return err
	}
	s.label = label
	if label == s.rowNames {
		s.rowNames = -1
	}
	var cols, drop []selItem
	if opt.Cols != "" {
		if cols, err = parseList("-cols", opt.Cols); err != nil {
			return err
		}
	}
	if opt.Drop != "" {
		if drop, err = parseList("-drop", opt.Drop); err != nil {
			return err
		}
	}
	if hasNames(cols) || hasNames(drop) {
		if header == HeaderNo {
			return &SelectError{File: name, Option: "-cols/-drop", Msg: fmt.Sprintf("a column is given by name, but %s is read without a header", name)}
		}
		header = HeaderYes
	}
	// A first column under an empty header cell may hold row names:
	// header detection leaves it aside.
	emptyFirst := len(first) > 1 && strings.TrimSpace(first[0]) == "" && label != 0
	if header == HeaderAuto {
		skip := func(j int) bool { return j == label || j == 0 && emptyFirst }
		if opt.Cols != "" || opt.Drop != "" {
			// Only numbers: the selection is known without the header.
			sel, err := selection(name, s.width, label, s.rowNames, nil, opt, "column")
			if err != nil {
				return err
			}
			skip = func(j int) bool { return !slices.Contains(sel, j) || j == 0 && emptyFirst }
		}
		text1, num1 := classify(first, skip, f)
		text2, _ := classify(second, skip, f) // 0 without a second row
		switch {
		case text1 > 0 && (text2 == 0 || num1 == 0 && text1 > text2):
			header = HeaderYes
		case integerHeader(first, second, hasSecond):
			header, s.layout.IntegerHeader = HeaderYes, true
		}
	}
	s.layout.Header = header == HeaderYes
	if s.layout.Header {
		s.header = make([]string, len(first))
		for j, c := range first {
			s.header[j] = strings.TrimSpace(c)
		}
		if label >= 0 {
			s.layout.LabelName = s.header[label]
		}
		if emptyFirst && s.rowNames < 0 && hasSecond && isText(second[0], f) {
			s.rowNames = 0 // pandas' to_csv or R's write.csv: text row names
		}
	}
	if s.rowNames >= 0 {
		s.layout.RowNames = s.rowNames + 1
	}
	if s.sel, err = selection(name, s.width, label, s.rowNames, s.header, opt, "column"); err != nil {
		return err
	}
	if len(s.sel) == 0 {
		return &Error{File: name, Line: line1, Msg: "no data columns, only the label column"}
	}
	if opt.TextIDRows > 0 {
		data, line := first, line1 // the first data row
		if s.layout.Header {
			data, line = second, line2
		}
		if s.layout.Header && !hasSecond || len(data) != s.width {
			data = nil // no data row, or a ragged one: parse says so
		}
		var ids []int
		for _, j := range s.sel {
			if data != nil && isText(data[j], f) {
				ids = append(ids, j)
			}
		}
		if len(ids) > 0 && len(ids) < len(s.sel) {
			s.sel = slices.DeleteFunc(s.sel, func(j int) bool { return slices.Contains(ids, j) })
			s.idLine, s.idSeed = line, maphash.MakeSeed()
			for _, j := range ids {
				c := idCheck{j: j, first: strings.TrimSpace(data[j]), seen: map[uint64]struct{}{}}
				s.ids = append(s.ids, c)
				id := IDColumn{Field: j + 1, First: c.first}
				if s.header != nil {
					id.Name = s.header[j]
				}
				s.layout.IDs = append(s.layout.IDs, id)
			}
		}
	}
	for _, j := range s.sel {
		s.layout.Fields = append(s.layout.Fields, j+1)
		if s.header != nil {
			s.layout.Names = append(s.layout.Names, s.header[j])
		}
	}
	s.row = make([]float64, len(s.sel))
	if opt.Keep != "" {
		keepOpt := Options{Cols: opt.Keep}
		if s.keep, err = listSelection(name, s.width, -1, -1, s.header, keepOpt, "column"); err != nil {
			if se, ok := err.(*SelectError); ok {
				se.Option = "-keep"
			}
			return err
		}
		s.kept = make([]string, len(s.keep))
		for _, j := range s.keep {
			kn := strconv.Itoa(j + 1) // without a header: the column's number
			if s.header != nil {
				kn = s.header[j] // empty for row names, as in the file
			}
			s.layout.KeptNames = append(s.layout.KeptNames, kn)
		}
	}
	if !s.layout.Header {
		s.pending = append(s.pending, pendingRec{first, line1})
	}
	if hasSecond {
		s.pending = append(s.pending, pendingRec{second, line2})
	}
	return nil
}

// csvRecords returns a function that reads the records of a CSV file (or
// a TSV file, comma '\t') and their lines.
func csvRecords(r io.Reader, name string, comma rune) func() ([]string, int, error) {
	cr := csv.NewReader(r)
	cr.Comma = comma
	cr.FieldsPerRecord = -1       // raggedness is checked by parse, with a better message
	cr.LazyQuotes = comma == '\t' // TSV files rarely quote, and then loosely
	cr.TrimLeadingSpace = comma == ',' || comma == ';'
	cr.Comment = '#'
	cr.ReuseRecord = true
	return func() (rec []string, line int, err error) {
		rec, err = cr.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				if errors.As(pe.Err, new(*Error)) {
					return nil, 0, readError(name, pe.Err)
				}
				return nil, 0, &Error{File: name, Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error()}
			}
			if err == io.EOF {
				return nil, 0, err
			}
			return nil, 0, readError(name, err)
		}
		line, _ = cr.FieldPos(0)
		return rec, line, nil
	}
}

// integerHeader reports whether first is the header pandas writes for a
// frame whose column names are integers: the cells 0, 1, 2, … in order,
// at least 3 of them, after an empty cell (the index's) or not, above a
// second row that differs.
func integerHeader(first, second []string, hasSecond bool) bool {
	cells := first
	if len(cells) > 0 && strings.TrimSpace(cells[0]) == "" {
		cells = cells[1:]
	}
	if len(cells) < 3 {
		return false
	}
	for k, c := range cells {
		if strings.TrimSpace(c) != strconv.Itoa(k) {
			return false
		}
	}
	if !hasSecond || len(second) != len(first) {
		return true
	}
	for j := range first {
		if strings.TrimSpace(first[j]) != strings.TrimSpace(second[j]) {
			return true
		}
	}
	return false
}

// isText reports whether a cell of a file of format f holds text: it is
// neither missing nor a number.
func isText(c string, f Format) bool { return hasText([]string{c}, f) }

// hasText reports whether a cell of rec holds text.
func hasText(rec []string, f Format) bool {
	t, _ := classify(rec, func(int) bool { return false }, f)
	return t > 0
}

// confirmIDs returns nil at the end of the file if the columns read as
// text ids are ids (see Options.TextIDRows): the file has enough rows.
// Otherwise it returns the error that the first data row would have given
// without the option.
func (s *Scanner) confirmIDs() error {
	if len(s.ids) == 0 || s.rows+s.dropped >= s.opt.TextIDRows {
		return nil
	}
	return s.idError(func(idCheck) bool { return true })
}

// checkIDs adds the cells of rec in the text id columns to their checks.
// If a value repeats or is missing, the column is no id: it returns the
// error that the first data row would have given without
// Options.TextIDRows, naming every column that is no id.
func (s *Scanner) checkIDs(rec []string) error {
	failed := false
	for k := range s.ids {
		c := &s.ids[k]
		v := strings.TrimSpace(rec[c.j])
		h := maphash.String(s.idSeed, v)
		if _, dup := c.seen[h]; dup || IsMissing(v) {
			c.seen, failed = nil, true
			continue
		}
		c.seen[h] = struct{}{}
	}
	if !failed {
		return nil
	}
	return s.idError(func(c idCheck) bool { return c.seen == nil })
}

// idError returns the error of the text in the columns of s.ids for which
// bad holds, located at the first data row.
func (s *Scanner) idError(bad func(idCheck) bool) error {
	var cols []int
	var cells []string
	for _, c := range s.ids {
		if bad(c) {
			cols, cells = append(cols, c.j), append(cells, c.first)
		}
	}
	return s.textError(cols, cells, s.idLine)
}

// textError is the error of the columns cols (0-based in the file, in
// order) of the first data row, on line, whose cells are text: it
// gives the first and names the others, with how to leave them out.
func (s *Scanner) textError(cols []int, cells []string, line int) error {
	msg := fmt.Sprintf("%q is not a number", strings.TrimSpace(cells[0]))
	refs := []string{s.columnRef(cols[0])}
	var names []string
	for _, j := range cols[1:] {
		refs = append(refs, s.columnRef(j))
		names = append(names, s.describeColumn(j))
	}
	if len(refs) == 1 {
		msg += fmt.Sprintf(" (if the column is not data, leave it out with -drop %s, or name it with -label-col %s if it holds labels)", refs[0], refs[0])
	} else {
		verb := "holds"
		if len(names) > 1 {
			verb = "hold"
		}
		msg += fmt.Sprintf(" (%s %s text too: if these columns are not data, leave them out with -drop %s, or name a label column with -label-col)",
			strings.Join(names, ", "), verb, strings.Join(refs, ","))
	}
	return s.cellError(cols[0], line, msg)
}

// parse reads the selected cells and the label of rec into s.row and
// s.lbl. It reports false for a row left out for a missing value.
func (s *Scanner) parse(rec []string, line int) (bool, error) {
	if len(rec) != s.width {
		return false, &Error{File: s.name, Line: line, Msg: fmt.Sprintf("%s, want %d (as on line %d)", plural(len(rec), "field"), s.width, s.line1)}
	}
	complete := true
	s.gap = false
	if err := s.checkIDs(rec); err != nil {
		return false, err
	}
	for k, j := range s.keep {
		s.kept[k] = strings.TrimSpace(rec[j])
	}
	missing := func(j int, c string) error {
		switch s.opt.Missing {
		case MissingDrop:
			complete = false
			return nil
		case MissingKeep:
			s.gap = true
			return nil
		}
		what := "empty cell"
		if c = strings.TrimSpace(c); c != "" {
			what = strconv.Quote(c)
		}
		return s.cellError(j, line, fmt.Sprintf("missing value (%s) in data row %d; -missing drop leaves out the rows with missing values", what, s.rows+s.dropped+1))
	}
	if s.label >= 0 {
		s.lbl = strings.TrimSpace(rec[s.label])
		if IsMissing(s.lbl) {
			if err := missing(s.label, s.lbl); err != nil {
				return false, err
			}
			if s.opt.Missing == MissingKeep {
				s.lbl = ""
			}
		}
	}
	for k, j := range s.sel {
		c := rec[j]
		if IsMissing(c) {
			if err := missing(j, c); err != nil {
				return false, err
			}
			s.row[k] = math.NaN()
			continue
		}
		v, msg := s.number(c, line)
		if msg != "" {
			switch {
			case s.width == 1:
				msg += oneColumnHint(c, comma(s.layout.Format))
			case s.rows+s.dropped == 0 && strings.HasSuffix(msg, "is not a number"):
				// Name every text column of the first data row at once.
				cols, cells := []int{j}, []string{c}
				for _, j2 := range s.sel[k+1:] {
					if c2 := rec[j2]; !IsMissing(c2) {
						if _, m2 := parseCell(c2, s.layout.Format); m2 != "" {
							cols, cells = append(cols, j2), append(cells, c2)
						}
					}
				}
				return false, s.textError(cols, cells, line)
			}
			return false, s.cellError(j, line, msg)
		}
		s.row[k] = v
	}
	return complete, nil
}

// columnRef names column j (0-based in the file) as -drop and -cols take
// it: its header name (quoted if it needs to be), or its 1-based number.
func (s *Scanner) columnRef(j int) string {
	if s.header == nil || s.header[j] == "" {
		return strconv.Itoa(j + 1)
	}
	ref := s.header[j]
	if strings.ContainsAny(ref, " ,\"'") {
		return strconv.Quote(ref)
	}
	return ref
}

// describeColumn names column j for a message: `column 3 ("x3")`.
func (s *Scanner) describeColumn(j int) string {
	if s.header == nil || s.header[j] == "" {
		return fmt.Sprintf("column %d", j+1)
	}
	return fmt.Sprintf("column %d (%q)", j+1, s.header[j])
}

func (s *Scanner) cellError(j, line int, msg string) error {
	e := &Error{File: s.name, Line: line, Field: j + 1, Msg: msg}
	if s.header != nil {
		e.FieldName = s.header[j]
	}
	return e
}

func comma(f Format) rune {
	switch f {
	case TSV:
		return '\t'
	case Space:
		return ' '
	case Semicolon:
		return ';'
	}
	return ','
}

// startLIBSVM reads a LIBSVM file whole; its errors name the file.
func (s *Scanner) startLIBSVM(r io.Reader) error {
	s.layout.Format = LIBSVM
	opt := s.opt
	if opt.LabelCol != "" {
		return &Error{File: s.name, Msg: "a label column cannot be chosen in a LIBSVM file: its labels are the first field of every line"}
	}
	if opt.Keep != "" {
		return &SelectError{File: s.name, Option: "-keep", Msg: fmt.Sprintf("%s is a LIBSVM file: its only column besides the features is the label (-with-labels)", s.name)}
	}
	// opt.LabelIfPresent and opt.Names do not apply: the labels are in
	// the file, which has no header.
	for _, l := range [][2]string{{"-cols", opt.Cols}, {"-drop", opt.Drop}} {
		option, list := l[0], l[1]
		if list == "" {
			continue
		}
		items, err := parseList(option, list)
		if err != nil {
			return err
		}
		if hasNames(items) {
			return &SelectError{File: s.name, Option: option, Msg: fmt.Sprintf("%s is a LIBSVM file, which has no header: give feature numbers", s.name)}
		}
	}
	data, err := readLIBSVMRows(r, s.name, opt.Features, opt.Base)
	if err != nil {
		return err
	}
	s.lx, s.full = data, make([]float64, data.d)
	s.layout.ZeroBased = data.zeroBased
	if s.sel, err = selection(s.name, data.d, -1, -1, nil, opt, "feature"); err != nil {
		return err
	}
	for _, j := range s.sel {
		s.layout.Fields = append(s.layout.Fields, j+1)
	}
	s.row = make([]float64, len(s.sel))
	return nil
}

// classify counts the cells of rec (of a file of format f) outside the
// columns skipped that hold text (not a number) and those that hold
// numbers; empty cells and missing values count as neither.
func classify(rec []string, skip func(int) bool, f Format) (text, num int) {
	for j, c := range rec {
		if skip(j) || IsMissing(c) {
			continue
		}
		if isNumber(c, f) {
			num++
		} else {
			text++
		}
	}
	return text, num
}

// isNumber reports whether the cell c, not missing, of a file of format f
// holds a number: one that strconv.ParseFloat reads (too large a number
// too), or in a semicolon-separated file one with a decimal comma or
// with thousands separators, which parse rejects with a message.
func isNumber(c string, f Format) bool {
	s := strings.TrimSpace(c)
	if f == Semicolon {
		var mark byte
		if s, mark = decimalForm(s); mark == grouped {
			s = strings.NewReplacer(".", "", ",", "").Replace(s)
		}
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// grouped is decimalForm's mark for a number with thousands separators.
const grouped = 'g'

// decimalForm returns the cell s (spaces trimmed) of a semicolon-separated
// file as strconv.ParseFloat reads it, and its decimal mark: ',' for a
// cell with one comma and no point (made a point), '.' for one with one
// point and no comma, 0 for one with neither, and grouped (s as it is)
// for one with a comma and a point, or more than one of either.
func decimalForm(s string) (string, byte) {
	commas, points := strings.Count(s, ","), strings.Count(s, ".")
	switch {
	case commas == 0 && points == 0:
		return s, 0
	case commas == 0 && points == 1:
		return s, '.'
	case commas == 1 && points == 0:
		return strings.Replace(s, ",", ".", 1), ','
	}
	return s, grouped
}

// number parses a data cell that is not missing, on line. It returns a
// message saying what is wrong if the cell is not a finite number; in a
// semicolon-separated file, also if its decimal mark is not the file's.
func (s *Scanner) number(c string, line int) (float64, string) {
	v, msg := parseCell(c, s.layout.Format)
	if msg != "" || s.layout.Format != Semicolon {
		return v, msg
	}
	t := strings.TrimSpace(c)
	_, mark := decimalForm(t)
	switch {
	case mark == 0 || mark == s.decimal:
	case s.decimal == 0:
		s.decimal, s.decimalAt = mark, fmt.Sprintf("%q on line %d", t, line)
	case mark == '.':
		return 0, fmt.Sprintf("%q has a '.', but the numbers of the file have a decimal comma (%s), where a '.' separates thousands: ngca reads one decimal mark per file, and no thousands separators", t, s.decimalAt)
	default:
		return 0, fmt.Sprintf("%q has a ',', but the numbers of the file have a decimal point (%s), where a ',' separates thousands: ngca reads one decimal mark per file, and no thousands separators", t, s.decimalAt)
	}
	return v, ""
}

// parseCell parses a data cell, not missing, of a file of format f (in a
// semicolon-separated file, with a decimal comma or point). It returns a
// message saying what is wrong if the cell is not a finite number.
func parseCell(c string, f Format) (float64, string) {
	s := strings.TrimSpace(c)
	num := s
	if f == Semicolon {
		var mark byte
		if num, mark = decimalForm(s); mark == grouped {
			if isNumber(s, f) {
				return 0, fmt.Sprintf("%q has thousands separators (a '.' and a ',', or two of either): ngca reads numbers without them, with one decimal mark", s)
			}
			return 0, fmt.Sprintf("%q is not a number", s)
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Sprintf("%q is too large for a float64", s)
	case err != nil:
		return 0, fmt.Sprintf("%q is not a number", s)
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Sprintf("%q is not a finite number (Inf is not allowed)", s)
	}
	return v, ""
}

// labelColumn returns the 0-based index of the label column named by
// opt.LabelCol in a file whose first row is first (-1 for none), and the
// header mode, which a label column given by name sets to HeaderYes.
func labelColumn(name string, first []string, line1 int, opt Options) (int, Header, error) {
	header := opt.Header
	if opt.LabelCol == "" {
		if opt.LabelIfPresent != "" && header != HeaderNo {
			for j, c := range first {
				if strings.TrimSpace(c) == opt.LabelIfPresent {
					return j, HeaderYes, nil
				}
			}
		}
		return -1, header, nil
	}
	if k, err := strconv.Atoi(opt.LabelCol); err == nil {
		if k < 1 || k > len(first) {
			return 0, header, &Error{File: name, Line: line1, Msg: fmt.Sprintf("label column %d is out of range: the file has %s", k, plural(len(first), "column"))}
		}
		return k - 1, header, nil
	}
	if header == HeaderNo {
		return 0, header, &Error{File: name, Msg: fmt.Sprintf("label column %q is a name, but the file is read without a header", opt.LabelCol)}
	}
	for j, c := range first {
		if strings.TrimSpace(c) == opt.LabelCol {
			for _, c2 := range first[j+1:] {
				if strings.TrimSpace(c2) == opt.LabelCol {
					return 0, header, &Error{File: name, Line: line1, Msg: fmt.Sprintf("the header names more than one column %q: give the label column by number", opt.LabelCol)}
				}
			}
			return j, HeaderYes, nil
		}
	}
	quoted := make([]string, len(first))
	for j, c := range first {
		quoted[j] = strconv.Quote(strings.TrimSpace(c))
	}
	return 0, header, &Error{File: name, Line: line1, Msg: fmt.Sprintf("no column named %q in the header (%s)", opt.LabelCol, strings.Join(quoted, ", "))}
}

// oneColumnHint suggests a reason why a file read as one column holds c,
// for a file whose separator is comma: another separator, with the
// -format that reads it.
func oneColumnHint(c string, comma rune) string {
	for _, sep := range []struct{ sep, format string }{{";", "semicolon"}, {"\t", "tsv"}, {",", "csv"}, {"|", ""}, {" ", "space"}} {
		if !strings.Contains(strings.TrimSpace(c), sep.sep) || sep.sep == string(comma) {
			continue
		}
		if sep.format == "" {
			return fmt.Sprintf(" (the file has one column: are its fields separated by %q? ngca reads fields separated by commas, semicolons, tabs or spaces: -format csv, semicolon, tsv or space)", sep.sep)
		}
		return fmt.Sprintf(" (the file has one column: are its fields separated by %q? -format %s reads them)", sep.sep, sep.format)
	}
	return ""
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
