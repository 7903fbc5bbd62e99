package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/childproc"
)

// The tests of this file check that the command loses nothing: an output
// file (-o) is replaced only once complete, whatever stops the command.
// The kills are real: the test binary runs itself as the command in a
// child process (internal/childproc) and the test kills it.

// TestOutputKilled kills (SIGKILL) and interrupts (SIGINT) ngca fit -o
// while it waits for its data on standard input, its temporary output
// file open: fit.json keeps its old content. After Ctrl-C no temporary
// file remains; after a kill the temporary file may remain, but nothing
// else changes.
func TestOutputKilled(t *testing.T) {
	childproc.RunAsChild(run)
	dir := t.TempDir()
	files := dataFiles(t, dir)
	fitJSON := filepath.Join(dir, "fit.json")
	ngcaRun(t, "", "fit", "-dim", "2", "-json", "-o", fitJSON, files["tsv"]).mustSucceed(t)
	old := readText(t, fitJSON)
	for _, sig := range []os.Signal{os.Kill, os.Interrupt} {
		var out childproc.Output
		cmd, in := childproc.Start(t, "TestOutputKilled", &out, "fit", "-dim", "2", "-json", "-o", fitJSON, "-")
		io.WriteString(in, readText(t, files["tsv"])[:1000]) // part of the data
		childproc.WaitFor(t, "the temporary file", &out, func() bool { return len(childproc.TempFiles(t, dir)) > 0 })
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		in.Close()
		if got := readText(t, fitJSON); got != old {
			t.Errorf("after %v, fit.json holds %.80q…", sig, got)
		}
		tmp := childproc.TempFiles(t, dir)
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
	before := childproc.Snapshot(t, dir)

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
	after := childproc.Snapshot(t, dir)
	for name, text := range before {
		if after[name] != text {
			t.Errorf("%s changed by a failed command", name)
		}
	}
	if tmp := childproc.TempFiles(t, dir); len(tmp) > 0 {
		t.Errorf("temporary files left behind: %q", tmp)
	}
}
