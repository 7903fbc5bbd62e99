package benchmark

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/ngca-go/ngca/research/internal/libsvm/libsvmtest"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// TestFingerprint checks that fingerprints are stable, differ between
// methods and with the seed or the standardisation, and logs the robust
// variant's paths on the fixtures (see fixtureSeed).
func TestFingerprint(t *testing.T) {
	requireLIBSVM(t)
	ctx := context.Background()
	ms := []Method{NoReduction, PCA, MIPP, WFLSNGCA, Robust}
	c := Config{Seed: 1, Methods: ms}
	fps, err := c.fingerprints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, m := range ms {
		fp := fps[m.Key]
		if len(fp) != fingerprintDigits {
			t.Errorf("%s: fingerprint %q", m.Key, fp)
		}
		if other, ok := seen[fp]; ok {
			t.Errorf("%s and %s have the same fingerprint %s", m.Key, other, fp)
		}
		seen[fp] = m.Key
	}
	// Computed again, without the cache.
	fixtureMu.Lock()
	clear(fixtureCache)
	fixtureMu.Unlock()
	if again, err := c.fingerprint(ctx, Robust); err != nil || again != fps[Robust.Key] {
		t.Errorf("robust: fingerprint %s, then %s (%v)", fps[Robust.Key], again, err)
	}
	for _, o := range []Config{{Seed: 2}, {Seed: 1, Standardise: OverSplit}} {
		if fp, err := o.fingerprint(ctx, MIPP); err != nil || fp == fps[MIPP.Key] {
			t.Errorf("%+v: MIPP's fingerprint %s, as with seed 1 (%v)", o, fp, err)
		}
	}
	for k, fx := range fixtures() {
		split, err := Draw(fx.data, fx.n, fx.d, c.Standardise, rand.NewPCG(fixtureSeed, repro.Key("benchmark-fingerprint-data", k)))
		if err != nil {
			t.Fatal(err)
		}
		rec, _, err := c.apply(ctx, Robust, split, fx.m, rand.NewPCG(fixtureSeed, repro.Key("benchmark-fingerprint-fit", k, Robust.Key)))
		if err != nil || rec.Failed {
			t.Fatalf("fixture %d: %v %s", k, err, rec.Reason)
		}
		t.Logf("fixture %d: the robust variant's %s estimate, ε %.3g, error rate %.3g", k, rec.Path, rec.Epsilon, rec.ErrorRate)
	}
}

// committedRuns is the runs.csv of the committed Table 2 (seed 1, the
// protocol's standardisation), made by
// `go run ./cmd/reproduce benchmark -resume -out docs/table2`.
var committedRuns = filepath.Join("..", "..", "..", "docs", "table2", "runs.csv")

// TestCommittedTable2 checks the committed Table 2 against the code: every
// row's fingerprint is its method's now (else the rows must be made again:
// run the command above, which redoes them), and rows of the first run
// of vehicle at d = 50 (and, without -short, of svmguide1 at d = 50 and
// of WF-LSNGCA) refit bit for bit. It needs LIBSVM and the data sets
// (NGCA_DATA); it is skipped while the table is not committed.
func TestCommittedTable2(t *testing.T) {
	recs, err := ReadRecords(committedRuns)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is not committed yet", committedRuns)
	}
	if err != nil {
		t.Fatal(err)
	}
	requireLIBSVM(t)
	dir := libsvmtest.DataDir(t)
	c := Config{Data: dir, Seed: 1, Methods: Methods()}
	fps, err := c.fingerprints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	stale := map[string]int{}
	for _, r := range recs {
		if fp, ok := fps[r.Method]; ok && r.Fingerprint != fp {
			stale[r.Method]++
		}
	}
	for m, k := range stale {
		t.Errorf("%s: %d rows of %s have another fingerprint than the code's %s: run `go run ./cmd/reproduce benchmark -resume -out docs/table2` in research/ to make them again",
			committedRuns, k, m, fps[m])
	}
	want := map[runKey]bool{}
	for _, m := range []string{"none", "pca", "mipp", Robust.Key} {
		want[runKey{"vehicle", 200, 50, 1, m}] = true
	}
	if !testing.Short() {
		want[runKey{"vehicle", 200, 50, 1, WFLSNGCA.Key}] = true
		want[runKey{"svmguide1", 2000, 50, 1, "mipp"}] = true
		want[runKey{"svmguide1", 2000, 50, 1, Robust.Key}] = true
	}
	var pick []Record
	for _, r := range recs {
		if want[r.key()] {
			pick = append(pick, r)
			delete(want, r.key())
		}
	}
	if len(pick) == 0 {
		t.Skipf("%s has none of the rows refitted yet", committedRuns)
	}
	checkRefits(t, c, pick)
}
