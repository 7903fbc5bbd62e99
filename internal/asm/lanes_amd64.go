//go:build !purego

package asm

// The AVX2 and FMA versions of the lane kernels (lanes_amd64.s). They
// compute the formulas of the Go versions four lanes at a time, with fused
// multiply-adds, so they agree with them up to rounding (lanes_test.go).
// Without AVX2 and FMA the lane kernels run the Go versions (lanes.go).

//go:noescape
func projectAVX(y []float64, stride int, w, z []float64)

//go:noescape
func gatherAVX(y []float64, stride int, s, beta []float64)

//go:noescape
func sincosAVX(z []float64, p *[Lanes]float64, q0 uint64, s, ds []float64, sum *[Lanes]float64) (over int)

//go:noescape
func gaussAVX(z []float64, ip *[Lanes]float64, s, ds []float64, sum *[Lanes]float64)

//go:noescape
func tanhAVX(z []float64, p *[Lanes]float64, s, ds []float64, sum *[Lanes]float64)

// ProjectLanes sets z = Y·W, z[i·Lanes+l] = Σ_j y[i·stride+j]·w[j·Lanes+l],
// for the len(z)/Lanes rows i of y (row i at y[i·stride:]) and W = w
// (d×Lanes, d = len(w)/Lanes): the projections of the rows on the lanes'
// directions.
func ProjectLanes(y []float64, stride int, w, z []float64) {
	if useAVX {
		projectAVX(y, stride, w, z)
		return
	}
	projectLanesGo(y, stride, w, z)
}

// GatherLanes adds Yᵀ·S to beta (d×Lanes, d = len(beta)/Lanes),
// beta[j·Lanes+l] += Σ_i y[i·stride+j]·s[i·Lanes+l], over the len(s)/Lanes
// rows i of y (row i at y[i·stride:]).
func GatherLanes(y []float64, stride int, s, beta []float64) {
	if useAVX {
		gatherAVX(y, stride, s, beta)
		return
	}
	gatherLanesGo(y, stride, s, beta)
}

// SincosLanes sets s[i] = sin(p_l·z[i] + q0·π/2) and
// ds[i] = p_l·cos(p_l·z[i] + q0·π/2), l = i mod Lanes, for the lane
// matrix z (s and ds as long, q0 = 0 or 1), and *sum to the lane sums of
// ds. It reports whether some |p_l·z[i]| exceeded sincosMax (10⁶), beyond
// which its argument reduction fails: the outputs are then incomplete, and
// SincosLanesStd computes them.
func SincosLanes(z []float64, p *[Lanes]float64, q0 uint64, s, ds []float64, sum *[Lanes]float64) bool {
	if useAVX {
		return sincosAVX(z, p, q0, s, ds, sum) != 0
	}
	return sincosLanesGo(z, p, q0, s, ds, sum)
}

// GaussLanes sets s[i] = t³·e and ds[i] = t²·(3 − t²·ip_l)·e with
// t = z[i], e = exp(−t²·ip_l/2) and l = i mod Lanes, for the lane matrix z
// (s and ds as long), and *sum to the lane sums of ds: the index function
// t³·exp(−t²/(2p)) and its derivative, for ip_l = 1/p_l, with fastExp's
// exponential.
func GaussLanes(z []float64, ip *[Lanes]float64, s, ds []float64, sum *[Lanes]float64) {
	if useAVX {
		gaussAVX(z, ip, s, ds, sum)
		return
	}
	gaussLanesGo(z, ip, s, ds, sum)
}

// TanhLanes sets s[i] = tanh(p_l·z[i]) and ds[i] = p_l·(1 − s[i]²),
// l = i mod Lanes, for the lane matrix z (s and ds as long), and *sum to
// the lane sums of ds, with fastTanh's hyperbolic tangent.
func TanhLanes(z []float64, p *[Lanes]float64, s, ds []float64, sum *[Lanes]float64) {
	if useAVX {
		tanhAVX(z, p, s, ds, sum)
		return
	}
	tanhLanesGo(z, p, s, ds, sum)
}
