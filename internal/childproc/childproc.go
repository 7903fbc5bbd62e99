// Package childproc helps the commands' tests check that a command loses
// nothing when it is killed: the test binary runs itself as the command in
// a child process (RunAsChild, Start), the test kills it (Kill) and checks
// the files it left (Snapshot, TempFiles, WholeRows).
package childproc

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

// childArgs is the environment variable that makes the test binary run as
// the command: it holds the command line, arguments separated by U+001F.
const childArgs = "NGCA_TEST_CHILD_ARGS"

// RunAsChild runs the command line of childArgs with run, as a command's
// main does (Ctrl-C cancels the context), and exits with its status, if
// the variable is set; otherwise it returns at once. A test that starts
// children calls it first.
func RunAsChild(run func(ctx context.Context, args []string, stdout, stderr io.Writer) int) {
	args := os.Getenv(childArgs)
	if args == "" {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, strings.Split(args, "\x1f"), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Output collects a child's stdout and stderr; the test reads it while the
// child writes.
type Output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// Start starts the command with args in a child process that runs the
// test named test (which must call RunAsChild first). Its stdin is
// the returned pipe; its output is collected into out.
func Start(t *testing.T, test string, out *Output, args ...string) (*exec.Cmd, io.WriteCloser) {
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

// WaitFor polls cond until it holds, failing the test after five minutes
// (a child built with -race on a busy machine is slow).
func WaitFor(t *testing.T, what string, out *Output, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited five minutes for %s; output so far:\n%s", what, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill sends SIGKILL to the child and waits for it to end.
func Kill(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the killed child exited normally")
	}
}

// Snapshot returns the content of every file in dir that is not a
// temporary file.
func Snapshot(t *testing.T, dir string) map[string]string {
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

// TempFiles returns the names of the temporary files in dir.
func TempFiles(t *testing.T, dir string) []string {
	t.Helper()
	tmp, err := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return tmp
}

// WholeRows parses the CSV file at path and returns its data rows, failing
// the test unless every record has the header's number of fields and the
// file ends with a complete line.
func WholeRows(t *testing.T, path string) int {
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

// CountRows returns the number of data lines of a CSV file without quoted
// newlines, or 0 if it cannot be read.
func CountRows(path string) int {
	b, _ := os.ReadFile(path)
	return max(0, bytes.Count(b, []byte("\n"))-1)
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
