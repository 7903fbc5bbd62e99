// Package cli holds the command-line plumbing that the ngca command and
// the research module's reproduce command share: usage errors, silent flag
// sets that print their own help, and list-valued flags.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ngca-go/ngca/ngcatest"
)

// ErrUsage marks an error of the command line, reported with the
// command's usage.
var ErrUsage = errors.New("usage")

// usageError is an error of the command line: it matches ErrUsage but
// prints only its message.
type usageError struct{ error }

func (usageError) Is(target error) bool { return target == ErrUsage }

// Usagef returns a usage error with the formatted message.
func Usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// AsUsage returns err marked as a usage error, its message unchanged.
func AsUsage(err error) error { return usageError{err} }

// NewFlagSet returns a flag set that stays silent on errors and on -h
// (Parse reports them).
func NewFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// Parse parses args into fs. On -h it writes usage and the flags with
// their defaults to w and returns flag.ErrHelp; any other error is a
// usage error.
func Parse(fs *flag.FlagSet, args []string, usage string, w io.Writer) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(w, usage)
			PrintDefaults(w, fs)
			return err
		}
		return Usagef("%v", err)
	}
	return nil
}

// PrintDefaults writes a "Flags:" section to w: each flag of fs with its
// usage and default.
func PrintDefaults(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "\nFlags:")
	fs.VisitAll(func(f *flag.Flag) {
		def := ""
		if f.DefValue != "" {
			def = fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "  -%-10s %s%s\n", f.Name, f.Usage, def)
	})
}

// SplitList splits a comma-separated flag value, dropping empty items.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// DistList parses a -dists flag: a comma-separated list of the signal
// distributions a, b, c, d; an empty list is a usage error.
func DistList(s string) ([]ngcatest.Distribution, error) {
	var ds []ngcatest.Distribution
	for _, p := range SplitList(s) {
		dist, err := ngcatest.ParseDistribution(p)
		if err != nil {
			return nil, Usagef("-dists: %v", err)
		}
		ds = append(ds, dist)
	}
	if len(ds) == 0 {
		return nil, Usagef("-dists is empty")
	}
	return ds, nil
}
