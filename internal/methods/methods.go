// Package methods is the registry of the NGCA estimators: the one list the
// ngca command (fit, plot, transform, demo) and the reproduction studies
// take their estimators from. Each entry names an estimator the way they
// use it (a key for flags and seeds, a label for tables, plots and
// messages), says which settings apply to it and builds it from Settings.
//
// Adding an estimator takes one file in the root package, which registers
// it there (docs/conventions.md), and one entry in registry below, whose
// Label is the Result.Method of its fits (a test of the root package
// checks both lists agree); the command's flags, help and JSON and the
// studies pick it up from here.
package methods

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ngca-go/ngca"
)

// Settings configure an estimator. The zero value of every field means the
// library's default; New ignores the fields that do not apply to its
// estimator (Method.Settings lists those that do).
type Settings struct {
	// Dim is the dimension of the non-Gaussian index space.
	Dim int
	// Workers is the number of goroutines of one fit (0 = GOMAXPROCS).
	Workers int
	// Src is the source of randomness (nil = the library's default).
	Src rand.Source
	// Progress, if not nil, receives the fit's progress.
	Progress func(ngca.Progress)

	// The kernel estimators' settings (Method.Kernel): the number of
	// centers, of cross-validation folds, and the grids of both stages.
	Centers, Folds                   int
	Widths, Ridges, VWidths, VRidges []float64

	// MIPP's settings.
	Iterations int
	Threshold  float64
}

// The names of the Settings fields in Method.Settings: the flags of the
// ngca command that set them.
const (
	SetCenters    = "centers"
	SetWidths     = "widths"
	SetRidges     = "ridges"
	SetVWidths    = "vwidths"
	SetVRidges    = "vridges"
	SetFolds      = "folds"
	SetIterations = "iterations"
	SetThreshold  = "threshold"
)

// SettingNames returns the names of every setting that applies to some
// estimators only, in the order the command lists its flags.
func SettingNames() []string {
	return []string{SetCenters, SetWidths, SetRidges, SetFolds, SetVWidths, SetVRidges, SetIterations, SetThreshold}
}

// Method is an estimator of the registry.
type Method struct {
	// Key is the name used on the command line, in JSON output and in the
	// studies' seeds, e.g. "wflsngca". Keys never change: the studies'
	// results depend on them.
	Key string
	// Aliases are other names the command accepts, e.g. "robust".
	Aliases []string
	// Label is the name used in tables, plots and messages, e.g.
	// "WF-LSNGCA"; it equals the Result.Method of the estimator's fits.
	Label string
	// Kernel reports an estimator with kernel centers, cross-validated
	// grids and folds.
	Kernel bool
	// Settings lists the names (see SettingNames) of the Settings fields
	// that apply to the estimator.
	Settings []string
	// New returns the estimator with the given settings.
	New func(Settings) ngca.Estimator
}

// Applies reports whether the setting of the given name applies to m.
func (m Method) Applies(setting string) bool { return slices.Contains(m.Settings, setting) }

// The settings of the kernel estimators: one stage, and two (WF-LSNGCA's
// stage 2 has grids of its own).
var (
	kernelSettings   = []string{SetCenters, SetWidths, SetRidges, SetFolds}
	twoStageSettings = append(slices.Clone(kernelSettings), SetVWidths, SetVRidges)
)

// registry lists the estimators in the order tables list them.
var registry = []Method{
	{Key: "wflsngca", Label: "WF-LSNGCA", Kernel: true,
		Settings: twoStageSettings,
		New: func(s Settings) ngca.Estimator {
			return &ngca.WFLSNGCA{Dim: s.Dim, NumCenters: s.Centers, Widths: s.Widths, Ridges: s.Ridges,
				VWidths: s.VWidths, VRidges: s.VRidges, Folds: s.Folds, Src: s.Src, Workers: s.Workers, Progress: s.Progress}
		}},
	{Key: "lsngca", Label: "LSNGCA", Kernel: true,
		Settings: kernelSettings,
		New: func(s Settings) ngca.Estimator {
			return &ngca.LSNGCA{Dim: s.Dim, NumCenters: s.Centers, Widths: s.Widths, Ridges: s.Ridges,
				Folds: s.Folds, Src: s.Src, Workers: s.Workers, Progress: s.Progress}
		}},
	{Key: "mipp", Label: "MIPP",
		Settings: []string{SetIterations, SetThreshold},
		New: func(s Settings) ngca.Estimator {
			return &ngca.MIPP{Dim: s.Dim, Iterations: s.Iterations, Threshold: s.Threshold,
				Src: s.Src, Workers: s.Workers, Progress: s.Progress}
		}},
	{Key: "imak", Label: "IMAK",
		New: func(s Settings) ngca.Estimator {
			return &ngca.IMAK{Dim: s.Dim, Src: s.Src, Workers: s.Workers, Progress: s.Progress}
		}},
	{Key: "sngca", Label: "SNGCA",
		New: func(s Settings) ngca.Estimator {
			return &ngca.SNGCA{Dim: s.Dim, Src: s.Src, Workers: s.Workers, Progress: s.Progress}
		}},
	{Key: "wflsngca-robust", Aliases: []string{"robust"}, Label: "WF-LSNGCA robust", Kernel: true,
		Settings: twoStageSettings,
		New: func(s Settings) ngca.Estimator {
			return &ngca.RobustWFLSNGCA{Dim: s.Dim, NumCenters: s.Centers, Widths: s.Widths, Ridges: s.Ridges,
				VWidths: s.VWidths, VRidges: s.VRidges, Folds: s.Folds, Src: s.Src, Workers: s.Workers, Progress: s.Progress}
		}},
}

// All returns every estimator, in the order tables list them.
func All() []Method { return slices.Clone(registry) }

// Lookup returns the estimator with the given key, alias or label, in any
// case. The error for an unknown name lists the valid ones.
func Lookup(name string) (Method, error) {
	name = strings.TrimSpace(name)
	for _, m := range registry {
		if strings.EqualFold(name, m.Key) || strings.EqualFold(name, m.Label) ||
			slices.ContainsFunc(m.Aliases, func(a string) bool { return strings.EqualFold(name, a) }) {
			return m, nil
		}
	}
	return Method{}, fmt.Errorf("unknown method %q (want one of %s)", name, Names())
}

// MustLookup is Lookup for names fixed in the program (a study's list); it
// panics if name is unknown.
func MustLookup(name string) Method {
	m, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return m
}

// Parse returns the estimators named in a comma-separated list of keys,
// aliases or labels, in the order given.
func Parse(list string) ([]Method, error) {
	var out []Method
	for _, k := range strings.Split(list, ",") {
		if strings.TrimSpace(k) == "" {
			continue
		}
		m, err := Lookup(k)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no method given (want some of %s)", Names())
	}
	return out, nil
}

// Keys returns the keys of ms as a comma-separated list that Parse accepts.
func Keys(ms []Method) string {
	k := make([]string, len(ms))
	for i, m := range ms {
		k[i] = m.Key
	}
	return strings.Join(k, ",")
}

// Names lists the keys of every estimator for messages and help, each
// followed by its aliases: "wflsngca, lsngca, mipp, wflsngca-robust (or
// robust)".
func Names() string {
	k := make([]string, len(registry))
	for i, m := range registry {
		k[i] = m.Key
		if len(m.Aliases) > 0 {
			k[i] += " (or " + strings.Join(m.Aliases, ", ") + ")"
		}
	}
	return strings.Join(k, ", ")
}
