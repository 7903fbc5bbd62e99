package ngcabeam

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/fitfile"
)

// ReadOptions say how Read reads its files: the input flags of the ngca
// command, as it takes them ("ngca help fit"). The zero value detects the
// format and a header line in every file, reads no labels, keeps every
// column and makes a missing value an error.
type ReadOptions struct {
	// Format is auto (or ""), csv, tsv, space, semicolon or libsvm; a
	// gzip-compressed file is read as its content.
	Format string
	// Header is auto (or ""), true or false: whether the first line of a
	// CSV or TSV file is a header. Every file has its own (auto detects it
	// in each), and the files must agree on it.
	Header string
	// LabelCol names the column of labels (a 1-based number or a header
	// name), left out of the data.
	LabelCol string
	// Cols keeps and Drop leaves out data columns: comma-separated header
	// names, 1-based numbers and ranges a-b.
	Cols, Drop string
	// Keep lists columns (as Cols does) whose cells Project passes
	// through, as text, before the coordinates.
	Keep string
	// Missing says what to do with a missing value (an empty cell, NA,
	// N/A, NaN, null or ?): error (or ""), drop (leave the row out), or
	// empty (keep the row, marked Missing; only Project takes such rows).
	// With Fit set, "" means empty.
	Missing string
	// Fit, if not nil, is the JSON of a fit (what "ngca fit -json" and
	// "ngca-beam fit" write): the files are then read the way the fit read
	// its own, as "ngca transform" reads them (its label column; its data
	// columns by header name in its order, or by number; its -missing
	// drop as empty), the options above winning where they are set, and
	// every file must have a data column per row of the fit's basis.
	Fit []byte
}

// options returns the dataio options, and with a fit the number of data
// columns of its basis (0 without).
func (o ReadOptions) options() (dataio.Options, int, error) {
	var opt dataio.Options
	f, err := dataio.ParseFormat(or(o.Format, "auto"))
	if err != nil {
		return opt, 0, fmt.Errorf("ngcabeam: ReadOptions.Format: %v", err)
	}
	opt = dataio.Options{Format: f, LabelCol: o.LabelCol, Cols: o.Cols, Drop: o.Drop, Keep: o.Keep}
	switch or(o.Header, "auto") {
	case "auto":
	case "true":
		opt.Header = dataio.HeaderYes
	case "false":
		opt.Header = dataio.HeaderNo
	default:
		return opt, 0, fmt.Errorf("ngcabeam: ReadOptions.Header %q: want auto, true or false", o.Header)
	}
	missing := o.Missing
	if missing == "" && o.Fit != nil {
		missing = "empty"
	}
	switch or(missing, "error") {
	case "error":
	case "drop":
		opt.Missing = dataio.MissingDrop
	case "empty":
		opt.Missing = dataio.MissingKeep
	default:
		return opt, 0, fmt.Errorf("ngcabeam: ReadOptions.Missing %q: want error, drop or empty", o.Missing)
	}
	if o.Fit == nil {
		return opt, 0, nil
	}
	var j struct {
		fitfile.Fields
		Basis [][]json.RawMessage `json:"basis"`
	}
	if err := json.Unmarshal(o.Fit, &j); err != nil {
		return opt, 0, fmt.Errorf("ngcabeam: ReadOptions.Fit: %v", err)
	}
	d := len(j.Basis)
	if d == 0 {
		return opt, 0, fmt.Errorf("ngcabeam: ReadOptions.Fit has no \"basis\" (a fit's JSON is the output of \"ngca fit -json\")")
	}
	c := fitfile.Columns{Names: j.Columns, LabelColumn: j.LabelColumn, Flags: j.InputFlags, LIBSVM: j.Format == "libsvm", ZeroBased: j.ZeroBased}
	if len(j.ColumnNumbers) == d && j.Columns == nil {
		c.Numbers = j.ColumnNumbers
	}
	set := map[string]bool{"label-col": o.LabelCol != "", "cols": o.Cols != "", "drop": o.Drop != "", "missing": o.Missing != ""}
	c.Select(&opt, set, dataio.MissingKeep)
	return opt, d, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// File is what Read found in one of its files.
type File struct {
	// Path is the file's name.
	Path string
	// Rows counts the rows read, Dropped those left out for a missing
	// value (Missing drop) and Incomplete those kept with one (Missing
	// empty).
	Rows, Dropped, Incomplete int
	// RowNames is the 1-based column of row names left out of the data
	// (0 for none); ShortHeader says the header was one name short (as
	// R's write.table writes row names); IntegerHeader says the first
	// line, the integers 0, 1, 2, …, was read as the header; ByPosition
	// says the data columns were matched to a fit's by position (a file
	// without a header against a fit that names its columns).
	RowNames                               int
	ShortHeader, IntegerHeader, ByPosition bool
	// ZeroBased says that the LIBSVM file numbers its features from 0.
	ZeroBased bool
}

// Input is what Read found in its files: the layout they share, and each
// file's counts.
type Input struct {
	// Glob is the pattern Read matched.
	Glob string
	// Format is the files' format (csv, tsv, space, semicolon or libsvm)
	// and Header whether they have a header line.
	Format string
	Header bool
	// Names are the header names of the data columns (nil without a
	// header), Fields their 1-based numbers in the files (LIBSVM: feature
	// indices), LabelName the header name of the label column.
	Names     []string
	Fields    []int
	LabelName string
	HasLabels bool
	// KeptNames names the columns of ReadOptions.Keep.
	KeptNames []string
	// ZeroBased says that the LIBSVM files number their features from 0.
	ZeroBased bool
	// Files lists the files, sorted by path.
	Files []File
}

// Rows returns the number of rows read from the files.
func (in Input) Rows() int {
	n := 0
	for _, f := range in.Files {
		n += f.Rows
	}
	return n
}

// Dropped returns the number of rows left out for a missing value.
func (in Input) Dropped() int {
	n := 0
	for _, f := range in.Files {
		n += f.Dropped
	}
	return n
}

// Read reads the files that match glob (a local path, or any file system
// Beam has, gs:// for instance, with its package imported), each by
// itself, as the ngca command reads a data file (internal/dataio: the
// same formats, detection, header rules, column selection and errors) in
// blocks of 4096 rows. A file that cannot be read, or holds a bad cell,
// fails the pipeline with an error that names the file and the line. It
// returns the rows, a PCollection of Rows, and a singleton PCollection of
// the Input, which fails the pipeline if no file matches or the files do
// not agree on their layout (format, header, columns, labels). It counts
// each file's rows, rows left out and reading notes in Beam counters,
// which Notes words. Read panics on bad options, as Beam's transforms do;
// TryRead returns the error instead.
func Read(s beam.Scope, glob string, opt ReadOptions) (rows, input beam.PCollection) {
	rows, input, err := TryRead(s, glob, opt)
	if err != nil {
		panic(err)
	}
	return rows, input
}

// TryRead is Read, returning an error for bad options.
func TryRead(s beam.Scope, glob string, opt ReadOptions) (rows, input beam.PCollection, err error) {
	s = s.Scope("ngcabeam.Read")
	o, d, err := opt.options()
	if err != nil {
		return rows, input, err
	}
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob, fileio.MatchEmptyDisallow()), fileio.ReadUncompressed())
	rows, infos := beam.ParDo2(s, &readFn{Opt: o, Width: d, Fit: opt.Fit != nil}, files)
	input = beam.Combine(s, &inputFn{Glob: glob}, infos)
	return rows, input, nil
}

// fileLayout is what the reading DoFn found in one file.
type fileLayout struct {
	File      File
	Format    string
	Header    bool
	Names     []string
	Fields    []int
	LabelName string
	HasLabels bool
	KeptNames []string
	ZeroBased bool
}

// readFn reads one file into blocks of rows.
type readFn struct {
	Opt   dataio.Options
	Width int  // the fit's data columns (0 without a fit)
	Fit   bool // reading for a fit's basis
}

// Counter namespace and names of Read's counts (see Notes).
const (
	counterNS  = "ngca"
	cRows      = "rows"
	cDropped   = "dropped"
	cGaps      = "incomplete"
	cRowNames  = "rownames"
	cShort     = "shortheader"
	cIntHeader = "intheader"
	cZero      = "zerobased"
	cPosition  = "byposition"
)

func count(ctx context.Context, name, path string, v int) {
	if v != 0 {
		beam.NewCounter(counterNS, name+"|"+path).Inc(ctx, int64(v))
	}
}

func (f *readFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(Rows), info func(fileLayout)) error {
	path := file.Metadata.Path
	rc, err := file.Open(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()
	s, err := dataio.NewScanner(rc, path, f.Opt)
	if err != nil {
		return err
	}
	if f.Width > 0 {
		s.Widen(f.Width)
	}
	t := s.Layout()
	if f.Width > 0 && len(t.Fields) != f.Width {
		msg := fmt.Sprintf("%s has %d data columns but the fit's basis has %d rows (one per data column)", path, len(t.Fields), f.Width)
		if len(t.Fields) == f.Width+1 && !s.HasLabels() && t.Format != dataio.LIBSVM {
			msg += "; if a column holds labels, name it with -label-col"
		}
		return fmt.Errorf("%s", msg)
	}
	lay := fileLayout{File: File{Path: path, RowNames: t.RowNames, ShortHeader: t.ShortHeader, IntegerHeader: t.IntegerHeader,
		ByPosition: f.Fit && len(f.Opt.Names) > 0 && !t.Header, ZeroBased: t.ZeroBased},
		Format: t.Format.String(), Header: t.Header, Names: t.Names, Fields: t.Fields, LabelName: t.LabelName,
		HasLabels: s.HasLabels(), KeptNames: t.KeptNames, ZeroBased: t.ZeroBased}
	d, k := len(t.Fields), len(t.KeptNames)
	block := Rows{Source: path, Cols: d, KeepCols: k}
	gaps := 0
	flush := func() {
		if len(block.Lines) > 0 {
			emit(block)
			block = Rows{Source: path, Block: block.Block + 1, Cols: d, KeepCols: k}
		}
	}
	for s.Scan() {
		i := len(block.Lines)
		block.Values = append(block.Values, s.Row()...)
		block.Lines = append(block.Lines, s.Line())
		block.Keep = append(block.Keep, s.Kept()...)
		if s.HasLabels() {
			block.Labels = append(block.Labels, s.Label())
		}
		if s.Incomplete() {
			if block.Missing == nil {
				block.Missing = make([]bool, i, blockRows)
			}
			gaps++
		}
		if block.Missing != nil {
			block.Missing = append(block.Missing, s.Incomplete())
		}
		if i+1 == blockRows {
			flush()
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	if err := s.Err(); err != nil {
		return err
	}
	flush()
	lay.File.Rows, lay.File.Dropped, lay.File.Incomplete = s.Rows(), s.Dropped(), gaps
	count(ctx, cRows, path, s.Rows())
	count(ctx, cDropped, path, s.Dropped())
	count(ctx, cGaps, path, gaps)
	count(ctx, cRowNames, path, t.RowNames)
	for name, on := range map[string]bool{cShort: t.ShortHeader, cIntHeader: t.IntegerHeader, cZero: t.ZeroBased, cPosition: lay.File.ByPosition} {
		if on {
			count(ctx, name, path, 1)
		}
	}
	info(lay)
	return nil
}

// inputFn gathers the files' layouts into the Input, checking that they
// agree.
type inputFn struct {
	Glob string
}

func (f *inputFn) CreateAccumulator() []fileLayout { return nil }

func (f *inputFn) AddInput(acc []fileLayout, l fileLayout) []fileLayout { return append(acc, l) }

func (f *inputFn) MergeAccumulators(a, b []fileLayout) []fileLayout { return append(a, b...) }

func (f *inputFn) ExtractOutput(acc []fileLayout) (Input, error) {
	if len(acc) == 0 {
		return Input{}, fmt.Errorf("no file matches %s", f.Glob)
	}
	slices.SortFunc(acc, func(a, b fileLayout) int {
		switch {
		case a.File.Path < b.File.Path:
			return -1
		case a.File.Path > b.File.Path:
			return 1
		}
		return 0
	})
	first := acc[0]
	in := Input{Glob: f.Glob, Format: first.Format, Header: first.Header, Names: first.Names, Fields: first.Fields,
		LabelName: first.LabelName, HasLabels: first.HasLabels, KeptNames: first.KeptNames, ZeroBased: first.ZeroBased}
	for _, l := range acc {
		if err := agree(first, l); err != nil {
			return Input{}, err
		}
		in.Files = append(in.Files, l.File)
	}
	return in, nil
}

// agree returns an error naming both files if b's layout is not a's.
func agree(a, b fileLayout) error {
	var what string
	switch {
	case a.Format != b.Format:
		what = fmt.Sprintf("is %s, %s is %s", b.Format, a.File.Path, a.Format)
	case a.Header != b.Header:
		what = fmt.Sprintf("%s a header line and %s %s: give every file a header, or -header false", has(b.Header), a.File.Path, has(a.Header))
	case !slices.Equal(a.Names, b.Names):
		what = fmt.Sprintf("has the data columns %s, %s has %s", quoted(b.Names), a.File.Path, quoted(a.Names))
	case !slices.Equal(a.Fields, b.Fields):
		what = fmt.Sprintf("has its data columns at %v, %s at %v", b.Fields, a.File.Path, a.Fields)
	case a.HasLabels != b.HasLabels || a.LabelName != b.LabelName:
		what = fmt.Sprintf("has the label column %q, %s %q", b.LabelName, a.File.Path, a.LabelName)
	case !slices.Equal(a.KeptNames, b.KeptNames):
		what = fmt.Sprintf("keeps the columns %s, %s %s", quoted(b.KeptNames), a.File.Path, quoted(a.KeptNames))
	case a.ZeroBased != b.ZeroBased:
		what = fmt.Sprintf("numbers its features from %d, %s from %d", base(b.ZeroBased), a.File.Path, base(a.ZeroBased))
	default:
		return nil
	}
	return fmt.Errorf("%s %s: the files of one input must have the same layout", b.File.Path, what)
}

func has(h bool) string {
	if h {
		return "has"
	}
	return "has no"
}

func base(zero bool) int {
	if zero {
		return 0
	}
	return 1
}

func quoted(names []string) string {
	if names == nil {
		return "(no header)"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return fmt.Sprint(q)
}

func init() {
	beam.RegisterType(reflect.TypeOf(fileLayout{}))
	beam.RegisterType(reflect.TypeOf(Input{}))
	beam.RegisterType(reflect.TypeOf(File{}))
	register.DoFn4x1[context.Context, fileio.ReadableFile, func(Rows), func(fileLayout), error](&readFn{})
	register.Emitter1[fileLayout]()
	register.Combiner3[[]fileLayout, fileLayout, Input](&inputFn{})
}
