package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/cli"
	"gonum.org/v1/gonum/mat"
)

const fitDoc = `Usage: ngca fit -dim M|auto [flags] FILE

Fits an NGCA estimator to the data in FILE (rows are observations, columns
are variables; "-" reads standard input) and writes a basis of the
M-dimensional non-Gaussian subspace: as CSV, a header column,c1,...,cM
(column_number,c1,... for a file without a header) and a line per data
column, its name and its M weights (column k of the numbers is basis
vector k, in the units of the data columns), or with -json (or -o
NAME.json) as a JSON object. Numbers are written with full precision.
Nothing else goes to standard output. On stderr: notes (what the command
did on its own: columns or rows left out, and why), warnings (what may
make the fit unreliable), the check's verdict with -check, and a summary
of the directions, each by its largest weights on the standardised
columns (weight × the column's standard deviation, scaled to unit length)
and with -check whether refits keep it; -v adds the statistics behind
each. A progress bar is drawn on stderr when it is a terminal (otherwise
a fit longer than a minute logs one line a minute).

FILE is CSV, semicolon-separated with decimal commas (a spreadsheet's
CSV where the decimal mark is a comma, R's write.csv2), TSV,
space-separated (R's write.table) or LIBSVM (feature indices from 1, or
from 0 as scikit-learn writes them), plain or gzip-compressed (see
-format). A CSV/TSV header line is detected
(or set with -header); a label column (-label-col) is left out of the data.
-cols keeps and -drop leaves out columns, by header name, 1-based number or
range a-b (an item of digits is a number; both flags together: -drop
removes from what -cols keeps); the columns keep the order of the file.
Every data cell must be a finite number; a bad cell is reported with its
line and column. A missing value (an empty cell, NA, N/A, NaN, null or ?,
in any case) in a data column or the label column is an error, or with
-missing drop its row is left out (the count goes to stderr).

Before the fit, the table is audited, each finding in a note or warning
on stderr (docs/your-data.md states the rules): row names, an index
column, id columns (distinct whole numbers) and text id columns (text
with a different value in every row) are left out, unless -cols lists
them, and so are constant columns; columns of a few values (flags,
scales) are named as likely to dominate; values far outside the rest of
their column and missing-value codes (9999, -999, ...) are named with
their lines, and -outliers drop leaves those rows out.

-sample N fits a uniform random sample of N rows, drawn in one pass over
FILE (or standard input) by reservoir sampling with the source
rand.NewPCG(seed, 2): memory holds N rows, not the file; the same -seed
draws the same rows, which keep the order of the file. A FILE of at most
N rows is used whole. See docs/big-files.md.

The JSON object is the library's Result JSON (ngca.Result.MarshalJSON;
json.Unmarshal into an ngca.Result loads it) with the command's fields
added. The library's: ngca_result (the format version); label (the
estimator's name, as tables and plots print it); basis (d lists of M
numbers); eigenvalues (all d, descending: a gap after the M-th suggests M
is right; for the robust variant's equivariant estimate, its MIPP
start's); mean (the column means, which transform subtracts); timings
(step → seconds); report
({"type": "LSReport", "MIPPReport", "RobustReport", "IMAKReport" or
"SNGCAReport", "value": every field of that Go type by its Go name}: the
kernel estimators' centers and folds, MIPP's number of kept functions
(KeptFunctions), the robust variant's Estimate ("axes" or
"equivariant"), the p-value P of the test of the axes estimate and its
Distance from the equivariant one (the axes estimate is returned only if
p ≥ 0.01 and distance ≤ 4, or p ≥ 0.01 and, beyond that distance, the
evidence that the equivariant estimate misses structure exceeds the
converse by 3 paired z-scores), NullCoords (data columns numbered from
0), and so on). The command's
fields, after label: method (the key of the estimator that ran, as
-method takes it); input, format, n, d, dim; columns and label_column
(when the file has a header); column_numbers; left_out (the columns the
audit left out: column, number, reason: row names, index, id or
constant); rows_outliers_dropped (with -outliers drop); zero_based (a
LIBSVM file numbered from 0); input_flags (-cols, -drop,
-label-col and -missing as given, which transform and plot reuse); seed;
settings (the settings the fit used, defaults resolved: the kernel
estimators' centers and folds, MIPP's iterations and threshold, IMAK's and
SNGCA's iterations). Numbers have full precision; JSON has no Inf or NaN,
so a non-finite number (the robust variant's P and Distance where its
decision did not run, an infinite Distance) is the string "+Inf", "-Inf"
or "NaN".

With -dim auto, M is chosen by the test of "ngca dim" (its decision
goes to stderr, its p-values with -v) before the fit. After the fit, a
warning goes to stderr when the M-th eigenvalue is less than 10 times the
next (λM/λM+1 < 10, skipping exact zeros): the subspace is then weakly
separated from the rest and may be unreliable. When the test finds more
than half of the d directions non-Gaussian (M > d/2), a note says instead
that NGCA's model (a few non-Gaussian directions in Gaussian noise) does
not describe the data, and that the components are still ranked by how
non-Gaussian they are.

With -check the fit is then judged by ngca.Check: the estimator is refitted
to 4 random subsamples of three quarters of the rows and, for an estimator
that depends on the orientation of the columns (wflsngca, lsngca,
wflsngca-robust), the fit is compared with estimates that do not (IMAK,
then MIPP if IMAK disagrees). One line on stderr begins "check: ok" or
"check: doubtful" and gives the evidence in words (a second line says so
when the refits' rows are few for the columns; -v adds the statistics);
a doubtful fit is followed by a line "check: try ..." (another -method,
more rows, another -dim). The summary of the directions then says of
each whether it is stable across the refits (CheckReport.Directions): a
doubtful 2-D fit may have one sound direction. A failed refit is named
with its reason. The
check takes 1 to 4 times as long as the fit (docs/check.md). With -json
its report is the object "check" (ngca.CheckReport's JSON), the last
field. Standard output is the same with or without -check. A check that
cannot be made (when the estimator cannot fit three quarters of the rows:
fewer than it needs, which the message gives with the rows the check
needs, or -centers above 3n/4) writes "check: not done: <why>" instead,
and "check_error" with -json; the fit is written all the same. With
-strict, a doubtful fit, or one that could not be checked, ends the
command with exit status 2 once the result is
written.

Exit status: 0 on success; 1 on an error (bad input, a bad flag: a usage
error prints its message and a pointer to this help; a failed fit, such
as one with fewer rows than the estimator needs, which the message gives;
an interruption); 2 under -check -strict when the fit is doubtful or the
check cannot be made.

Examples:
  ngca fit -dim 2 data.csv > basis.csv
  ngca fit -dim auto data.csv > basis.csv
  ngca fit -dim 2 -json -o fit.json data.csv
  ngca fit -dim 2 -check -strict data.csv > basis.csv || echo "exit $?"
  ngca fit -dim 2 -drop id,name -label-col class -missing drop data.csv
  ngca fit -dim 2 -cols 1-8,11 -sample 100000 big.csv > basis.csv
  ngca fit -method mipp -dim 3 -seed 7 svmguide1
  ngca fit -method robust -dim 2 -json -o fit.json data.csv
  ngca fit -dim 2 -label-col species -widths 0.5,1,2 iris.csv
  cat data.tsv | ngca fit -dim 2 -format tsv -
`

func init() {
	c := &command{name: "fit", summary: "fit an estimator to a CSV, TSV or LIBSVM file; write the basis (CSV or JSON)", brief: fitBrief, run: runFit}
	groups := append([]flagGroup{{"Input", inputFlagNames(true)}}, fitFlagGroups()...)
	c.usage = fitDoc + flagHelp(newFitFlags(c).fs, append(groups, flagGroup{"Output", []string{"o", "json"}}))
	register(c)
}

// fitFlags are the flags of the fit command.
type fitFlags struct {
	fs       *flag.FlagSet
	in       inputFlags
	fit      fitArgs
	out      string
	jsonMode bool
}

func newFitFlags(c *command) *fitFlags {
	f := &fitFlags{fs: cli.NewFlagSet(c.name)}
	f.in.register(f.fs, true)
	f.fit.register(f.fs, "dimension `M` of the non-Gaussian subspace, 1 ≤ M < number of data columns (required)")
	f.fs.StringVar(&f.out, "o", "", "write the result to `file` instead of standard output (the file is replaced only on success)")
	f.fs.BoolVar(&f.jsonMode, "json", false, "write JSON (basis, eigenvalues, means, chosen hyperparameters, timings) instead of the CSV basis")
	return f
}

func runFit(ctx context.Context, e *env, args []string) error {
	c := commands["fit"]
	f := newFitFlags(c)
	pos, err := parseArgs(f.fs, c, e, args)
	if err != nil {
		return err
	}
	path, err := oneFile(pos)
	if err != nil {
		return err
	}
	m, err := f.fit.check(setFlags(f.fs))
	if err != nil {
		return err
	}
	opt, err := f.in.options()
	if err != nil {
		return err
	}
	f.fit.input = inputRecord{Cols: f.in.cols, Drop: f.in.drop, LabelCol: f.in.labelCol, Missing: f.in.missing}
	out, err := createOutFile(f.out, e.stdout)
	if err != nil {
		return err
	}
	defer out.abort()
	t, info, err := loadTable(ctx, e, path, opt, f.in.audit(), f.in.sample, f.fit.seed)
	if err != nil {
		return err
	}
	name := info.name
	res, err := f.fit.fitTable(ctx, e, m, t, name)
	if err != nil {
		return err
	}
	if w := separationWarning(res, &f.fit, m); w != "" && !f.fit.modelNoted {
		fmt.Fprintln(e.stderr, w)
	}
	rep, checkErr := f.fit.checkFit(ctx, e, m, t, name, res)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	writeDirections(e, res, t, rep)
	if f.jsonMode || strings.EqualFold(filepath.Ext(f.out), ".json") {
		var j []byte
		if j, err = fitJSON(&f.fit, m, t, info, res, rep, checkErr); err == nil {
			err = writeJSON(out, json.RawMessage(j))
		}
	} else {
		err = writeBasisCSV(out.Writer, res.Basis, t)
	}
	if err != nil {
		return err
	}
	if err := out.commit(); err != nil {
		return err
	}
	if f.fit.strict && (rep == nil || rep.Doubtful) {
		return errDoubtful
	}
	return nil
}

// writeMatrixCSV writes the rows of m as CSV lines with full precision,
// after a header line if header is not nil.
func writeMatrixCSV(w *bufio.Writer, m mat.Matrix, header []string) error {
	if header != nil {
		cw := csv.NewWriter(w)
		if err := cw.Write(header); err != nil {
			return err
		}
		cw.Flush()
	}
	r, c := m.Dims()
	var buf []byte
	for i := 0; i < r; i++ {
		buf = buf[:0]
		for j := 0; j < c; j++ {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, m.At(i, j), 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}
