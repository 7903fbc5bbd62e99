package ngca

import (
	"context"

	"github.com/ngca-go/ngca/internal/probe"
)

// RobustReport is the Report of RobustWFLSNGCA: which estimate it
// returned and why.
type RobustReport struct {
	// Estimate is the estimate returned: "axes" or "equivariant".
	Estimate string
	// P is the p-value of the test of the axes estimate (no tilt at its
	// frame: a Wald statistic against χ² with (d − Dim)·Dim degrees of
	// freedom), and Distance the axes estimate's Wald distance from the
	// equivariant estimate per degree of freedom (+Inf when it is
	// orthogonal to part of that estimate's frame); NaN where the
	// adaptive decision did not run. The axes estimate is returned when
	// P ≥ 0.01 and Distance ≤ 4, or beyond that distance when the
	// equivariant estimate misses more structure than it does.
	P, Distance float64
	// NullCoords are the columns (0-based) whose v the axes estimate's
	// null test set to zero: when the axes estimate is returned, its
	// basis has zero rows there.
	NullCoords []int
	// NumCenters and Folds are the number of kernel centers and of
	// cross-validation folds the fit used.
	NumCenters, Folds int

	// detail holds the rest, which a fit records for the studies
	// (record); cv the stages' cross-validation.
	detail probe.RobustDetail
	cv     []stageCV
}

func (*RobustReport) isReport() {}

// record records the fit's detail and stages in ctx's probe.Recorder, if
// it carries one.
func (r *RobustReport) record(ctx context.Context) {
	probe.RecordRobust(ctx, r, r.probeDetail())
	probe.RecordStages(ctx, r, stageDetails(r.cv))
}

// probeDetail returns the detail with the report's own figures.
func (r *RobustReport) probeDetail() probe.RobustDetail {
	d := r.detail
	d.Estimate, d.P, d.Distance, d.NullCoords = r.Estimate, r.P, r.Distance, r.NullCoords
	return d
}
