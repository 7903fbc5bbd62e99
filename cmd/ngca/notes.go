package main

import "fmt"

// Messages on stderr. A command's result goes to standard output; what a
// user should read about it goes to stderr in three kinds of line:
//
//   - note: what the command did on its own that the user did not ask for
//     (a column left out, rows left out), in plain words, with the flag
//     that changes it;
//   - warning: something that may make the result wrong (a column that may
//     dominate the fit, a weakly separated subspace), with what to try;
//   - details (only with -v): the statistics behind a note, a warning or
//     a verdict, for those who want them; -json carries them too.

// notef writes a note line on stderr.
func (e *env) notef(format string, a ...any) {
	fmt.Fprintf(e.stderr, "note: "+format+"\n", a...)
}

// warnf writes a warning line on stderr.
func (e *env) warnf(format string, a ...any) {
	fmt.Fprintf(e.stderr, "warning: "+format+"\n", a...)
}

// detailf writes an indented line of details on stderr under -v only.
func (e *env) detailf(format string, a ...any) {
	if e.verbose {
		fmt.Fprintf(e.stderr, "  "+format+"\n", a...)
	}
}

// Notef, Warnf and Detailf are notef, warnf and detailf, for the audit
// (audit.Notes).
func (e *env) Notef(format string, a ...any) { e.notef(format, a...) }

// Warnf is warnf (audit.Notes).
func (e *env) Warnf(format string, a ...any) { e.warnf(format, a...) }

// Detailf is detailf (audit.Notes).
func (e *env) Detailf(format string, a ...any) { e.detailf(format, a...) }
