// Command ngca runs non-Gaussian component analysis from the command line.
//
// Usage:
//
//	ngca <command> [flags]
//
// Commands:
//
//	demo       fit every estimator to the paper's artificial data and print
//	           each subspace error and time
//	fit        fit an estimator to a CSV, TSV or LIBSVM file and write the
//	           basis of the non-Gaussian subspace (CSV, or JSON with -json)
//	transform  project a data file onto a basis and write the coordinates
//	plot       draw a data file's non-Gaussian projection and eigenvalue
//	           spectrum as an image (PNG, SVG, PDF)
//	dim        test how many non-Gaussian dimensions the data have
//	help       show help for a command
//
// Run "ngca help <command>" or "ngca <command> -h" for a command's flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"

	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/probe"
)

// command is a subcommand of ngca.
type command struct {
	name, summary, usage string
	// brief, if not empty, is the short help that -h prints; usage, with
	// every flag, is then printed by -h -v ("ngca help CMD -v").
	brief string
	// run executes the command with its arguments (after the name). It
	// returns cli.ErrUsage (wrapped or not) for bad flags or arguments.
	run func(ctx context.Context, env *env, args []string) error
}

// env is where a command reads and writes.
type env struct {
	stdout, stderr io.Writer
	// verbose is -v: write the details behind notes and verdicts.
	verbose bool
}

// fitDetails records the details of every fit the command runs, which
// its notes and the fit file's settings read (internal/probe).
var fitDetails = probe.NewRecorder()

// errDoubtful is returned by fit and plot under -check -strict when the
// check finds the fit doubtful or cannot make it; run exits with status 2.
var errDoubtful = errors.New("doubtful fit")

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// errReported marks an error whose message has already been written to
// stderr; run only sets the exit status.
var errReported = errors.New("reported")

func isUsage(err error) bool { return errors.Is(err, cli.ErrUsage) }

// message returns err's text without the "usage: " of errors that wrap
// cli.ErrUsage with %w.
func message(err error) string { return strings.TrimPrefix(err.Error(), cli.ErrUsage.Error()+": ") }

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the command line args and returns the exit status: 0 on
// success, 1 for an error (bad input, bad flags, a failed fit, an
// interruption), 2 when -check -strict finds the fit doubtful or cannot
// check it (the result is written all the same). A usage error prints its message and a line
// pointing to "ngca help CMD", not the whole help.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	ctx = probe.WithRecorder(ctx, fitDetails)
	if len(args) == 0 {
		printHelp(stderr)
		return 1
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		if len(args) > 1 {
			// "ngca help X [Y]" is "ngca X [Y] -h": the usage and every flag.
			if c, ok := commands[args[1]]; ok {
				if c.brief != "" && (len(args) == 2 || len(args) == 3 && isVerboseFlag(args[2])) {
					fmt.Fprint(stdout, c.help(len(args) == 3))
					return 0
				}
				return run(ctx, append(append([]string(nil), args[1:]...), "-h"), stdout, stderr)
			}
			fmt.Fprintf(stderr, "ngca: unknown command %q\n", args[1])
			return 1
		}
		printHelp(stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "ngca: unknown command %q\nRun \"ngca help\" for the commands.\n", name)
		return 1
	}
	err := c.run(ctx, e, args[1:])
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errDoubtful):
		return 2
	case errors.Is(err, errReported):
		return 1
	case errors.Is(err, cli.ErrUsage):
		fmt.Fprintf(stderr, "ngca %s: %s\nRun \"ngca help %s\" for the flags and examples.\n", name, firstLines(message(err), 4), name)
		return 1
	case errors.Is(err, context.Canceled):
		msg := "interrupted"
		if strings.HasPrefix(err.Error(), msg) { // a study's account of what it kept
			msg = err.Error()
		}
		fmt.Fprintf(stderr, "ngca %s: %s\n", name, msg)
		return 1
	default:
		fmt.Fprintf(stderr, "ngca %s: %v\n", name, err)
		return 1
	}
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "ngca: non-Gaussian component analysis")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: ngca <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "  help       show help for a command")
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "ngca help <command>" or "ngca <command> -h" for its flags and examples.`)
	fmt.Fprintln(w)
	fmt.Fprintln(w, exitStatusHelp)
}

// exitStatusHelp documents run's exit statuses.
const exitStatusHelp = `Exit status: 0 on success; 1 on an error (bad input, a bad flag or
argument, a failed fit, an interruption); 2 when "fit -check -strict" or
"plot -check -strict" finds the fit doubtful or cannot check it (the
result is written all the same).`

// help returns the command's help: the short one, or with verbose (or
// when it has none) the full one with every flag.
func (c *command) help(verbose bool) string {
	if c.brief == "" || verbose {
		return c.usage
	}
	return c.brief
}

// isVerboseFlag reports whether arg is the flag -v (set to true).
func isVerboseFlag(arg string) bool {
	switch arg {
	case "-v", "--v", "-v=true", "--v=true":
		return true
	}
	return false
}
