package ngca

import (
	"fmt"

	"github.com/ngca-go/ngca/internal/studyhook"
)

// The hooks through which the studies (the research module) and the
// command read and set what the package does not export.
func init() {
	studyhook.RobustDetails = hookRobustDetails
	studyhook.Stages = hookStages
	studyhook.SetRobustPath = hookSetRobustPath
	studyhook.SetRobustNullZ = hookSetRobustNullZ
	studyhook.Default = studyhook.Defaults{Centers: defaultCenters, Folds: defaultFolds, Widths: defaultWidths(), Ridges: defaultRidges(),
		MIPPIterations: defaultMIPPIterations, MIPPThreshold: defaultMIPPThreshold, CheckRefits: defaultCheckRefits,
		CheckShare: defaultCheckShare, DimAlpha: defaultDimAlpha, DimBootstrap: defaultDimBootstrap}
	studyhook.SetNewPartition = hookSetNewPartition
	studyhook.SetIMAKSymmetric = hookSetIMAKSymmetric
	studyhook.SetSNGCAProjection = hookSetSNGCAProjection
	studyhook.SNGCADetails = hookSNGCADetails
	studyhook.DimDetails = hookDimDetails
	studyhook.SetFamilies = hookSetFamilies
	studyhook.DefaultFamilies = hookDefaultFamilies
	studyhook.MIPPDetails = hookMIPPDetails
	studyhook.RobustDefaultLimits = studyhook.RobustLimits{Level: robustLevel, MaxDistance: robustMaxDistance, MissedMargin: robustMissedMargin}
}

func hookRobustDetails(report any) (studyhook.Robust, bool) {
	rep, ok := report.(*RobustReport)
	if !ok || rep == nil {
		return studyhook.Robust{}, false
	}
	d := rep.detail
	d.Estimate, d.P, d.Distance, d.NullCoords = rep.Estimate, rep.P, rep.Distance, rep.NullCoords
	return d, true
}

func hookStages(report any) []studyhook.Stage {
	var cv []stageCV
	switch r := report.(type) {
	case *LSReport:
		cv = r.cv
	case *RobustReport:
		cv = r.cv
	}
	var out []studyhook.Stage
	for _, st := range cv {
		out = append(out, studyhook.Stage{Name: st.Name, Widths: st.Widths})
	}
	return out
}

func hookSetRobustPath(est any, path string) error {
	w, err := hookTarget[RobustWFLSNGCA](est)
	if err != nil {
		return err
	}
	for _, p := range []robustPath{robustAdaptive, robustAxes, robustEquivariant} {
		if p.String() == path {
			w.path = p
			return nil
		}
	}
	return fmt.Errorf("%w: unknown robust path %q (want adaptive, axes or equivariant)", ErrParam, path)
}

func hookSetRobustNullZ(est any, z float64) error {
	w, err := hookTarget[RobustWFLSNGCA](est)
	if err != nil {
		return err
	}
	w.nullZ = z
	return nil
}

func hookSetNewPartition(est any) error {
	w, err := hookTarget[WFLSNGCA](est)
	if err != nil {
		return err
	}
	w.newPartition = true
	return nil
}

func hookSetIMAKSymmetric(est any) error {
	im, err := hookTarget[IMAK](est)
	if err != nil {
		return err
	}
	im.symmetric = true
	return nil
}

func hookSetSNGCAProjection(est any, projection string) error {
	s, err := hookTarget[SNGCA](est)
	if err != nil {
		return err
	}
	for p, name := range sngcaProjections {
		if name == projection {
			s.projection = sngcaProjection(p)
			return nil
		}
	}
	return fmt.Errorf("%w: unknown SNGCA projection %q (want sdp, convex or residual)", ErrParam, projection)
}

func hookSNGCADetails(report any) (studyhook.SNGCA, bool) {
	r, ok := report.(*SNGCAReport)
	if !ok || r == nil {
		return studyhook.SNGCA{}, false
	}
	return studyhook.SNGCA{Projection: r.projection.String(), Functions: r.functions, FinalFunctions: r.finalFunctions,
		Passes: r.passes, Kappa: r.kappa, Tol: r.tol, MaxIter: r.maxIter, Lambda: r.lambda, Gap: r.gap, Dropped: r.dropped}, true
}

func hookDimDetails(report any) (studyhook.Dim, bool) {
	r, ok := report.(*DimReport)
	if !ok || r == nil {
		return studyhook.Dim{}, false
	}
	return studyhook.Dim{Settings: r.settings, Alpha: r.alpha, Bootstrap: r.bootstrap, MaxDim: r.maxDim, EnoughRows: dimEnoughRows(r.d)}, true
}

func hookSetFamilies(est any, fams []studyhook.Family) error {
	var fs []family
	for i, f := range fams {
		kind := familyKind(-1)
		for k, fk := range familyKinds {
			if fk.name == f.Kind {
				kind = familyKind(k)
			}
		}
		if kind < 0 {
			return fmt.Errorf("%w: families[%d]: unknown kind %q (want gauss-pow3, tanh, sin or cos)", ErrParam, i, f.Kind)
		}
		fs = append(fs, family{Kind: kind, Params: f.Params, Min: f.Min, Max: f.Max, L: f.L})
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

func hookDefaultFamilies() []studyhook.Family {
	var out []studyhook.Family
	for _, f := range defaultFamilies() {
		out = append(out, studyhook.Family{Kind: f.Kind.String(), Min: f.Min, Max: f.Max, L: f.L})
	}
	return out
}

func hookMIPPDetails(report any) (studyhook.MIPP, bool) {
	r, ok := report.(*MIPPReport)
	if !ok || r == nil {
		return studyhook.MIPP{}, false
	}
	d := studyhook.MIPP{Iterations: r.iterations, Threshold: r.threshold}
	for _, c := range r.families {
		d.Families = append(d.Families, studyhook.FamilyCount{Family: c.Family, Kept: c.Kept, Total: c.Total, Degenerate: c.Degenerate})
	}
	return d, true
}

// hookTarget returns est as a *T, or an ErrParam error naming both types.
func hookTarget[T any](est any) (*T, error) {
	t, ok := est.(*T)
	if !ok {
		return nil, fmt.Errorf("%w: %T is not a %T", ErrParam, est, t)
	}
	return t, nil
}
