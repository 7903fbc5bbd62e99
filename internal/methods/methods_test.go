package methods

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca"
)

func TestParse(t *testing.T) {
	ms, err := Parse("wflsngca, MIPP")
	if err != nil || len(ms) != 2 || ms[0].Label != "WF-LSNGCA" || ms[1].Key != "mipp" {
		t.Fatalf("Parse: %v, %v", ms, err)
	}
	for _, bad := range []string{"", "pca", "wflsngca,x"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

// TestStagesAndFraction checks that each method's stage names are the ones
// its estimator reports, and that Fraction reaches 1 at the end of a fit.
func TestStagesAndFraction(t *testing.T) {
	x, _, err := ngca.Artificial{N: 300, D: 4}.Sample(rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range All() {
		var stages []string
		last := 0.0
		prog := func(p ngca.Progress) {
			if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
				stages = append(stages, p.Stage)
			}
			f := m.Fraction(p)
			if f < last {
				t.Errorf("%s: fraction went back from %v to %v", m.Key, last, f)
			}
			last = f
		}
		if _, err := m.New(2, 1, rand.NewPCG(2, 2), prog).Fit(context.Background(), x); err != nil {
			t.Fatal(err)
		}
		if len(stages) != len(m.Stages) || last != 1 {
			t.Errorf("%s: stages %v (want %v), final fraction %v", m.Key, stages, m.Stages, last)
		}
	}
}
