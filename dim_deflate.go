package ngca

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// deflation finds non-Gaussian directions one by one: each is the most
// non-Gaussian the pursuit finds in the complement of those before it.
// Below about d² rows the pursuit may miss a weak signal at one step and
// find it a few steps later, after taking a direction of noise; so the
// hypothesis "k non-Gaussian dimensions" is tested outside the k
// directions that score highest, not the first k found (ranked).
type deflation struct {
	// null and colNull are the median and spread of the index of the
	// pursuit's best direction and of the best column on Gaussian data of
	// all d columns (the replicates of k = 0); the first pair grows about
	// in proportion to the columns left, the second hardly changes.
	null, colNull [2]float64
	y, cols       *mat.Dense // the data and the columns' directions in the current complement
	basis         *mat.Dense // d×q, an orthonormal basis of the current complement
	found         []foundDir
	first         *pursuit // the pursuit of the whole data, once run
	// frozen is the number of directions whose ranking tests have used:
	// directions found later are ranked after them, so that no test's
	// hypothesis changes under it.
	frozen int
}

// dimJointSteps is the number of symmetric FastICA steps that refit the k
// directions outside which k is tested.
const dimJointSteps = 20

// foundDir is one direction found: its unit vector in the whitened
// coordinates, its index, and its score, how many spreads the index lies
// above its median on Gaussian data (of the pursuit's best direction, or
// of the best column for a column's direction).
type foundDir struct {
	dir          []float64
	index, score float64
}

func newDeflation(y, cols *mat.Dense) deflation {
	_, d := y.Dims()
	basis := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		basis.Set(i, i, 1)
	}
	return deflation{y: y, cols: cols, basis: basis}
}

// extend deflates until k directions are found (k < d). Each step takes
// the pursuit's best direction or, if the best column scores higher (its
// index further above its Gaussian median) and stands out (a score above
// dimGuessScore), that column's direction: on data whose signals lie
// along the columns, the column is the signal, and the pursuit's
// refinement can only move away from it.
func (f *deflation) extend(ctx context.Context, k int) error {
	_, d := f.basis.Dims()
	for len(f.found) < k {
		if err := checkContext(ctx); err != nil {
			return err
		}
		var p pursuit
		if len(f.found) == 0 {
			p = f.firstPursuit()
		} else {
			p = pursue(f.y, f.cols)
		}
		_, q := f.y.Dims()
		u, index, score := p.u, p.index, nullScore(p.index, f.null, float64(q)/float64(d))
		if c := nullScore(p.columns, f.colNull, 1); p.colU != nil && c > score && c > dimGuessScore {
			u, index, score = p.colU, p.columns, c
		}
		var dir mat.VecDense
		dir.MulVec(f.basis, mat.NewVecDense(len(u), u))
		f.found = append(f.found, foundDir{dir: dir.RawVector().Data, index: index, score: score})
		f.y, f.cols = deflate(f.y, f.cols, u)
		f.basis, _ = deflate(f.basis, nil, u)
	}
	return nil
}

// firstPursuit returns the pursuit of the whole data, run once: before
// the first deflation, which keeps it.
func (f *deflation) firstPursuit() pursuit {
	if f.first == nil {
		p := pursue(f.y, f.cols)
		f.first = &p
	}
	return *f.first
}

// ranked returns the indices of the directions found, those of the frozen
// prefix by decreasing score, then the later ones in the order found (all
// by score if none is frozen).
func (f *deflation) ranked() []int {
	out := make([]int, len(f.found))
	for i := range out {
		out[i] = i
	}
	sorted := f.frozen
	if sorted == 0 {
		sorted = len(out)
	}
	slices.SortStableFunc(out[:sorted], func(a, b int) int {
		switch ia, ib := f.found[a].score, f.found[b].score; {
		case ia > ib:
			return -1
		case ia < ib:
			return 1
		}
		return 0
	})
	return out
}

// nullScore returns (v − s·med)/(s·spread) for null = (med, spread), the
// spread floored at a hundredth of the median (a tiny B may leave it at
// 0).
func nullScore(v float64, null [2]float64, s float64) float64 {
	spread := math.Max(null[1], null[0]/100)
	if !(spread > 0) {
		return v
	}
	return (v - s*null[0]) / (s * spread)
}

// dimGuessScore and dimGuessRun are the guess's threshold on the
// directions' scores and the number of directions below it that end the
// guess.
const (
	dimGuessScore = 3
	dimGuessRun   = 5
)
