package ngca

import (
	"slices"
	"testing"
)

// TestFoldStoreOnly: a store narrowed to some widths keeps those alone and
// serves them to a later stage, with its own smallest ridge only.
func TestFoldStoreOnly(t *testing.T) {
	widths := []float64{0.1, 0.2, 0.4, 0.8}
	s := &foldStore{only: []float64{0.1, 0.4}}
	s.begin(3, 2, 2, widths, 1e-3)
	for w := range widths {
		got := s.cell(w, 1) != nil
		if want := w == 0 || w == 2; got != want {
			t.Errorf("width index %d kept = %v, want %v", w, got, want)
		}
	}
	if e := s.cell(0, 0)[0]; len(e.e) != 2 || len(e.tau) != 2 || len(e.m) != 9 || len(e.d) != 3 {
		t.Errorf("entry %+v", e)
	}
	if got := s.lookup([]float64{0.4, 0.2, 0.1}, 1e-3); !slices.Equal(got, []int{1, -1, 0}) {
		t.Errorf("lookup = %v, want [1 -1 0]", got)
	}
	full := &foldStore{}
	full.begin(3, 2, 2, widths, 1e-3)
	if got := full.lookup([]float64{0.8}, 1); got[0] != -1 {
		t.Errorf("a full store served another smallest ridge: %v", got)
	}
	if got := full.lookup([]float64{0.8}, 1e-3); got[0] != 3 {
		t.Errorf("full store lookup = %v, want [3]", got)
	}
}
