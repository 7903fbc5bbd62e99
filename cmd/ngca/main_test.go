package main

import (
	"bytes"
	"context"
	"flag"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/methods"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// plainProgress matches the progress lines written once a minute when
// stderr is not a terminal ("fitting  12%  elapsed 1m00s  ETA 7m18s").
var plainProgress = regexp.MustCompile(`(?m)^\S+ +\d+%  elapsed \S+  ETA \S+\n`)

func TestDemo(t *testing.T) {
	// n = 2000, the demo's default: SNGCA needs it (at n = 600 it fails
	// on about half of the (c) data sets; docs/sngca.md).
	code, out, errs := runCmd(t, "demo", "-dists", "a,c", "-seed", "3")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	// Not a terminal: no bar, only a plain progress line a minute (which
	// a slow run, under -race or on a busy machine, does print).
	if rest := plainProgress.ReplaceAllString(errs, ""); rest != "" {
		t.Errorf("stderr holds more than plain progress lines when it is not a terminal: %q", errs)
	}
	var rows int
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "(") {
			continue
		}
		rows++
		eps, err := strconv.ParseFloat(f[len(f)-2], 64)
		if err != nil || eps < 0 || eps > 0.05 {
			t.Errorf("row %q: ε %v (%v), want a small error", line, eps, err)
		}
	}
	if want := 2 * len(methods.All()); rows != want {
		t.Errorf("%d result rows, want %d (2 data sets × every estimator):\n%s", rows, want, out)
	}
	for _, m := range methods.All() {
		if !strings.Contains(out, "\t"+m.Label+"\t") && !strings.Contains(out, " "+m.Label+" ") {
			t.Errorf("the demo does not list %s:\n%s", m.Label, out)
		}
	}
}

// cliCase is one invocation of the command: its exit status, and a text
// its stdout or stderr (stream) must contain.
type cliCase struct {
	args     []string
	code     int
	contains string
	stream   string
}

// checkCLI runs every case and checks its exit status and output, and that
// nothing prints a stack trace.
func checkCLI(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		code, out, errs := runCmd(t, tc.args...)
		got := out
		if tc.stream == "stderr" {
			got = errs
		}
		if code != tc.code || !strings.Contains(got, tc.contains) {
			t.Errorf("ngca %v: exit %d, %s %q; want exit %d and %q", tc.args, code, tc.stream, got, tc.code, tc.contains)
		}
		if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
			t.Errorf("ngca %v: stack trace on stderr", tc.args)
		}
	}
}

func TestHelpAndErrors(t *testing.T) {
	checkCLI(t, []cliCase{
		{[]string{}, 1, "Usage: ngca <command>", "stderr"},
		{[]string{"help"}, 0, "demo", "stdout"},
		{[]string{"help", "demo"}, 0, "Examples:", "stdout"},
		{[]string{"demo", "-h"}, 0, "-dists", "stdout"},
		{[]string{"nope"}, 1, `unknown command "nope"`, "stderr"},
		{[]string{"demo", "-dists", "x"}, 1, `unknown distribution "x"`, "stderr"},
		{[]string{"demo", "-n", "abc"}, 1, "invalid value", "stderr"},
		{[]string{"demo", "-n", "1"}, 1, "N = 1, need at least 2", "stderr"},
		{[]string{"demo", "-d", "2"}, 1, "D = 2, need at least 3", "stderr"},
		{[]string{"demo", "-r", "-1"}, 1, "R = -1", "stderr"},
		{[]string{"demo", "extra"}, 1, "unexpected argument", "stderr"},
		{[]string{"demo", "-dists", ","}, 1, "-dists is empty", "stderr"},
	})
}

func TestDemoCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	if code := run(ctx, []string{"demo", "-n", "300", "-dists", "a"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("cancelled demo: exit %d, stderr %q", code, errb.String())
	}
}

// TestBriefHelp: the short help of each command fits on a screen, names
// only flags the command has, and points to the full help, which -v
// prints ("ngca help CMD -v" and "ngca CMD -h -v").
func TestBriefHelp(t *testing.T) {
	flagSets := map[string]*flag.FlagSet{
		"fit":       newFitFlags(commands["fit"]).fs,
		"transform": newTransformFlags(commands["transform"]).fs,
		"plot":      newPlotFlags(commands["plot"]).fs,
		"dim":       newDimFlags(commands["dim"]).fs,
	}
	flagRE := regexp.MustCompile(`(?m)^  -([a-z-]+)`)
	for name, c := range commands {
		brief := c.help(false)
		if n := strings.Count(brief, "\n"); n > 60 {
			t.Errorf("ngca help %s: %d lines, want at most 60", name, n)
		}
		if c.brief == "" {
			continue
		}
		fs := flagSets[name]
		if fs == nil {
			t.Fatalf("no flag set for %s", name)
		}
		for _, m := range flagRE.FindAllStringSubmatch(brief, -1) {
			if fs.Lookup(m[1]) == nil {
				t.Errorf("ngca help %s names -%s, which it does not have", name, m[1])
			}
		}
		if !strings.Contains(brief, `"ngca help `+name+` -v"`) {
			t.Errorf("ngca help %s does not point to the full help", name)
		}
		for _, args := range [][]string{{"help", name}, {name, "-h"}} {
			if code, out, _ := runCmd(t, args...); code != 0 || out != c.brief {
				t.Errorf("ngca %q: exit %d, want the short help", args, code)
			}
			if code, out, _ := runCmd(t, append(args, "-v")...); code != 0 || out != c.usage {
				t.Errorf("ngca %q -v: exit %d, want the full help", args, code)
			}
		}
	}
}
