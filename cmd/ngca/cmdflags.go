package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/cli"
)

// The fit, transform and plot commands take one input file and flags before
// or after it ("ngca plot data.csv -o out.png"), and print their whole help,
// flags included, for both "ngca help <command>" and "-h".

// flagGroup is a titled list of flags in a command's help.
type flagGroup struct {
	title string
	names []string
}

// flagHelp formats the flags of fs, group by group, as a help section.
// Every flag of fs must be in a group.
func flagHelp(fs *flag.FlagSet, groups []flagGroup) string {
	var b strings.Builder
	listed := map[string]bool{}
	for _, g := range groups {
		fmt.Fprintf(&b, "\n%s:\n", g.title)
		for _, name := range g.names {
			f := fs.Lookup(name)
			if f == nil {
				panic("flagHelp: no flag -" + name)
			}
			listed[name] = true
			arg, usage := flag.UnquoteUsage(f)
			if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool {
				arg = ""
			}
			switch f.DefValue {
			case "", "0", "false":
			default:
				usage += fmt.Sprintf(" (default %s)", f.DefValue)
			}
			head := "  -" + name
			if arg != "" {
				head += " " + arg
			}
			writeWrapped(&b, head, usage)
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		if !listed[f.Name] {
			panic("flagHelp: flag -" + f.Name + " is in no group")
		}
	})
	return b.String()
}

// writeWrapped writes head and then text wrapped to 80 columns in a
// column starting at helpIndent.
func writeWrapped(w io.Writer, head, text string) {
	const helpIndent, width = 22, 80
	line := head
	if len(head) >= helpIndent-1 {
		fmt.Fprintln(w, head)
		line = ""
	}
	line += strings.Repeat(" ", helpIndent-len(line))
	n := 0
	for _, word := range strings.Fields(text) {
		if n > 0 && len([]rune(line))+1+len([]rune(word)) > width {
			fmt.Fprintln(w, line)
			line, n = strings.Repeat(" ", helpIndent), 0
		}
		if n > 0 {
			line += " "
		}
		line += word
		n++
	}
	fmt.Fprintln(w, line)
}

// parseArgs parses args with fs, accepting flags before and after the
// positional arguments (which it returns; "--" ends the flags). On -h it
// prints the command's usage and returns flag.ErrHelp; other errors wrap
// cli.ErrUsage.
func parseArgs(fs *flag.FlagSet, c *command, e *env, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(e.stdout, c.help(slices.ContainsFunc(args, isVerboseFlag)))
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", cli.ErrUsage, err)
		}
		if v := fs.Lookup("v"); v != nil {
			e.verbose = v.Value.String() == "true"
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// setFlags returns the names of the flags set on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// oneFile returns the single input file among the positional arguments.
func oneFile(pos []string) (string, error) {
	switch len(pos) {
	case 0:
		return "", fmt.Errorf("%w: missing input FILE (use - for standard input)", cli.ErrUsage)
	case 1:
		return pos[0], nil
	}
	switch pos[0] {
	case "true", "false", "auto":
		return "", fmt.Errorf("%w: %q was read as the input file: write -header=%s, not -header %s", cli.ErrUsage, pos[0], pos[0], pos[0])
	}
	return "", fmt.Errorf("%w: unexpected argument %q after the input file %q (flags may come before or after FILE)", cli.ErrUsage, pos[1], pos[0])
}

// dimValue is the -dim flag: a dimension M, or "auto" (which sets *auto
// and leaves M to be chosen from the data).
type dimValue struct {
	dim  *int
	auto *bool
}

func (v dimValue) String() string {
	switch {
	case v.dim == nil:
		return ""
	case *v.auto:
		return "auto"
	}
	return strconv.Itoa(*v.dim)
}

func (v dimValue) Set(s string) error {
	if s == "auto" {
		*v.dim, *v.auto = 0, true
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is neither a whole number nor auto", s)
	}
	*v.dim, *v.auto = n, false
	return nil
}
