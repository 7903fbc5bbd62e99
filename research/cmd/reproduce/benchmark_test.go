package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/childproc"
	"github.com/ngca-go/ngca/research/internal/libsvm"
	"github.com/ngca-go/ngca/research/internal/libsvm/libsvmtest"
	"github.com/ngca-go/ngca/research/internal/repro/benchmark"
)

// benchTestdata is a 120-row slice of vehicle.scale (see its README).
var benchTestdata = filepath.Join("..", "..", "internal", "repro", "benchmark", "testdata")

// benchRequireLIBSVM skips the test when LIBSVM cannot be loaded (see
// libsvmtest).
func benchRequireLIBSVM(t *testing.T) { t.Helper(); libsvmtest.Require(t, libsvm.Available()) }

func TestBenchmarkFlags(t *testing.T) {
	checkCLI(t, []cliCase{
		{[]string{"benchmark", "-h"}, 0, "apt-get install libsvm-dev", "stdout"},
		{[]string{"-h"}, 0, "benchmark", "stdout"},
		{[]string{"benchmark", "-h"}, 0, "-datasets", "stdout"},
		{[]string{"benchmark", "-h"}, 0, "(default data/libsvm)", "stdout"},
		{[]string{"benchmark", "-h"}, 0, benchmark.DownloadURL, "stdout"},
		{[]string{"benchmark", "-datasets", "SUSY"}, 1, "not available (5M-row file not provided)", "stderr"},
		{[]string{"benchmark", "-datasets", "iris"}, 1, `unknown data set "iris"`, "stderr"},
		{[]string{"benchmark", "-datasets", ","}, 1, "-datasets is empty", "stderr"},
		{[]string{"benchmark", "-d", "20"}, 1, "must exceed svmguide3's m = 21", "stderr"},
		{[]string{"benchmark", "-d", "x"}, 1, `-d: "x" is not an integer`, "stderr"},
		{[]string{"benchmark", "-methods", "svm"}, 1, `unknown method "svm"`, "stderr"},
		{[]string{"benchmark", "-runs", "0"}, 1, "-runs must be at least 1", "stderr"},
		{[]string{"benchmark", "-n", "41"}, 1, "-n must be even", "stderr"},
		{[]string{"benchmark", "-workers", "-1"}, 1, "-workers must not be negative", "stderr"},
		{[]string{"benchmark", "-standardise", "train"}, 1, `unknown standardisation "train"`, "stderr"},
		{[]string{"benchmark", "extra"}, 1, "unexpected argument", "stderr"},
	})
}

// TestBenchmarkDataFolder checks that the data sets are looked for in
// data/libsvm under the current directory, or in -data, and that missing
// files are reported with the folder, the files and where to get them
// (before LIBSVM is looked for).
func TestBenchmarkDataFolder(t *testing.T) {
	empty := t.TempDir()
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		flags []string
		dir   string
		files string
	}{
		{nil, "data/libsvm", "vehicle.scale"},
		{[]string{"-data", empty, "-datasets", "svmguide1,ijcnn1"}, empty, "svmguide1, svmguide1.t, ijcnn1 (ijcnn1.bz2, decompressed)"},
	} {
		args := append([]string{"benchmark", "-datasets", "vehicle", "-runs", "1", "-out", "out"}, tc.flags...)
		code, stdout, stderr := runCmd(t, args...)
		abs, _ := filepath.Abs(tc.dir)
		for _, want := range []string{
			"reproduce benchmark: LIBSVM data files not found in " + tc.dir,
			": " + tc.files + "; download them from " + benchmark.DownloadURL + " into " + tc.dir + ", or give their folder with -data\n",
		} {
			if code != 1 || stdout != "" || !strings.Contains(stderr, want) {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.flags, code, stdout, stderr, want)
			}
		}
		if tc.dir != abs && !strings.Contains(stderr, "("+abs+")") {
			t.Errorf("%q: stderr %q does not give the absolute folder %s", tc.flags, stderr, abs)
		}
	}
}

// TestBenchmarkCommand runs the study on the vehicle slice (or, without
// LIBSVM, checks that the command says how to install it).
func TestBenchmarkCommand(t *testing.T) {
	out := t.TempDir()
	args := []string{"benchmark", "-data", benchTestdata, "-datasets", "vehicle", "-n", "40", "-d", "22",
		"-runs", "2", "-methods", "none,pca,mipp", "-workers", "2", "-out", out}
	if err := libsvm.Available(); err != nil {
		code, _, errs := runCmd(t, args...)
		if code != 1 || !strings.Contains(errs, "apt-get install libsvm-dev") {
			t.Errorf("without LIBSVM: exit %d, stderr %q", code, errs)
		}
	}
	benchRequireLIBSVM(t)
	code, stdout, stderr := runCmd(t, args...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"| Dataset [m, n] | Runs | No reduction | PCA | MIPP |", "| vehicle [18, 40] | 2 of 2 |", "| vehicle [18, 40] |", "| SUSY [18, 2000] | – | not available", "wrote "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	csv, err := os.ReadFile(filepath.Join(out, "runs.csv"))
	if err != nil || strings.Count(string(csv), "\n") != 1+2*3 {
		t.Errorf("runs.csv: %v\n%s", err, csv)
	}
	if md, err := os.ReadFile(filepath.Join(out, "table2.md")); err != nil || !strings.Contains(stdout, string(md)) {
		t.Errorf("table2.md is not the table printed: %v", err)
	}

	// Interrupted before any run finished: files written, exit 1.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	if code := run(ctx, args, &o, &e); code != 1 || !strings.Contains(e.String(), "interrupted: 0 of 2 runs finished") {
		t.Errorf("cancelled: exit %d, stderr %q", code, e.String())
	}
}

// TestBenchmarkKilledResumes kills the benchmark study (SIGKILL) while it
// appends rows, then resumes it with -resume: runs.csv holds whole rows
// after the kill, the resumed study makes only the runs it lacks, and its
// results are those of the study run at once, bit for bit.
func TestBenchmarkKilledResumes(t *testing.T) {
	childproc.RunAsChild(run)
	benchRequireLIBSVM(t)
	args := func(out string, runs int) []string {
		return []string{"benchmark", "-data", benchTestdata, "-datasets", "vehicle", "-n", "40", "-d", "22",
			"-runs", strconv.Itoa(runs), "-methods", "none,pca,mipp", "-workers", "2", "-out", out}
	}
	once, dir := t.TempDir(), t.TempDir()
	if code, _, errs := runCmd(t, args(once, 6)...); code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var out childproc.Output
	cmd, _ := childproc.Start(t, "TestBenchmarkKilledResumes", &out, args(dir, 100000)...)
	csvPath := filepath.Join(dir, "runs.csv")
	childproc.WaitFor(t, "three appended rows", &out, func() bool { return childproc.CountRows(csvPath) >= 3 })
	childproc.Kill(t, cmd)
	killed := childproc.WholeRows(t, csvPath)
	if killed < 3 {
		t.Errorf("%d rows after the kill, want at least the 3 seen", killed)
	}
	// table2.md is rewritten after every run: a kill may leave its
	// temporary file, which the resumed study removes.
	for _, f := range childproc.TempFiles(t, dir) {
		if !strings.HasPrefix(filepath.Base(f), ".table2.md.") {
			t.Errorf("temporary file after a kill mid-run: %s", f)
		}
	}

	code, _, errs := runCmd(t, append(args(dir, 6), "-resume")...)
	if code != 0 {
		t.Fatalf("resumed: exit %d, stderr:\n%s", code, errs)
	}
	if tmp := childproc.TempFiles(t, dir); len(tmp) > 0 {
		t.Errorf("temporary files after the resumed run: %q", tmp)
	}
	want, err := benchmark.ReadRecords(filepath.Join(once, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := benchmark.ReadRecords(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	var mine []benchmark.Record // the 6 runs; the kill may have left later ones
	for _, r := range got {
		if r.Run <= 6 {
			mine = append(mine, r)
		}
	}
	if len(mine) != len(want) || len(want) != 6*3 {
		t.Fatalf("resumed: %d rows of the 6 runs, at once %d", len(mine), len(want))
	}
	for i, r := range mine {
		w := want[i]
		if r.Dataset != w.Dataset || r.Run != w.Run || r.Method != w.Method || r.Fingerprint != w.Fingerprint ||
			math.Float64bits(r.ErrorRate) != math.Float64bits(w.ErrorRate) || math.Float64bits(r.Epsilon) != math.Float64bits(w.Epsilon) {
			t.Errorf("row %d: resumed %+v, at once %+v", i, r, w)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "table2.md"))
	if err != nil || !strings.Contains(string(md), "| vehicle [18, 40] | 6 of 6 |") {
		t.Errorf("table2.md after the resumed run: %v\n%s", err, md)
	}
}
