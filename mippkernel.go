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

// laneValues sets s[i] = s_p(z[i]) and ds[i] = s′_p(z[i]) for the index
// functions of the given kind with parameters p, lane by lane, and adds the
// lane sums of ds to sum.
func laneValues(kind familyKind, p *[mippLanes]float64, z, s, ds []float64, sum *[mippLanes]float64) {
	var part [mippLanes]float64
	switch kind {
	case familyGaussPow3:
		var ip [mippLanes]float64
		for l, v := range p {
			ip[l] = 1 / v
		}
		gaussLanes(z, &ip, s, ds, &part)
	case familyTanh:
		tanhLanes(z, p, s, ds, &part)
	case familySin, familyCos:
		q0 := uint64(kind - familySin) // cos x = sin(x + π/2), −sin x = cos(x + π/2)
		if sincosLanes(z, p, q0, s, ds, &part) {
			sincosLanesStd(z, p, q0, s, ds, &part)
		}
	}
	for l, v := range part {
		sum[l] += v
	}
}

// indexValues sets s[i] = s_p(z[i]) and ds[i] = s′_p(z[i]) and returns
// Σᵢ ds[i]. It runs the lane kernels with p in every lane on the first
// 4⌊n/4⌋ values and on the rest padded with zeros.
func indexValues(kind familyKind, p float64, z, s, ds []float64) float64 {
	s, ds = s[:len(z)], ds[:len(z)]
	pl := [mippLanes]float64{p, p, p, p}
	var sum [mippLanes]float64
	m := len(z) - len(z)%mippLanes
	laneValues(kind, &pl, z[:m], s[:m], ds[:m], &sum)
	total := (sum[0] + sum[1]) + (sum[2] + sum[3])
	if m == len(z) {
		return total
	}
	var zt, st, dst, tail [mippLanes]float64
	copy(zt[:], z[m:])
	laneValues(kind, &pl, zt[:], st[:], dst[:], &tail)
	copy(s[m:], st[:])
	copy(ds[m:], dst[:])
	for _, v := range dst[:len(z)-m] {
		total += v
	}
	return total
}
