package ngca

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
)

// dimFunctions is the number of index functions per family of the MIPP
// that DimMIPP tests: a twentieth of the paper's 1000, which keeps a
// bootstrap refit at about a twentieth of a default fit (docs/dim.md).
const dimFunctions = 50

// dimTester is the estimator whose spectrum EstimateDim tests, with every
// setting fixed: make returns it for a Dim, source, worker count and
// progress callback.
type dimTester struct {
	label, settings string
	make            func(dim int, src rand.Source, workers int, prog func(Progress)) Estimator
}

// newDimTester returns the tester of method m for the standardised data of
// pr. For the least-squares estimators it first fits with
// cross-validation (from pr.rng) to choose the settings.
func newDimTester(ctx context.Context, m DimMethod, pr *prepared) (*dimTester, error) {
	if m == DimMIPP {
		fams := DefaultFamilies()
		for i := range fams {
			fams[i].L = dimFunctions
		}
		return &dimTester{label: methodMIPP, settings: fmt.Sprintf("4 families × %d index functions, 10 iterations, τ = 1.6", dimFunctions),
			make: func(dim int, src rand.Source, workers int, prog func(Progress)) Estimator {
				return &MIPP{Dim: dim, Families: fams, Src: src, Workers: workers, Progress: prog}
			}}, nil
	}
	src := rand.NewPCG(pr.rng.Uint64(), pr.rng.Uint64())
	var pilot Estimator = &WFLSNGCA{Dim: 1, Src: src, Workers: pr.workers, Progress: pr.progress.forward()}
	if m == DimLSNGCA {
		pilot = &LSNGCA{Dim: 1, Src: src, Workers: pr.workers, Progress: pr.progress.forward()}
	}
	r, err := pilot.Fit(ctx, pr.z)
	if err != nil {
		return nil, fmt.Errorf("ngca: EstimateDim: tuning %s: %w", m, err)
	}
	cv := r.Report.(*LSReport).CV
	w1, l1 := chosenGrid(cv[0])
	if m == DimLSNGCA {
		return &dimTester{label: methodLSNGCA, settings: fmt.Sprintf("widths %.3g, ridges %.3g (the cross-validated choices), 2 folds", w1, l1),
			make: func(dim int, src rand.Source, workers int, prog func(Progress)) Estimator {
				return &LSNGCA{Dim: dim, Widths: w1, Ridges: l1, Folds: 2, Src: src, Workers: workers, Progress: prog}
			}}, nil
	}
	w2, l2 := chosenGrid(cv[1])
	return &dimTester{label: methodWFLSNGCA,
		settings: fmt.Sprintf("stage 1 widths %.3g, ridges %.3g; stage 2 widths %.3g, ridges %.3g (the cross-validated choices), 2 folds", w1, l1, w2, l2),
		make: func(dim int, src rand.Source, workers int, prog func(Progress)) Estimator {
			return &WFLSNGCA{Dim: dim, Widths: w1, Ridges: l1, VWidths: w2, VRidges: l2, Folds: 2, Src: src, Workers: workers, Progress: prog}
		}}, nil
}

// chosenGrid returns the distinct widths and ridges that a stage's
// cross-validation chose over the coordinates, ascending: the grids of the
// tested fits, from which a 2-fold cross-validation chooses again per
// coordinate (a single common value would not do: the signal coordinates
// need narrow widths, the Gaussian ones wide).
func chosenGrid(cv StageCV) (widths, ridges []float64) {
	for _, c := range cv.Coords {
		widths = append(widths, c.Width)
		ridges = append(ridges, c.Ridge)
	}
	slices.Sort(widths)
	slices.Sort(ridges)
	return slices.Compact(widths), slices.Compact(ridges)
}
