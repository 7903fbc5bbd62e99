package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"

	"github.com/ngca-go/ngca/internal/words"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/dataio"
)

// stdin is what the input file "-" reads; tests replace it.
var stdin io.Reader = os.Stdin

// inputFlags are the flags that say how to read a data file.
type inputFlags struct {
	format     string
	header     headerFlag
	labelCol   string
	cols, drop string
	missing    string
	outliers   string
	sample     int
	verbose    bool
	// emptyOK lets -missing be "empty" (transform: a row with a missing
	// value keeps its line, with empty coordinates).
	emptyOK bool
}

// inputFlagNames lists the flags of inputFlags, for the help; -sample and
// -outliers only with whole (the commands that read a whole table).
func inputFlagNames(whole bool) []string {
	names := []string{"format", "header", "label-col", "cols", "drop", "missing", "v"}
	if whole {
		names = append(names, "outliers", "sample")
	}
	return names
}

// register adds the flags to fs; -sample and -outliers only with whole.
func (in *inputFlags) register(fs *flag.FlagSet, whole bool) {
	fs.StringVar(&in.format, "format", "auto", "input `format`: csv, semicolon (';'-separated with decimal commas, as spreadsheets export CSV where the decimal mark is a comma; "+
		"decimal points are read too, one mark per file, no thousands separators), tsv, space (space-separated, as R's write.table writes), libsvm, "+
		"or auto: by the extension (.csv, or semicolon or space by the content; .tsv or .tab; .libsvm or .svm), else by the content; a gzip-compressed file is read as its content")
	fs.Var(&in.header, "header", "whether the first CSV/TSV row is a header: true, false, or auto: it is if it holds text and the next row only numbers")
	fs.StringVar(&in.labelCol, "label-col", "", "CSV/TSV `column` of labels (1-based number or header name): left out of the data, used by plot for colours (LIBSVM files have their labels)")
	fs.StringVar(&in.cols, "cols", "", "keep only these data columns: a comma-separated `list` of header names, 1-based column numbers (LIBSVM: feature numbers) and ranges a-b; "+
		"the columns keep the order of the file. With -drop too, -drop removes columns from what -cols keeps")
	fs.StringVar(&in.drop, "drop", "", "leave out these columns: a `list` as for -cols (a text column that is not the label, say)")
	fs.StringVar(&in.missing, "missing", "error", "`what` to do with a missing value (an empty cell, NA, N/A, NaN, null or ?, in any case) in a selected column or the label column: "+
		"error, or drop: leave out the rows that hold one and say how many on stderr")
	fs.BoolVar(&in.verbose, "v", false, "verbose: also write on stderr the statistics behind each note, warning and verdict")
	if whole {
		fs.StringVar(&in.outliers, "outliers", outliersFar, "`what` to do with rows that lie far from the rest (alone over a quarter of the rows' spread in their direction: a gross value, a row far out jointly; ngca.FarRows) "+
			"or hold a common missing-value code (9999, -999, ...): far: leave them out and name them; keep: keep them and name them; "+
			"drop: also leave out the rows with a value over 20 typical deviations from its column's median")
		fs.IntVar(&in.sample, "sample", 0, "use a random sample of `N` rows, drawn in one pass over FILE (reservoir sampling, from -seed) in memory for N rows only; "+
			"0 or N ≥ the rows of FILE uses every row")
	}
}

// options returns the reading options the flags ask for.
func (in *inputFlags) options() (dataio.Options, error) {
	f, err := dataio.ParseFormat(in.format)
	if err != nil {
		return dataio.Options{}, fmt.Errorf("%w: -format: %v", cli.ErrUsage, err)
	}
	opt := dataio.Options{Format: f, Header: in.header.h, LabelCol: in.labelCol, Cols: in.cols, Drop: in.drop}
	switch in.missing {
	case "error":
	case "drop":
		opt.Missing = dataio.MissingDrop
	case "empty":
		if in.emptyOK {
			opt.Missing = dataio.MissingKeep
			break
		}
		fallthrough
	default:
		if in.emptyOK {
			return dataio.Options{}, cli.Usagef("-missing %q: want empty, error or drop", in.missing)
		}
		return dataio.Options{}, cli.Usagef("-missing %q: want error or drop", in.missing)
	}
	if in.sample < 0 {
		return dataio.Options{}, cli.Usagef("-sample %d is negative (0 uses every row)", in.sample)
	}
	switch in.outliers {
	case "", outliersKeep, outliersFar, outliersDrop:
	default:
		return dataio.Options{}, cli.Usagef("-outliers %q: want far, keep or drop", in.outliers)
	}
	return opt, nil
}

// audit returns the flags that change the table audit.
func (in *inputFlags) audit() auditFlags {
	return auditFlags{listed: in.cols != "", outliers: in.outliers}
}

// sampleStream is the second PCG word of -sample's source: -seed S means
// rand.NewPCG(S, sampleStream), a stream apart from the estimator's and
// the check's.
const sampleStream = 2

// loaded says how a table was read.
type loaded struct {
	name    string // the file's name in messages ("stdin" for -)
	rows    int    // complete rows in the file (left out: dropped)
	dropped int    // rows left out for a missing value
	sample  int    // -sample, 0 without
	// dropMode is -missing drop.
	dropMode bool
	// audit is what the table audit left out.
	audit auditResult
	// outliers is -outliers.
	outliers string
}

// loadTable reads the data file path ("-" for standard input), all of it
// or with sample > 0 a uniform random sample of that many rows drawn by
// the source rand.NewPCG(seed, sampleStream), and audits it (auditTable),
// leaving out the columns and rows the audit's rules and fl say; columns
// of text ids are left out as the file is read (dataio's TextIDRows),
// unless fl.listed. It writes on stderr how many rows -missing drop left
// out and how many -sample kept, and the audit's notes and warnings.
//
// Standard input is read through ctxReader, so that a cancelled ctx
// (Ctrl-C while the command still waits for input from a terminal) ends
// the command at once instead of after the end of input.
func loadTable(ctx context.Context, e *env, path string, opt dataio.Options, fl auditFlags, sample int, seed uint64) (*dataio.Table, loaded, error) {
	r, name, closeFn, err := openInput(ctx, path)
	if err != nil {
		return nil, loaded{name: name}, err
	}
	defer closeFn()
	info := loaded{name: name, sample: sample, dropMode: opt.Missing == dataio.MissingDrop, outliers: fl.outliers}
	if !fl.listed {
		opt.TextIDRows = minIDRows // text ids are left out (see auditTable)
	}
	s, err := dataio.NewScanner(r, name, opt)
	if err != nil {
		return nil, info, inputError(err)
	}
	t := s.Layout()
	var vals []float64
	if sample > 0 {
		vals, t.Labels, t.Lines, err = reservoir(ctx, s, sample, rand.NewPCG(seed, sampleStream))
	} else {
		vals, t.Labels, t.Lines, err = readAll(ctx, s)
	}
	if err != nil {
		return nil, info, inputError(err)
	}
	info.rows, info.dropped = s.Rows(), s.Dropped()
	t.Dropped = s.Dropped()
	t.X = mat.NewDense(len(vals)/len(t.Fields), len(t.Fields), vals)
	if info.dropped > 0 {
		e.notef("-missing drop: left out %d of the %s of %s (a missing value in a selected column or the label)",
			info.dropped, words.CountNoun(info.rows+info.dropped, "row"), name)
	}
	if sample > 0 && sample < info.rows {
		e.notef("-sample: using %d of the %d rows of %s, drawn at random (-seed %d)", sample, info.rows, name, seed)
	}
	if info.audit, err = auditTable(e, &t, name, fl); err != nil {
		return nil, info, err
	}
	return &t, info, nil
}

// inputError turns an error of the column selection into a usage error.
func inputError(err error) error {
	// A selection without a flag (the fit's columns matched by name) is
	// the data's mistake, not the command line's.
	var se *dataio.SelectError
	if errors.As(err, &se) && se.Option != "" {
		return cli.AsUsage(err)
	}
	return err
}

// readAll returns every row of s, the labels if it has them, and the
// rows' lines.
func readAll(ctx context.Context, s *dataio.Scanner) (vals []float64, labels []string, lines []int, err error) {
	for s.Scan() {
		vals = append(vals, s.Row()...)
		lines = append(lines, s.Line())
		if s.HasLabels() {
			labels = append(labels, s.Label())
		}
		if s.Rows()%4096 == 0 && ctx.Err() != nil {
			return nil, nil, nil, ctx.Err()
		}
	}
	return vals, labels, lines, s.Err()
}

// reservoir returns a uniform random sample of n rows of s (all of them if
// s has n rows or fewer), in the order of the file, their labels and their
// lines. It
// reads s once and holds n rows: Vitter's Algorithm R, in which row i
// (from 0) replaces a random one of the n kept with probability n/(i+1).
func reservoir(ctx context.Context, s *dataio.Scanner, n int, src rand.Source) (vals []float64, labels []string, lines []int, err error) {
	type kept struct {
		i, line int
		row     []float64
		label   string
	}
	rng := rand.New(src)
	var res []kept
	for i := 0; s.Scan(); i++ {
		switch {
		case i < n:
			res = append(res, kept{i, s.Line(), slices.Clone(s.Row()), s.Label()})
		default:
			if j := rng.IntN(i + 1); j < n {
				res[j].i, res[j].line, res[j].label = i, s.Line(), s.Label()
				copy(res[j].row, s.Row())
			}
		}
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, nil, nil, ctx.Err()
		}
	}
	if err := s.Err(); err != nil {
		return nil, nil, nil, err
	}
	slices.SortFunc(res, func(a, b kept) int { return a.i - b.i })
	for _, k := range res {
		vals = append(vals, k.row...)
		lines = append(lines, k.line)
		if s.HasLabels() {
			labels = append(labels, k.label)
		}
	}
	return vals, labels, lines, nil
}

// openInput opens the data file path ("-" for standard input, read
// through a ctxReader). It returns the reader, the name to use for the
// file in messages and a function that closes it.
func openInput(ctx context.Context, path string) (io.Reader, string, func(), error) {
	if path == "-" {
		return newCtxReader(ctx, stdin), "stdin", func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, path, nil, err // "open data.csv: no such file or directory"
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, path, nil, fmt.Errorf("%s is a directory, not a data file", path)
	}
	return f, path, func() { f.Close() }, nil
}

// ctxReader reads from a reader in its own goroutine, so that a Read
// waiting for input returns ctx.Err() as soon as ctx is cancelled. The
// abandoned goroutine ends with the process (or at its reader's end).
type ctxReader struct {
	ctx  context.Context
	ch   chan readChunk
	buf  []byte
	err  error
	done bool
}

type readChunk struct {
	b   []byte
	err error
}

func newCtxReader(ctx context.Context, r io.Reader) *ctxReader {
	c := &ctxReader{ctx: ctx, ch: make(chan readChunk, 4)}
	go func() {
		for {
			b := make([]byte, 64<<10)
			n, err := r.Read(b)
			select {
			case c.ch <- readChunk{b[:n], err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return c
}

func (c *ctxReader) Read(p []byte) (int, error) {
	for len(c.buf) == 0 {
		if c.done {
			return 0, c.err
		}
		select {
		case ch := <-c.ch:
			c.buf = ch.b
			if ch.err != nil {
				c.err, c.done = ch.err, true
			}
		case <-c.ctx.Done():
			return 0, c.ctx.Err()
		}
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}

// headerFlag is the -header flag: true, false or auto.
type headerFlag struct{ h dataio.Header }

func (h *headerFlag) String() string {
	switch h.h {
	case dataio.HeaderYes:
		return "true"
	case dataio.HeaderNo:
		return "false"
	}
	return "auto"
}

func (h *headerFlag) Set(s string) error {
	if s == "auto" {
		h.h = dataio.HeaderAuto
		return nil
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true, false or auto")
	}
	h.h = dataio.HeaderNo
	if v {
		h.h = dataio.HeaderYes
	}
	return nil
}

// IsBoolFlag lets -header stand for -header=true.
func (h *headerFlag) IsBoolFlag() bool { return true }
