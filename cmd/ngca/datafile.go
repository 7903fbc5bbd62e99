package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/ngca-go/ngca/internal/dataio"
)

// stdin is what the input file "-" reads; tests replace it.
var stdin io.Reader = os.Stdin

// inputFlags are the flags that say how to read a data file.
type inputFlags struct {
	format   string
	header   headerFlag
	labelCol string
}

// inputFlagNames lists the flags of inputFlags, for the help.
var inputFlagNames = []string{"format", "header", "label-col"}

func (in *inputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&in.format, "format", "auto", "input `format`: csv, tsv, libsvm, or auto: by the extension (.csv; .tsv or .tab; .libsvm or .svm), else by the content")
	fs.Var(&in.header, "header", "whether the first CSV/TSV row is a header: true, false, or auto: it is if it holds text and the next row only numbers")
	fs.StringVar(&in.labelCol, "label-col", "", "CSV/TSV `column` of labels (1-based number or header name): left out of the data, used by plot for colours (LIBSVM files have their labels)")
}

// options returns the reading options the flags ask for.
func (in *inputFlags) options() (dataio.Options, error) {
	f, err := dataio.ParseFormat(in.format)
	if err != nil {
		return dataio.Options{}, fmt.Errorf("%w: -format: %v", errUsage, err)
	}
	return dataio.Options{Format: f, Header: in.header.h, LabelCol: in.labelCol}, nil
}

// loadTable reads the data file path ("-" for standard input). It returns
// the table and the name to use for the file in messages.
//
// Standard input is read in its own goroutine, so that a cancelled ctx
// (Ctrl-C while the command still waits for input from a terminal) ends
// the command at once instead of after the end of input. The abandoned
// read ends with the process.
func loadTable(ctx context.Context, path string, opt dataio.Options) (*dataio.Table, string, error) {
	if path == "-" {
		type result struct {
			t   *dataio.Table
			err error
		}
		done := make(chan result, 1)
		in := stdin
		go func() {
			t, err := dataio.Read(in, "stdin", opt)
			done <- result{t, err}
		}()
		select {
		case r := <-done:
			return r.t, "stdin", r.err
		case <-ctx.Done():
			return nil, "stdin", ctx.Err()
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, path, err // "open data.csv: no such file or directory"
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, path, fmt.Errorf("%s is a directory, not a data file", path)
	}
	t, err := dataio.Read(f, path, opt)
	return t, path, err
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
