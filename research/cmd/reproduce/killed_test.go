package main

import (
	"path/filepath"
	"testing"

	"github.com/ngca-go/ngca/internal/childproc"
)

// TestStudyKilled runs a study to the end, then again with more runs and
// kills it (SIGKILL) while it appends rows to its CSV: the CSV must hold
// whole rows only, and every other output (tables, figures) the complete
// content of the first run. The artificial study gets one cheap method
// (MIPP); the robust study always fits six, so it is left out with -short.
func TestStudyKilled(t *testing.T) {
	childproc.RunAsChild(run)
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
			before := childproc.Snapshot(t, dir)

			var out childproc.Output
			cmd, _ := childproc.Start(t, "TestStudyKilled", &out, append(args, runsFlag, "500")...)
			csvPath := filepath.Join(dir, tc.csv)
			childproc.WaitFor(t, "three appended rows", &out, func() bool { return childproc.CountRows(csvPath) >= 3 })
			childproc.Kill(t, cmd)

			if n := childproc.WholeRows(t, csvPath); n < 3 {
				t.Errorf("%s: %d rows after the kill, want at least the 3 seen", tc.csv, n)
			}
			after := childproc.Snapshot(t, dir)
			for name, text := range before {
				if name != tc.csv && after[name] != text {
					t.Errorf("%s changed by the killed run", name)
				}
			}
			if tmp := childproc.TempFiles(t, dir); len(tmp) > 0 {
				t.Errorf("temporary files after a kill mid-run: %q", tmp)
			}
		})
	}
}
