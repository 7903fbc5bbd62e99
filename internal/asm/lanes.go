package asm

import "math"

// Lanes is the number of index functions the lane kernels evaluate
// together, one per lane. MIPP (package ngca) fits Lanes index functions
// of one kind together: their directions w form a d×Lanes matrix W and the
// values over a chunk of m rows are m×Lanes matrices, row-major (element
// (i, l) at i·Lanes + l). The kernels below work on such lane matrices; on
// amd64 with AVX2 and FMA they are replaced by assembly (lanes_amd64.go),
// which computes the same formulas four lanes at a time.
const Lanes = 4

// The lane kernels (lanes_amd64.go and lanes_other.go choose between the
// assembly and the Go versions below):
//
//   - ProjectLanes(y, stride, w, z) sets z = Y·W for the rows of y (row i
//     at y[i·stride:], len(z)/Lanes rows) and W = w (d×Lanes,
//     d = len(w)/Lanes);
//   - GatherLanes(y, stride, s, beta) adds Yᵀ·S to beta (d×Lanes),
//     S = s with len(s)/Lanes rows;
//   - SincosLanes(z, p, q0, s, ds, sum) sets s = sin(p·z + q0·π/2) and
//     ds = p·cos(p·z + q0·π/2) lane by lane, sum to the lane sums of ds,
//     and reports whether some |p·z| exceeded sincosMax (the outputs are
//     then incomplete);
//   - GaussLanes(z, ip, s, ds, sum) sets s = z³e and ds = z²(3 − z²·ip)e
//     with e = exp(−z²·ip/2), and sum to the lane sums of ds;
//   - TanhLanes(z, p, s, ds, sum) sets s = tanh(p·z) and ds = p(1 − s²),
//     and sum to the lane sums of ds.

func projectLanesGo(y []float64, stride int, w, z []float64) {
	d := len(w) / Lanes
	for i := 0; i < len(z)/Lanes; i++ {
		row := y[i*stride : i*stride+d]
		zi := z[i*Lanes : (i+1)*Lanes]
		for l := range zi {
			var acc float64
			for j, v := range row {
				acc += v * w[j*Lanes+l]
			}
			zi[l] = acc
		}
	}
}

func gatherLanesGo(y []float64, stride int, s, beta []float64) {
	d := len(beta) / Lanes
	for i := 0; i < len(s)/Lanes; i++ {
		si := s[i*Lanes : (i+1)*Lanes]
		for j, v := range y[i*stride : i*stride+d] {
			bj := beta[j*Lanes : (j+1)*Lanes]
			for l, sv := range si {
				bj[l] += v * sv
			}
		}
	}
}

func sincosLanesGo(z []float64, p *[Lanes]float64, q0 uint64, s, ds []float64, sum *[Lanes]float64) bool {
	var acc [Lanes]float64
	for i, t := range z {
		l := i % Lanes
		x := p[l] * t
		if !(math.Abs(x) <= sincosMax) {
			return true
		}
		sn, cs := sincosQuadrant(x, q0)
		s[i], ds[i] = sn, p[l]*cs
		acc[l] += ds[i]
	}
	*sum = acc
	return false
}

// SincosLanesStd is SincosLanes with math.Sincos, for arguments beyond
// sincosMax: it sets s[i] = sin(p_l·z[i] + q0·π/2) and
// ds[i] = p_l·cos(p_l·z[i] + q0·π/2), l = i mod Lanes, for q0 = 0 or 1,
// and *sum to the lane sums of ds, for arguments of any size.
func SincosLanesStd(z []float64, p *[Lanes]float64, q0 uint64, s, ds []float64, sum *[Lanes]float64) {
	var acc [Lanes]float64
	for i, t := range z {
		l := i % Lanes
		sn, cs := math.Sincos(p[l] * t)
		if q0 == 1 {
			sn, cs = cs, -sn
		}
		s[i], ds[i] = sn, p[l]*cs
		acc[l] += ds[i]
	}
	*sum = acc
}

func gaussLanesGo(z []float64, ip *[Lanes]float64, s, ds []float64, sum *[Lanes]float64) {
	var acc [Lanes]float64
	for i, t := range z {
		l := i % Lanes
		t2 := t * t
		u := t2 * ip[l]
		e := fastExp(-0.5 * u)
		s[i] = t2 * t * e
		ds[i] = t2 * (3 - u) * e
		acc[l] += ds[i]
	}
	*sum = acc
}

func tanhLanesGo(z []float64, p *[Lanes]float64, s, ds []float64, sum *[Lanes]float64) {
	var acc [Lanes]float64
	for i, t := range z {
		l := i % Lanes
		h := fastTanh(p[l] * t)
		s[i] = h
		ds[i] = p[l] - p[l]*(h*h)
		acc[l] += ds[i]
	}
	*sum = acc
}
