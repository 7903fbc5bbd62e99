//go:build !amd64 || purego

package ngca

// Without the assembly (other architectures, or the purego build tag) the
// lane kernels are the Go versions.

func projectLanes(y []float64, stride int, w, z []float64) { projectLanesGo(y, stride, w, z) }

func gatherLanes(y []float64, stride int, s, beta []float64) { gatherLanesGo(y, stride, s, beta) }

func sincosLanes(z []float64, p *[mippLanes]float64, q0 uint64, s, ds []float64, sum *[mippLanes]float64) bool {
	return sincosLanesGo(z, p, q0, s, ds, sum)
}

func gaussLanes(z []float64, ip *[mippLanes]float64, s, ds []float64, sum *[mippLanes]float64) {
	gaussLanesGo(z, ip, s, ds, sum)
}

func tanhLanes(z []float64, p *[mippLanes]float64, s, ds []float64, sum *[mippLanes]float64) {
	tanhLanesGo(z, p, s, ds, sum)
}
