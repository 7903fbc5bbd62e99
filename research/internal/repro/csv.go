package repro

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ngca-go/ngca/internal/atomicfile"
)

// WriteCSV writes the records to the file at path, replacing it only once
// complete (see package atomicfile): an error or a kill leaves an old file
// as it was.
func WriteCSV(path string, recs [][]string) error {
	return atomicfile.Write(path, 0o666, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.WriteAll(recs) // flushes
		return cw.Error()
	})
}

// ReadCSV reads every record of the CSV file at path.
func ReadCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return csv.NewReader(f).ReadAll()
}

// ReadRows reads the rows of a study's CSV file at path (a header, then
// one record per row) with parse, for resuming a study: a missing file
// has no rows, and a record that parse rejects is an error naming the
// file and line.
func ReadRows[R any](path string, parse func([]string) (R, error)) ([]R, error) {
	recs, err := ReadCSV(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rows []R
	for i, rec := range recs {
		if i == 0 {
			continue // the header
		}
		r, err := parse(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// Log is a CSV file that a study appends rows to as its runs finish, so
// that a kill loses only the runs still going. Every Append is one write
// call of complete lines, so the file holds whole rows whenever the
// process stops (a kill lands between two write calls, not inside one).
type Log struct {
	f   *os.File
	buf bytes.Buffer
	cw  *csv.Writer
	end int64 // the size of the file: its whole rows
}

// CreateLog replaces the file at path by one holding the header.
func CreateLog(path string, header []string) (*Log, error) { return StartLog(path, header, nil) }

// StartLog replaces the file at path by one holding the header and the
// records (the rows a resumed study keeps) and opens it for appending.
// The new file is written aside and renamed over the old one only once
// complete (see package atomicfile), so that a kill while it is written
// leaves the old file, and its rows, as they were.
func StartLog(path string, header []string, recs [][]string) (*Log, error) {
	if err := WriteCSV(path, append([][]string{header}, recs...)); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return nil, err
	}
	l := &Log{f: f, end: end}
	l.cw = csv.NewWriter(&l.buf)
	return l, nil
}

// Append writes the records at the end of the file in one write call. If
// the write fails (a full disk), the part written is cut off again.
func (l *Log) Append(recs ...[]string) error {
	l.buf.Reset()
	l.cw.WriteAll(recs)
	if err := l.cw.Error(); err != nil {
		return err
	}
	n, err := l.f.Write(l.buf.Bytes())
	if err != nil && n > 0 {
		if l.f.Truncate(l.end) == nil {
			l.f.Seek(l.end, io.SeekStart)
		}
	}
	if err == nil {
		l.end += int64(n)
	}
	return err
}

// Close syncs and closes the file.
func (l *Log) Close() error {
	err := l.f.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// AppendRows appends the records of rows to l in one write call.
func AppendRows[R any](l *Log, rows []R, record func(R) []string) error {
	return l.Append(records(rows, record)...)
}

// WriteRows writes the header and the records of rows to the file at path
// as WriteCSV does.
func WriteRows[R any](path string, header []string, rows []R, record func(R) []string) error {
	return WriteCSV(path, append([][]string{header}, records(rows, record)...))
}

func records[R any](rows []R, record func(R) []string) [][]string {
	recs := make([][]string, len(rows))
	for i, r := range rows {
		recs[i] = record(r)
	}
	return recs
}
