package dataio

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// readDelimited reads a CSV (comma ',') or TSV (comma '\t') file.
func readDelimited(data []byte, name string, comma rune, opt Options) (*Table, error) {
	t := &Table{Format: CSV}
	if comma == '\t' {
		t.Format = TSV
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.Comma = comma
	cr.FieldsPerRecord = -1       // raggedness is checked below, with a better message
	cr.LazyQuotes = comma == '\t' // TSV files rarely quote, and then loosely
	cr.TrimLeadingSpace = comma == ','
	cr.Comment = '#'
	next := func() (rec []string, line int, err error) {
		rec, err = cr.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, 0, &Error{File: name, Line: pe.Line, Column: pe.Column, Msg: pe.Err.Error()}
			}
			if err == io.EOF {
				return nil, 0, err
			}
			return nil, 0, fmt.Errorf("read %s: %w", name, err)
		}
		line, _ = cr.FieldPos(0)
		return rec, line, nil
	}

	first, line1, err := next()
	if err == io.EOF {
		return nil, &Error{File: name, Msg: "empty file (no data)", empty: true}
	}
	if err != nil {
		return nil, err
	}
	second, line2, err := next()
	if err != nil && err != io.EOF {
		return nil, err
	}
	hasSecond := err == nil
	width := len(first)

	label, header, err := labelColumn(name, first, line1, opt)
	if err != nil {
		return nil, err
	}
	if header == HeaderAuto {
		text1, num1 := classify(first, label)
		text2, _ := classify(second, label) // 0 without a second row
		if text1 > 0 && (text2 == 0 || num1 == 0 && text1 > text2) {
			header = HeaderYes
		}
	}
	t.Header = header == HeaderYes
	if t.Header {
		for j, c := range first {
			if j == label {
				t.LabelName = strings.TrimSpace(c)
				continue
			}
			t.Names = append(t.Names, strings.TrimSpace(c))
		}
	}
	for j := range width {
		if j != label {
			t.Fields = append(t.Fields, j+1)
		}
	}
	d := len(t.Fields)
	if d == 0 {
		return nil, &Error{File: name, Line: line1, Msg: "no data columns, only the label column"}
	}

	var vals []float64
	n := 0
	parse := func(rec []string, line int) error {
		if len(rec) != width {
			return &Error{File: name, Line: line, Msg: fmt.Sprintf("%s, want %d (as on line %d)", plural(len(rec), "field"), width, line1)}
		}
		for j, c := range rec {
			if j == label {
				t.Labels = append(t.Labels, strings.TrimSpace(c))
				continue
			}
			v, msg := parseCell(c)
			if msg != "" {
				switch {
				case width == 1:
					msg += oneColumnHint(c, comma)
				case n == 0 && strings.HasSuffix(msg, "is not a number"):
					msg += " (if the column holds labels, name it with -label-col)"
				}
				e := &Error{File: name, Line: line, Field: j + 1, Msg: msg}
				if t.Header {
					e.FieldName = strings.TrimSpace(first[j])
				}
				return e
			}
			vals = append(vals, v)
		}
		n++
		return nil
	}
	if !t.Header {
		if err := parse(first, line1); err != nil {
			return nil, err
		}
	}
	if hasSecond {
		if err := parse(second, line2); err != nil {
			return nil, err
		}
		for {
			rec, line, err := next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if err := parse(rec, line); err != nil {
				return nil, err
			}
		}
	}
	if n == 0 {
		return nil, &Error{File: name, Line: line1, Msg: "no data rows, only a header", empty: true}
	}
	t.X = mat.NewDense(n, d, vals)
	return t, nil
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
			return j, HeaderYes, nil
		}
	}
	quoted := make([]string, len(first))
	for j, c := range first {
		quoted[j] = strconv.Quote(strings.TrimSpace(c))
	}
	return 0, header, &Error{File: name, Line: line1, Msg: fmt.Sprintf("no column named %q in the header (%s)", opt.LabelCol, strings.Join(quoted, ", "))}
}

// classify counts the cells of rec outside column skip that hold text (not
// a number) and those that hold numbers; empty cells count as neither.
func classify(rec []string, skip int) (text, num int) {
	for j, c := range rec {
		s := strings.TrimSpace(c)
		if j == skip || s == "" {
			continue
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			text++
		} else {
			num++
		}
	}
	return text, num
}

// parseCell parses a data cell. It returns a message saying what is wrong
// if the cell is not a finite number.
func parseCell(c string) (float64, string) {
	s := strings.TrimSpace(c)
	if s == "" {
		return 0, "empty cell (missing values are not supported)"
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, fmt.Sprintf("%q is too large for a float64", s)
	case err != nil:
		return 0, fmt.Sprintf("%q is not a number", s)
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, fmt.Sprintf("%q is not a finite number (NaN and Inf are not allowed)", s)
	}
	return v, ""
}

// oneColumnHint suggests a reason why a file read as one column holds c.
func oneColumnHint(c string, comma rune) string {
	for _, sep := range []string{";", "\t", ",", "|", " "} {
		if strings.Contains(strings.TrimSpace(c), sep) && sep != string(comma) {
			return fmt.Sprintf(" (the file has one column: are its fields separated by %q? Fields are separated by commas in CSV and tabs in TSV; see -format)", sep)
		}
	}
	return ""
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
