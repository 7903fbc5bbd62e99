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

// TestStudyKilled kills a study in a child process: the test binary runs
// itself as the command (childArgs) and the test kills it.

// childArgs is the environment variable that makes the test binary run as
// the reproduce command: it holds the command line, arguments separated by
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

// TestStudyKilled runs a study to the end, then again with more runs and
// kills it (SIGKILL) while it appends rows to its CSV: the CSV must hold
// whole rows only, and every other output (tables, figures) the complete
// content of the first run. The artificial study gets one cheap method
// (MIPP); the robust study always fits six, so it is left out with -short.
func TestStudyKilled(t *testing.T) {
	runAsChild()
	for _, tc := range []struct {
		study, csv string
		args       []string
	}{
		{"artificial", "errors.csv", []string{"-dists", "a", "-r", "0", "-n", "300", "-d", "4", "-methods", "mipp", "-timing=false"}},
		{"robust", "robust.csv", []string{"-cells", "1", "-dists", "a", "-n", "300"}},
	} {
		t.Run(tc.study, func(t *testing.T) {
			if tc.study == "robust" && testing.Short() {
				t.Skip("the robust study's six fits per data set take seconds; skipped with -short")
			}
			dir := t.TempDir()
			args := append([]string{tc.study, "-out", dir, "-workers", "2"}, tc.args...)
			runsFlag := map[string]string{"artificial": "-runs", "robust": "-seeds"}[tc.study]
			if code, _, errs := runCmd(t, append(args, runsFlag, "1")...); code != 0 {
				t.Fatalf("%q: exit %d, stderr:\n%s", args, code, errs)
			}
			before := snapshot(t, dir)

			var out output
			cmd, _ := startChild(t, "TestStudyKilled", &out, append(args, runsFlag, "500")...)
			csvPath := filepath.Join(dir, tc.csv)
			waitFor(t, "three appended rows", &out, func() bool { return countRows(csvPath) >= 3 })
			kill(t, cmd)

			if n := wholeRows(t, csvPath); n < 3 {
				t.Errorf("%s: %d rows after the kill, want at least the 3 seen", tc.csv, n)
			}
			after := snapshot(t, dir)
			for name, text := range before {
				if name != tc.csv && after[name] != text {
					t.Errorf("%s changed by the killed run", name)
				}
			}
			if tmp := tempFiles(t, dir); len(tmp) > 0 {
				t.Errorf("temporary files after a kill mid-run: %q", tmp)
			}
		})
	}
}

// readText returns the content of the file at path.
func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
