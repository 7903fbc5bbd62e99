// Package probe is how the studies (the research module), the command
// and the tests reach what package ngca does not export: settings that
// its configuration structs do not have travel into a fit in its context
// (WithSettings), and a fit records the details its reports hold
// unexported in a Recorder that the context carries (WithRecorder). Both
// are typed; a context without them changes nothing. The package imports
// nothing of the module; package ngca imports it, and an ngca report is
// the key of its details, passed as any.
package probe

import (
	"context"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Settings are a fit's study settings; the zero value is the default of
// every one.
type Settings struct {
	// RobustPath is the path of an ngca.RobustWFLSNGCA fit: "" or
	// "adaptive" (the default: both estimates and the decision), "axes" or
	// "equivariant" (that estimate alone).
	RobustPath string
	// RobustNullZ is the z threshold of an ngca.RobustWFLSNGCA fit's null
	// test: 0 means the default, a negative value turns the test off.
	RobustNullZ float64
	// NewPartition makes an ngca.WFLSNGCA fit draw a new partition of the
	// rows for stage 2, as the authors' code does (by default stage 2
	// reuses the folds of stage 1).
	NewPartition bool
	// IMAKSymmetric makes an ngca.IMAK fit take its estimate from the
	// symmetric second-order matrix, the form first reconstructed.
	IMAKSymmetric bool
	// SNGCAProjection is the final step of an ngca.SNGCA fit's last pass:
	// "" or "sdp" (the default, the 2013 semidefinite program), "convex"
	// (the 2010 ℓ1 projection) or "residual" (the closed form).
	SNGCAProjection string
	// Families are the families of index functions of an ngca.MIPP fit,
	// and of test functions of an ngca.SNGCA fit; nil means the paper's
	// four.
	Families []FamilySpec
}

type settingsKey struct{}

// WithSettings returns a copy of ctx that carries s, in place of any
// Settings it carried, to the fits run with it: ngca.Check's refits of the
// estimator it checks, but not its reference fits (IMAK, MIPP), which keep
// their defaults.
func WithSettings(ctx context.Context, s Settings) context.Context {
	return context.WithValue(ctx, settingsKey{}, s)
}

// SettingsFrom returns the Settings ctx carries, or the zero value.
func SettingsFrom(ctx context.Context) Settings {
	s, _ := ctx.Value(settingsKey{}).(Settings)
	return s
}

// Recorder holds the details of the fits run with a context that carries
// it (WithRecorder), keyed by their reports. It is safe for concurrent
// use; its zero value is empty and ready to use, and a nil *Recorder holds
// nothing.
type Recorder struct {
	mu      sync.Mutex
	details map[any]any
	stages  map[any][]StageDetail
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder {
	return &Recorder{}
}

type recorderKey struct{}

// WithRecorder returns a copy of ctx whose fits record their details in
// r.
func WithRecorder(ctx context.Context, r *Recorder) context.Context {
	return context.WithValue(ctx, recorderKey{}, r)
}

// recorderFrom returns the Recorder ctx carries, or nil.
func recorderFrom(ctx context.Context) *Recorder {
	r, _ := ctx.Value(recorderKey{}).(*Recorder)
	return r
}

func record(ctx context.Context, report, detail any) {
	if r := recorderFrom(ctx); r != nil {
		r.mu.Lock()
		if r.details == nil {
			r.details = map[any]any{}
		}
		r.details[report] = detail
		r.mu.Unlock()
	}
}

func lookup[T any](r *Recorder, report any) (T, bool) {
	var zero T
	if r == nil {
		return zero, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.details[report].(T)
	if !ok {
		return zero, false
	}
	return d, true
}

// RecordRobust records the detail of a fit of ngca.RobustWFLSNGCA whose
// report is report.
func RecordRobust(ctx context.Context, report any, d RobustDetail) { record(ctx, report, d) }

// RecordMIPP records the detail of a fit of ngca.MIPP.
func RecordMIPP(ctx context.Context, report any, d MIPPDetail) { record(ctx, report, d) }

// RecordSNGCA records the detail of a fit of ngca.SNGCA.
func RecordSNGCA(ctx context.Context, report any, d SNGCADetail) { record(ctx, report, d) }

// RecordDim records the settings of a run of ngca.EstimateDim whose
// report is report.
func RecordDim(ctx context.Context, report any, d DimDetail) { record(ctx, report, d) }

// RecordStages records the cross-validated stages of a fit of a kernel
// estimator, in the order they ran.
func RecordStages(ctx context.Context, report any, st []StageDetail) {
	if r := recorderFrom(ctx); r != nil {
		r.mu.Lock()
		if r.stages == nil {
			r.stages = map[any][]StageDetail{}
		}
		r.stages[report] = st
		r.mu.Unlock()
	}
}

// RobustOf returns the detail of the fit whose report is report (an
// *ngca.RobustReport), or false if r holds none.
func (r *Recorder) RobustOf(report any) (RobustDetail, bool) { return lookup[RobustDetail](r, report) }

// MIPPOf returns the detail of the fit whose report is report (an
// *ngca.MIPPReport), or false.
func (r *Recorder) MIPPOf(report any) (MIPPDetail, bool) { return lookup[MIPPDetail](r, report) }

// SNGCAOf returns the detail of the fit whose report is report (an
// *ngca.SNGCAReport), or false.
func (r *Recorder) SNGCAOf(report any) (SNGCADetail, bool) { return lookup[SNGCADetail](r, report) }

// DimOf returns the settings of the run of ngca.EstimateDim whose report is
// report (an *ngca.DimReport), or false.
func (r *Recorder) DimOf(report any) (DimDetail, bool) { return lookup[DimDetail](r, report) }

// StagesOf returns the cross-validated stages of the fit whose report is
// report (an *ngca.LSReport or *ngca.RobustReport), or nil.
func (r *Recorder) StagesOf(report any) []StageDetail {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stages[report]
}

// RobustDetail is the detail of a fit of ngca.RobustWFLSNGCA: the two
// candidates and the checks between them (docs/robust.md explains each).
type RobustDetail struct {
	// Estimate is the estimate returned: "axes" or "equivariant" (as
	// RobustReport.Estimate).
	Estimate string
	// Wald is the statistic of the test of the axes estimate, DF its
	// degrees of freedom and P its p-value (NaN and 0 if only one path
	// ran).
	Wald, P float64
	DF      int
	// Distance is the Wald distance of the axes estimate from the
	// equivariant estimate in units of DF (NaN if only one path ran).
	Distance float64
	// MissedAxes and MissedEquivariant are the paired z-scores of the
	// evidence that each candidate misses structure the other holds (NaN
	// unless the comparison ran).
	MissedAxes, MissedEquivariant float64
	// Level, MaxDistance and MissedMargin are the limits of the adaptive
	// path's decision (zero if it did not run).
	Level, MaxDistance, MissedMargin float64
	// Refined reports whether the equivariant estimate is the refined
	// frame rather than MIPP's start (kept when the refinement moved it by
	// no more than its sampling error, or could not run).
	Refined bool
	// KernelCoords are the axes estimate's kernel coordinates (0-based);
	// SelectZ and MarginalZ the screens' z-score per column; NullCoords
	// the coordinates the null test set to zero.
	KernelCoords       []int
	SelectZ, MarginalZ []float64
	NullCoords         []int
	// Axes and Equivariant are the candidates in the caller's
	// coordinates, nil for a path that did not run.
	Axes, Equivariant *mat.Dense
	// AxesEigenvalues and StartEigenvalues are the spectra of the axes
	// estimate and of the equivariant estimate's MIPP start.
	AxesEigenvalues, StartEigenvalues []float64
	// ScreenRows is the number of rows the screens and the MIPP start ran
	// on.
	ScreenRows int
}

// StageDetail is a cross-validated stage of a fit: its name and its grid of
// kernel widths.
type StageDetail struct {
	Name   string
	Widths []float64
}

// DimDetail is the settings of a run of ngca.EstimateDim.
type DimDetail struct {
	Settings          string
	Alpha             float64
	Bootstrap, MaxDim int
	EnoughRows        int // the rows below which the report sets FewRows
}

// FamilySpec is a family of MIPP's index functions h(y) = s_p(wᵀy) of one
// kind, one function per parameter p: listed in Params, or L values spaced
// evenly over [Min, Max] (zero values: the kind's default range and 1000
// functions). Kind is "gauss-pow3" (s(z) = z³·exp(−z²/(2p))), "tanh"
// (tanh(p·z)), "sin" (sin(p·z)) or "cos" (cos(p·z)).
type FamilySpec struct {
	Kind     string
	Params   []float64
	Min, Max float64
	L        int
}

// MIPPDetail is the detail of a fit of ngca.MIPP: its settings, the defaults
// resolved, and for every family in order what it kept.
type MIPPDetail struct {
	Iterations int
	Threshold  float64
	Families   []FamilyCount
}

// FamilyCount is what MIPP kept of one family: Kept functions passed the
// threshold out of Total; Degenerate were dropped untested (β vanished or
// was not finite).
type FamilyCount struct {
	Family                  string
	Kept, Total, Degenerate int
}

// SNGCADetail is the detail of a fit of ngca.SNGCA: its settings, the ℓ1
// penalty λ and relative duality gap of the last pass's solve, and the
// test functions of that pass dropped (values vanished or not finite).
type SNGCADetail struct {
	Projection                string
	Functions, FinalFunctions int
	Passes                    int
	Kappa, Tol                float64
	MaxIter                   int
	Lambda, Gap               float64
	Dropped                   int
}
