package ngca

import (
	"context"
	"math"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// imakBlock is the number of rows of one partial sum of an IMAK pass. The
// partition of the rows is fixed, and the partial sums of the blocks are
// added in block order, so that a pass is bit-identical for any number of
// workers.
const imakBlock = 256

// imakTask is the number of blocks of one task of a pass (2048 rows, a
// few tenths of a millisecond at d = 10): fewer would cost more to hand
// out and wait for than they save, so a fit of at most 2048 rows runs on
// one worker.
const imakTask = 8

// imakProblem is what every pass of an IMAK fit shares.
type imakProblem struct {
	y     blas64.General // whitened data, n×d
	yy    []float64      // ‖yᵢ‖²
	alpha float64
	q     []float64   // yᵢᵀMyᵢ of the current pass
	s     [][]float64 // per block: Σ hᵢyᵢyᵢᵀ (upper triangle, d×d row-major)
	hsum  []float64   // per block: Σ hᵢ
	proj  [][]float64 // per worker: Ûᵀyᵢ
}

func newIMAKProblem(y *mat.Dense, alpha float64, workers int) *imakProblem {
	n, d := y.Dims()
	blocks := (n + imakBlock - 1) / imakBlock
	ip := &imakProblem{y: y.RawMatrix(), yy: make([]float64, n), alpha: alpha, q: make([]float64, n),
		s: make([][]float64, blocks), hsum: make([]float64, blocks), proj: make([][]float64, max(1, workers))}
	for i := range ip.yy {
		row := y.RawRowView(i)
		ip.yy[i] = blas64.Dot(blasVec(row), blasVec(row))
	}
	for b := range ip.s {
		ip.s[b] = make([]float64, d*d)
	}
	return ip
}

// metric returns M = α·(ε·I + (1 − ε)·ÛÛᵀ), or α·I if u is nil.
func (ip *imakProblem) metric(u *mat.Dense, e float64) *mat.Dense {
	d := ip.y.Cols
	m := mat.NewDense(d, d, nil)
	if u == nil {
		e = 1
	} else {
		m.Mul(u, u.T())
		m.Scale(ip.alpha*(1-e), m)
	}
	for j := 0; j < d; j++ {
		m.Set(j, j, m.At(j, j)+ip.alpha*e)
	}
	return m
}

// weightedCov computes, for the metric M = α·(ε·I + (1 − ε)·ÛÛᵀ) (α·I
// if u is nil), the weighted covariance
//
//	C = Σᵢ hᵢyᵢyᵢᵀ / Σᵢ hᵢ,   hᵢ = exp(−½yᵢᵀMyᵢ),
//
// and returns C and M. The weights are computed relative to the largest
// one (a common factor of the sums), so that they cannot all underflow.
func (ip *imakProblem) weightedCov(ctx context.Context, workers int, u *mat.Dense, e float64) (*mat.SymDense, *mat.Dense, error) {
	d := ip.y.Cols
	blocks := len(ip.s)
	tasks := (blocks + imakTask - 1) / imakTask
	each := func(t int, f func(b int)) {
		for b := t * imakTask; b < min(blocks, (t+1)*imakTask); b++ {
			f(b)
		}
	}
	if err := parallelFor(ctx, workers, tasks, func(w, t int) error {
		each(t, func(b int) { ip.weights(w, b, u, e) })
		return nil
	}, nil); err != nil {
		return nil, nil, err
	}
	qmin := math.Inf(1)
	for _, v := range ip.q {
		qmin = math.Min(qmin, v)
	}
	if err := parallelFor(ctx, workers, tasks, func(_, t int) error {
		each(t, func(b int) { ip.weightedSum(b, qmin) })
		return nil
	}, nil); err != nil {
		return nil, nil, err
	}
	c := make([]float64, d*d)
	var hsum float64
	for b := 0; b < blocks; b++ {
		hsum += ip.hsum[b]
		for k, v := range ip.s[b] {
			c[k] += v
		}
	}
	cm := mat.NewSymDense(d, nil)
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			cm.SetSym(a, b, c[a*d+b]/hsum)
		}
	}
	return cm, ip.metric(u, e), nil
}

// secondOrder returns D̂ = C − M·C·M − (I − M), which is
// Σᵢhᵢ(yᵢyᵢᵀ − (Myᵢ)(Myᵢ)ᵀ)/Σᵢhᵢ − (I − M).
func secondOrder(c *mat.SymDense, m *mat.Dense) *mat.SymDense {
	d := c.SymmetricDim()
	var mcm mat.Dense
	mcm.Mul(m, c)
	mcm.Mul(&mcm, m)
	dh := mat.NewSymDense(d, nil)
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			v := c.At(a, b) - mcm.At(a, b) + m.At(a, b)
			if a == b {
				v--
			}
			dh.SetSym(a, b, v)
		}
	}
	return dh
}

// firstOrder returns Ĝ·Ĝᵀ for Ĝ = (I + M)·C − I, whose column j is
// β(g) = Σᵢ[yᵢg(yᵢ) − ∇g(yᵢ)]/Σᵢhᵢ for g(y) = h(y)·y_j.
func firstOrder(c *mat.SymDense, m *mat.Dense) *mat.SymDense {
	d := c.SymmetricDim()
	var g mat.Dense
	g.Mul(m, c)
	g.Add(&g, c)
	for j := 0; j < d; j++ {
		g.Set(j, j, g.At(j, j)-1)
	}
	var ggt mat.SymDense
	ggt.SymOuterK(1, &g)
	return &ggt
}

// weights sets qᵢ = yᵢᵀMyᵢ = α·(ε‖yᵢ‖² + (1 − ε)‖Ûᵀyᵢ‖²) for the rows of
// block b, on worker w.
func (ip *imakProblem) weights(w, b int, u *mat.Dense, e float64) {
	lo, hi := b*imakBlock, min((b+1)*imakBlock, ip.y.Rows)
	if u == nil {
		for i := lo; i < hi; i++ {
			ip.q[i] = ip.alpha * ip.yy[i]
		}
		return
	}
	_, m := u.Dims()
	if ip.proj[w] == nil {
		ip.proj[w] = make([]float64, m)
	}
	p, ug := ip.proj[w], u.RawMatrix()
	for i := lo; i < hi; i++ {
		row := ip.y.Data[i*ip.y.Stride : i*ip.y.Stride+ip.y.Cols]
		blas64.Gemv(blas.Trans, 1, ug, blasVec(row), 0, blasVec(p))
		pp := blas64.Dot(blasVec(p), blasVec(p))
		ip.q[i] = ip.alpha * (e*ip.yy[i] + (1-e)*pp)
	}
}

// weightedSum sets the partial sums of block b: Σ hᵢ and the upper
// triangle of Σ hᵢyᵢyᵢᵀ, with hᵢ = exp(−½(qᵢ − qmin)).
func (ip *imakProblem) weightedSum(b int, qmin float64) {
	lo, hi := b*imakBlock, min((b+1)*imakBlock, ip.y.Rows)
	d := ip.y.Cols
	s := blas64.Symmetric{Uplo: blas.Upper, N: d, Stride: d, Data: ip.s[b]}
	clear(s.Data)
	var hs float64
	for i := lo; i < hi; i++ {
		h := math.Exp(-0.5 * (ip.q[i] - qmin))
		hs += h
		blas64.Syr(h, blasVec(ip.y.Data[i*ip.y.Stride:i*ip.y.Stride+d]), s)
	}
	ip.hsum[b] = hs
}

// absEigen returns the dim eigenvectors of the symmetric matrix a with the
// largest |eigenvalue| (as the columns of a d×dim matrix), and the
// magnitudes of all its eigenvalues in decreasing order. Ties keep the
// ascending order of the eigenvalues.
func absEigen(a *mat.SymDense, dim int) (*mat.Dense, []float64, bool) {
	d := a.SymmetricDim()
	var eig mat.EigenSym
	if !eig.Factorize(a, true) {
		return nil, nil, false
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, d)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return math.Abs(vals[order[i]]) > math.Abs(vals[order[j]]) })
	mags := make([]float64, d)
	u := mat.NewDense(d, dim, nil)
	for k, i := range order {
		mags[k] = math.Abs(vals[i])
		if k < dim {
			for r := 0; r < d; r++ {
				u.Set(r, k, vecs.At(r, i))
			}
		}
	}
	return u, mags, true
}

// projectorChange returns ‖ÛÛᵀ − V̂V̂ᵀ‖_F for two d×m bases with
// orthonormal columns.
func projectorChange(u, v *mat.Dense) float64 {
	var pu, pv mat.Dense
	pu.Mul(u, u.T())
	pv.Mul(v, v.T())
	pu.Sub(&pu, &pv)
	return mat.Norm(&pu, 2)
}
