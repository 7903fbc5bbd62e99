package ngca

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ngca-go/ngca/ngcatest"
	"gonum.org/v1/gonum/mat"
)

func TestBlocksCoverFolds(t *testing.T) {
	p := newPartition(rand.New(rand.NewPCG(1, 1)), 1003, 5)
	for _, rows := range []int{1, 7, 200, 201, 5000} {
		next := 0
		for _, blk := range p.blocks(rows) {
			if blk.lo != next || blk.rows() < 1 || blk.rows() > rows ||
				blk.lo < p.bounds[blk.fold] || blk.hi > p.bounds[blk.fold+1] {
				t.Fatalf("rows %d: bad block %+v after position %d", rows, blk, next)
			}
			next = blk.hi
		}
		if next != 1003 {
			t.Fatalf("rows %d: blocks end at %d", rows, next)
		}
	}
}

// wfVectors returns v̂(xᵢ) of a WF-LSNGCA fit with the shared partition,
// with or without stage 2 reusing stage 1's reductions.
func wfVectors(t *testing.T, x *mat.Dense, reuse bool) *mat.Dense {
	t.Helper()
	est := &WFLSNGCA{Dim: 2, NumCenters: 30, Src: rand.NewPCG(4, 4)}
	pr, err := prepare(context.Background(), x, est.config(), est.Dim, true)
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := pr.wfStages(pr.centersFrom(pr.z, nil), false)
	if !reuse {
		s1.keep, s2.reuse = nil, nil
	}
	fit := func(ctx context.Context, st lsStage) (rowModel, stageCV, error) { return fitStage(ctx, st, &pr.plan) }
	v, _, err := twoStages(context.Background(), pr, s1, s2, fit, fit, newStopwatch())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func sampleA(t *testing.T, n, d int, seed uint64) *mat.Dense {
	t.Helper()
	x, _, err := ngcatest.Artificial{N: n, D: d, R: 0.5}.Sample(rand.NewPCG(seed, 3))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestStageReuse checks that stage 2 reusing stage 1's fold Gram matrices
// and reductions gives bit for bit the results of forming them again, for
// every coordinate and for only some (a store budget that holds two).
func TestStageReuse(t *testing.T) {
	x := sampleA(t, 400, 5, 1)
	want := wfVectors(t, x, false)
	if got := wfVectors(t, x, true); !mat.Equal(got, want) {
		t.Error("stage 2 with reuse differs from stage 2 without")
	}
	defer func(v int) { storeBudget = v }(storeBudget)
	storeBudget = 2 * 10 * 5 * (30*30 + 3*30) * 8
	if got := wfVectors(t, x, true); !mat.Equal(got, want) {
		t.Error("stage 2 with reuse of two coordinates differs from stage 2 without")
	}
}

// TestRobustStageReuse checks that the robust variant's axes estimate,
// whose stage 2 takes stage 1's fold Gram matrices and reductions, is the
// same, bit for bit, when the store keeps two coordinates or none.
func TestRobustStageReuse(t *testing.T) {
	x := sampleA(t, 400, 5, 1)
	fit := func() *Result {
		t.Helper()
		res, err := (&RobustWFLSNGCA{Dim: 2, NumCenters: 30, Src: rand.NewPCG(5, 5), path: robustAxes}).Fit(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	want := fit()
	defer func(v int) { storeBudget = v }(storeBudget)
	for _, budget := range []int{5 * 5 * (30*30 + 3*30) * 8 * 2, 0} {
		storeBudget = budget
		got := fit()
		if !mat.Equal(got.Basis, want.Basis) || !slices.Equal(got.Eigenvalues, want.Eigenvalues) {
			t.Errorf("store budget %d: basis %v, want %v", budget, mat.Formatted(got.Basis), mat.Formatted(want.Basis))
		}
	}
}

// TestRowBlocks checks that summing over small blocks of rows gives the
// results of one block per fold up to rounding, for WF-LSNGCA and for the
// robust variant's axes estimate (whose null test adds blocks of a kernel
// matrix of all rows).
func TestRowBlocks(t *testing.T) {
	x := sampleA(t, 1500, 4, 2)
	for _, est := range []func() Estimator{
		func() Estimator { return &WFLSNGCA{Dim: 2, NumCenters: 40, Src: rand.NewPCG(5, 5)} },
		func() Estimator {
			return &RobustWFLSNGCA{Dim: 2, NumCenters: 40, Src: rand.NewPCG(5, 5), path: robustAxes, nullZ: -1}
		},
	} {
		fit := func() *Result {
			res, err := est().Fit(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		want := fit()
		defer func(v int) { blockRows = v }(blockRows)
		blockRows = 37
		got := fit()
		blockRows = 4096
		var dev float64
		for i, e := range want.Eigenvalues {
			dev = math.Max(dev, math.Abs(got.Eigenvalues[i]-e)/want.Eigenvalues[0])
		}
		for i := 0; i < 4; i++ {
			for j := 0; j < 2; j++ {
				dev = math.Max(dev, math.Abs(got.Basis.At(i, j)-want.Basis.At(i, j)))
			}
		}
		t.Logf("%s: largest deviation %.2g", want.Method, dev)
		if dev > 1e-9 {
			t.Errorf("%s: blocks of 37 rows change the fit by %.3g", want.Method, dev)
		}
	}
}

// TestSweepWorkers checks that fits whose stages sum over several passes
// of rows, with folds of several blocks that span passes, are the same
// bits for any number of workers: WF-LSNGCA (both stages, the second
// reusing the first's reductions), LSNGCA without kept distances, and the
// robust variant (its stages with linear parts and null tests).
func TestSweepWorkers(t *testing.T) {
	x := sampleA(t, 700, 5, 3)
	defer func(b, p, k int) { blockRows, passRows, keptDistances = b, p, k }(blockRows, passRows, keptDistances)
	blockRows, passRows = 45, 100
	for _, est := range []func(workers int) Estimator{
		func(w int) Estimator { return &WFLSNGCA{Dim: 2, NumCenters: 40, Src: rand.NewPCG(5, 5), Workers: w} },
		func(w int) Estimator { return &LSNGCA{Dim: 2, NumCenters: 37, Src: rand.NewPCG(5, 6), Workers: w} },
		func(w int) Estimator {
			return &RobustWFLSNGCA{Dim: 2, NumCenters: 40, Src: rand.NewPCG(5, 7), Workers: w}
		},
	} {
		for _, kept := range []int{1 << 23, 0} {
			keptDistances = kept
			want, err := est(1).Fit(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []int{2, 3, 7} {
				got, err := est(w).Fit(context.Background(), x)
				if err != nil {
					t.Fatal(err)
				}
				if !mat.Equal(got.Basis, want.Basis) || !slices.Equal(got.Eigenvalues, want.Eigenvalues) {
					t.Errorf("%s, kept distances %d: %d workers give another fit than one", want.Method, kept, w)
				}
			}
		}
	}
}
