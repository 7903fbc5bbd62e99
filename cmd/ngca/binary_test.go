package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/methods"
)

// buildNGCA builds the command into a temporary directory and returns the
// path of the binary.
func buildNGCA(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command; skipped with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goTool); err != nil {
			t.Skip("no go command to build ngca with")
		}
	}
	bin := filepath.Join(t.TempDir(), "ngca")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestBinary runs the built command as a user would: on standard input, on
// files, and on bad files, checking exit statuses and streams.
func TestBinary(t *testing.T) {
	bin := buildNGCA(t)
	dir := t.TempDir()
	files := dataFiles(t, dir)
	tsv := readText(t, files["tsv"])
	basis := filepath.Join(dir, "basis.csv")
	image := filepath.Join(dir, "data.png")
	for _, tc := range []struct {
		args   []string
		stdin  string
		code   int
		stdout string // a prefix
		stderr string // a prefix; "" means nothing
	}{
		{[]string{"fit", "-dim", "2", "-"}, tsv, 0, "", ""},
		{[]string{"fit", "-dim", "2", "-format", "tsv", "-o", basis, "-"}, tsv, 0, "", ""},
		{[]string{"transform", "-basis", basis, "-center", "data", "-"}, tsv, 0, "c1,c2\n", ""},
		{[]string{"plot", "-", "-o", image}, tsv, 0, "", "wrote " + image + ": 400 points of stdin projected on " + methods.MustLookup(defaultMethod).Label + " (2 components); eigenvalues "},
		{[]string{"fit", "-dim", "2", "testdata/missing.csv"}, "", 1, "", "ngca fit: open testdata/missing.csv: no such file or directory\n"},
		{[]string{"fit", "-dim", "2", "testdata/ragged.csv"}, "", 1, "", "ngca fit: testdata/ragged.csv:5: 3 fields, want 4 (as on line 1)\n"},
		{[]string{"fit", "-dim", "2", "-"}, "1,2,3\n4,x,6\n", 1, "", "ngca fit: stdin:2: column 2: \"x\" is not a number\n"},
		{[]string{"fit", "-dim", "2", "-"}, "", 1, "", "ngca fit: stdin: empty file (no data)\n"},
		{[]string{"fit", "-h"}, "", 0, "Usage: ngca fit", ""},
		{[]string{"help", "plot"}, "", 0, "Usage: ngca plot", ""},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir = "."
		cmd.Stdin = strings.NewReader(tc.stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		stderr := withoutSummary(errb.String())
		stderrOK := strings.HasPrefix(stderr, tc.stderr) && (tc.stderr == "") == (stderr == "")
		if code != tc.code || !strings.HasPrefix(out.String(), tc.stdout) || !stderrOK {
			t.Errorf("ngca %q: exit %d, stdout %.40q, stderr %q; want exit %d, stdout %.40q..., stderr %q",
				tc.args, code, out.String(), errb.String(), tc.code, tc.stdout, tc.stderr)
		}
		if tc.code == 0 && strings.Join(tc.args, " ") == "fit -dim 2 -" {
			checkOrthonormal(t, parseMatrix(t, out.String()))
		}
	}
	checkPNG(t, image, 1056, 461)
}
