// Package audit is the audit of a table before a fit, shared by the
// commands ngca (fit, plot, dim, transform) and ngca-beam (fit): the
// columns it leaves out (row names, an index, ids, constant columns),
// the rows it sets aside (far from the rest by ngca.FarRows' rule, as
// package screen fits it, and those that hold a missing-value code),
// the notes and warnings that say so, and the rule that the fit's JSON
// records ("set_aside") and transform applies. Table is the audit;
// docs/your-data.md states its rules for users.
package audit
