package ngca

import (
	"context"
	"fmt"
	"math"

	"github.com/ngca-go/ngca/internal/probe"
)

// RegisteredMethods returns the Result.Method of every registered
// estimator, for the tests of package ngca_test.
func RegisteredMethods() []string {
	out := make([]string, len(estimators))
	for i, e := range estimators {
		out[i] = e.method()
	}
	return out
}

// NaNFreeReport returns r, or for a *RobustReport a copy whose float
// figures that were not computed (NaN), its detail's included, read 0, so
// that reflect.DeepEqual can compare two reports.
func NaNFreeReport(r Report) Report {
	rr, ok := r.(*RobustReport)
	if !ok || rr == nil {
		return r
	}
	c := *rr
	d := &c.detail
	for _, f := range []*float64{&c.P, &c.Distance, &d.Wald, &d.P, &d.Distance, &d.MissedAxes, &d.MissedEquivariant} {
		if math.IsNaN(*f) {
			*f = 0
		}
	}
	return &c
}

// ChosenScores returns the held-out score that cross-validation chose for
// every coordinate of an LSLDG model.
func ChosenScores(m *LSLDGModel) []float64 {
	var s []float64
	for _, c := range m.cv.Coords {
		s = append(s, c.Score)
	}
	return s
}

// The study settings and details of internal/probe, set and read here on
// the values themselves, for the tests of package ngca_test (a study sets
// them through a context instead).

// SetRobustPath sets the path of a *RobustWFLSNGCA: "adaptive", "axes" or
// "equivariant".
func SetRobustPath(est any, path string) error {
	w, err := target[RobustWFLSNGCA](est)
	if err != nil {
		return err
	}
	p, err := (&RobustWFLSNGCA{}).probed(probe.WithSettings(context.Background(), probe.Settings{RobustPath: path}))
	if err != nil {
		return err
	}
	w.path = p.path
	return nil
}

// SetIMAKSymmetric makes an *IMAK take the symmetric form.
func SetIMAKSymmetric(est any) error {
	im, err := target[IMAK](est)
	if err != nil {
		return err
	}
	im.symmetric = true
	return nil
}

// SetSNGCAProjection sets the final step of an *SNGCA's last pass.
func SetSNGCAProjection(est any, projection string) error {
	s, err := target[SNGCA](est)
	if err != nil {
		return err
	}
	p, err := (&SNGCA{}).probed(probe.WithSettings(context.Background(), probe.Settings{SNGCAProjection: projection}))
	if err != nil {
		return err
	}
	s.projection = p.projection
	return nil
}

// SetFamilies sets the families of a *MIPP or an *SNGCA.
func SetFamilies(est any, fams []probe.FamilySpec) error {
	fs, err := familiesFrom(fams)
	if err != nil {
		return err
	}
	switch e := est.(type) {
	case *MIPP:
		e.families = fs
	case *SNGCA:
		e.families = fs
	default:
		return fmt.Errorf("%w: %T is neither a *MIPP nor a *SNGCA", ErrParam, est)
	}
	return nil
}

// DefaultFamilies returns the paper's four families, in the order MIPP
// uses them.
func DefaultFamilies() []probe.FamilySpec {
	var out []probe.FamilySpec
	for _, f := range defaultFamilies() {
		out = append(out, probe.FamilySpec{Kind: f.Kind.String(), Min: f.Min, Max: f.Max, L: f.L})
	}
	return out
}

// detailOf returns the detail of a report of type *R, or false for
// another report or a nil one.
func detailOf[D, R any, P interface {
	*R
	probeDetail() D
}](report any) (D, bool) {
	r, ok := report.(P)
	if !ok || r == nil {
		var zero D
		return zero, false
	}
	return r.probeDetail(), true
}

// RobustDetails, MIPPDetails, SNGCADetails and DimDetails return the
// detail of a *RobustReport, *MIPPReport, *SNGCAReport or *DimReport
// (a DimReport's settings), or false.
var (
	RobustDetails = detailOf[probe.RobustDetail, RobustReport]
	MIPPDetails   = detailOf[probe.MIPPDetail, MIPPReport]
	SNGCADetails  = detailOf[probe.SNGCADetail, SNGCAReport]
	DimDetails    = detailOf[probe.DimDetail, DimReport]
)

// Stages returns the stages of an *LSReport or a *RobustReport.
func Stages(report any) []probe.StageDetail {
	switch r := report.(type) {
	case *LSReport:
		return stageDetails(r.cv)
	case *RobustReport:
		return stageDetails(r.cv)
	}
	return nil
}

// target returns est as a *T, or an ErrParam error naming both types.
func target[T any](est any) (*T, error) {
	t, ok := est.(*T)
	if !ok {
		return nil, fmt.Errorf("%w: %T is not a %T", ErrParam, est, t)
	}
	return t, nil
}

// SetRobustNullZ sets the null test's threshold of a *RobustWFLSNGCA: 0
// means the default, a negative value turns the test off.
func SetRobustNullZ(est any, z float64) error {
	w, err := target[RobustWFLSNGCA](est)
	if err != nil {
		return err
	}
	w.nullZ = z
	return nil
}
