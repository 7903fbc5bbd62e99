package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"strconv"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/dataio"
	"gonum.org/v1/gonum/mat"
)

const transformDoc = `Usage: ngca transform -basis B [flags] FILE

Projects the data in FILE (CSV, TSV or LIBSVM, read as by "ngca fit";
"-" reads standard input) onto a basis and writes the n×M coordinates as
CSV: a header line c1,c2,...,cM, then one line per observation, in the
order of FILE, with full precision.

The basis B is either the CSV written by "ngca fit" (d lines of M numbers)
or the JSON of "ngca fit -json"; the content tells which. B must have one
row per data column of FILE (label column excluded; if B is the JSON of a
fit that read a label column by name, a column of that name in FILE's
header is taken as the labels without -label-col). When B is a JSON with
the fit's column names and FILE has a header, the columns are taken by
name, in the fit's order: a file with its columns in another order (or
with more columns) gives the same output, and a missing name is an error
naming it. -cols and -drop choose the columns by position instead; a file
without a header is read by position.

The projection is

    (x − μ)·B

where μ is, with -center auto (the default), the training data's column
means stored in a JSON basis ("mean"). A bare CSV basis holds no means, so
it needs -center data (μ = the column means of FILE) or -center none
(μ = 0). Centring only shifts the coordinates; it does not change their
spread.

transform streams: it reads a row and writes a row, in memory independent
of the number of rows, from a file or standard input; -center data reads
FILE whole first, for its means. With -missing drop, the rows left out
have no output line (stderr gives the count).

Examples:
  ngca fit -dim 2 -json -o fit.json train.csv
  ngca transform -basis fit.json test.csv > test2d.csv
  ngca transform -basis basis.csv -center none -o proj.csv data.csv
  ngca transform -basis fit.json -with-labels vehicle.scale
`

func init() {
	c := &command{name: "transform", summary: "project a data file onto a basis; write the n×M coordinates as CSV", run: runTransform}
	c.usage = transformDoc + flagHelp(newTransformFlags(c).fs, []flagGroup{
		{"Input", inputFlagNames(false)},
		{"Projection", []string{"basis", "center"}},
		{"Output", []string{"o", "with-labels"}},
	})
	register(c)
}

// transformFlags are the flags of the transform command.
type transformFlags struct {
	fs         *flag.FlagSet
	in         inputFlags
	basis      string
	center     string
	out        string
	withLabels bool
}

func newTransformFlags(c *command) *transformFlags {
	f := &transformFlags{fs: newFlags(c)}
	f.in.register(f.fs, false)
	f.fs.StringVar(&f.basis, "basis", "", "basis `file`: the CSV or the JSON written by ngca fit (required)")
	f.fs.StringVar(&f.center, "center", "auto", "column means to subtract: `auto` (the training means from a JSON basis, else FILE's), data (FILE's), none")
	f.fs.StringVar(&f.out, "o", "", "write the result to `file` instead of standard output (the file is replaced only on success)")
	f.fs.BoolVar(&f.withLabels, "with-labels", false, "append the labels (of a LIBSVM file, or -label-col) as a last column \"label\"")
	return f
}

func runTransform(ctx context.Context, e *env, args []string) error {
	c := commands["transform"]
	f := newTransformFlags(c)
	pos, err := parseArgs(f.fs, c, e, args)
	if err != nil {
		return err
	}
	path, err := oneFile(pos)
	if err != nil {
		return err
	}
	if f.basis == "" {
		return fmt.Errorf("%w: -basis is required: the CSV or JSON basis written by ngca fit", errUsage)
	}
	switch f.center {
	case "auto", "data", "none":
	default:
		return fmt.Errorf("%w: -center %q: want auto, data or none", errUsage, f.center)
	}
	opt, err := f.in.options()
	if err != nil {
		return err
	}
	b, err := readBasis(f.basis)
	if err != nil {
		return fmt.Errorf("-basis: %w", err)
	}
	if f.center == "auto" && b.mean == nil {
		return usagef("-basis %s is a bare CSV basis, which holds no training means: say how to centre the data with -center data (subtract the column means of %s) or -center none (project the data as they are)", b.name, path)
	}
	out, err := createOutFile(f.out, e.stdout)
	if err != nil {
		return err
	}
	defer out.abort()
	b.selectColumns(&opt)
	r, name, closeFn, err := openInput(ctx, path)
	if err != nil {
		return err
	}
	defer closeFn()
	s, err := dataio.NewScanner(r, name, opt)
	if err != nil {
		return inputError(err)
	}
	rows, m := b.basis.Dims()
	s.Widen(rows)
	layout := s.Layout()
	if err := matchBasis(b, len(layout.Fields), layout.Format, s.HasLabels(), layout.LabelName, name); err != nil {
		return err
	}
	warnColumnNames(e, "transform", b, layout.Names, layout.Fields, name)
	if f.withLabels && !s.HasLabels() {
		return fmt.Errorf("-with-labels: %s has no labels (name the label column with -label-col)", name)
	}
	d := rows
	mean := make([]float64, d)
	next := func() ([]float64, string, bool) {
		if !s.Scan() {
			return nil, "", false
		}
		return s.Row(), s.Label(), true
	}
	switch f.center {
	case "auto":
		copy(mean, b.mean)
	case "data":
		// The means come first: FILE is read whole.
		vals, labels, _, err := readAll(ctx, s)
		if err != nil {
			return err
		}
		n := len(vals) / d
		for j := range mean {
			var sum float64
			for i := 0; i < n; i++ {
				sum += vals[i*d+j]
			}
			mean[j] = sum / float64(n)
		}
		i := 0
		next = func() ([]float64, string, bool) {
			if i == n {
				return nil, "", false
			}
			i++
			lbl := ""
			if labels != nil {
				lbl = labels[i-1]
			}
			return vals[(i-1)*d : i*d], lbl, true
		}
	}
	header := make([]string, m)
	for k := range header {
		header[k] = "c" + strconv.Itoa(k+1)
	}
	if f.withLabels {
		header = append(header, "label")
	}
	cw := csv.NewWriter(out.Writer)
	if err := cw.Write(header); err != nil {
		return err
	}
	cw.Flush()
	// Rows are projected in chunks, so that memory does not grow with n.
	const chunkRows = 4096
	proj := &ngca.Result{Basis: b.basis, Mean: mean}
	chunk := mat.NewDense(chunkRows, d, nil)
	labels := make([]string, chunkRows)
	var z mat.Dense
	flush := func(k int) error {
		z.Reset()
		proj.ProjectTo(&z, chunk.Slice(0, k, 0, d))
		if f.withLabels {
			return writeLabelled(out.Writer, &z, nil, labels[:k])
		}
		return writeMatrixCSV(out.Writer, &z, nil)
	}
	k := 0
	for {
		row, lbl, ok := next()
		if !ok {
			break
		}
		copy(chunk.RawRowView(k), row)
		labels[k] = lbl
		if k++; k == chunkRows {
			if err := flush(k); err != nil {
				return err
			}
			if k = 0; ctx.Err() != nil {
				return ctx.Err()
			}
		}
	}
	if err := s.Err(); err != nil {
		return err
	}
	if k > 0 {
		if err := flush(k); err != nil {
			return err
		}
	}
	if n := s.Dropped(); n > 0 {
		fmt.Fprintf(e.stderr, "ngca: -missing drop: left out %d of the %s of %s (a missing value in a selected column or the label); the output has a line per row kept\n",
			n, countNoun(s.Rows()+n, "row"), name)
	}
	return out.commit()
}

// warnColumnNames warns on stderr (as command cmd) if the names of the
// data columns (in the file's columns fields) differ from those of the fit.
func warnColumnNames(e *env, cmd string, b *basisFile, names []string, fields []int, name string) {
	for j := range b.columns {
		if names != nil && j < len(names) && names[j] != b.columns[j] {
			fmt.Fprintf(e.stderr, "ngca %s: warning: data column %d is %q (column %d of %s) but %q in the fit (%s); are the columns in the same order?\n",
				cmd, j+1, names[j], fields[j], name, b.columns[j], b.name)
			return
		}
	}
}

// project returns the coordinates (x − μ)·B of the data of t (file name)
// in the basis b, with μ the training means of a JSON basis, or for a CSV
// basis the column means of t. It checks that b fits the data, and warns
// on stderr (as command cmd) if the column names differ from those of the
// fit.
func project(e *env, cmd string, b *basisFile, t *dataio.Table, name string) (*mat.Dense, error) {
	n, d := t.X.Dims()
	rows, _ := b.basis.Dims()
	if t.Format == dataio.LIBSVM && d < rows {
		// The last features are absent from the file: zero.
		wide := mat.NewDense(n, rows, nil)
		wide.Slice(0, n, 0, d).(*mat.Dense).Copy(t.X)
		t.X = wide
		for j := d; j < rows; j++ {
			t.Fields = append(t.Fields, j+1)
		}
		d = rows
	}
	if err := matchBasis(b, d, t.Format, t.Labels != nil, t.LabelName, name); err != nil {
		return nil, err
	}
	warnColumnNames(e, cmd, b, t.Names, t.Fields, name)
	mean := make([]float64, d)
	if b.mean != nil {
		copy(mean, b.mean)
	} else {
		for j := range mean {
			var s float64
			for i := 0; i < n; i++ {
				s += t.X.At(i, j)
			}
			mean[j] = s / float64(n)
		}
	}
	var z mat.Dense
	(&ngca.Result{Basis: b.basis, Mean: mean}).ProjectTo(&z, t.X)
	return &z, nil
}

// matchBasis checks that the basis has a row per data column: d columns
// of a file of the given format, with labels or not (labelName is the
// label column's header name).
func matchBasis(b *basisFile, d int, format dataio.Format, hasLabels bool, labelName, name string) error {
	rows, _ := b.basis.Dims()
	if d == rows {
		return nil
	}
	msg := fmt.Sprintf("%s has %s but the basis %s has %s (one per data column)", name, countNoun(d, "data column"), b.name, countNoun(rows, "row"))
	switch {
	case d == rows+1 && b.labelColumn != "" && labelName == "":
		msg += fmt.Sprintf("; the fit read column %q as labels: add -label-col %s", b.labelColumn, b.labelColumn)
	case d == rows+1 && !hasLabels && format != dataio.LIBSVM:
		msg += "; if a column holds labels, name it with -label-col"
	}
	return fmt.Errorf("%s", msg)
}

// writeLabelled writes z as CSV with the labels as a last column, after
// header if it is not nil.
func writeLabelled(w *bufio.Writer, z *mat.Dense, header, labels []string) error {
	n, m := z.Dims()
	cw := csv.NewWriter(w)
	if header != nil {
		cw.Write(append(header, "label"))
	}
	row := make([]string, m+1)
	for i := 0; i < n; i++ {
		for k := 0; k < m; k++ {
			row[k] = strconv.FormatFloat(z.At(i, k), 'g', -1, 64)
		}
		row[m] = labels[i]
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}
