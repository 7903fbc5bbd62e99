package ngca

import "slices"

// storeBudget bounds the memory of a foldStore: 256 MiB, the reductions of
// 64 coordinates at the default b = 100, 10 widths and 5 folds. The
// coordinates beyond it are reduced again by the later stage (with the
// same results). It is a variable for the tests.
var storeBudget = 256 << 20

// foldStore keeps what a least-squares stage computed for every (width,
// coordinate, fold) cell that a later stage on the same points, centers,
// partition, kernel and smallest ridge would compute again: the fold's
// Gram matrix G_f and the tridiagonal reduction Q·T·Qᵀ of its training
// mean. The later stage then only forms its new targets h and solves. This
// is stage 2 of WF-LSNGCA on stage 1's partition: the two stages share the
// basis ψ_j, and differ only in h.
//
// The field only, set before the keeping stage begins, narrows what is
// kept: the robust variant's axes stage 2 runs on every second width.
// A stage with a linear part neither keeps nor reuses (lsStage.link): its
// reductions are of a Schur complement of G.
type foldStore struct {
	only     []float64 // if not nil, the widths a later stage will read
	widths   []float64 // the kept widths
	slot     []int     // the kept index of each width of the keeping stage (−1: none)
	minRidge float64
	b, k     int
	coords   int           // coordinates 0, …, coords−1 are kept
	entries  [][]foldEntry // [slot·coords + j][f]
}

// foldEntry is one fold of one cell: m holds G_f in its lower triangle and
// the reflectors of Q in its upper triangle (as asm.Tridiagonalize leaves
// them); d, e and tau are T's diagonal and subdiagonal and Q's scalar
// factors.
type foldEntry struct {
	m, d, e, tau []float64
}

// begin prepares the store for a stage with b centers, d coordinates, k
// folds, the given widths and smallest ridge.
func (s *foldStore) begin(b, d, k int, widths []float64, minRidge float64) {
	t := foldStore{only: s.only, minRidge: minRidge, b: b, k: k, slot: make([]int, len(widths))}
	for w, sigma := range widths {
		t.slot[w] = -1
		if t.only == nil || slices.Contains(t.only, sigma) {
			t.slot[w] = len(t.widths)
			t.widths = append(t.widths, sigma)
		}
	}
	per := (b*b + 3*b) * len(t.widths) * k * 8
	t.coords = min(d, storeBudget/max(per, 1))
	t.entries = make([][]foldEntry, len(t.widths)*t.coords)
	*s = t
}

// cell returns the entries of the keeping stage's width index w and
// coordinate j to fill, allocating them, or nil if they are not kept (a
// width not in only, or j beyond the budget).
func (s *foldStore) cell(w, j int) []foldEntry {
	if s == nil || j >= s.coords || s.slot[w] < 0 {
		return nil
	}
	i := s.slot[w]*s.coords + j
	if s.entries[i] == nil {
		e := make([]foldEntry, s.k)
		for f := range e {
			e[f] = foldEntry{m: make([]float64, s.b*s.b), d: make([]float64, s.b),
				e: make([]float64, max(s.b-1, 0)), tau: make([]float64, max(s.b-1, 0))}
		}
		s.entries[i] = e
	}
	return s.entries[i]
}

// lookup returns, for every width of a later stage, the index of the
// same width in the store, or −1 where the store cannot serve it (no such
// width kept, or another smallest ridge, which changes the reduction).
func (s *foldStore) lookup(widths []float64, minRidge float64) []int {
	idx := make([]int, len(widths))
	for w, sigma := range widths {
		idx[w] = -1
		if s == nil || s.entries == nil || minRidge != s.minRidge {
			continue
		}
		for v, t := range s.widths {
			if t == sigma {
				idx[w] = v
				break
			}
		}
	}
	return idx
}

// kept returns the entries of the store's width index w and coordinate j,
// or nil if there are none.
func (s *foldStore) kept(w, j int) []foldEntry {
	if w < 0 || j >= s.coords {
		return nil
	}
	return s.entries[w*s.coords+j]
}

// addLower adds the lower triangle of every entry's G_f to g (b×b), in
// fold order.
func addLower(g []float64, entries []foldEntry) {
	for _, e := range entries {
		b := len(e.d)
		for i := 0; i < b; i++ {
			gi, fi := g[i*b:i*b+i+1], e.m[i*b:i*b+i+1]
			for col, v := range fi {
				gi[col] += v
			}
		}
	}
}
