package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/dataio"
)

// The library names data columns by their 0-based index in the matrix it
// was given ("column index 9 (0-based) is a linear combination of column
// indices 0, 1 and 2", "column indices 0..8"). The command translates them
// into the file's terms: 1-based column numbers (LIBSVM: feature numbers)
// and header names.

var columnIndexRE = regexp.MustCompile(`column (index|indices) (\d+(?:\.\.\d+)?(?:(?:, |,| and )\d+(?:\.\.\d+)?)*)(?: \(0-based\))?`)

var columnNumberRE = regexp.MustCompile(`\d+(?:\.\.\d+)?`)

// fileColumnsError is a library error whose message names the columns of
// a file: it reads as msg and unwraps to the library's error.
type fileColumnsError struct {
	msg string
	err error
}

func (e *fileColumnsError) Error() string { return e.msg }
func (e *fileColumnsError) Unwrap() error { return e.err }

// inFileTerms returns err with its column indices translated for the data
// of t; err itself if it names none.
func inFileTerms(err error, t *dataio.Table) error {
	if err == nil {
		return nil
	}
	msg := columnRefs(err.Error(), t)
	if msg == err.Error() {
		return err
	}
	return &fileColumnsError{msg, err}
}

// columnRefs rewrites the 0-based column indices of msg as the columns of
// the file of t.
func columnRefs(msg string, t *dataio.Table) string {
	noun := "column"
	if t.Format == dataio.LIBSVM {
		noun = "feature"
	}
	return columnIndexRE.ReplaceAllStringFunc(msg, func(m string) string {
		sub := columnIndexRE.FindStringSubmatch(m)
		plural := sub[1] == "indices"
		ok := true
		list := columnNumberRE.ReplaceAllStringFunc(sub[2], func(r string) string {
			a, b, isRange := strings.Cut(r, "..")
			lo, _ := strconv.Atoi(a)
			hi := lo
			if isRange {
				hi, _ = strconv.Atoi(b)
				plural = true
			}
			if lo < 0 || hi >= len(t.Fields) || lo > hi {
				ok = false
				return r
			}
			if !isRange {
				return fileColumn(t, lo)
			}
			return fileColumn(t, lo) + " to " + fileColumn(t, hi)
		})
		if !ok {
			return m
		}
		if plural {
			return noun + "s " + list
		}
		return noun + " " + list
	})
}

// fileColumn names data column j of t as `3 ("x3")`: its number in the
// file and its header name.
func fileColumn(t *dataio.Table, j int) string {
	s := strconv.Itoa(t.Fields[j])
	if t.Names != nil && t.Names[j] != "" {
		s += fmt.Sprintf(" (%q)", t.Names[j])
	}
	return s
}
