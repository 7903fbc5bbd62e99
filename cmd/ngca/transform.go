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
header is taken as the labels without -label-col). The projection is

    (x − μ)·B

where μ is, with -center auto (the default), the training data's column
means when B is the JSON of fit (its "mean"), and the column means of FILE
itself for a bare CSV basis, which holds no means. -center data always uses
FILE's means, and -center none projects x itself (μ = 0). Centring only
shifts the coordinates; it does not change their spread.

Examples:
  ngca fit -dim 2 -json -o fit.json train.csv
  ngca transform -basis fit.json test.csv > test2d.csv
  ngca transform -basis basis.csv -center none -o proj.csv data.csv
  ngca transform -basis fit.json -with-labels vehicle.scale
`

func init() {
	c := &command{name: "transform", summary: "project a data file onto a basis; write the n×M coordinates as CSV", run: runTransform}
	c.usage = transformDoc + flagHelp(newTransformFlags(c).fs, []flagGroup{
		{"Input", inputFlagNames},
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
	f.in.register(f.fs)
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
	out, err := createOutFile(f.out, e.stdout)
	if err != nil {
		return err
	}
	defer out.abort()
	b, err := readBasis(f.basis)
	if err != nil {
		return fmt.Errorf("-basis: %w", err)
	}
	if opt.LabelCol == "" {
		opt.LabelIfPresent = b.labelColumn
	}
	t, name, err := loadTable(ctx, path, opt)
	if err != nil {
		return err
	}
	if f.withLabels && t.Labels == nil {
		return fmt.Errorf("-with-labels: %s has no labels (name the label column with -label-col)", name)
	}
	z, err := project(e, "transform", b, t, name, f.center)
	if err != nil {
		return err
	}
	_, m := z.Dims()
	header := make([]string, m)
	for k := range header {
		header[k] = "c" + strconv.Itoa(k+1)
	}
	if f.withLabels {
		if err := writeLabelled(out.Writer, z, header, t.Labels); err != nil {
			return err
		}
	} else if err := writeMatrixCSV(out.Writer, z, header); err != nil {
		return err
	}
	return out.commit()
}

// project returns the coordinates (x − μ)·B of the data of t (file name)
// in the basis b, with μ chosen by center (auto, data or none). It checks
// that b fits the data, and warns on stderr (as command cmd) if the column
// names differ from those of the fit.
func project(e *env, cmd string, b *basisFile, t *dataio.Table, name, center string) (*mat.Dense, error) {
	if err := matchBasis(b, t, name); err != nil {
		return nil, err
	}
	for j := range b.columns {
		if t.Names != nil && j < len(t.Names) && t.Names[j] != b.columns[j] {
			fmt.Fprintf(e.stderr, "ngca %s: warning: data column %d is %q in %s but %q in the fit (%s); are the columns in the same order?\n",
				cmd, j+1, t.Names[j], name, b.columns[j], b.name)
			break
		}
	}
	n, d := t.X.Dims()
	mean := make([]float64, d)
	switch {
	case center == "none":
	case center == "auto" && b.mean != nil:
		copy(mean, b.mean)
	default:
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

// matchBasis checks that the basis has a row per data column of t, after
// widening a LIBSVM table whose last features are all zero (absent).
func matchBasis(b *basisFile, t *dataio.Table, name string) error {
	n, d := t.X.Dims()
	rows, _ := b.basis.Dims()
	if t.Format == dataio.LIBSVM && d < rows {
		wide := mat.NewDense(n, rows, nil)
		wide.Slice(0, n, 0, d).(*mat.Dense).Copy(t.X)
		t.X = wide
		for j := d; j < rows; j++ {
			t.Fields = append(t.Fields, j+1)
		}
		d = rows
	}
	if d == rows {
		return nil
	}
	msg := fmt.Sprintf("%s has %s but the basis %s has %s (one per data column)", name, countNoun(d, "data column"), b.name, countNoun(rows, "row"))
	switch {
	case d == rows+1 && b.labelColumn != "" && t.LabelName == "":
		msg += fmt.Sprintf("; the fit read column %q as labels: add -label-col %s", b.labelColumn, b.labelColumn)
	case d == rows+1 && t.Labels == nil && t.Format != dataio.LIBSVM:
		msg += "; if a column holds labels, name it with -label-col"
	}
	return fmt.Errorf("%s", msg)
}

// writeLabelled writes z as CSV with the labels as a last column.
func writeLabelled(w *bufio.Writer, z *mat.Dense, header, labels []string) error {
	n, m := z.Dims()
	cw := csv.NewWriter(w)
	cw.Write(append(header, "label"))
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
