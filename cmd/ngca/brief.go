package main

// The short help of the commands that read data: "ngca help CMD" and
// "ngca CMD -h" print it; "ngca help CMD -v" prints the full help with
// every flag. Each fits on a screen (TestBriefHelp).

const fitBrief = `Usage: ngca fit -dim M|auto [flags] FILE

Fits an NGCA estimator to the table in FILE (CSV, also ';'-separated with
decimal commas, TSV, R's write.table, LIBSVM, each also gzipped; "-" reads
standard input; rows are observations) and writes a basis of its
M-dimensional non-Gaussian subspace: CSV, a line per data column with its
name and M weights, or JSON with -json or -o NAME.json (what transform
and plot read best). On stderr: notes on what was left out and why,
warnings, the check's verdict, and each direction's largest weights by
column name; -v adds the statistics.

Examples:
  ngca fit -dim 2 data.csv > basis.csv
  ngca fit -dim auto -check -o fit.json data.csv
  ngca fit -dim 2 -drop id -label-col class -missing drop data.csv
  ngca fit -method mipp -dim 3 vehicle.scale

Common flags:
  -dim M|auto        dimension of the subspace; auto tests it ("ngca dim")
  -method NAME       wflsngca-robust (default), mipp, wflsngca, lsngca, imak,
                     sngca: see "Which estimator?" in the README
  -check             judge the fit by refits and second opinions (slower)
  -strict            with -check: exit status 2 if the fit is doubtful or
                     the check cannot be made (too few rows for its refits)
  -label-col COL     a column of labels, left out of the data
  -drop LIST         leave out columns (names, numbers, ranges a-b)
  -cols LIST         keep only these columns
  -missing drop      leave out rows with missing values (default: an error)
  -outliers drop     leave out the rows a note names as far outside the rest
  -o FILE            write the basis to FILE (.json: JSON)
  -json              write JSON: basis, eigenvalues, means, report, check
  -seed N            random seed (default 1)
  -v                 also write the statistics behind notes and verdicts

Exit status: 0; 1 on an error (such as too few rows for the estimator);
2 under -check -strict if the fit is doubtful or the check cannot be made.
Run "ngca help fit -v" for every flag (the input format, -sample, the
estimators' settings, -workers) and the details of the output.
`

const transformBrief = `Usage: ngca transform -basis B [flags] FILE

Projects the rows of FILE on the basis B written by "ngca fit" and writes
their coordinates as CSV: a header c1,...,cM, then a line per row of FILE,
in its order. With the JSON of a fit, the training means are subtracted
and FILE is read as the fit read its data: the same columns, matched by
header name in any order, and the same label column. A row with a
missing value keeps its line, with empty coordinates. transform streams:
any number of rows, in memory independent of them.

Examples:
  ngca fit -dim 2 -o fit.json train.csv
  ngca transform -basis fit.json test.csv > test2d.csv
  ngca transform -basis fit.json -keep id -with-labels test.csv
  ngca transform -basis basis.csv -center data test.csv

Common flags:
  -basis B           the CSV or JSON written by ngca fit (required)
  -keep LIST         copy these columns (ids, labels) to the output first
  -with-labels       append the labels as a last column "label"
  -center auto|data|none
                     subtract the fit's means (auto: a JSON basis), FILE's
                     means (data), or nothing (none); a CSV basis needs
                     data or none
  -missing empty|drop|error
                     a row with a missing value: empty coordinates (default),
                     left out, or an error
  -o FILE            write to FILE instead of standard output

Run "ngca help transform -v" for every flag and the details.
`

const plotBrief = `Usage: ngca plot [flags] FILE

Draws the rows of FILE projected on their non-Gaussian subspace (a scatter
plot of the first two components, coloured by label) beside the
eigenvalue spectrum, and writes the picture to -o (PNG, SVG or PDF by the
extension; default ngca.png). The basis is fitted as "ngca fit" fits it
(-dim 2 by default), or read with -basis from the CSV or JSON of a fit. A
few points far outside the rest are drawn at the edge, with a note.

Examples:
  ngca plot -o data.png data.csv
  ngca plot -label-col species -dim auto -check -o iris.png iris.csv
  ngca plot -basis fit.json -o test.png test.csv

Common flags:
  -o FILE            the image (.png, .svg, .pdf, .jpg, .tif, .eps)
  -basis B           draw on the basis of a fit instead of fitting one
  -dim M|auto        dimension of the subspace (default 2)
  -method NAME       the estimator, as for ngca fit (default wflsngca-robust)
  -check             judge the fit, as ngca fit -check does
  -label-col COL     the column of labels that colour the points
  -drop LIST         leave out columns (names, numbers, ranges a-b)
  -missing drop      leave out rows with missing values
  -title TEXT        the scatter plot's title
  -v                 also write the statistics behind notes and verdicts

Run "ngca help plot -v" for every flag and the details.
`

const dimBrief = `Usage: ngca dim [flags] FILE

Estimates how many dimensions of the data in FILE (read as by "ngca fit")
are non-Gaussian: a projection pursuit finds the most non-Gaussian
directions one by one, and "exactly k non-Gaussian dimensions" is tested
against Gaussian data of the same size for a few k; it writes a line per
test (index, its Gaussian median, p-value, decision), the answer and
whether the directions left are Gaussian. Notes on stderr say when the
rows are few for the columns (fewer than 2d², or 32 per column below 16
columns). "ngca fit -dim auto" runs the same test and fits with its
answer.

Examples:
  ngca dim data.csv
  ngca dim -alpha 0.01 -bootstrap 199 -label-col species iris.csv

Common flags:
  -alpha LEVEL       significance level of every test (default 0.05)
  -bootstrap B       Gaussian replicates per test (default 39)
  -max-dim M         largest dimension to answer
  -label-col COL     a column of labels, left out of the data
  -drop LIST         leave out columns (names, numbers, ranges a-b)
  -missing drop      leave out rows with missing values
  -seed N            random seed (default 1)
  -v                 also write the statistics behind notes and verdicts

Run "ngca help dim -v" for every flag and the details.
`
