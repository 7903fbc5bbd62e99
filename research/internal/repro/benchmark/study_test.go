package benchmark

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/research/internal/libsvm"
	"github.com/ngca-go/ngca/research/internal/libsvm/libsvmtest"
)

// requireLIBSVM skips the test when LIBSVM cannot be loaded (see libsvmtest).
func requireLIBSVM(t *testing.T) { t.Helper(); libsvmtest.Require(t, libsvm.Available()) }

// TestPipeline runs the whole study on a slice of vehicle (testdata): all
// methods, n = 40, d = 25, 2 runs; then checks the files and that the
// results do not depend on the number of workers.
func TestPipeline(t *testing.T) {
	requireLIBSVM(t)
	cfg := Config{Data: "testdata", Out: t.TempDir(), Datasets: []string{"vehicle"}, Dims: []int{25}, Runs: 2, N: 40, Seed: 7, Workers: 2}
	res, err := cfg.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs != 2 || res.Finished != 2 || len(res.Records) != 2*len(Methods()) {
		t.Fatalf("%d of %d runs, %d records", res.Finished, res.Jobs, len(res.Records))
	}

	f, err := os.Open(filepath.Join(cfg.Out, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	k := len(Methods())
	if len(rows) != 1+2*k || strings.Join(rows[0], ",") != strings.Join(csvHeader, ",") {
		t.Fatalf("runs.csv: %d rows, header %v", len(rows), rows[0])
	}
	for i, row := range rows[1:] {
		if len(row) != len(csvHeader) {
			t.Fatalf("runs.csv row %d: %d columns", i+2, len(row))
		}
		rate, err1 := strconv.ParseFloat(row[4], 64)
		secs, err2 := strconv.ParseFloat(row[5], 64)
		if row[0] != "vehicle" || row[1] != "25" || row[2] != strconv.Itoa(1+i/k) || row[3] != Methods()[i%k].Key {
			t.Errorf("runs.csv row %d = %v: not in sorted order", i+2, row)
		}
		if row[7] == "true" {
			t.Errorf("runs.csv row %d: %s failed: %s", i+2, row[3], row[8])
			continue
		}
		if err1 != nil || err2 != nil || rate < 0 || rate > 1 || secs < 0 || rate*40 != math.Round(rate*40) {
			t.Errorf("runs.csv row %d: error rate %q, seconds %q", i+2, row[4], row[5])
		}
		if rate > 0.6 {
			t.Errorf("runs.csv row %d: error rate %v, no better than chance", i+2, rate)
		}
	}

	md, err := os.ReadFile(filepath.Join(cfg.Out, "table2.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(md) != res.Table {
		t.Error("table2.md differs from Result.Table")
	}
	var vehicle, susy []string
	for _, line := range strings.Split(string(md), "\n") {
		switch { // the first rows that match: the timing table follows
		case strings.HasPrefix(line, "| vehicle [18, 40] |") && vehicle == nil:
			vehicle = cellsOf(line)
		case strings.HasPrefix(line, "| SUSY [18, 2000] |") && susy == nil:
			susy = cellsOf(line)
		}
	}
	if len(vehicle) != k+1 || len(susy) != k+1 {
		t.Fatalf("table2.md rows: vehicle %q, SUSY %q\n%s", vehicle, susy, md)
	}
	bold := 0
	for _, c := range vehicle[1:] {
		if strings.HasPrefix(c, "**") {
			bold++
		}
		var mean, sd float64
		if _, err := fmtSscanf(strings.Trim(c, "*"), &mean, &sd); err != nil || mean < 0 || mean > 1 || sd < 0 || sd > 1 {
			t.Errorf("cell %q is not \"mean (sd)\" of rates", c)
		}
	}
	if bold == 0 {
		t.Error("no bold cell")
	}
	for _, c := range susy[1:] {
		if c != "not available (5M-row file not provided)" {
			t.Errorf("SUSY cell %q", c)
		}
	}

	// Bit-identical error rates with one worker.
	cfg1 := cfg
	cfg1.Out, cfg1.Workers = t.TempDir(), 1
	res1, err := cfg1.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range res.Records {
		if r1 := res1.Records[i]; r1.ErrorRate != r.ErrorRate || r1.Method != r.Method || r1.Run != r.Run {
			t.Errorf("record %d: %+v with 2 workers, %+v with 1", i, r, r1)
		}
	}
}

func cellsOf(line string) []string {
	var out []string
	for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
		out = append(out, strings.TrimSpace(c))
	}
	return out
}

func fmtSscanf(s string, mean, sd *float64) (int, error) {
	a, b, ok := strings.Cut(s, " (")
	if !ok || !strings.HasSuffix(b, ")") {
		return 0, errors.New("not mean (sd)")
	}
	var err error
	if *mean, err = strconv.ParseFloat(a, 64); err != nil {
		return 0, err
	}
	if *sd, err = strconv.ParseFloat(strings.TrimSuffix(b, ")"), 64); err != nil {
		return 1, err
	}
	return 2, nil
}

// TestInterrupted runs with a context cancelled from the start: no run
// finishes, both files are still written and the error says so.
func TestInterrupted(t *testing.T) {
	requireLIBSVM(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := Config{Data: "testdata", Out: t.TempDir(), Datasets: []string{"vehicle"}, Dims: []int{25}, Runs: 3, N: 40}
	res, err := cfg.Run(ctx)
	if !errors.Is(err, context.Canceled) || res == nil || res.Finished != 0 || res.Jobs != 3 || !strings.Contains(err.Error(), "0 of 3 runs finished") {
		t.Fatalf("cancelled run: %v, %+v", err, res)
	}
	md, err := os.ReadFile(filepath.Join(cfg.Out, "table2.md"))
	if err != nil || !strings.Contains(string(md), "not run") || !strings.Contains(string(md), "- every cell: 0 of the 3 runs requested finished") {
		t.Errorf("table2.md after an interruption: %v\n%s", err, md)
	}
	if b, err := os.ReadFile(filepath.Join(cfg.Out, "runs.csv")); err != nil || strings.Count(string(b), "\n") != 1 {
		t.Errorf("runs.csv after an interruption: %v, %q", err, b)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg Config
		msg string
	}{
		{Config{Datasets: []string{"SUSY"}}, "not available"},
		{Config{Datasets: []string{"iris"}}, "unknown data set"},
		{Config{Datasets: []string{"ijcnn1"}, Dims: []int{21}}, "must exceed ijcnn1's m = 21"},
		{Config{N: 31}, "even"},
		{Config{Runs: -1}, "runs"},
		{Config{Workers: -2}, "workers"},
		{Config{Standardise: 7}, "unknown standardisation"},
	} {
		tc.cfg.Out = t.TempDir()
		if _, err := tc.cfg.Run(context.Background()); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%+v: %v, want %q", tc.cfg, err, tc.msg)
		}
	}
	// Missing files are reported before LIBSVM is looked for.
	cfg := Config{Data: t.TempDir(), Out: t.TempDir(), Datasets: []string{"vehicle", "svmguide1"}, Dims: []int{20}, Runs: 1, N: 80}
	var me *MissingDataError
	if _, err := cfg.Run(context.Background()); !errors.As(err, &me) || me.Dir != cfg.Data || strings.Join(me.Files, ",") != "vehicle.scale,svmguide1,svmguide1.t" {
		t.Errorf("missing data: %v", err)
	}
	// The slice has 60 rows per class: n = 80 needs 80 of each.
	requireLIBSVM(t)
	cfg.Data, cfg.Datasets = "testdata", []string{"vehicle"}
	if _, err := cfg.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "vehicle has 60 positive and 60 negative rows, but n = 80 needs 80 of each") {
		t.Errorf("too few rows: %v", err)
	}
}

// TestMarkdown checks the table from made-up records: bold entries by the
// t-test, failed runs, missing runs and the SUSY row.
func TestMarkdown(t *testing.T) {
	cfg := Config{Out: "x", Datasets: []string{"vehicle", "shuttle"}, Dims: []int{50}, Runs: 4,
		Methods: []Method{NoReduction, PCA, LSNGCA, WFLSNGCA}}
	if err := cfg.defaults(); err != nil {
		t.Fatal(err)
	}
	var recs []Record
	add := func(ds, m string, rates ...float64) {
		for i, r := range rates {
			rec := Record{Dataset: ds, D: 50, Run: i + 1, Method: m, ErrorRate: r, Seconds: 0.5}
			if math.IsNaN(r) {
				rec.Failed, rec.Reason = true, "ngca: numerically singular: covariance"
			}
			recs = append(recs, rec)
		}
	}
	add("vehicle", "none", 0.30, 0.32, 0.31, 0.33)     // best: 0.315
	add("vehicle", "pca", 0.40, 0.41, 0.42, 0.43)      // significantly worse
	add("vehicle", "lsngca", 0.30, 0.36, 0.29, 0.35)   // same mean as far as the test can tell
	add("vehicle", "wflsngca", 0.31, math.NaN(), 0.32) // one failure, one run missing
	add("shuttle", "none", 0.03, 0.03, 0.03, 0.03)
	add("shuttle", "pca", 0.02, 0.02, 0.02, 0.02)
	add("shuttle", "lsngca", math.NaN(), math.NaN(), math.NaN(), math.NaN())
	md := cfg.markdown(recs)
	want := []string{
		"| Dataset [m, n] | No reduction | PCA | LSNGCA | WF-LSNGCA |",
		"| vehicle [18, 200] | **0.315 (0.013)** | 0.415 (0.013) | **0.325 (0.035)** | **0.315 (0.007)**, 1 failed |",
		"| SUSY [18, 2000] | not available (5M-row file not provided) |",
		"| shuttle [9, 2000] | 0.030 (0.000) | **0.020 (0.000)** | failed (4 of 4 runs) | not run |",
		"- vehicle, WF-LSNGCA: 1 of 3 runs failed (left out of the mean); first error: ngca: numerically singular: covariance",
		"- vehicle, WF-LSNGCA: 3 of the 4 runs requested finished",
		"- shuttle, LSNGCA: 4 of 4 runs failed",
		"- shuttle, WF-LSNGCA: 0 of the 4 runs requested finished",
		"| vehicle [18, 200] | 50 | 0.5 | 0.5 | 0.5 |",
	}
	for _, w := range want {
		if !strings.Contains(md, w) {
			t.Errorf("table lacks %q:\n%s", w, md)
		}
	}
	if i, j, k := strings.Index(md, "| vehicle"), strings.Index(md, "| shuttle"), strings.Index(md, "| SUSY"); !(i < j && j < k) {
		t.Errorf("rows not in the paper's order (vehicle, shuttle, SUSY):\n%s", md)
	}
}

// TestResume runs the pipeline with two methods, resumes it with two more
// and checks that the records are those of the study run at once.
func TestResume(t *testing.T) {
	requireLIBSVM(t)
	whole := Config{Data: "testdata", Out: t.TempDir(), Datasets: []string{"vehicle"}, Dims: []int{25}, Runs: 2, N: 40, Seed: 7,
		Methods: []Method{NoReduction, PCA, MIPP, IMAK}}
	want, err := whole.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	part := whole
	part.Out, part.Methods = t.TempDir(), []Method{NoReduction, MIPP}
	if _, err := part.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rest := whole
	rest.Out, rest.Resume = part.Out, true
	got, err := rest.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Records) != len(want.Records) {
		t.Fatalf("%d records resumed, %d at once", len(got.Records), len(want.Records))
	}
	for i, r := range got.Records {
		w := want.Records[i]
		r.Seconds, r.SVMSeconds, w.Seconds, w.SVMSeconds = 0, 0, 0, 0
		if fmt.Sprint(r) != fmt.Sprint(w) {
			t.Errorf("record %d: resumed %+v, at once %+v", i, r, w)
		}
	}
	row := func(table string) string { // the error rates, not the times
		for _, line := range strings.Split(table, "\n") {
			if strings.HasPrefix(line, "| vehicle [18, 40] |") {
				return line
			}
		}
		return ""
	}
	if g, w := row(got.Table), row(want.Table); g == "" || g != w {
		t.Errorf("table2.md: resumed %q, at once %q", g, w)
	}
}
