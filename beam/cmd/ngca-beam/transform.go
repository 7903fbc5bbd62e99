package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/ngca-go/ngca/internal/words"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ngca-go/ngca/beam/ngcabeam"
)

const transformDoc = `Usage: ngca-beam transform -basis FIT.json -input GLOB -output PREFIX [flags] [--runner=...]

Projects every row of the files that match GLOB onto the fit in FIT.json
(the JSON of "ngca fit -json" or "ngca-beam fit"), (x − μ)·B with μ the
fit's means, and writes one CSV file per input file, PREFIX-00000-of-00008.csv
and so on, in the order of the files' names: a header (the -keep columns'
names, c1..cM, "label" with -with-labels), then a line per row of the
file, in its order, the same line as "ngca transform -basis FIT.json FILE"
writes, to the last digit.

The files are read as "ngca transform" reads a file: with the fit's label
column, and its data columns by header name in the fit's order (or by
number), whatever -cols and -drop say; a row with a missing value keeps
its line with empty coordinates (-missing empty, the default), or is left
out (-missing drop), or stops the pipeline (-missing error). Each worker
gets the fit as a side input; a file's blocks of rows are projected where
they are and gathered by file to be written in order.

Examples:
  ngca-beam transform -basis fit.json -input 'data/part-*.csv' -output out/proj
  ngca-beam transform -basis gs://bucket/fit.json -input 'gs://bucket/rows/*.csv' -output gs://bucket/proj/part \
    --runner=dataflow --project=P --region=europe-west1 --temp_location=gs://bucket/tmp
`

// transformFlags are the flags of transform.
type transformFlags struct {
	in         inputFlags
	basis, out string
	keep       string
	withLabels bool
}

func init() {
	commands["transform"] = command{doc: transformDoc, flags: func(fs *flag.FlagSet) func(context.Context, *env) error {
		f := &transformFlags{in: inputFlags{missing: "empty"}}
		f.in.register(fs, "`what` to do with a row that has a missing value in a data column: empty (its line with empty coordinates), drop (leave it out) or error")
		fs.StringVar(&f.basis, "basis", "", "the fit: the `FIT.json` of ngca fit -json or ngca-beam fit (required)")
		fs.StringVar(&f.out, "output", "", "the output files' `PREFIX`: PREFIX-00000-of-00008.csv, ... (required)")
		fs.StringVar(&f.keep, "keep", "", "copy these columns (a `list` as for -cols) to the output, as they are, before the coordinates")
		fs.BoolVar(&f.withLabels, "with-labels", false, "append the labels (-label-col, or a LIBSVM file's) as a last column \"label\"")
		return func(ctx context.Context, e *env) error { return f.run(ctx, e, setFlags(fs)) }
	}}
}

func (f *transformFlags) run(ctx context.Context, e *env, set map[string]bool) error {
	switch {
	case f.basis == "":
		return usagef("-basis is required: the JSON of ngca fit -json or ngca-beam fit")
	case f.out == "":
		return usagef("-output is required: the prefix of the output files")
	}
	switch f.in.missing {
	case "empty", "drop", "error":
	default:
		return usagef("-missing %q: want empty, error or drop", f.in.missing)
	}
	if err := checkGlob(f.in.glob); err != nil {
		return err
	}
	data, err := readFile(ctx, f.basis)
	if err != nil {
		return fmt.Errorf("-basis: %w", err)
	}
	fit, err := ngcabeam.FromJSON(data)
	if err != nil {
		return fmt.Errorf("-basis %s: %w", f.basis, err)
	}
	res, err := fit.Decode()
	if err != nil {
		return fmt.Errorf("-basis %s: %w", f.basis, err)
	}
	var cols struct {
		Columns []string `json:"columns"`
	}
	json.Unmarshal(data, &cols)
	_, m := res.Basis.Dims()
	ropt, err := f.in.readOptions()
	if err != nil {
		return err
	}
	ropt.Keep, ropt.Fit = f.keep, data
	if !set["missing"] {
		ropt.Missing = ""
	}
	p, s := beam.NewPipelineWithRoot()
	rows, input, err := ngcabeam.TryRead(s, f.in.glob, ropt)
	if err != nil {
		return usageError{err}
	}
	proj := ngcabeam.Project(s, beam.Create(s, fit), rows)
	bySrc := beam.GroupByKey(s, beam.ParDo(s, bySource, proj))
	beam.ParDo0(s, &writeShardFn{Prefix: f.out, M: m, WithLabels: f.withLabels}, bySrc, beam.SideInput{Input: input})
	pr, err := runPipeline(ctx, p)
	if err != nil {
		return err
	}
	if pr != nil {
		files := ngcabeam.FilesOf(pr.Metrics())
		notes(e, f.in.glob, files, true)
		var pos []string
		for _, fl := range files {
			if fl.ByPosition {
				pos = append(pos, fl.Path)
			}
		}
		if len(pos) > 0 {
			e.notef("%s %s no header, so %s data columns are taken by position as the fit's %s", words.JoinAnd(pos), words.Agree(len(pos), "has", "have"),
				words.Agree(len(pos), "its", "their"), abbrevList(cols.Columns, 6))
		}
	}
	return nil
}

// abbrevList lists items as "a, b, c" with at most k of them shown.
func abbrevList(items []string, k int) string {
	if len(items) <= k {
		return joinComma(items)
	}
	return fmt.Sprintf("%s, … (%d in all)", joinComma(items[:k]), len(items))
}

func joinComma(items []string) string {
	s := ""
	for i, it := range items {
		if i > 0 {
			s += ", "
		}
		s += it
	}
	return s
}

// bySource keys a block of coordinates by its file.
func bySource(r ngcabeam.Rows) (string, ngcabeam.Rows) { return r.Source, r }

// writeShardFn writes the coordinates of one file as a CSV shard.
type writeShardFn struct {
	Prefix     string
	M          int
	WithLabels bool
}

// shardName returns the name of shard i of n.
func shardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.csv", prefix, i, n)
}

func (w *writeShardFn) ProcessElement(ctx context.Context, src string, blocks func(*ngcabeam.Rows) bool, in ngcabeam.Input) error {
	i := slices.IndexFunc(in.Files, func(f ngcabeam.File) bool { return f.Path == src })
	if i < 0 {
		return fmt.Errorf("ngca-beam: coordinates of %s, which is not one of the files read", src)
	}
	if w.WithLabels && !in.HasLabels {
		return fmt.Errorf("-with-labels: %s has no labels (name the label column with -label-col)", src)
	}
	var all []ngcabeam.Rows
	var r ngcabeam.Rows
	for blocks(&r) {
		all = append(all, r)
	}
	slices.SortFunc(all, func(a, b ngcabeam.Rows) int { return a.Block - b.Block })
	header := slices.Clone(in.KeptNames)
	for k := 0; k < w.M; k++ {
		header = append(header, "c"+strconv.Itoa(k+1))
	}
	if w.WithLabels {
		header = append(header, "label")
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	if err := cw.Write(header); err != nil {
		return err
	}
	rec := make([]string, 0, len(header))
	for _, b := range all {
		if b.Cols != w.M {
			return fmt.Errorf("ngca-beam: coordinates of %d columns for a basis of %d", b.Cols, w.M)
		}
		for i := 0; i < b.Len(); i++ {
			rec = append(rec[:0], b.Keep[i*b.KeepCols:(i+1)*b.KeepCols]...)
			gap := b.Missing != nil && b.Missing[i]
			for _, v := range b.Values[i*w.M : (i+1)*w.M] {
				switch {
				case gap:
					rec = append(rec, "")
				case math.IsNaN(v) || math.IsInf(v, 0):
					return fmt.Errorf("a row of %s: its coordinates are not finite", src)
				default:
					rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
				}
			}
			if w.WithLabels {
				rec = append(rec, b.Labels[i])
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return writeFile(ctx, shardName(w.Prefix, i, len(in.Files)), buf.Bytes())
}

func init() {
	beam.RegisterType(reflect.TypeOf((*writeShardFn)(nil)).Elem())
	register.Function1x2(bySource)
	register.DoFn4x1[context.Context, string, func(*ngcabeam.Rows) bool, ngcabeam.Input, error](&writeShardFn{})
	register.Iter1[ngcabeam.Rows]()
}
