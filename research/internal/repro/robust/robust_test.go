package robust

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/ngcatest"
)

// TestSmoke runs the study on a tiny grid and checks its files.
func TestSmoke(t *testing.T) {
	out := t.TempDir()
	cells := DefaultCells()
	c := Config{Cells: []Cell{cells[0], cells[2]}, Dists: []ngcatest.Distribution{ngcatest.SubGaussian}, Seeds: 1, N: 500, Seed: 3, Out: out}
	c.Methods = DefaultMethods()
	if err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(out, "robust.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+2*len(c.Methods) {
		t.Fatalf("robust.csv has %d records", len(recs))
	}
	for _, r := range recs[1:] {
		if e, err := strconv.ParseFloat(r[4], 64); err != nil || e < 0 || e > 1 {
			t.Errorf("bad ε in %v", r)
		}
		if strings.HasPrefix(r[3], "robust") && r[6] == "" {
			t.Errorf("robust row without a path: %v", r)
		}
		// The ablations are the robust variant with its Path set.
		if path, ok := strings.CutPrefix(r[3], "robust-"); ok && r[6] != path {
			t.Errorf("%s returned the %s estimate", r[3], r[6])
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "robust.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Goal check", "| rotated r=0 |", "### Decisions", "### Time per fit", "WF-LSNGCA (faithful)"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("robust.md lacks %q", want)
		}
	}
}
