package ngca

import (
	"context"

	"gonum.org/v1/gonum/mat"
)

// Rows in blocks. A stage sums over the rows in blocks of at most
// blockRows positions of the fold order, each inside one fold, so that the
// kernel and basis values of one width take O(b·blockRows) memory, not
// O(b·n), and the per-coordinate sums O(b²·d·k). A fold of at most
// blockRows rows is a single block, and its sums are then those of the
// whole fold exactly; larger folds give the same sums up to rounding.
// It is a variable for the tests.
var blockRows = 4096

// passRows is the most rows whose kernel values a stage forms at once (a
// pass of consecutive blocks; 13 MiB for the two passes a sweep holds at
// b = 100), so that a stage of at most passRows rows waits for its
// workers once per width, not once per block. It is a variable for the
// tests.
var passRows = 8192

// keptDistances is the largest b·n for which a stage keeps the squared
// distances between centers and rows (8 bytes each, 64 MiB) instead of
// computing them again for every block and width. Both give the same values.
// It is a variable for the tests.
var keptDistances = 1 << 23

// block is the range [lo, hi) of positions of the fold order, inside fold.
type block struct{ lo, hi, fold int }

func (blk block) rows() int { return blk.hi - blk.lo }

// blocks splits every fold of the partition into blocks of at most limit
// rows, of sizes differing by at most one.
func (p partition) blocks(limit int) []block {
	var out []block
	for f := 0; f < p.folds(); f++ {
		lo, size := p.bounds[f], p.size(f)
		parts := (size + limit - 1) / limit
		for i := 0; i < parts; i++ {
			out = append(out, block{lo: lo + i*size/parts, hi: lo + (i+1)*size/parts, fold: f})
		}
	}
	return out
}

// stageData is the data of a stage in fold order: position p holds row
// order[p] of the data, so that every fold is a contiguous range.
type stageData struct {
	n, b, d int
	part    partition
	blocks  []block
	passes  [][]block  // consecutive blocks of at most passRows rows
	xT, aT  []float64  // d×n: coordinate j at position p is xT[j·n+p]; aT nil for a = 0
	cT      *mat.Dense // d×b: the centers, transposed
	// The kernels' distances are between the rows of kx and kc (x and the
	// centers, or some of their columns); d2, if not nil, holds all of
	// them (b×n, in fold order).
	kx, kc *mat.Dense
	d2     []float64
}

// newStageData lays out x (n×d) and a (n×d, or nil) in fold order, with
// the kernels' distances taken between the rows of kx and kc. It computes
// the distances once if b·n ≤ keptDistances.
func newStageData(ctx context.Context, workers int, x, a, centers, kx, kc *mat.Dense, part partition) (*stageData, error) {
	n, d := x.Dims()
	b, _ := centers.Dims()
	sd := &stageData{n: n, b: b, d: d, part: part, blocks: part.blocks(blockRows), xT: make([]float64, d*n),
		cT: mat.DenseCopyOf(centers.T()), kx: kx, kc: kc}
	for i, blk := range sd.blocks {
		if last := len(sd.passes) - 1; i > 0 && blk.hi-sd.passes[last][0].lo <= max(passRows, blockRows) {
			sd.passes[last] = append(sd.passes[last], blk)
		} else {
			sd.passes = append(sd.passes, []block{blk})
		}
	}
	if a != nil {
		sd.aT = make([]float64, d*n)
	}
	for p, i := range part.order {
		for j := 0; j < d; j++ {
			sd.xT[j*n+p] = x.At(i, j)
			if a != nil {
				sd.aT[j*n+p] = a.At(i, j)
			}
		}
	}
	if b*n <= keptDistances {
		var err error
		if sd.d2, err = sqDistT(ctx, workers, kx, kc, part.order); err != nil {
			return nil, err
		}
	}
	return sd, nil
}

// blockScratch is the workspace of one pass: the squared distances and
// kernel values of its rows (b×rows, compact).
type blockScratch struct {
	d2, kt []float64
}

func newBlockScratch(sd *stageData) *blockScratch {
	m := 0
	for _, ps := range sd.passes {
		m = max(m, passSpan(ps))
	}
	return &blockScratch{d2: make([]float64, sd.b*m), kt: make([]float64, sd.b*m)}
}

// passSpan returns the number of rows of a pass.
func passSpan(ps []block) int { return ps[len(ps)-1].hi - ps[0].lo }

// maxBlock returns the number of rows of the largest block.
func (sd *stageData) maxBlock() int {
	m := 0
	for _, blk := range sd.blocks {
		m = max(m, blk.rows())
	}
	return m
}

// kernel sets s.kt to the b×rows kernel values of the pass's rows at
// width sigma and returns them: the p-th row of the pass has kernel
// values kt[k·rows+p].
func (s *blockScratch) kernel(ctx context.Context, workers int, sd *stageData, kernel kernelFunc, ps []block, sigma float64) ([]float64, error) {
	lo, hi := ps[0].lo, ps[len(ps)-1].hi
	m := hi - lo
	d2, kt := s.d2[:sd.b*m], s.kt[:sd.b*m]
	if sd.d2 != nil {
		for k := 0; k < sd.b; k++ {
			copy(d2[k*m:(k+1)*m], sd.d2[k*sd.n+lo:k*sd.n+hi])
		}
	} else if err := sqDistTo(ctx, workers, d2, sd.kx, sd.kc, sd.part.order[lo:hi]); err != nil {
		return nil, err
	}
	return kt, kernel(ctx, workers, kt, d2, sd.b, sigma)
}

// foldRuns splits the blocks of a pass into runs of consecutive blocks of
// one fold.
func foldRuns(ps []block) [][]block {
	var runs [][]block
	for i, blk := range ps {
		if i > 0 && blk.fold == ps[i-1].fold {
			runs[len(runs)-1] = append(runs[len(runs)-1], blk)
		} else {
			runs = append(runs, []block{blk})
		}
	}
	return runs
}

// kernelChunk is the number of centers whose kernel values over a pass
// one task of kernelPasses forms.
const kernelChunk = 4

// kernelPasses forms the kernel values of the passes of a sweep, b×rows
// each (compact, as blockScratch.kernel), in two buffers: step s of the
// sweep reads kt[s%2] while the tasks of step s+1 fill the other.
type kernelPasses struct {
	sd     *stageData
	kernel kernelFunc
	tasks  int          // tasks per pass: chunks of kernelChunk centers
	kt     [2][]float64 // b×rows kernel values of two passes
	d2     [][]float64  // per worker: a chunk's distances, if sd.d2 is nil
}

func newKernelPasses(sd *stageData, kernel kernelFunc, workers int) *kernelPasses {
	m := 0
	for _, ps := range sd.passes {
		m = max(m, passSpan(ps))
	}
	kp := &kernelPasses{sd: sd, kernel: kernel, tasks: (sd.b + kernelChunk - 1) / kernelChunk}
	for i := range kp.kt {
		kp.kt[i] = make([]float64, sd.b*m)
	}
	if sd.d2 == nil {
		kp.d2 = make([][]float64, max(1, workers))
	}
	return kp
}

// fill forms, as task t on worker wk, the kernel values at width sigma of
// chunk t of the centers over the rows of pass ps, into the buffer of
// step s.
func (kp *kernelPasses) fill(ctx context.Context, wk, t, s int, ps []block, sigma float64) error {
	sd := kp.sd
	lo, hi := ps[0].lo, ps[len(ps)-1].hi
	m := hi - lo
	k0, k1 := t*kernelChunk, min(sd.b, (t+1)*kernelChunk)
	kt := kp.kt[s%2][k0*m : k1*m]
	if sd.d2 != nil {
		for k := k0; k < k1; k++ {
			if err := kp.kernel(ctx, 1, kt[(k-k0)*m:(k-k0+1)*m], sd.d2[k*sd.n+lo:k*sd.n+hi], 1, sigma); err != nil {
				return err
			}
		}
		return nil
	}
	if kp.d2[wk] == nil {
		kp.d2[wk] = make([]float64, kernelChunk*len(kp.kt[0])/sd.b)
	}
	_, c := sd.kc.Dims()
	d2 := kp.d2[wk][:(k1-k0)*m]
	if err := sqDistTo(ctx, 1, d2, sd.kx, sd.kc.Slice(k0, k1, 0, c).(*mat.Dense), sd.part.order[lo:hi]); err != nil {
		return err
	}
	return kp.kernel(ctx, 1, kt, d2, k1-k0, sigma)
}
