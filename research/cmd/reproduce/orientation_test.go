package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOrientationFlags(t *testing.T) {
	checkCLI(t, []cliCase{
		{[]string{"-h"}, 0, "orientation", "stdout"},
		{[]string{"orientation", "-h"}, 0, "-sngca-seeds", "stdout"},
		{[]string{"orientation", "-h"}, 0, "first -sngca-seeds", "stdout"},
		{[]string{"orientation", "-blocks", "x"}, 1, `unknown block "x"`, "stderr"},
		{[]string{"orientation", "-blocks", ","}, 1, "-blocks is empty", "stderr"},
		{[]string{"orientation", "-signals", "zz"}, 1, `unknown signal "zz"`, "stderr"},
		{[]string{"orientation", "-blocks", "m", "-signals", "d"}, 1, "no cell of blocks", "stderr"},
		{[]string{"orientation", "-methods", "svm"}, 1, `unknown method "svm"`, "stderr"},
		{[]string{"orientation", "-seeds", "0"}, 1, "-seeds must be at least 1", "stderr"},
		{[]string{"orientation", "-sngca-seeds", "-1"}, 1, "-sngca-seeds must not be negative", "stderr"},
		{[]string{"orientation", "-workers", "-1"}, 1, "-workers must not be negative", "stderr"},
		{[]string{"orientation", "-rerun", "sngca", "-methods", "mipp"}, 1, "sngca is not among -methods", "stderr"},
		{[]string{"orientation", "-rerun", "svm"}, 1, `-rerun: unknown method "svm"`, "stderr"},
		{[]string{"orientation", "-report-only", "-resume"}, 1, "-report-only fits nothing", "stderr"},
		{[]string{"orientation", "-resume=x"}, 1, "-resume", "stderr"},
		{[]string{"orientation", "extra"}, 1, "unexpected argument", "stderr"},
		{[]string{"orientation", "-report-only", "-out", t.TempDir()}, 1, "no fits to report", "stderr"},
	})
}

// TestOrientationReportOnly rebuilds the report from a two-row CSV; its
// Made-by command leaves -report-only out.
func TestOrientationReportOnly(t *testing.T) {
	out := t.TempDir()
	csv := "block,cell,signal,m,n,d,r,mix,seed,method,epsilon,seconds,separation,path,p,refined,epsilon_axes,epsilon_equivariant,distance,error\n" +
		"n,n n=500 d=10 m=2 a k=turn r=0,a,2,500,10,0,turn,0,mipp,0.01,0.2,5,,,,,,,\n" +
		"n,n n=500 d=10 m=2 a k=turn r=0,a,2,500,10,0,turn,0,wflsngca-robust,0.5,0.9,,equivariant,0.001,true,0.9,0.5,3.5,\n"
	if err := os.WriteFile(filepath.Join(out, "orientation.csv"), []byte(csv), 0o666); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "orientation", "-report-only", "-out", out)
	if code != 0 || stderr != "" || !strings.Contains(stdout, "wrote ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	md, err := os.ReadFile(filepath.Join(out, "orientation.md"))
	for _, want := range []string{"`go run ./cmd/reproduce orientation -out ", "| n=500 a k=turn r=0 | 0.01 | 0.5 |", "| WF-LSNGCA robust | 1 | 1 (0) |"} {
		if err != nil || !strings.Contains(string(md), want) {
			t.Errorf("orientation.md lacks %q (%v):\n%s", want, err, md)
		}
	}
}
