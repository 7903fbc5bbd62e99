package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// leftovers fails the test if dir holds a temporary file.
func leftovers(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWrite checks a new file and a replaced one: content, permissions as
// os.OpenFile gives a new file, and no temporary file left.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := WriteFile(path, []byte("one\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); got != "one\n" {
		t.Errorf("content %q, want %q", got, "one\n")
	}
	ref := filepath.Join(dir, "ref")
	if f, err := os.OpenFile(ref, os.O_CREATE|os.O_WRONLY, 0o666); err != nil {
		t.Fatal(err)
	} else {
		f.Close()
	}
	got, _ := os.Stat(path)
	want, _ := os.Stat(ref)
	if got.Mode() != want.Mode() {
		t.Errorf("new file mode %v, want %v (as os.OpenFile with the umask)", got.Mode(), want.Mode())
	}
	if err := Write(path, 0o666, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		for i := 0; i < 10000; i++ {
			fmt.Fprintf(bw, "%d\n", i)
		}
		return bw.Flush()
	}); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, path); !strings.HasPrefix(got, "0\n1\n") || !strings.HasSuffix(got, "9999\n") {
		t.Errorf("replaced content %.20q…, want 0 … 9999", got)
	}
	leftovers(t, dir)
}

// TestErrorKeepsOld checks that a write that fails midway, and an Abort
// after writing, leave the old file as it was and no temporary file.
func TestErrorKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fit.json")
	if err := WriteFile(path, []byte("old complete content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, 0o644, func(w io.Writer) error {
		io.WriteString(w, "new partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("Write returned %v, want the writer's error", err)
	}
	f, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "abandoned")
	f.Abort()
	f.Abort() // a second Abort does nothing
	if err := f.Commit(); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Commit after Abort: %v, want fs.ErrClosed", err)
	}
	if _, err := f.Write([]byte("x")); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Write after Abort: %v, want fs.ErrClosed", err)
	}
	if got := mustRead(t, path); got != "old complete content\n" {
		t.Errorf("old file now %q", got)
	}
	leftovers(t, dir)
}

// TestKeepsMode checks that a replaced file keeps its permission bits.
func TestKeepsMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "secret.csv")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v after replacing, want -rw-r-----", fi.Mode())
	}
}

// TestSymlink checks that a symbolic link is followed: its target gets the
// new content and the link stays a link.
func TestSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.csv")
	link := filepath.Join(dir, "link.csv")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := WriteFile(link, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, target); got != "new\n" {
		t.Errorf("target holds %q, want the new content", got)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
}

// TestCreateErrors checks that a destination that cannot be written fails
// at Create, naming the destination.
func TestCreateErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such", "dir", "out.csv")
	_, err := Create(missing, 0o644)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing directory: %v, want fs.ErrNotExist naming %s", err, missing)
	}
	if _, err := Create(dir, 0o644); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory as destination: %v", err)
	}
	if runtime.GOOS != "windows" && os.Getuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		if _, err := Create(filepath.Join(ro, "out.csv"), 0o644); !errors.Is(err, fs.ErrPermission) {
			t.Errorf("read-only directory: %v, want fs.ErrPermission", err)
		}
	}
	leftovers(t, dir)
}

// TestConcurrentWriters checks that writers racing on one path each
// replace it whole: the result is one writer's complete content.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			line := strings.Repeat(string(rune('a'+w)), 1000) + "\n"
			for range 20 {
				if err := WriteFile(path, []byte(strings.Repeat(line, 50)), 0o644); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got := mustRead(t, path)
	if len(got) != 50*1001 || strings.Count(got, got[:1]) != 50*1000 {
		t.Errorf("mixed or truncated content: %d bytes", len(got))
	}
	leftovers(t, dir)
}

// TestKill kills (SIGKILL) a process in the middle of writing a file and
// checks that the old file is intact.
func TestKill(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_TEST_CHILD"); path != "" {
		f, err := Create(path, 0o644)
		if err != nil {
			os.Exit(2)
		}
		io.WriteString(f, "half of the new conte")
		fmt.Println("ready")
		select {} // wait for the kill
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no SIGKILL")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "fit.json")
	if err := WriteFile(path, []byte("old complete content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKill$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_TEST_CHILD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child said %q, want ready", line)
	}
	cmd.Process.Kill() // SIGKILL on Unix
	cmd.Wait()
	if got := mustRead(t, path); got != "old complete content\n" {
		t.Errorf("after the kill the file holds %q", got)
	}
}
