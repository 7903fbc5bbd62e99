package ngca

import (
	"fmt"

	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

// SNGCAReport is the Report of SNGCA.
type SNGCAReport struct {
	// Iterations counts the solver iterations of the last pass.
	Iterations int
	// Converged reports whether the last pass's solve met Tol (on the
	// relative duality gap) within MaxIter.
	Converged bool

	// The solver's last ℓ1 penalty λ and relative duality gap, the test
	// functions of the last pass whose values vanished or were not finite
	// (dropped), and the settings the fit used, the defaults resolved;
	// a fit records them for the studies (probe.RecordSNGCA). (The other
	// projections report their own iterations, gap and convergence: the
	// most of any probe's ADMM iterations and its largest relative
	// residual; 0, 0 and true for the closed form.)
	lambda, gap               float64
	dropped                   int
	projection                sngcaProjection
	functions, finalFunctions int
	passes                    int
	kappa, tol                float64
	maxIter                   int
}

func (*SNGCAReport) isReport() {}

// sngcaPass is the outcome of one pass: an orthonormal basis of the
// estimate in metric coordinates, the spectrum it came from and the
// solver's statistics.
type sngcaPass struct {
	basis      *mat.Dense
	eig        []float64
	lambda     float64
	iterations int
	gap        float64
	converged  bool
}

// sngcaProjection selects how SNGCA turns the test-function vectors of a
// pass into a subspace.
type sngcaProjection int

var sngcaProjections = [...]string{"sdp", "convex", "residual"}

// String returns "sdp", "convex" or "residual".
func (p sngcaProjection) String() string {
	if p < 0 || int(p) >= len(sngcaProjections) {
		return fmt.Sprintf("sngcaProjection(%d)", int(p))
	}
	return sngcaProjections[p]
}

// probeDetail returns the report's settings and the solver's last penalty
// and gap for the studies (internal/probe).
func (r *SNGCAReport) probeDetail() probe.SNGCADetail {
	return probe.SNGCADetail{Projection: r.projection.String(), Functions: r.functions, FinalFunctions: r.finalFunctions,
		Passes: r.passes, Kappa: r.kappa, Tol: r.tol, MaxIter: r.maxIter, Lambda: r.lambda, Gap: r.gap, Dropped: r.dropped}
}
