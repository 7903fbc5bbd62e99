package benchmark

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/research/internal/libsvm"
	"github.com/ngca-go/ngca/research/internal/libsvm/libsvmtest"
)

// requireLIBSVM skips the test when LIBSVM cannot be loaded (see libsvmtest).
func requireLIBSVM(t *testing.T) { t.Helper(); libsvmtest.Require(t, libsvm.Available()) }

// TestPipeline runs the whole study on a slice of vehicle (testdata): all
// methods (with -short, all but SNGCA, whose fits and fingerprint take
// seconds each, minutes under the race detector), n = 40, d = 25, 2 runs;
// then checks the files and that the results do not depend on the number
// of workers.
func TestPipeline(t *testing.T) {
	requireLIBSVM(t)
	ms := Methods()
	if testing.Short() {
		ms = slices.DeleteFunc(ms, func(m Method) bool { return m.Key == SNGCA.Key })
	}
	cfg := Config{Data: "testdata", Out: t.TempDir(), Datasets: []string{"vehicle"}, Dims: []int{25}, Runs: 2, N: 40, Seed: 7, Workers: 2, Methods: ms}
	res, err := cfg.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs != 2 || res.Finished != 2 || len(res.Records) != 2*len(ms) {
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
	k := len(ms)
	if len(rows) != 1+2*k || strings.Join(rows[0], ",") != strings.Join(csvHeader, ",") {
		t.Fatalf("runs.csv: %d rows, header %v", len(rows), rows[0])
	}
	for i, row := range rows[1:] {
		if len(row) != len(csvHeader) {
			t.Fatalf("runs.csv row %d: %d columns", i+2, len(row))
		}
		rate, err1 := strconv.ParseFloat(row[5], 64)
		secs, err2 := strconv.ParseFloat(row[7], 64)
		if row[0] != "vehicle" || row[1] != "40" || row[2] != "25" || row[3] != strconv.Itoa(1+i/k) || row[4] != ms[i%k].Key {
			t.Errorf("runs.csv row %d = %v: not in sorted order", i+2, row)
		}
		if row[9] == "true" {
			t.Errorf("runs.csv row %d: %s failed: %s", i+2, row[4], row[10])
			continue
		}
		if err1 != nil || err2 != nil || rate < 0 || rate > 1 || secs < 0 || rate*40 != math.Round(rate*40) {
			t.Errorf("runs.csv row %d: error rate %q, seconds %q", i+2, row[5], row[7])
		}
		if rate > 0.6 {
			t.Errorf("runs.csv row %d: error rate %v, no better than chance", i+2, rate)
		}
		if len(row[12]) != fingerprintDigits || !strings.Contains(row[13], "runs at once") {
			t.Errorf("runs.csv row %d: fingerprint %q, platform %q", i+2, row[12], row[13])
		}
		if (row[4] == Robust.Key) != (row[11] != "") {
			t.Errorf("runs.csv row %d: %s with path %q", i+2, row[4], row[11])
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
	if len(vehicle) != k+2 || len(susy) != k+2 || vehicle[1] != "2 of 2" {
		t.Fatalf("table2.md rows: vehicle %q, SUSY %q\n%s", vehicle, susy, md)
	}
	bold := 0
	for _, c := range vehicle[2:] {
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
	for _, c := range susy[2:] {
		if c != "not available (5M-row file not provided)" {
			t.Errorf("SUSY cell %q", c)
		}
	}
	for _, want := range []string{"2 runs per row, all those requested", "### d = 25: ε of the subspace", "| vehicle [18, 40] | — | ",
		"WF-LSNGCA robust (default)", "Measured on ", "Fingerprints of the code"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("table2.md lacks %q:\n%s", want, md)
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
		if r1 := res1.Records[i]; !sameResults(r, r1) {
			t.Errorf("record %d: %+v with 2 workers, %+v with 1", i, r, r1)
		}
	}
}

// sameResults reports whether two records are of the same run and method
// with the same results to the last bit (times and platform aside).
func sameResults(a, b Record) bool {
	a.Seconds, a.SVMSeconds, a.Platform = 0, 0, ""
	b.Seconds, b.SVMSeconds, b.Platform = 0, 0, ""
	return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b)
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
	cfg := Config{Data: "testdata", Out: t.TempDir(), Datasets: []string{"vehicle"}, Dims: []int{25}, Runs: 3, N: 40,
		Methods: []Method{NoReduction, PCA, MIPP}}
	res, err := cfg.Run(ctx)
	if !errors.Is(err, context.Canceled) || res == nil || res.Finished != 0 || res.Jobs != 3 || !strings.Contains(err.Error(), "0 of 3 runs finished") {
		t.Fatalf("cancelled run: %v, %+v", err, res)
	}
	md, err := os.ReadFile(filepath.Join(cfg.Out, "table2.md"))
	if err != nil || !strings.Contains(string(md), "not run") || !strings.Contains(string(md), "**0 of 3 runs per row so far**") ||
		!strings.Contains(string(md), "| vehicle [18, 40] | 0 of 3 | not run |") {
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
		{Config{Datasets: []string{"ijcnn1"}, Dims: []int{22}}, "must exceed ijcnn1's m = 22"},
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

// TestMarkdown checks the page from made-up records: bold entries by the
// t-test, failed runs, missing runs, the SUSY row, ε, the default against
// WF-LSNGCA and the timing.
func TestMarkdown(t *testing.T) {
	cfg := Config{Out: "x", Datasets: []string{"vehicle", "shuttle"}, Dims: []int{50}, Runs: 4,
		Methods: []Method{NoReduction, PCA, LSNGCA, WFLSNGCA, Robust}}
	if err := cfg.defaults(); err != nil {
		t.Fatal(err)
	}
	var recs []Record
	add := func(ds, m string, rates ...float64) {
		n := 200
		if ds == "shuttle" {
			n = 2000
		}
		for i, r := range rates {
			rec := Record{Dataset: ds, N: n, D: 50, Run: i + 1, Method: m, ErrorRate: r, Epsilon: 0.1 + r, Seconds: 0.5, SVMSeconds: 0.25,
				Fingerprint: "f-" + m, Platform: "CPU (2 CPUs); go; 2 runs at once"}
			if m == "none" {
				rec.Epsilon, rec.Seconds = math.NaN(), 0
			}
			if m == Robust.Key {
				rec.Path = "axes"
				if i == 0 {
					rec.Path = "equivariant"
				}
			}
			if math.IsNaN(r) {
				rec.Failed, rec.Reason, rec.Epsilon = true, "ngca: numerically singular: covariance", math.NaN()
			}
			recs = append(recs, rec)
		}
	}
	add("vehicle", "none", 0.30, 0.32, 0.31, 0.33)     // best: 0.315
	add("vehicle", "pca", 0.40, 0.41, 0.42, 0.43)      // significantly worse
	add("vehicle", "lsngca", 0.30, 0.36, 0.29, 0.35)   // same mean as far as the test can tell
	add("vehicle", "wflsngca", 0.31, math.NaN(), 0.32) // one failure, one run missing
	add("vehicle", Robust.Key, 0.31, 0.30, 0.32, 0.33)
	add("shuttle", "none", 0.03, 0.03, 0.03, 0.03)
	add("shuttle", "pca", 0.02, 0.02, 0.02, 0.02)
	add("shuttle", "lsngca", math.NaN(), math.NaN(), math.NaN(), math.NaN())
	add("shuttle", "wflsngca", 0.010, 0.011, 0.009, 0.010)
	add("shuttle", Robust.Key, 0.020, 0.021, 0.019, 0.020) // significantly worse than WF-LSNGCA
	// Rows that are not the study's: another n, a run beyond -runs.
	recs = append(recs, Record{Dataset: "vehicle", N: 40, D: 50, Run: 1, Method: "pca", ErrorRate: 0.9},
		Record{Dataset: "vehicle", N: 200, D: 50, Run: 5, Method: "pca", ErrorRate: 0.9})
	md := cfg.markdown(recs)
	want := []string{
		"Produced by `go run ./cmd/reproduce benchmark -resume -out x -runs 4 -datasets vehicle,shuttle -d 50 -methods none,pca,lsngca,wflsngca,wflsngca-robust -seed 0` (in research/), " +
			"which continues it where it stopped: **3 to 4 of 4 runs per row so far** (the column Runs gives each row's).",
		"| Dataset [m, n] | Runs | No reduction | PCA | LSNGCA | WF-LSNGCA | WF-LSNGCA robust (default) |",
		"| vehicle [18, 200] | 3 of 4 | **0.315 (0.013)** | 0.415 (0.013) | **0.325 (0.035)** | **0.315 (0.007)**, 1 failed | **0.315 (0.013)** |",
		"| SUSY [18, 2000] | – | not available (5M-row file not provided) |",
		"| shuttle [9, 2000] | 4 of 4 | 0.030 (0.000) | 0.020 (0.000) | failed (4 of 4 runs) | **0.010 (0.001)** | 0.020 (0.001) |",
		"- vehicle, WF-LSNGCA: 1 of 3 runs failed (left out of the mean); first error: ngca: numerically singular: covariance",
		"- vehicle, WF-LSNGCA: 3 of the 4 runs requested finished (other columns of the row have 4)",
		"- shuttle, LSNGCA: 4 of 4 runs failed",
		"| vehicle [18, 200] | — | 0.515 (0.013) | **0.425 (0.035)** | **0.415 (0.007)** | **0.415 (0.013)** |",
		"| shuttle [9, 2000] | — | 0.120 (0.000) | failed | **0.110 (0.001)** | 0.120 (0.001) |",
		"| shuttle [9, 2000] | 50 | 0.010 (0.001) | 0.020 (0.001) | +0.010 | < 0.0001 | **significantly worse** |",
		"The default is significantly worse than WF-LSNGCA on 1 of the 1 rows compared:",
		"- shuttle, d = 50: the default errs 0.020 (0.001) against 0.010 (0.001) for WF-LSNGCA (+0.010, p < 0.0001, 4 and 4 runs). " +
			"Its subspace is significantly farther from the real features (ε 0.120 against 0.110, p < 0.0001): it finds fewer of them. " +
			"It returned the axes estimate in 3 runs (error 0.020) and the equivariant estimate in 1 run (error 0.020).",
		"| Dataset [m, n] | d | PCA | LSNGCA | WF-LSNGCA | WF-LSNGCA robust (default) | a run |",
		"| vehicle [18, 200] | 50 | 0.5 | 0.5 | 0.5 | 0.5 | 3.25 |",
		"| shuttle [9, 2000] | 50 | 0.5 | – | 0.5 | 0.5 | 3.25 |",
		"Measured on CPU (2 CPUs); go; 2 runs at once.",
		"At these means, the runs left take about 3 s with 1 run at once.",
		"none `f-none`, pca `f-pca`, lsngca `f-lsngca`, wflsngca `f-wflsngca`, wflsngca-robust `f-wflsngca-robust`.",
	}
	cfg.Workers = 1
	md = cfg.markdown(recs)
	for _, w := range want {
		if !strings.Contains(md, w) {
			t.Errorf("table lacks %q:\n%s", w, md)
		}
	}
	if i, j, k := strings.Index(md, "| vehicle"), strings.Index(md, "| shuttle"), strings.Index(md, "| SUSY"); !(i < j && j < k) {
		t.Errorf("rows not in the paper's order (vehicle, shuttle, SUSY):\n%s", md)
	}
	if strings.Contains(md, "0.9") {
		t.Errorf("rows of another n or run in the table:\n%s", md)
	}
}

// TestResume runs the pipeline with two methods, resumes it with two more
// and checks that the records are those of the study run at once. Then
// it marks one method's rows as made by other code and adds a row of
// another run: resumed again, the study runs the marked rows again,
// says so, and keeps the other row in runs.csv but not in the table.
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
	same := func(got, want *Result) {
		t.Helper()
		if len(got.Records) != len(want.Records) || got.Finished != 2 || got.Jobs != 2 {
			t.Fatalf("%d records, %d of %d runs resumed; %d records at once", len(got.Records), got.Finished, got.Jobs, len(want.Records))
		}
		for i, r := range got.Records {
			if !sameResults(r, want.Records[i]) {
				t.Errorf("record %d: resumed %+v, at once %+v", i, r, want.Records[i])
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
	same(got, want)

	path := filepath.Join(part.Out, "runs.csv")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	mipp := got.Records[2].Fingerprint
	text = strings.ReplaceAll(text, ","+mipp+",", ",0123456789ab,")
	other := "vehicle,40,25,9,pca,0.875,0.5,0.1,0.1,false,,,x,y\n"
	if err := os.WriteFile(path, []byte(text+other), 0o644); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	rest.Log = &log
	again, err := rest.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := "2 rows of mipp made by other code, seed or standardisation (fingerprint 0123456789ab; now " + mipp + ") are run again"; !strings.Contains(log.String(), want) {
		t.Errorf("log %q lacks %q", log.String(), want)
	}
	if last := again.Records[len(again.Records)-1]; last.Run != 9 || last.ErrorRate != 0.875 {
		t.Errorf("the row of another run was not kept: %+v", last)
	}
	if strings.Contains(again.Table, "0.875") {
		t.Errorf("the row of another run entered the table:\n%s", again.Table)
	}
	again.Records = again.Records[:len(again.Records)-1]
	same(again, want)
}

// TestRefit refits the rows of a small study and gets them bit for bit;
// TestCommittedTable2 does the same for rows of the committed runs.csv.
func TestRefit(t *testing.T) {
	requireLIBSVM(t)
	cfg := Config{Data: "testdata", Out: t.TempDir(), Datasets: []string{"vehicle"}, Dims: []int{22}, Runs: 2, N: 40, Seed: 3,
		Methods: []Method{NoReduction, PCA, MIPP, Robust}}
	if _, err := cfg.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRecords(filepath.Join(cfg.Out, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2*4 {
		t.Fatalf("%d rows", len(recs))
	}
	refit := Config{Data: "testdata", Seed: 3}
	checkRefits(t, refit, recs)
	// Another seed gives other fingerprints and other results.
	refit.Seed = 4
	other, err := refit.Refit(context.Background(), recs[2:3])
	if err != nil {
		t.Fatal(err)
	}
	if other[0].Fingerprint == recs[2].Fingerprint || other[0].ErrorRate == recs[2].ErrorRate && other[0].Epsilon == recs[2].Epsilon {
		t.Errorf("seed 4 refits %+v as seed 3 made it: %+v", other[0], recs[2])
	}
}

// checkRefits refits recs with cfg and checks that every result and
// fingerprint is the recorded one.
func checkRefits(t *testing.T, cfg Config, recs []Record) {
	t.Helper()
	got, err := cfg.Refit(context.Background(), recs)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		if !sameResults(got[i], r) {
			t.Errorf("refit %+v\nrecorded %+v", got[i], r)
		} else {
			t.Logf("%s n=%d d=%d run %d %s: error rate %v, ε %v, fingerprint %s: as recorded", r.Dataset, r.N, r.D, r.Run, r.Method, r.ErrorRate, r.Epsilon, r.Fingerprint)
		}
	}
}

// TestWorseSentenceMIPP checks the reason the page gives where the
// default returns the equivariant estimate and errs more than WF-LSNGCA:
// MIPP's error on the row, the start of that estimate, and where the
// default's lies between the two.
func TestWorseSentenceMIPP(t *testing.T) {
	var c Config
	ds := Dataset{Name: "shuttle"}
	wf := &cell{rates: []float64{0.010, 0.011, 0.009}}
	def := &cell{rates: []float64{0.006, 0.020, 0.022}, paths: []string{"axes", "equivariant", "equivariant"}}
	for _, tc := range []struct {
		mipp []float64
		want string
	}{
		{[]float64{0.030, 0.032}, "The equivariant estimate refines MIPP's, which errs 0.031 (0.001) on this row: " +
			"where the default returns it, its error lies between MIPP's and WF-LSNGCA's."},
		{[]float64{0.015, 0.017}, "The equivariant estimate refines MIPP's, which errs 0.016 (0.001) on this row."},
	} {
		got := c.worseSentence(ds, 50, wf, def, &cell{rates: tc.mipp}, 0.01)
		if !strings.HasSuffix(got, tc.want) {
			t.Errorf("MIPP %v: %q, want it to end %q", tc.mipp, got, tc.want)
		}
	}
	if got := c.worseSentence(ds, 50, wf, def, &cell{}, 0.01); strings.Contains(got, "MIPP") {
		t.Errorf("without MIPP's runs: %q", got)
	}
}
