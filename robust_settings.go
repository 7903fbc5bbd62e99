package ngca

import "fmt"

// robustPath names the estimates of the robust variant of WF-LSNGCA. The
// studies set it through studyhook.SetRobustPath.
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

// String returns "adaptive", "axes" or "equivariant".
func (p robustPath) String() string {
	switch p {
	case robustAdaptive:
		return "adaptive"
	case robustAxes:
		return "axes"
	case robustEquivariant:
		return "equivariant"
	}
	return fmt.Sprintf("robustPath(%d)", int(p))
}

// The limits of the adaptive path's decision: robustLevel is the level of
// its test of the axes estimate, robustMaxDistance the bound on the
// Distance of an axes estimate that it returns, and robustMissedMargin the
// margin, in paired z-scores, by which the evidence that the equivariant
// estimate misses structure must exceed the evidence that the axes
// estimate does, for the axes estimate beyond that bound to be returned.
// docs/robust.md gives the measurements they rest on; the studies read
// them through studyhook.RobustDefaultLimits.
const (
	robustLevel        = 0.01
	robustMaxDistance  = 4
	robustMissedMargin = 3
)

// robustRounds is the number of frame refinements of the equivariant
// estimate: the second moves the frame by less than its sampling error as
// the tilt's covariance measures it, yet removes much of the error the
// first leaves on signals with edges, and its regression gives the
// covariance of the tilt at a frame already close to the estimate; a
// third adds little (docs/robust.md).
const robustRounds = 2

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
		return 1 + robustRounds
	}
	return 3 + 1 + robustRounds + 1
}
