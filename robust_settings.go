package ngca

import (
	"fmt"

	"github.com/ngca-go/ngca/internal/defaults"
)

// robustPath names the estimates of the robust variant of WF-LSNGCA. The
// studies set it through probe.Settings.RobustPath.
type robustPath int

const (
	// robustAdaptive computes both estimates and returns the axes estimate
	// if it passes the test and the guard described at RobustWFLSNGCA,
	// otherwise the equivariant estimate (the default).
	robustAdaptive robustPath = iota
	// robustAxes computes and returns the axes estimate only.
	robustAxes
	// robustEquivariant computes and returns the equivariant estimate only.
	robustEquivariant
)

// robustPaths are the paths' names, in the order of their values.
var robustPaths = [...]string{"adaptive", "axes", "equivariant"}

// String returns "adaptive", "axes" or "equivariant".
func (p robustPath) String() string {
	if p < 0 || int(p) >= len(robustPaths) {
		return fmt.Sprintf("robustPath(%d)", int(p))
	}
	return robustPaths[p]
}

// robustScreenRows is defaults.RobustScreenRows, a variable so that tests
// can lower it.
var robustScreenRows = defaults.RobustScreenRows

// robustSettings are the variant's settings with the defaults filled in.
type robustSettings struct {
	path  robustPath
	nullZ float64
}

// steps is the number of progress stages of a fit on the path.
func (s robustSettings) steps() int {
	switch s.path {
	case robustAxes:
		return 3
	case robustEquivariant:
		return 1 + defaults.RobustRounds
	}
	return 3 + 1 + defaults.RobustRounds + 1
}
