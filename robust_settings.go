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

// The robust variant's tuned numbers, each with the part of docs/robust.md
// ("How it works") that gives the measurements it rests on.
const (
	// robustExtraCoords: the axes estimate puts its kernels on the
	// Dim + robustExtraCoords coordinates that the screens rank first
	// (step 3, "Dimension").
	robustExtraCoords = 2
	// marginalCenters is the number of kernel centers of the marginal
	// screen: the first of the stage centers, which are drawn rows in
	// random order. A score of one coordinate needs few; the screen's cost
	// is linear in d and quadratic in its centers (step 3, "Dimension").
	marginalCenters = 20
	// robustNullZ is the default threshold of the null test, in standard
	// errors of the paired held-out loss difference (step 3, "Dimension").
	robustNullZ = 3
	// robustRounds is the number of frame refinements of the equivariant
	// estimate: the second moves the frame by less than its sampling error
	// as the tilt's covariance measures it, yet removes much of the error
	// the first leaves on signals with edges, and its regression gives the
	// covariance of the tilt at a frame already close to the estimate; a
	// third adds little (the equivariant estimate).
	robustRounds = 2
	// robustLevel is the level of the test of the axes estimate ("The
	// test").
	robustLevel = 0.01
	// robustMaxDistance is the bound on the Distance of an axes estimate
	// that the decision returns without the comparison ("The guard").
	robustMaxDistance = 4
	// robustMissedMargin is the margin, in paired z-scores, by which the
	// evidence that the equivariant estimate misses structure must exceed
	// the evidence that the axes estimate does, for the axes estimate
	// beyond robustMaxDistance to be returned ("The guard").
	robustMissedMargin = 3
)

// robustScreenRows is the most rows the variant's screens and its MIPP
// start use: on larger data they run on that many rows drawn at random,
// and every stage that estimates (the axes estimate's two stages, the
// refinements and the test) on all rows. A screen only ranks columns and
// the start only needs to be close enough for the refinements, which
// reach the precision of all rows from it (the last list of "How it
// works"). A variable so that tests can lower it.
var robustScreenRows = 50000

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
