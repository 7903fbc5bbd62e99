package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/ngca-go/ngca/internal/words"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ngca-go/ngca/beam/ngcabeam"
	"github.com/ngca-go/ngca/internal/audit"
	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/fitfile"
	"github.com/ngca-go/ngca/internal/methods"
)

const fitDoc = `Usage: ngca-beam fit -dim M|auto [-method NAME] [-full] -input GLOB -o FIT.json [flags] [--runner=...]

Fits an estimator of the ngca library to the rows of the files that match
GLOB (CSV, TSV, space- or semicolon-separated or LIBSVM, plain or gzip;
each file with its own header line; read as "ngca fit" reads a file) and
writes to FIT.json the JSON that "ngca fit -json" writes: the library's
Result, with n the number of rows fitted.

By default a uniform sample of -sample rows (100000) is fitted on one
worker: the rows of smallest hash of their values and -seed (bottom-k
sampling), so that the sample, and the fit, are the same bits however the
rows are split into files and whichever runner runs them. With -full,
WF-LSNGCA (or -method lsngca) is fitted to every row: the centers, widths
and ridges are those cross-validation chose on the sample, and the
least-squares sums over all rows are formed by the workers and merged
(4 passes over the rows for WF-LSNGCA, 3 for LSNGCA); the result equals
the single-machine fit with those choices to rounding.

-dim auto chooses M by ngca.EstimateDim on the sample; -check judges the
fit with ngca.Check on the sample ("check" in the JSON). On stderr go the
notes of ngca (rows left out by -missing drop, row names, the sample).
The sample is audited as "ngca fit" audits a file (its notes go to
stderr, what it left out to "left_out" and "set_aside" in the JSON):
constant, index and id columns are left out unless -cols lists them,
and with -outliers far (the default) the rows far from the rest and
those that hold a missing-value code; with -full the passes over every
row take the columns kept and skip the rows that the sample's rule sets
aside (codes of the recorded columns, or far by its screen), as "ngca
transform" does.

Beam's flags choose the runner: --runner=prism (the default: this
machine), dataflow, flink or spark, with their options
(docs/distributed.md).

Examples:
  ngca-beam fit -dim 2 -input 'data/part-*.csv' -o fit.json
  ngca-beam fit -dim 2 -method wflsngca -full -input 'data/part-*.csv.gz' -o fit.json
  ngca-beam fit -dim 2 -input 'gs://bucket/rows/*.csv' -o gs://bucket/fit.json \
    --runner=dataflow --project=P --region=europe-west1 --temp_location=gs://bucket/tmp
`

// inputFlags are the flags of how to read the files.
type inputFlags struct {
	glob, format, header, labelCol, cols, drop, missing string
}

func (in *inputFlags) register(fs *flag.FlagSet, missingUsage string) {
	fs.StringVar(&in.glob, "input", "", "the data files: a `glob` (quote it), of a local path or a file system Beam has (gs://)")
	fs.StringVar(&in.format, "format", "auto", "input `format`: csv, tsv, space, semicolon, libsvm, or auto (by the extension, else the content)")
	fs.StringVar(&in.header, "header", "auto", "whether the first line of each file is a header: true, false or auto")
	fs.StringVar(&in.labelCol, "label-col", "", "the `column` of labels (1-based number or header name), left out of the data")
	fs.StringVar(&in.cols, "cols", "", "keep only these data columns: a comma-separated `list` of header names, 1-based numbers and ranges a-b")
	fs.StringVar(&in.drop, "drop", "", "leave out these columns (a `list` as for -cols)")
	fs.StringVar(&in.missing, "missing", in.missing, missingUsage)
}

// fitFlags are the flags of fit.
type fitFlags struct {
	in                               inputFlags
	outliers                         string
	out                              string
	dim, method                      string
	full, check                      bool
	sample                           int
	seed                             uint64
	workers, centers, folds          int
	widths, ridges, vwidths, vridges string
	iterations                       int
	threshold                        float64
}

func init() {
	commands["fit"] = command{doc: fitDoc, flags: func(fs *flag.FlagSet) func(context.Context, *env) error {
		f := &fitFlags{in: inputFlags{missing: "error"}}
		f.in.register(fs, "`what` to do with a missing value (an empty cell, NA, N/A, NaN, null or ?): error, or drop: leave the row out")
		fs.StringVar(&f.outliers, "outliers", audit.OutliersFar, "`what` to do with the sample's rows that lie far from the rest (as \"ngca fit -outliers\": ngca.FarRows' rule) and those that hold a missing-value code: "+
			"far: leave them out (with -full, the passes over every row skip the rows the sample's rule sets aside); drop: also the rows that hold a value far outside the rest of its column; keep: fit them")
		fs.StringVar(&f.out, "o", "", "write the fit's JSON to `FIT.json` (a local path or gs://...; required)")
		fs.StringVar(&f.dim, "dim", "", "dimension `M` of the non-Gaussian subspace, or auto (required)")
		fs.StringVar(&f.method, "method", "", "`estimator`: "+methods.Names()+" (default wflsngca-robust; with -full, wflsngca, or lsngca)")
		fs.BoolVar(&f.full, "full", false, "fit WF-LSNGCA or LSNGCA to every row, with the choices of cross-validation on the sample")
		fs.BoolVar(&f.check, "check", false, "judge the fit with ngca.Check on the sample")
		fs.IntVar(&f.sample, "sample", ngcabeam.DefaultSample, "the `number` of rows of the sample")
		fs.Uint64Var(&f.seed, "seed", 1, "random `seed`: of the sample's hashes, of the estimator's source rand.NewPCG(seed, 0) and of -check's rand.NewPCG(seed, 1)")
		fs.IntVar(&f.workers, "workers", 0, "`number` of goroutines of the worker that fits the sample (0 = all its CPUs)")
		fs.IntVar(&f.centers, methods.SetCenters, 0, "`number` of kernel centers (0 = min(n, 100))")
		fs.StringVar(&f.widths, methods.SetWidths, "", "kernel widths σ to cross-validate, a comma-separated `list`")
		fs.StringVar(&f.ridges, methods.SetRidges, "", "ridge parameters λ, a comma-separated `list`")
		fs.IntVar(&f.folds, methods.SetFolds, 0, "`number` of cross-validation folds (0 = 5)")
		fs.StringVar(&f.vwidths, methods.SetVWidths, "", "stage-2 widths, a comma-separated `list` (default: -widths)")
		fs.StringVar(&f.vridges, methods.SetVRidges, "", "stage-2 ridges, a comma-separated `list` (default: -ridges)")
		fs.IntVar(&f.iterations, methods.SetIterations, 0, "MIPP's `number` of evaluations per index function (0 = the default)")
		fs.Float64Var(&f.threshold, methods.SetThreshold, 0, "MIPP's signal-to-noise `threshold` (0 = the default)")
		return func(ctx context.Context, e *env) error { return f.run(ctx, e, setFlags(fs)) }
	}}
}

// setFlags returns the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// parseGrid parses the comma-separated grid of flag -name.
func parseGrid(name, s string) ([]float64, error) {
	items := cli.SplitList(s)
	if s != "" && len(items) == 0 {
		return nil, usagef("-%s is empty", name)
	}
	var g []float64
	for _, it := range items {
		v, err := strconv.ParseFloat(it, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 1) {
			return nil, usagef("-%s: %q is not a positive finite number", name, it)
		}
		g = append(g, v)
	}
	return g, nil
}

// options returns the Fit options of the flags.
func (f *fitFlags) options(set map[string]bool) (ngcabeam.FitOptions, error) {
	opt := ngcabeam.FitOptions{Method: f.method, Sample: f.sample, Seed: f.seed, Full: f.full, Check: f.check, Workers: f.workers,
		Centers: f.centers, Folds: f.folds, Iterations: f.iterations, Threshold: f.threshold,
		Audit: true, Outliers: f.outliers, Listed: f.in.cols != ""}
	switch f.outliers {
	case audit.OutliersFar, audit.OutliersDrop, audit.OutliersKeep:
	default:
		return opt, usagef("-outliers %q: want far, drop or keep", f.outliers)
	}
	switch {
	case f.dim == "":
		return opt, usagef("-dim is required: the dimension M of the non-Gaussian subspace, or auto")
	case f.dim == "auto":
	default:
		d, err := strconv.Atoi(f.dim)
		if err != nil || d < 1 {
			return opt, usagef("-dim %q: want a number M ≥ 1 or auto", f.dim)
		}
		opt.Dim = d
	}
	if f.out == "" {
		return opt, usagef("-o is required: the fit's JSON file")
	}
	if f.sample < 1 {
		return opt, usagef("-sample %d: want at least 1 row", f.sample)
	}
	key := f.method
	if f.full {
		switch key {
		case "", "wflsngca", "lsngca":
		default:
			return opt, usagef("-full fits wflsngca or lsngca, not -method %s", key)
		}
		key = or(key, "wflsngca")
	}
	m, err := methods.Lookup(or(key, "wflsngca-robust"))
	if err != nil {
		return opt, usagef("-method: %v", err)
	}
	for _, name := range methods.SettingNames() {
		if set[name] && !m.Applies(name) {
			return opt, usagef("-%s does not apply to -method %s", name, m.Key)
		}
	}
	for _, g := range []struct {
		name, s string
		to      *[]float64
	}{{"widths", f.widths, &opt.Widths}, {"ridges", f.ridges, &opt.Ridges}, {"vwidths", f.vwidths, &opt.VWidths}, {"vridges", f.vridges, &opt.VRidges}} {
		if *g.to, err = parseGrid(g.name, g.s); err != nil {
			return opt, err
		}
	}
	opt.Method = m.Key
	if err := ngcabeam.CheckFitOptions(opt); err != nil {
		return opt, usageError{err}
	}
	return opt, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// readOptions returns the reading options of the input flags.
func (in *inputFlags) readOptions() (ngcabeam.ReadOptions, error) {
	return ngcabeam.ReadOptions{Format: in.format, Header: in.header, LabelCol: in.labelCol, Cols: in.cols, Drop: in.drop, Missing: in.missing}, nil
}

func (f *fitFlags) run(ctx context.Context, e *env, set map[string]bool) error {
	opt, err := f.options(set)
	if err != nil {
		return err
	}
	if f.in.missing != "error" && f.in.missing != "drop" {
		return usagef("-missing %q: want error or drop", f.in.missing)
	}
	ropt, err := f.in.readOptions()
	if err != nil {
		return err
	}
	if err := checkGlob(f.in.glob); err != nil {
		return err
	}
	p, s := beam.NewPipelineWithRoot()
	rows, input, err := ngcabeam.TryRead(s, f.in.glob, ropt)
	if err != nil {
		return usageError{err}
	}
	fit := ngcabeam.FitInput(s, rows, input, opt)
	beam.ParDo0(s, &writeFitFn{Out: f.out, Input: fitfile.InputFlags{Cols: f.in.cols, Drop: f.in.drop, LabelCol: f.in.labelCol, Missing: f.in.missing}},
		fit, beam.SideInput{Input: input})
	res, err := runPipeline(ctx, p)
	if err != nil {
		return err
	}
	if res != nil {
		notes(e, f.in.glob, ngcabeam.FilesOf(res.Metrics()), false)
		if k, of := ngcabeam.SampleOf(res.Metrics()); k > 0 && k < of && !f.full {
			e.notef("-sample: using %d of the %d rows of %s, those of smallest hash (-seed %d)", k, of, f.in.glob, f.seed)
		}
		for _, l := range ngcabeam.NotesOf(res.Metrics()) {
			fmt.Fprintln(e.stderr, l)
		}
		if k := ngcabeam.AsideOf(res.Metrics()); k > 0 && f.full {
			e.notef("-full: the passes over every row left out %s of %s that the sample's rule sets aside (far from the rest, or a missing-value code, as \"ngca transform\" sets rows aside); -outliers keep keeps them",
				words.CountNoun(k, "row"), f.in.glob)
		}
	}
	return nil
}

// writeFitFn writes the fit's JSON file.
type writeFitFn struct {
	Out   string
	Input fitfile.InputFlags
}

func (w *writeFitFn) ProcessElement(ctx context.Context, f ngcabeam.Fitted, in ngcabeam.Input) error {
	b, err := fitJSON(f, in, w.Input)
	if err != nil {
		return err
	}
	return writeFile(ctx, w.Out, b)
}

// fitJSON returns the file of the fit f of the input in, read with the
// flags flags: what "ngca fit -json" writes.
func fitJSON(f ngcabeam.Fitted, in ngcabeam.Input, flags fitfile.InputFlags) ([]byte, error) {
	res, err := f.Decode()
	if err != nil {
		return nil, err
	}
	ff := fitfile.Fields{Method: f.Method, Input: in.Glob, Format: in.Format, N: f.Rows, D: len(in.Fields), Dim: f.Dim,
		Columns: in.Names, ColumnNumbers: in.Fields, LabelColumn: in.LabelName, InputFlags: flags, ZeroBased: in.ZeroBased,
		Seed: f.Seed, Settings: fitfile.SettingsOf(nil, res.Report)}
	if len(f.Settings) > 0 {
		// Also the settings that only the fit's details hold.
		if err := json.Unmarshal(f.Settings, &ff.Settings); err != nil {
			return nil, err
		}
	}
	a, err := f.DecodeAudit()
	if err != nil {
		return nil, err
	}
	if a != nil {
		// The columns fitted: those the audit kept.
		var names []string
		for _, j := range a.Kept {
			if in.Names != nil && j < len(in.Names) {
				names = append(names, in.Names[j])
			}
		}
		ff.D, ff.Columns, ff.ColumnNumbers = len(a.Kept), names, a.Numbers
		ff.LeftOut, ff.OutliersDropped, ff.SetAside = a.LeftOut, a.OutliersDropped, a.SetAside
	}
	if flags.Missing == "drop" {
		dropped := in.Dropped()
		ff.RowsDropped = &dropped
	}
	if !f.Full && f.Sample < f.Of {
		ff.Sample, ff.RowsRead = f.Sample, &f.Of
	}
	own, err := json.Marshal(ff)
	if err != nil {
		return nil, err
	}
	tail := []byte("{}")
	switch {
	case f.Check != nil:
		tail = append(append([]byte(`{"check":`), f.Check...), '}')
	case f.CheckError != "":
		tail, _ = json.Marshal(fitfile.CheckFields{CheckError: f.CheckError})
	}
	obj, err := fitfile.Merge(f.Result, "label", own, tail)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := fitfile.Write(&out, json.RawMessage(obj)); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// notes writes the notes of the files' counts on e's stderr, as ngca
// writes them for a file: those of transform if transform is set.
func notes(e *env, glob string, files []ngcabeam.File, transform bool) {
	var rows, dropped, gaps int
	var rowNames, short, intHeader, zero []string
	col := 0
	for _, f := range files {
		rows, dropped, gaps = rows+f.Rows, dropped+f.Dropped, gaps+f.Incomplete
		switch {
		case f.RowNames > 0 && f.ShortHeader:
			short = append(short, f.Path)
		case f.RowNames > 0:
			rowNames, col = append(rowNames, f.Path), f.RowNames
		}
		if f.IntegerHeader {
			intHeader = append(intHeader, f.Path)
		}
		if f.ZeroBased {
			zero = append(zero, f.Path)
		}
	}
	name := func(paths []string) string {
		if len(paths) == len(files) && len(files) > 1 {
			return fmt.Sprintf("the %d files of %s", len(files), glob)
		}
		if len(paths) <= 3 {
			return words.JoinAnd(paths)
		}
		return fmt.Sprintf("%s and %d more files of %s", words.JoinAnd(paths[:3]), len(paths)-3, glob)
	}
	if len(short) > 0 {
		e.notef("the header of %s has one name fewer than its rows have fields, as R's write.table writes row names: the first field of each row is read as its name, not as data", name(short))
	}
	if len(rowNames) > 0 {
		e.notef("column %d of %s holds row names (text under an empty header name), not data", col, name(rowNames))
	}
	if len(intHeader) > 0 {
		e.notef("the first row of %s, the numbers 0, 1, 2, … in order, is read as its header (as pandas writes integer column names), not as data; give -header false to read it as data", name(intHeader))
	}
	if len(zero) > 0 {
		e.notef("the feature indices of %s start at 0, as scikit-learn's dump_svmlight_file writes them: index 0 is read as feature 1, and -cols and -drop number the features from 1", name(zero))
	}
	all := fmt.Sprintf("%d files of %s", len(files), glob)
	if len(files) == 1 {
		all = files[0].Path
	}
	total := rows + dropped
	switch {
	case dropped > 0 && !transform:
		e.notef("-missing drop: left out %d of the %s of %s (a missing value in a selected column or the label)", dropped, words.CountNoun(total, "row"), all)
	case dropped > 0:
		e.notef("left out %d of the %s of %s, which %s a missing value (-missing drop); the output has a line per row kept", dropped, words.CountNoun(total, "row"), all, words.Agree(dropped, "holds", "hold"))
	}
	if gaps > 0 {
		e.notef("%d of the %s of %s %s a missing value in a data column: %s empty coordinates (-missing drop leaves %s out)",
			gaps, words.CountNoun(total, "row"), all, words.Agree(gaps, "holds", "hold"), words.Agree(gaps, "its line has", "their lines have"), words.Agree(gaps, "it", "them"))
	}
}

func init() {
	beam.RegisterType(reflect.TypeOf((*writeFitFn)(nil)).Elem())
	register.DoFn3x1[context.Context, ngcabeam.Fitted, ngcabeam.Input, error](&writeFitFn{})
}
