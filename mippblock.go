package ngca

import (
	"context"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"github.com/ngca-go/ngca/internal/asm"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// mippChunk is the number of rows the lane kernels process at a time, so
// that a chunk's rows and lane buffers stay in the first-level caches.
const mippChunk = 128

// mippProblem is what every index function of a MIPP fit shares.
type mippProblem struct {
	y      []float64 // whitened data, n×d, row i at y[i·stride:]
	n, d   int
	stride int
	yy     []float64 // ‖yᵢ‖²
	iters  int
	tau    float64
	words  int      // ⌈n/64⌉: sign words per function
	signs  []uint64 // the start signs of every function, words each
}

// newMIPPProblem sets up the iterations on the whitened rows y for fns
// index functions, drawing their random start signs from rng here, on the
// calling goroutine: ⌈n/64⌉ Uint64 values per function, in order.
func newMIPPProblem(y *mat.Dense, iters int, tau float64, rng *rand.Rand, fns int) *mippProblem {
	n, d := y.Dims()
	raw := y.RawMatrix()
	words := (n + 63) / 64
	pp := &mippProblem{y: raw.Data, n: n, d: d, stride: raw.Stride, yy: make([]float64, n),
		iters: iters, tau: tau, words: words, signs: make([]uint64, fns*words)}
	for i := range pp.signs {
		pp.signs[i] = rng.Uint64()
	}
	for i := range pp.yy {
		row := y.RawRowView(i)
		pp.yy[i] = blas64.Dot(blasVec(row), blasVec(row))
	}
	return pp
}

// mippBlock is a run of at most asm.Lanes consecutive index functions of
// one kind, fitted together.
type mippBlock struct{ first, count int }

// mippBlocks splits the index functions into blocks. The split depends on
// the functions alone, so the results do not depend on the workers.
func mippBlocks(fns []indexFn) []mippBlock {
	var bs []mippBlock
	for f := 0; f < len(fns); {
		c := 1
		for c < asm.Lanes && f+c < len(fns) && fns[f+c].kind == fns[f].kind {
			c++
		}
		bs = append(bs, mippBlock{f, c})
		f += c
	}
	return bs
}

// runAll runs every index function, blocks in parallel, and returns their
// β (len(fns)×d, row-major) and outcomes. Progress is reported once per
// index function, in the order the blocks finish.
func (pp *mippProblem) runAll(ctx context.Context, workers int, fns []indexFn, rep *reporter) ([]float64, []uint8, error) {
	d := pp.d
	betas := make([]float64, len(fns)*d)
	status := make([]uint8, len(fns))
	blocks := mippBlocks(fns)
	scratch := make([]*mippScratch, max(1, workers))
	var finished atomic.Int64
	reported := 0
	report := func() {
		for n := int(finished.Load()); reported < n; {
			reported++
			rep.report(reported, len(fns))
		}
	}
	err := parallelFor(ctx, workers, len(blocks), func(wk, b int) error {
		if scratch[wk] == nil {
			scratch[wk] = newMIPPScratch(d)
		}
		blk := blocks[b]
		pp.runBlock(scratch[wk], fns[blk.first:blk.first+blk.count], pp.signs[blk.first*pp.words:],
			betas[blk.first*d:(blk.first+blk.count)*d], status[blk.first:blk.first+blk.count])
		finished.Add(int64(blk.count))
		return nil
	}, report)
	return betas, status, err
}

// mippScratch is the workspace of one goroutine.
type mippScratch struct {
	z, s, ds []float64 // lane matrices of one chunk: wᵀyᵢ, s(wᵀyᵢ), s′(wᵀyᵢ)
	w, beta  []float64 // d×asm.Lanes
}

func newMIPPScratch(d int) *mippScratch {
	c := mippChunk * asm.Lanes
	return &mippScratch{z: make([]float64, c), s: make([]float64, c), ds: make([]float64, c),
		w: make([]float64, d*asm.Lanes), beta: make([]float64, d*asm.Lanes)}
}

// runBlock fits the index functions fns of a block (one kind, at most
// asm.Lanes) together, one per lane, from the starts given by signs (words
// per function, in order). It writes their normalised β (len(fns)×d) to
// beta and their outcomes to status. Every lane follows the recipe of MIPP's
// documentation as a single function would; a lane that degenerates, and
// every unused lane, has w = 0 and is ignored.
func (pp *mippProblem) runBlock(sc *mippScratch, fns []indexFn, signs []uint64, beta []float64, status []uint8) {
	var p [asm.Lanes]float64
	var alive [asm.Lanes]bool
	for l := range p {
		p[l] = fns[min(l, len(fns)-1)].p
		alive[l] = l < len(fns)
	}
	pp.starts(sc, signs, len(fns))
	unitLanes(sc.w, &alive)
	var sq [asm.Lanes]float64
	n := float64(pp.n)
	for it := 1; ; it++ {
		last := it == pp.iters
		sum := pp.betaSums(sc, fns[0].kind, &p, last, &sq)
		for k, w := range sc.w {
			sc.beta[k] = (sc.beta[k] - sum[k%asm.Lanes]*w) / n
		}
		if last {
			break
		}
		copy(sc.w, sc.beta)
		unitLanes(sc.w, &alive)
	}
	for l := range fns {
		status[l] = mippDegenerate
		if alive[l] {
			status[l] = pp.finish(sc.beta, l, sq[l], beta[l*pp.d:(l+1)*pp.d])
		}
	}
}

// starts sets the columns of sc.w to the unnormalised starts w = Yᵀg of
// the first count lanes, gᵢ = −1 where bit i of the lane's sign words is set
// and +1 elsewhere, and the other columns to zero.
func (pp *mippProblem) starts(sc *mippScratch, signs []uint64, count int) {
	clear(sc.w)
	for r0 := 0; r0 < pp.n; r0 += mippChunk {
		m := min(mippChunk, pp.n-r0)
		g := sc.s[:m*asm.Lanes]
		clear(g)
		for l := range count {
			words := signs[l*pp.words:]
			for i := range m {
				// 1 with the sign bit set where the start's bit is.
				bit := words[(r0+i)>>6] >> ((r0 + i) & 63) & 1
				g[i*asm.Lanes+l] = math.Float64frombits(0x3ff0000000000000 | bit<<63)
			}
		}
		asm.GatherLanes(pp.chunk(r0, m), pp.stride, g, sc.w)
	}
}

// chunk returns the m rows of y from row r0 on.
func (pp *mippProblem) chunk(r0, m int) []float64 {
	return pp.y[r0*pp.stride : (r0+m-1)*pp.stride+pp.d]
}

// betaSums sets sc.beta to Yᵀs(Yw) for the lanes' directions w (the columns
// of sc.w) and returns the lane sums Σᵢ s′(wᵀyᵢ). If last, it also adds
// Σᵢ‖yᵢsᵢ − s′ᵢw‖² = Σᵢ sᵢ²‖yᵢ‖² − 2sᵢs′ᵢ(wᵀyᵢ) + s′ᵢ²‖w‖² to sq.
func (pp *mippProblem) betaSums(sc *mippScratch, kind familyKind, p *[asm.Lanes]float64, last bool, sq *[asm.Lanes]float64) [asm.Lanes]float64 {
	clear(sc.beta)
	var sum, ww [asm.Lanes]float64
	for k, w := range sc.w {
		ww[k%asm.Lanes] += w * w
	}
	for r0 := 0; r0 < pp.n; r0 += mippChunk {
		m := min(mippChunk, pp.n-r0)
		y := pp.chunk(r0, m)
		z, s, ds := sc.z[:m*asm.Lanes], sc.s[:m*asm.Lanes], sc.ds[:m*asm.Lanes]
		asm.ProjectLanes(y, pp.stride, sc.w, z)
		laneValues(kind, p, z, s, ds, &sum)
		asm.GatherLanes(y, pp.stride, s, sc.beta)
		if !last {
			continue
		}
		for k, si := range s {
			l, di := k%asm.Lanes, ds[k]
			sq[l] += si*si*pp.yy[r0+k/asm.Lanes] - 2*si*di*z[k] + di*di*ww[l]
		}
	}
	return sum
}

// unitLanes scales the columns of w (d×asm.Lanes) of the alive lanes to unit
// length; a lane whose norm is not positive and finite dies, and the columns
// of dead lanes are set to zero.
func unitLanes(w []float64, alive *[asm.Lanes]bool) {
	var nrm [asm.Lanes]float64
	for k, v := range w {
		nrm[k%asm.Lanes] += v * v
	}
	for l := range nrm {
		nrm[l] = math.Sqrt(nrm[l])
		alive[l] = alive[l] && nrm[l] > 0 && !math.IsInf(nrm[l], 1)
	}
	for k := range w {
		if l := k % asm.Lanes; alive[l] {
			w[k] /= nrm[l]
		} else {
			w[k] = 0
		}
	}
}

// finish normalises lane l of the final β (d×asm.Lanes) given
// sq = Σᵢ‖yᵢsᵢ − s′ᵢw‖², writes it to out and returns the lane's outcome:
// β ← β/√(sq/n − ‖β‖²), kept if √n‖β‖ > τ after normalising.
func (pp *mippProblem) finish(beta []float64, l int, sq float64, out []float64) uint8 {
	n := float64(pp.n)
	var bb float64
	for j := range out {
		out[j] = beta[j*asm.Lanes+l]
		bb += out[j] * out[j]
	}
	v := sq/n - bb
	if !(v > 0) || math.IsInf(v, 1) {
		return mippDegenerate
	}
	inv := 1 / math.Sqrt(v)
	for j := range out {
		out[j] *= inv
	}
	if math.Sqrt(n*bb/v) > pp.tau {
		return mippKept
	}
	return mippDropped
}

// Outcomes of one index function.
const (
	mippDropped uint8 = iota
	mippKept
	mippDegenerate
)
