//go:build !amd64 || purego

package asm

// Without the assembly (other architectures, or the purego build tag) the
// lane kernels are the Go versions.

// ProjectLanes sets z = Y·W, z[i·Lanes+l] = Σ_j y[i·stride+j]·w[j·Lanes+l],
// for the len(z)/Lanes rows i of y (row i at y[i·stride:]) and W = w
// (d×Lanes, d = len(w)/Lanes): the projections of the rows on the lanes'
// directions.
func ProjectLanes(y []float64, stride int, w, z []float64) { projectLanesGo(y, stride, w, z) }

// GatherLanes adds Yᵀ·S to beta (d×Lanes, d = len(beta)/Lanes),
// beta[j·Lanes+l] += Σ_i y[i·stride+j]·s[i·Lanes+l], over the len(s)/Lanes
// rows i of y (row i at y[i·stride:]).
func GatherLanes(y []float64, stride int, s, beta []float64) { gatherLanesGo(y, stride, s, beta) }

// SincosLanes sets s[i] = sin(p_l·z[i] + q0·π/2) and
// ds[i] = p_l·cos(p_l·z[i] + q0·π/2), l = i mod Lanes, for the lane
// matrix z (s and ds as long, q0 = 0 or 1), and *sum to the lane sums of
// ds. It reports whether some |p_l·z[i]| exceeded sincosMax (10⁶), beyond
// which its argument reduction fails: the outputs are then incomplete, and
// SincosLanesStd computes them.
func SincosLanes(z []float64, p *[Lanes]float64, q0 uint64, s, ds []float64, sum *[Lanes]float64) bool {
	return sincosLanesGo(z, p, q0, s, ds, sum)
}

// GaussLanes sets s[i] = t³·e and ds[i] = t²·(3 − t²·ip_l)·e with
// t = z[i], e = exp(−t²·ip_l/2) and l = i mod Lanes, for the lane matrix z
// (s and ds as long), and *sum to the lane sums of ds: the index function
// t³·exp(−t²/(2p)) and its derivative, for ip_l = 1/p_l, with fastExp's
// exponential.
func GaussLanes(z []float64, ip *[Lanes]float64, s, ds []float64, sum *[Lanes]float64) {
	gaussLanesGo(z, ip, s, ds, sum)
}

// TanhLanes sets s[i] = tanh(p_l·z[i]) and ds[i] = p_l·(1 − s[i]²),
// l = i mod Lanes, for the lane matrix z (s and ds as long), and *sum to
// the lane sums of ds, with fastTanh's hyperbolic tangent.
func TanhLanes(z []float64, p *[Lanes]float64, s, ds []float64, sum *[Lanes]float64) {
	tanhLanesGo(z, p, s, ds, sum)
}
