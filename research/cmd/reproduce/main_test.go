package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
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
			t.Errorf("reproduce %v: exit %d, %s %q; want exit %d and %q", tc.args, code, tc.stream, got, tc.code, tc.contains)
		}
		if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
			t.Errorf("reproduce %v: stack trace on stderr", tc.args)
		}
	}
}

func TestHelp(t *testing.T) {
	checkCLI(t, []cliCase{
		{[]string{}, 1, "which study?", "stderr"},
		{[]string{"help"}, 0, "orientation", "stdout"},
		{[]string{"nope"}, 1, `unknown study "nope"`, "stderr"},
	})
}

// TestReproduceFlags checks the artificial and robust studies' flag errors,
// which are all found before any fit starts.
func TestReproduceFlags(t *testing.T) {
	checkCLI(t, []cliCase{
		{[]string{"artificial", "-h"}, 0, "-timing-reps", "stdout"},
		{[]string{"artificial", "-runs", "0"}, 1, "-runs must be at least 1", "stderr"},
		{[]string{"artificial", "-r", "0,x"}, 1, `-r: "x"`, "stderr"},
		{[]string{"artificial", "-dists", "e"}, 1, `unknown distribution "e"`, "stderr"},
		{[]string{"artificial", "-methods", "pca"}, 1, `unknown method "pca"`, "stderr"},
		{[]string{"artificial", "-timing-n", "500,y"}, 1, `-timing-n: "y"`, "stderr"},
		{[]string{"artificial", "-timing-reps", "0"}, 1, "-timing-reps must be at least 1", "stderr"},
		{[]string{"artificial", "-workers", "-2"}, 1, "-workers must not be negative", "stderr"},
		{[]string{"artificial", "extra"}, 1, "unexpected argument", "stderr"},
		{[]string{"robust", "-h"}, 0, "aligned r=4 (stretch)", "stdout"},
		{[]string{"robust", "-cells", "11"}, 1, `-cells: "11" is not a cell number from 1 to 10`, "stderr"},
		{[]string{"robust", "-seeds", "0"}, 1, "-seeds must be at least 1", "stderr"},
		{[]string{"robust", "-dists", ""}, 1, "-dists is empty", "stderr"},
		{[]string{"robust", "-workers", "-1"}, 1, "-workers must not be negative", "stderr"},
		{[]string{"robust", "extra"}, 1, "unexpected argument", "stderr"},
		{[]string{"artificial", "-resume=x"}, 1, "-resume", "stderr"},
		{[]string{"dim", "-m", "0,4"}, 1, `-m: "4" is not one of 0, 1, 2, 3`, "stderr"},
		{[]string{"dim", "-m", ""}, 1, "-m is empty", "stderr"},
		{[]string{"dim", "-n", "500", "-seeds", "1,2"}, 1, "-seeds has 2 counts", "stderr"},
	})
}
