package dataio

import (
	"bufio"
	"io"
	"strings"
)

// spaceReader reads the records of a space-separated file, as R's
// write.table writes them: fields separated by runs of spaces and tabs,
// optionally quoted with double quotes, inside which "" and \" stand for
// a quote and \\ for a backslash. Blank lines and lines that start with
// '#' are skipped; a quoted field ends on its line.
type spaceReader struct {
	br   *bufio.Reader
	name string
	line int
	rec  []string
	eof  bool
}

// read returns the next record and its 1-based line; io.EOF at the end.
// The record is reused by the next call.
func (sr *spaceReader) read() ([]string, int, error) {
	for !sr.eof {
		text, err := sr.br.ReadString('\n')
		if err != nil {
			if err != io.EOF {
				return nil, 0, readError(sr.name, err)
			}
			sr.eof = true
			if text == "" {
				break
			}
		}
		sr.line++
		text = strings.TrimRight(text, "\r\n")
		if t := strings.TrimLeft(text, " \t"); t == "" || text[0] == '#' {
			continue
		}
		rec, col, ok := splitSpace(text, sr.rec[:0])
		sr.rec = rec
		if !ok {
			return nil, 0, &Error{File: sr.name, Line: sr.line, Column: col, Msg: "quoted field not closed on its line"}
		}
		return rec, sr.line, nil
	}
	return nil, 0, io.EOF
}

// splitSpace appends the fields of a line of a space-separated file to
// rec. For a quote left open it returns false and the 1-based byte column
// of the quote.
func splitSpace(line string, rec []string) ([]string, int, bool) {
	var b strings.Builder
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			return rec, 0, true
		}
		b.Reset()
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			if line[i] != '"' {
				b.WriteByte(line[i])
				i++
				continue
			}
			open := i
			i++
			for {
				if i == len(line) {
					return rec, open + 1, false
				}
				c := line[i]
				switch {
				case c == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\'):
					b.WriteByte(line[i+1])
					i += 2
					continue
				case c == '"' && i+1 < len(line) && line[i+1] == '"':
					b.WriteByte('"')
					i += 2
					continue
				case c == '"':
					i++
				default:
					b.WriteByte(c)
					i++
					continue
				}
				break
			}
		}
		rec = append(rec, b.String())
	}
}

// spaceFields returns the number of fields of a line of a space-separated
// file, and false for a quote left open.
func spaceFields(line string) (int, bool) {
	rec, _, ok := splitSpace(line, nil)
	return len(rec), ok
}
