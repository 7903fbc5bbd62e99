// Command reproduce runs the paper's experiments and the project's
// studies: "go run ./cmd/reproduce <study> [flags]" inside research/, and
// "go run ./cmd/reproduce help" for the list.
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
	"syscall"

	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/methods"
)

// command is a study: its name, a line for the list, its usage (the
// heading of -h, which adds the flags) and what runs it.
type command struct {
	name, summary, usage string
	// run executes the study with its arguments (after the name). It
	// returns a usage error (usagef) for bad flags or arguments.
	run func(ctx context.Context, env *env, args []string) error
}

// env is where a study reads and writes.
type env struct {
	stdout, stderr io.Writer
}

// studies are the studies, by name; each registers itself from its own
// file.
var studies = map[string]*command{}

func registerStudy(c *command) { studies[c.name] = c }

func main() {
	// SIGTERM too, so that `kill` stops a study in the background as
	// Ctrl-C does: its files are written from the finished runs.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usage lists the studies.
func usage() string {
	var b strings.Builder
	b.WriteString("Usage: go run ./cmd/reproduce <study> [flags]\n\nRuns an experiment of Shiino et al. (ACML 2017) or a study of this project.\n\nStudies:\n")
	names := make([]string, 0, len(studies))
	for n := range studies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "  %-11s %s\n", n, studies[n].summary)
	}
	b.WriteString("\nRun \"go run ./cmd/reproduce <study> -h\" for a study's flags and examples.\n")
	return b.String()
}

// run executes the command line args (a study and its flags) and returns
// the exit status: 0 on success, 1 for an error (bad flags, a failed
// study, an interruption).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprintf(stderr, "reproduce: which study?\n\n%s", usage())
		return 1
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage())
		return 0
	}
	c, ok := studies[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "reproduce: unknown study %q\n\n%s", args[0], usage())
		return 1
	}
	err := c.run(ctx, e, args[1:])
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, cli.ErrUsage):
		fmt.Fprintf(stderr, "reproduce %s: %s\n\n%s", c.name, err, c.usage)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		msg := "interrupted"
		if strings.HasPrefix(err.Error(), msg) { // a study's account of what it kept
			msg = err.Error()
		}
		fmt.Fprintf(stderr, "reproduce %s: %s\n", c.name, msg)
	default:
		fmt.Fprintf(stderr, "reproduce %s: %v\n", c.name, err)
	}
	return 1
}

// methodLabels joins the labels of the methods as "a, b and c".
func methodLabels(ms []methods.Method) string {
	items := make([]string, len(ms))
	for i, m := range ms {
		items[i] = m.Label
	}
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
