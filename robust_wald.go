package ngca

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// axesTest is the test of the axes estimate axes (standardised
// coordinates; aw in the whitened coordinates of eq): one more refinement
// step of the equivariant estimate eq, at the axes estimate's own frame,
// whose tilt is zero if the axes estimate is the index space. It fills
// rep's Wald, DF and P (the Wald statistic of that tilt against χ² with
// its degrees of freedom) and appends the step's stage to rep's CV. A
// singular step (the frame's kernel parts explain nothing the linear part
// does not) is no evidence for the axes estimate: Wald = +Inf with df
// degrees of freedom, P = 0.
func axesTest(ctx context.Context, eq *eqFit, axes, aw *mat.Dense, dim, df int, rep *RobustReport) error {
	var test tiltFit
	_, cv, err := alignStep(ctx, eq.yw, completeFrame(aw), dim, "test", &test)
	if cv.Name != "" {
		rep.cv = append(rep.cv, cv)
	}
	if errors.Is(err, ErrSingular) {
		rep.detail.Wald, rep.detail.DF, rep.P = math.Inf(1), df, 0
		return nil
	}
	if err != nil {
		return err
	}
	rep.detail.Wald, rep.detail.DF = test.wald(eq.wh, axes)
	rep.P = 1 - distuv.ChiSquared{K: float64(rep.detail.DF)}.CDF(rep.detail.Wald)
	return nil
}
