package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests of this file check that the command loses nothing: an output
// file (-o, a study's tables and figures) is replaced only once complete,
// whatever stops the command, and a study's appended CSV holds only whole
// rows after a kill -9. The kills are real: the test binary runs itself as
// the command in a child process (childArgs) and the test kills it.

// childArgs is the environment variable that makes the test binary run as
// the ngca command: it holds the command line, arguments separated by
// U+001F.
const childArgs = "NGCA_TEST_CHILD_ARGS"

// runAsChild runs the command line of childArgs as main does (Ctrl-C
// cancels the context) and exits, if the variable is set.
func runAsChild() {
	args := os.Getenv(childArgs)
	if args == "" {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, strings.Split(args, "\x1f"), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// output collects a child's stdout and stderr; the test reads it while the
// child writes.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// startChild starts the command with args in a child process that runs
// the test named test (which must call runAsChild first). Its stdin is
// the returned pipe; its output is collected into out.
func startChild(t *testing.T, test string, out *output, args ...string) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("needs child processes and SIGKILL")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(args, "\x1f"))
	cmd.Stdout, cmd.Stderr = out, out
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, in
}

// waitFor polls cond until it holds, failing the test after five minutes
// (a child built with -race on a busy machine is slow).
func waitFor(t *testing.T, what string, out *output, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited five minutes for %s; output so far:\n%s", what, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill sends SIGKILL to the child and waits for it to end.
func kill(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the killed child exited normally")
	}
}

// snapshot returns the content of every file in dir that is not a
// temporary file.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".tmp") {
			files[e.Name()] = readText(t, filepath.Join(dir, e.Name()))
		}
	}
	return files
}

// tempFiles returns the names of the temporary files in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	tmp, err := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return tmp
}

// wholeRows parses the CSV file at path and returns its data rows, failing
// the test unless every record has the header's number of fields and the
// file ends with a complete line.
func wholeRows(t *testing.T, path string) int {
	t.Helper()
	text := readText(t, path)
	if !strings.HasSuffix(text, "\n") {
		t.Errorf("%s ends inside a line: …%q", path, text[max(0, len(text)-80):])
	}
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll() // every record as long as the header
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return len(recs) - 1
}

// countRows returns the number of data lines of a CSV file without quoted
// newlines, or 0 if it cannot be read.
func countRows(path string) int {
	b, _ := os.ReadFile(path)
	return max(0, bytes.Count(b, []byte("\n"))-1)
}

// TestOutputKilled kills (SIGKILL) and interrupts (SIGINT) ngca fit -o
// while it waits for its data on standard input, its temporary output
// file open: fit.json keeps its old content. After Ctrl-C no temporary
// file remains; after a kill the temporary file may remain, but nothing
// else changes.
func TestOutputKilled(t *testing.T) {
	runAsChild()
	dir := t.TempDir()
	files := dataFiles(t, dir)
	fitJSON := filepath.Join(dir, "fit.json")
	ngcaRun(t, "", "fit", "-dim", "2", "-json", "-o", fitJSON, files["tsv"]).mustSucceed(t)
	old := readText(t, fitJSON)
	for _, sig := range []os.Signal{os.Kill, os.Interrupt} {
		var out output
		cmd, in := startChild(t, "TestOutputKilled", &out, "fit", "-dim", "2", "-json", "-o", fitJSON, "-")
		io.WriteString(in, readText(t, files["tsv"])[:1000]) // part of the data
		waitFor(t, "the temporary file", &out, func() bool { return len(tempFiles(t, dir)) > 0 })
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		in.Close()
		if got := readText(t, fitJSON); got != old {
			t.Errorf("after %v, fit.json holds %.80q…", sig, got)
		}
		tmp := tempFiles(t, dir)
		switch {
		case sig == os.Interrupt && (err == nil || !strings.Contains(out.String(), "interrupted") || len(tmp) > 0):
			t.Errorf("after Ctrl-C: %v, output %q, temporary files %q; want exit 1, interrupted, none", err, out.String(), tmp)
		case sig == os.Kill && len(tmp) != 1:
			t.Errorf("after a kill: temporary files %q, want the one of fit.json", tmp)
		}
		for _, f := range tmp {
			os.Remove(f)
		}
	}
}

// TestOutputFailed checks that fit, transform and plot leave an existing
// -o file as it was when they fail after opening it (bad data, a
// cancelled context), and no temporary file behind.
func TestOutputFailed(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	fitJSON := filepath.Join(dir, "fit.json")
	proj := filepath.Join(dir, "proj.csv")
	image := filepath.Join(dir, "plot.png")
	ngcaRun(t, "", "fit", "-dim", "2", "-json", "-o", fitJSON, files["tsv"]).mustSucceed(t)
	ngcaRun(t, "", "transform", "-basis", fitJSON, "-o", proj, files["tsv"]).mustSucceed(t)
	ngcaRun(t, "", "plot", "-basis", fitJSON, "-o", image, files["tsv"]).mustSucceed(t)
	before := snapshot(t, dir)

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		ctx  context.Context
		args []string
	}{
		{cancelled, []string{"fit", "-dim", "2", "-json", "-o", fitJSON, files["tsv"]}},
		{cancelled, []string{"plot", "-o", image, files["tsv"]}},
		{context.Background(), []string{"fit", "-dim", "2", "-json", "-o", fitJSON, "testdata/ragged.csv"}},
		{context.Background(), []string{"fit", "-dim", "9", "-json", "-o", fitJSON, files["tsv"]}},
		{context.Background(), []string{"transform", "-basis", fitJSON, "-o", proj, "testdata/ragged.csv"}},
		{context.Background(), []string{"plot", "-o", image, "testdata/nonnumeric.csv"}},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.ctx, tc.args, &out, &errb); code != 1 {
			t.Errorf("ngca %q: exit %d, want 1", tc.args, code)
		}
	}
	after := snapshot(t, dir)
	for name, text := range before {
		if after[name] != text {
			t.Errorf("%s changed by a failed command", name)
		}
	}
	if tmp := tempFiles(t, dir); len(tmp) > 0 {
		t.Errorf("temporary files left behind: %q", tmp)
	}
}
