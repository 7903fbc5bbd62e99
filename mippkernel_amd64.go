//go:build !purego

package ngca

// The AVX2 and FMA versions of the lane kernels (mippkernel_amd64.s). They
// compute the formulas of the Go versions four lanes at a time, with fused
// multiply-adds, so they agree with them up to rounding
// (mippkernel_test.go).

//go:noescape
func projectAVX(y []float64, stride int, w, z []float64)

//go:noescape
func gatherAVX(y []float64, stride int, s, beta []float64)

//go:noescape
func sincosAVX(z []float64, p *[mippLanes]float64, q0 uint64, s, ds []float64, sum *[mippLanes]float64) (over int)

//go:noescape
func gaussAVX(z []float64, ip *[mippLanes]float64, s, ds []float64, sum *[mippLanes]float64)

//go:noescape
func tanhAVX(z []float64, p *[mippLanes]float64, s, ds []float64, sum *[mippLanes]float64)

func projectLanes(y []float64, stride int, w, z []float64) {
	if useAVX {
		projectAVX(y, stride, w, z)
		return
	}
	projectLanesGo(y, stride, w, z)
}

func gatherLanes(y []float64, stride int, s, beta []float64) {
	if useAVX {
		gatherAVX(y, stride, s, beta)
		return
	}
	gatherLanesGo(y, stride, s, beta)
}

func sincosLanes(z []float64, p *[mippLanes]float64, q0 uint64, s, ds []float64, sum *[mippLanes]float64) bool {
	if useAVX {
		return sincosAVX(z, p, q0, s, ds, sum) != 0
	}
	return sincosLanesGo(z, p, q0, s, ds, sum)
}

func gaussLanes(z []float64, ip *[mippLanes]float64, s, ds []float64, sum *[mippLanes]float64) {
	if useAVX {
		gaussAVX(z, ip, s, ds, sum)
		return
	}
	gaussLanesGo(z, ip, s, ds, sum)
}

func tanhLanes(z []float64, p *[mippLanes]float64, s, ds []float64, sum *[mippLanes]float64) {
	if useAVX {
		tanhAVX(z, p, s, ds, sum)
		return
	}
	tanhLanesGo(z, p, s, ds, sum)
}
