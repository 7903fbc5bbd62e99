package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ngca-go/ngca/internal/words"

	"gonum.org/v1/gonum/floats"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/dataio"
	"gonum.org/v1/gonum/mat"
)

const transformDoc = `Usage: ngca transform -basis B [flags] FILE

Projects the data in FILE (CSV, TSV or LIBSVM, read as by "ngca fit";
"-" reads standard input) onto a basis and writes the n×M coordinates as
CSV: a header line c1,c2,...,cM (after the -keep columns' names, before
"label" with -with-labels), then one line per row of FILE, in its order,
with full precision.

The basis B is the CSV written by "ngca fit" (a header column,c1,...,cM,
then a line per data column: its name and its M numbers), the JSON of
"ngca fit -json" (or -o NAME.json), or a bare CSV of d lines of M numbers
(written by older versions); the content tells which.

Columns. When B names its columns and FILE has a header, the columns are
taken by name, in the fit's order, whatever their order in FILE: a file
with its columns in another order, or with more columns, gives the same
output; a column of the fit missing from FILE is an error naming it, as is
a -cols or -drop that leaves one out. Otherwise they are taken by position
(FILE must then have one data column per row of B), and a note says so.
A JSON basis also says how the fit read its file: its label column (found
by name, or by number in a file without a header) and its column numbers
when its file had no header; flags given here win. The fit's -missing is
not taken: transform keeps a line per row unless -missing is given here.

Missing values. A row with a missing value (an empty cell, NA, N/A, NaN,
null or ?, in any case) in a data column keeps its line, with empty
coordinates (-missing empty, the default), so that the output lines up
with FILE; -missing drop leaves such rows out, -missing error stops at
the first. stderr counts them.

The projection is

    (x − μ)·B

where μ is, with -center auto (the default), the training data's column
means stored in a JSON basis ("mean"). A CSV basis holds no means, so it
needs -center data (μ = the column means of FILE's complete rows) or
-center none (μ = 0). Centring only shifts the coordinates; it does not
change their spread.

transform streams: it reads a row and writes a row, in memory independent
of the number of rows, from a file or standard input; -center data reads
FILE whole first, for its means.

Examples:
  ngca fit -dim 2 -json -o fit.json train.csv
  ngca transform -basis fit.json test.csv > test2d.csv
  ngca transform -basis fit.json -keep id -with-labels test.csv
  ngca transform -basis basis.csv -center none -o proj.csv data.csv
  ngca transform -basis fit.json -with-labels vehicle.scale
`

func init() {
	c := &command{name: "transform", summary: "project a data file onto a basis; write the n×M coordinates as CSV", brief: transformBrief, run: runTransform}
	c.usage = transformDoc + flagHelp(newTransformFlags(c).fs, []flagGroup{
		{"Input", inputFlagNames(false)},
		{"Projection", []string{"basis", "center", "outliers"}},
		{"Output", []string{"o", "keep", "with-labels"}},
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
	keep       string
	withLabels bool
	outliers   string
}

func newTransformFlags(c *command) *transformFlags {
	f := &transformFlags{fs: cli.NewFlagSet(c.name)}
	f.in.emptyOK = true
	f.in.register(f.fs, false)
	miss := f.fs.Lookup("missing")
	miss.Usage = "`what` to do with a row that has a missing value (an empty cell, NA, N/A, NaN, null or ?) in a data column: " +
		"empty: write its line with empty coordinates, so that the output has a line per input row; drop: leave the row out; error: stop"
	miss.DefValue, f.in.missing = "empty", "empty"
	f.fs.StringVar(&f.basis, "basis", "", "basis `file`: the CSV or the JSON written by ngca fit (required)")
	f.fs.StringVar(&f.center, "center", "auto", "column means to subtract: `auto` (a JSON basis's training means; a CSV basis has none and needs data or none), data (FILE's), none")
	f.fs.StringVar(&f.out, "o", "", "write the result to `file` instead of standard output (the file is replaced only on success)")
	f.fs.StringVar(&f.keep, "keep", "", "copy these columns of FILE (ids, labels, any column: a `list` as for -cols) to the output, as they are, before the coordinates")
	f.fs.BoolVar(&f.withLabels, "with-labels", false, "append the labels (of a LIBSVM file, or -label-col) as a last column \"label\"")
	f.fs.StringVar(&f.outliers, "outliers", "", "`what` to do with a row that the JSON fit's rule sets aside (a missing-value code it found, or far from its rows, as ngca fit -outliers far): "+
		"far: write its line with empty coordinates; keep: project it; default: as the fit did")
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
		return fmt.Errorf("%w: -basis is required: the CSV or JSON basis written by ngca fit", cli.ErrUsage)
	}
	switch f.center {
	case "auto", "data", "none":
	default:
		return fmt.Errorf("%w: -center %q: want auto, data or none", cli.ErrUsage, f.center)
	}
	switch f.outliers {
	case "", outliersFar, outliersKeep:
	default:
		return cli.Usagef("-outliers %q: want far or keep", f.outliers)
	}
	opt, err := f.in.options()
	if err != nil {
		return err
	}
	opt.Keep = f.keep
	b, err := readBasis(f.basis)
	if err != nil {
		return fmt.Errorf("-basis: %w", err)
	}
	if f.center == "auto" && b.mean == nil {
		return cli.Usagef("-basis %s is a CSV basis, which holds no training means: say how to centre the data with -center data (subtract the column means of %s) or -center none (project the data as they are); the JSON of ngca fit -json holds them", b.name, path)
	}
	out, err := createOutFile(f.out, e.stdout)
	if err != nil {
		return err
	}
	defer out.abort()
	b.selectColumns(&opt, setFlags(f.fs), dataio.MissingKeep)
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
	readingNotes(e, layout, name)
	if note := b.matchNote(layout, name); note != "" {
		e.notef("%s", note)
	}
	if f.withLabels && !s.HasLabels() {
		return fmt.Errorf("-with-labels: %s has no labels (name the label column with -label-col)", name)
	}
	d := rows
	mean := make([]float64, d)
	aside := b.aside
	if mode := cmp.Or(f.outliers, aside.Mode()); mode == outliersKeep {
		aside = nil
	}
	type line struct {
		row  []float64
		kept []string
		lbl  string
		gap  bool
		at   int // the line of FILE (0 for LIBSVM)
	}
	next := func() (line, bool) {
		if !s.Scan() {
			return line{}, false
		}
		return line{s.Row(), s.Kept(), s.Label(), s.Incomplete(), s.Line()}, true
	}
	switch f.center {
	case "auto":
		copy(mean, b.mean)
	case "data":
		// The means come first: FILE is read whole, and the means are
		// those of its complete rows.
		var all []line
		var count int
		for s.Scan() {
			l := line{slices.Clone(s.Row()), slices.Clone(s.Kept()), s.Label(), s.Incomplete(), s.Line()}
			all = append(all, l)
			if !l.gap {
				floats.Add(mean, l.row)
				count++
			}
		}
		if err := s.Err(); err != nil {
			return err
		}
		if count == 0 {
			return fmt.Errorf("-center data: every row of %s has a missing value, so it has no column means", name)
		}
		floats.Scale(1/float64(count), mean)
		i := 0
		next = func() (line, bool) {
			if i == len(all) {
				return line{}, false
			}
			i++
			return all[i-1], true
		}
	}
	header := slices.Clone(layout.KeptNames)
	for k := 0; k < m; k++ {
		header = append(header, "c"+strconv.Itoa(k+1))
	}
	if f.withLabels {
		header = append(header, "label")
	}
	cw := csv.NewWriter(out.Writer)
	if err := cw.Write(header); err != nil {
		return err
	}
	// Rows are projected in chunks, so that memory does not grow with n.
	const chunkRows = 4096
	proj := &ngca.Result{Basis: b.basis, Mean: mean}
	chunk := mat.NewDense(chunkRows, d, nil)
	pending := make([]line, 0, chunkRows)
	var z mat.Dense
	gaps := 0
	var farLines []int // the lines set aside (row numbers from 1 without lines)
	rec := make([]string, len(header))
	flush := func() error {
		k := len(pending)
		z.Reset()
		proj.ProjectTo(&z, chunk.Slice(0, k, 0, d))
		for i, l := range pending {
			rec = rec[:0]
			rec = append(rec, l.kept...)
			for c := 0; c < m; c++ {
				v := z.At(i, c)
				switch {
				case l.gap:
					rec = append(rec, "")
				case math.IsNaN(v) || math.IsInf(v, 0):
					return overflowError(name, l.at, rows)
				default:
					rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
				}
			}
			if f.withLabels {
				rec = append(rec, l.lbl)
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		pending = pending[:0]
		return cw.Error()
	}
	for {
		l, ok := next()
		if !ok {
			break
		}
		row := chunk.RawRowView(len(pending))
		copy(row, l.row)
		if !l.gap && aside != nil && aside.Far(row) {
			l.gap = true
			farLines = append(farLines, cmp.Or(l.at, s.Rows()+s.Dropped()))
		} else if l.gap {
			gaps++
		}
		if l.gap {
			clear(row) // projected, then written as empty cells
		}
		l.row = nil
		l.kept = slices.Clone(l.kept)
		pending = append(pending, l)
		if len(pending) == chunkRows {
			if err := flush(); err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
	}
	if err := s.Err(); err != nil {
		return err
	}
	if len(pending) > 0 {
		if err := flush(); err != nil {
			return err
		}
	}
	total := s.Rows() + s.Dropped()
	if n := s.Dropped(); n > 0 {
		e.notef("left out %d of the %s of %s, which %s a missing value (-missing drop); the output has a line per row kept", n, words.CountNoun(total, "row"), name, words.Agree(n, "holds", "hold"))
	}
	if len(farLines) > 0 {
		e.notef("%s of %s %s far from the fit's rows or %s a missing-value code, as ngca fit -outliers far sets aside: %s; %s empty coordinates (-outliers keep projects %s)",
			words.CountNoun(len(farLines), "row"), name, words.Agree(len(farLines), "lies", "lie"), words.Agree(len(farLines), "holds", "hold"), lineList(farLines, 5),
			words.Agree(len(farLines), "its line has", "their lines have"), words.Agree(len(farLines), "it", "them"))
	}
	if gaps > 0 {
		e.notef("%d of the %s of %s %s a missing value in a data column: %s empty coordinates (-missing drop leaves %s out)",
			gaps, words.CountNoun(total, "row"), name, words.Agree(gaps, "holds", "hold"), words.Agree(gaps, "its line has", "their lines have"), words.Agree(gaps, "it", "them"))
	}
	return out.commit()
}

// overflowError reports a row whose coordinates overflow float64: its
// values, less the means, times the weights, pass ±1.8e308.
func overflowError(name string, line, rowsDone int) error {
	where := fmt.Sprintf("line %d of %s", line, name)
	if line == 0 {
		where = fmt.Sprintf("a row of %s", name)
	}
	return fmt.Errorf("%s: its coordinates overflow float64 (its values, less the means, times the basis pass ±1.8e308); scale the data down", where)
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
	if note := b.matchNote(dataio.Table{Header: t.Header, Names: t.Names}, name); note != "" {
		e.notef("%s", note)
	}
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
	if err := finiteRows(&z, name); err != nil {
		return nil, err
	}
	return &z, nil
}

// finiteRows returns an error if a row of z, coordinates of the data of
// file name, is not finite.
func finiteRows(z *mat.Dense, name string) error {
	n, m := z.Dims()
	for i := 0; i < n; i++ {
		for k := 0; k < m; k++ {
			if v := z.At(i, k); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("data row %d of %s: its coordinates overflow float64 (its values, less the means, times the basis pass ±1.8e308); scale the data down", i+1, name)
			}
		}
	}
	return nil
}

// matchBasis checks that the basis has a row per data column: d columns
// of a file of the given format, with labels or not (labelName is the
// label column's header name).
func matchBasis(b *basisFile, d int, format dataio.Format, hasLabels bool, labelName, name string) error {
	rows, _ := b.basis.Dims()
	if d == rows {
		return nil
	}
	msg := fmt.Sprintf("%s has %s but the basis %s has %s (one per data column)", name, words.CountNoun(d, "data column"), b.name, words.CountNoun(rows, "row"))
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
