package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// readmeBlocks returns the code blocks of the README's section "Use from
// Go": the program and its output.
func readmeBlocks(t *testing.T) (program, output string) {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n## Use from Go\n")
	if i < 0 {
		t.Fatal(`README has no section "## Use from Go"`)
	}
	s = s[i:]
	if j := strings.Index(s[1:], "\n## "); j >= 0 {
		s = s[:j+1]
	}
	block := func(fence string) string {
		k := strings.Index(s, fence)
		if k < 0 {
			t.Fatalf("README's section Use from Go has no %q block", fence)
		}
		rest := s[k+len(fence):]
		e := strings.Index(rest, "\n```\n")
		if e < 0 {
			t.Fatalf("README's %q block is not closed", fence)
		}
		s = rest[e:]
		return rest[:e+1]
	}
	return block("```go\n"), block("```text\n")
}

// TestReadmeProgram checks that the README's program is this file's
// main.go, character for character, and that running it prints what the
// README shows.
func TestReadmeProgram(t *testing.T) {
	program, output := readmeBlocks(t)
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if program != string(src) {
		t.Errorf("the README's program and examples/quickstart/main.go differ: copy main.go into the README's ```go block")
	}
	if testing.Short() {
		t.Skip("running the program takes seconds")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	done := make(chan []byte)
	go func() {
		var buf bytes.Buffer
		io.Copy(&buf, r)
		done <- buf.Bytes()
	}()
	main()
	w.Close()
	os.Stdout = stdout
	if got := string(<-done); got != output {
		t.Errorf("the program prints\n%s\nthe README shows\n%s", got, output)
	}
}
