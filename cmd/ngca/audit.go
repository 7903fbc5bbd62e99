package main

import (
	"github.com/ngca-go/ngca/internal/audit"
	"github.com/ngca-go/ngca/internal/dataio"
)

// The audit of a table, after loading and before fitting (fit, plot,
// dim): the columns and rows that would decide a fit without the user
// knowing, each said in a note or a warning, never silently. The rules
// are those of package internal/audit (audit.Table), which ngca-beam fit
// applies too; docs/your-data.md states them for users.

// minIDRows is the fewest rows for which a column of distinct whole
// numbers (or of text, a different value in every row) counts as an id.
const minIDRows = audit.MinIDRows

// leftOutColumn is a column of the file that the command left out of the
// data on its own (not by -cols or -drop), and why: "row names", "index",
// "id" or "constant". The fit's JSON lists them.
type leftOutColumn = audit.LeftOutColumn

// auditResult is what the audit left out.
type auditResult struct {
	leftOut []leftOutColumn
	// outlierRows counts the rows -outliers left out.
	outlierRows int
	// farLines are the lines (rows without lines) of the rows the screen
	// set aside, left out or not; codes are the missing-value codes
	// found; screen is the rule fitted, on the columns kept (nil if
	// there is none, or a column was left out after the rows).
	farLines []int
	codes    []codeRecord
	screen   *audit.ScreenRecord
}

// auditFlags are the flags that change the audit.
type auditFlags struct {
	listed bool // -cols lists the columns: fit each of them
	// outliers is -outliers: outliersFar (the command's default),
	// outliersDrop, or outliersKeep ("" means keep).
	outliers string
	// fixed says that the columns are those of a basis to project on:
	// none is left out or warned about; only rows are audited.
	fixed bool
}

// readingNotes says how the file name of layout t was read where that is
// not what its format alone says (audit.ReadingNotes).
func readingNotes(e *env, t dataio.Table, name string) { audit.ReadingNotes(e, t, name) }

// auditTable applies the audit's rules (audit.Table) to the table t of
// file name, leaving columns (and with -outliers far or drop, rows) out of
// t and writing notes and warnings on e's stderr. It is an error if no
// column is left.
func auditTable(e *env, t *dataio.Table, name string, fl auditFlags) (auditResult, error) {
	r, err := audit.Table(e, t, name, audit.Flags{Listed: fl.listed, Outliers: fl.outliers, Fixed: fl.fixed})
	return auditResult{leftOut: r.LeftOut, outlierRows: r.OutlierRows, farLines: r.FarLines, codes: r.Codes, screen: r.Screen}, err
}
