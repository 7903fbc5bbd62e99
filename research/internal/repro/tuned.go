package repro

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
)

// Tuned is an estimator whose fits run with study settings (internal/probe)
// in their context: the settings that the library's configuration structs
// do not have, such as the path of a robust WF-LSNGCA or a new partition
// for WF-LSNGCA's stage 2. It changes nothing else of the fit. Code that
// inspects the concrete type of an estimator, or passes it to ngca.Check
// (which treats its own estimator types specially), sees Tuned instead: set
// the context at the Fit or Check call there.
type Tuned struct {
	Est      ngca.Estimator
	Settings probe.Settings
}

// Fit fits t.Est to x with t.Settings in ctx.
func (t Tuned) Fit(ctx context.Context, x mat.Matrix) (*ngca.Result, error) {
	return t.Est.Fit(probe.WithSettings(ctx, t.Settings), x)
}
