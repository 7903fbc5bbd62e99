package ngca

import "math"

// MIPP fits mippLanes index functions of one kind together, one per lane:
// their directions w form a d×mippLanes matrix W and the values over a chunk
// of m rows are m×mippLanes matrices, row-major (element (i, l) at
// i·mippLanes + l). The kernels below work on such lane matrices; on amd64
// with AVX2 and FMA they are replaced by assembly (mippkernel_amd64.go),
// which computes the same formulas four lanes at a time.
const mippLanes = 4

// The lane kernels (mippkernel_amd64.go and mippkernel_other.go choose
// between the assembly and the Go versions below):
//
//   - projectLanes(y, stride, w, z) sets z = Y·W for the rows of y (row i
//     at y[i·stride:], len(z)/mippLanes rows) and W = w (d×mippLanes,
//     d = len(w)/mippLanes);
//   - gatherLanes(y, stride, s, beta) adds Yᵀ·S to beta (d×mippLanes),
//     S = s with len(s)/mippLanes rows;
//   - sincosLanes(z, p, q0, s, ds, sum) sets s = sin(p·z + q0·π/2) and
//     ds = p·cos(p·z + q0·π/2) lane by lane, sum to the lane sums of ds,
//     and reports whether some |p·z| exceeded sincosMax (the outputs are
//     then incomplete);
//   - gaussLanes(z, ip, s, ds, sum) sets s = z³e and ds = z²(3 − z²·ip)e
//     with e = exp(−z²·ip/2), and sum to the lane sums of ds;
//   - tanhLanes(z, p, s, ds, sum) sets s = tanh(p·z) and ds = p(1 − s²),
//     and sum to the lane sums of ds.

func projectLanesGo(y []float64, stride int, w, z []float64) {
	d := len(w) / mippLanes
	for i := 0; i < len(z)/mippLanes; i++ {
		row := y[i*stride : i*stride+d]
		zi := z[i*mippLanes : (i+1)*mippLanes]
		for l := range zi {
			var acc float64
			for j, v := range row {
				acc += v * w[j*mippLanes+l]
			}
			zi[l] = acc
		}
	}
}

func gatherLanesGo(y []float64, stride int, s, beta []float64) {
	d := len(beta) / mippLanes
	for i := 0; i < len(s)/mippLanes; i++ {
		si := s[i*mippLanes : (i+1)*mippLanes]
		for j, v := range y[i*stride : i*stride+d] {
			bj := beta[j*mippLanes : (j+1)*mippLanes]
			for l, sv := range si {
				bj[l] += v * sv
			}
		}
	}
}

func sincosLanesGo(z []float64, p *[mippLanes]float64, q0 uint64, s, ds []float64, sum *[mippLanes]float64) bool {
	var acc [mippLanes]float64
	for i, t := range z {
		l := i % mippLanes
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

// sincosLanesStd is sincosLanes with math.Sincos, for arguments beyond
// sincosMax.
func sincosLanesStd(z []float64, p *[mippLanes]float64, q0 uint64, s, ds []float64, sum *[mippLanes]float64) {
	var acc [mippLanes]float64
	for i, t := range z {
		l := i % mippLanes
		sn, cs := math.Sincos(p[l] * t)
		if q0 == 1 {
			sn, cs = cs, -sn
		}
		s[i], ds[i] = sn, p[l]*cs
		acc[l] += ds[i]
	}
	*sum = acc
}

func gaussLanesGo(z []float64, ip *[mippLanes]float64, s, ds []float64, sum *[mippLanes]float64) {
	var acc [mippLanes]float64
	for i, t := range z {
		l := i % mippLanes
		t2 := t * t
		u := t2 * ip[l]
		e := fastExp(-0.5 * u)
		s[i] = t2 * t * e
		ds[i] = t2 * (3 - u) * e
		acc[l] += ds[i]
	}
	*sum = acc
}

func tanhLanesGo(z []float64, p *[mippLanes]float64, s, ds []float64, sum *[mippLanes]float64) {
	var acc [mippLanes]float64
	for i, t := range z {
		l := i % mippLanes
		h := fastTanh(p[l] * t)
		s[i] = h
		ds[i] = p[l] - p[l]*(h*h)
		acc[l] += ds[i]
	}
	*sum = acc
}
