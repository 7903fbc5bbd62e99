// Command ngca-beam runs "ngca fit" and "ngca transform" on Apache Beam:
// on rows that live in many files, or outgrow one machine, locally on
// Beam's prism runner (the default) or on Dataflow, Flink or Spark.
//
// Usage:
//
//	ngca-beam fit -dim M [-method NAME] [-full] -input GLOB -o FIT.json [flags] [--runner=prism|dataflow|flink|spark …]
//	ngca-beam transform -basis FIT.json -input GLOB -output PREFIX [flags] [--runner=…]
//
// fit writes the JSON that "ngca fit -json" writes, with n the rows used;
// transform writes one CSV shard per input file, PREFIX-00000-of-00008.csv
// and so on, whose lines are those "ngca transform" writes for that file.
// Files are read by the rules of ngca (internal/dataio): a header line in
// every file, -cols, -drop, -label-col, gzip, the same notes on stderr,
// and a bad cell fails the pipeline with the file and line named.
// Run "ngca-beam help fit" or "ngca-beam help transform" for the flags;
// docs/distributed.md has the runners' flags and measured speeds.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

const usage = `Usage:
  ngca-beam fit -dim M [-method NAME] [-full] -input GLOB -o FIT.json [flags] [--runner=prism|dataflow|flink|spark ...]
  ngca-beam transform -basis FIT.json -input GLOB -output PREFIX [flags] [--runner=...]
  ngca-beam help fit|transform

fit fits an estimator of the ngca library to the rows of the files that
match GLOB and writes the JSON that "ngca fit -json" writes; transform
projects every row onto a fit and writes CSV shards whose lines are those
of "ngca transform". The pipeline runs on Apache Beam: locally on the
prism runner (the default), or on Dataflow, Flink or Spark with Beam's
flags (docs/distributed.md).
`

// command is a subcommand: its flags, registered on flag.CommandLine
// beside Beam's, and what it runs.
type command struct {
	doc   string
	flags func(fs *flag.FlagSet) func(ctx context.Context, e *env) error
}

var commands = map[string]command{}

// env is where the command writes its notes and the pipeline's options.
type env struct {
	stderr  io.Writer
	verbose bool
}

func (e *env) notef(format string, a ...any) { fmt.Fprintf(e.stderr, "note: "+format+"\n", a...) }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command line args (after the program's name) and returns
// the exit status.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "-help" && args[0] != "--help" {
		// A runner starts the program on its workers with Beam's flags
		// only: beam.Init then runs the worker and does not return.
		flag.CommandLine.Parse(args)
		beam.Init()
		fmt.Fprint(stderr, usage)
		return 2
	}
	if len(args) == 0 || args[0] == "help" && len(args) < 2 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	name := args[0]
	if name == "help" {
		name, args = args[1], []string{args[1], "-h"}
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "ngca-beam: unknown command %q\n%s", name, usage)
		return 2
	}
	// One flag set holds the command's flags and Beam's (those of
	// flag.CommandLine, which the SDK and runners register), so that
	// they mix on the command line.
	fs := flag.NewFlagSet("ngca-beam "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	flag.CommandLine.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	e := &env{stderr: stderr}
	fs.BoolVar(&e.verbose, "v", false, "verbose: show the runner's log and the full error of a failed pipeline")
	exec := c.flags(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, c.doc)
		fmt.Fprintf(stderr, "\nFlags of ngca-beam %s (Beam's flags, such as --runner, follow with -v):\n", name)
		ours := flag.NewFlagSet(name, flag.ContinueOnError)
		ours.SetOutput(stderr)
		ours.Bool("v", false, "verbose: show the runner's log and the full error of a failed pipeline")
		c.flags(ours)
		ours.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			if slices.Contains(args, "-v") {
				fmt.Fprintln(stderr, "\nBeam's flags:")
				flag.CommandLine.SetOutput(stderr)
				flag.CommandLine.PrintDefaults()
			}
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ngca-beam %s: unexpected argument %q (the files are -input GLOB)\n", name, fs.Arg(0))
		return 2
	}
	beam.Init()
	if !e.verbose {
		// Prism and the SDK log through slog (which beam.Init sets up):
		// only the error of a failed pipeline matters, and run reports
		// it itself.
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	if err := exec(ctx, e); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "ngca-beam %s: %v\nRun \"ngca-beam help %s\" for the flags.\n", name, ue.err, name)
			return 2
		}
		msg := err.Error()
		if !e.verbose {
			msg = cause(msg)
		}
		fmt.Fprintf(stderr, "ngca-beam %s: %s\n", name, msg)
		return 1
	}
	return 0
}

// usageError is an error of the command line.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// cause returns the error a failed pipeline's message ends with: the
// error of the DoFn that failed (which names the file and line of a bad
// cell), without the runner's account of its stages.
func cause(msg string) string {
	if i := strings.LastIndex(msg, "] failed:\n"); i >= 0 {
		msg = msg[i+len("] failed:\n"):]
	}
	var keep []string
	for _, l := range strings.Split(msg, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "invoking ") || t == "caused by:" {
			continue
		}
		keep = append(keep, t)
	}
	if len(keep) == 0 {
		return strings.TrimSpace(msg)
	}
	return strings.Join(keep, "; ")
}

// runPipeline runs p on the runner of --runner (prism by default) and
// returns its metrics' files and sample counts for the notes.
func runPipeline(ctx context.Context, p *beam.Pipeline) (beam.PipelineResult, error) {
	return beamx.RunWithMetrics(ctx, p)
}

// readFile reads a file of any file system Beam has.
func readFile(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// writeFile writes data to path on any file system Beam has: to a
// temporary file renamed into place where the file system renames, so
// that a failed write leaves no partial file under path.
func writeFile(ctx context.Context, path string, data []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	rn, renames := fs.(filesystem.Renamer)
	to := path
	if renames {
		to = path + ".tmp"
	}
	w, err := fs.OpenWrite(ctx, to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, bytes.NewReader(data)); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if renames {
		return rn.Rename(ctx, to, path)
	}
	return nil
}

// checkGlob returns an error if a local glob matches no file, before a
// pipeline is built (a glob of another file system is left to the
// pipeline, which fails then).
func checkGlob(glob string) error {
	if glob == "" {
		return usagef("-input is required: a file or a glob of files")
	}
	if strings.Contains(glob, "://") {
		return nil
	}
	m, err := filepath.Glob(glob)
	if err != nil {
		return usagef("-input %s: %v", glob, err)
	}
	if len(m) == 0 {
		return fmt.Errorf("no file matches -input %s", glob)
	}
	return nil
}
