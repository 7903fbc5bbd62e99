package main

import "github.com/ngca-go/ngca/internal/audit"

// The rows that lie far from the rest (ngca.FarRows' rule, package
// internal/screen): by default (-outliers far) they are left out before
// a fit, with the rows that hold a missing-value code, and named in a
// note; "ngca fit -json" records the rule fitted, so that transform sets
// the same rows aside. The rule and its JSON are package internal/audit's.

// The values of -outliers.
const (
	outliersKeep = audit.OutliersKeep
	outliersFar  = audit.OutliersFar
	outliersDrop = audit.OutliersDrop
)

// codeRecord is a missing-value code found in a column, as "ngca fit
// -json" records it.
type codeRecord = audit.CodeRecord

// setAsideJSON is what "ngca fit -json" records of the rows set aside
// (audit.SetAsideJSON).
type setAsideJSON = audit.SetAsideJSON

// setAside is the rule of a JSON fit for the rows it set aside
// (audit.SetAside).
type setAside = audit.SetAside

// readSetAside returns the rule that j records for a basis of d rows
// whose file columns are numbers (nil j: nil).
func readSetAside(j *setAsideJSON, numbers []int, d int) (*setAside, error) {
	return audit.ReadSetAside(j, numbers, d)
}

// lineList writes lines as "lines 59, 102 and 3 more", at most max.
func lineList(lines []int, max int) string { return audit.LineList(lines, max) }
