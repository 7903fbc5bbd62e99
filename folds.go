package ngca

import "math/rand/v2"

// partition is a random assignment of n rows to k folds whose sizes differ
// by at most one. Fold f holds the rows order[bounds[f]], …,
// order[bounds[f+1]−1].
type partition struct {
	order  []int
	bounds []int
}

// newPartition draws a partition of n rows into k folds from rng.
func newPartition(rng *rand.Rand, n, k int) partition {
	p := partition{order: rng.Perm(n), bounds: make([]int, k+1)}
	for f := range p.bounds {
		p.bounds[f] = f * n / k
	}
	return p
}

func (p partition) folds() int { return len(p.bounds) - 1 }

func (p partition) size(f int) int { return p.bounds[f+1] - p.bounds[f] }

func (p partition) rows() int { return p.bounds[len(p.bounds)-1] }
