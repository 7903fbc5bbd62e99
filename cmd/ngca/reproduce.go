package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// studies are the subcommands of "ngca reproduce", one per experiment of
// the paper or study of this project; each registers itself from its own
// file.
var studies = map[string]*command{}

func registerStudy(c *command) { studies[c.name] = c }

func init() {
	register(&command{
		name:    "reproduce",
		summary: "run the paper's experiments and the project's studies (artificial, benchmark, orientation, ...)",
		run:     runReproduce,
	})
}

// reproduceUsage lists the studies; it is built when asked for, after every
// study has registered.
func reproduceUsage() string {
	var b strings.Builder
	b.WriteString("Usage: ngca reproduce <study> [flags]\n\nRuns an experiment of Shiino et al. (ACML 2017) or a study of this project.\n\nStudies:\n")
	names := make([]string, 0, len(studies))
	for n := range studies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "  %-11s %s\n", n, studies[n].summary)
	}
	b.WriteString("\nRun \"ngca reproduce <study> -h\" for a study's flags and examples.\n")
	return b.String()
}

func runReproduce(ctx context.Context, e *env, args []string) error {
	commands["reproduce"].usage = reproduceUsage()
	if len(args) == 0 {
		return usagef("which study?")
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(e.stdout, reproduceUsage())
		return nil
	}
	c, ok := studies[args[0]]
	if !ok {
		return usagef("unknown study %q", args[0])
	}
	err := c.run(ctx, e, args[1:])
	if err != nil && isUsage(err) {
		// Report with the study's own usage rather than reproduce's.
		fmt.Fprintf(e.stderr, "ngca reproduce %s: %s\n\n%s", c.name, message(err), c.usage)
		return errReported
	}
	return err
}
