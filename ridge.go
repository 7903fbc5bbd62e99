package ngca

import (
	"math"
	"slices"

	"github.com/ngca-go/ngca/internal/asm"
	"gonum.org/v1/gonum/lapack/gonum"
)

// ridgePath solves the ridge systems of one cross-validation cell for every
// λ of a grid,
//
//	(A + λ_l·I)·θ_l = −r,   l = 1, …, L,
//
// with A a symmetric positive semi-definite b×b matrix. It reduces A once
// to tridiagonal form by Householder similarity transforms, A = Q·T·Qᵀ
// (asm.Tridiagonalize, as LAPACK's Dsytrd), computes z = Qᵀr once, and then
// for every λ solves the tridiagonal positive definite system
// (T + λI)·y = z in O(b) (Dpttrf, Dpttrs) before mapping back, θ = −Q·y,
// for all λ together. Reducing A costs about 2b³ flops in the full storage
// of asm.Tridiagonalize (4b³/3 in symmetric storage); an eigendecomposition
// would cost several times more and a Cholesky factorisation per λ, b³/3
// each, more for a grid of 10.
//
// A ridgePath holds the workspace for one goroutine.
type ridgePath struct {
	b, maxL   int
	d, e, tau []float64
	dd, ee    []float64
	z, w      []float64 // workspace: Qᵀr (b), asm.ApplyQ's (maxL)
	tw        []float64 // asm.Tridiagonalize's workspace (3b)
	// yt (maxL×b) holds θ_l in row l after solveReduced, for heldOut.
	yt []float64
}

func newRidgePath(b, maxL int) *ridgePath {
	p := &ridgePath{b: b, maxL: maxL, d: make([]float64, b), z: make([]float64, b),
		w: make([]float64, maxL), yt: make([]float64, maxL*b), tw: make([]float64, 3*b)}
	if b > 1 {
		p.e, p.tau = make([]float64, b-1), make([]float64, b-1)
		p.dd, p.ee = make([]float64, b), make([]float64, b-1)
	}
	return p
}

// solve computes θ_l for every λ_l in ridges. a holds A in its lower
// triangle (row-major, stride b) and is overwritten. theta is b×L row-major
// and receives θ_l in column l; ok[l] reports whether T + λ_l·I was positive
// definite and θ_l finite (if not, column l is zero).
func (p *ridgePath) solve(a, r, ridges, theta []float64, ok []bool) {
	p.reduce(a, slices.Min(ridges))
	p.solveReduced(a, r, ridges, theta, ok)
}

// reduce reduces A (lower triangle of a) to tridiagonal form: afterwards
// p.d and p.e hold T's diagonal and subdiagonal, and a's upper triangle and
// p.tau hold Q as asm.Tridiagonalize leaves them. minRidge is the smallest
// λ that will be solved for (see flushTiny).
func (p *ridgePath) reduce(a []float64, minRidge float64) {
	b := p.b
	if b == 1 {
		p.d[0] = a[0]
		return
	}
	flushTiny(a, b, eps*minRidge/float64(b))
	asm.Tridiagonalize(b, a, p.d, p.e, p.tau, p.tw)
}

// solveReduced is solve after reduce (or after a reduction restored into
// a and p): it computes θ_l for every λ_l in ridges from T and Q, into
// theta (b×L) and p.yt (L×b).
func (p *ridgePath) solveReduced(a, r, ridges, theta []float64, ok []bool) {
	b, L := p.b, len(ridges)
	yt := p.yt[:L*b]
	if b == 1 {
		for l, lam := range ridges {
			yt[l] = -r[0] / (p.d[0] + lam)
		}
	} else {
		z := p.z
		copy(z, r)
		asm.ApplyQT(b, a, p.tau, z)
		for l, lam := range ridges {
			y := yt[l*b : (l+1)*b]
			copy(y, z)
			for i := range p.dd {
				p.dd[i] = p.d[i] + lam
			}
			copy(p.ee, p.e)
			ok[l] = impl.Dpttrf(b, p.dd, p.ee)
			if ok[l] {
				impl.Dpttrs(b, 1, p.dd, p.ee, y, 1)
			}
		}
		asm.ApplyQ(b, L, a, p.tau, yt, p.w)
		for i := range yt {
			yt[i] = -yt[i]
		}
	}
	for l, lam := range ridges {
		y := yt[l*b : (l+1)*b]
		if b == 1 {
			ok[l] = p.d[0]+lam > 0
		}
		for _, v := range y {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				ok[l] = false
			}
		}
		if !ok[l] {
			clear(y)
		}
		for i, v := range y {
			theta[i*L+l] = v
		}
	}
}

// flushTiny sets to zero the entries of the lower triangle of the b×b matrix
// a whose magnitude is below tau. With tau = ε·λ_min/b the change δA obeys
// ‖δA‖₂ ≤ ‖δA‖_F ≤ ε·λ_min, less than the rounding error already made in
// forming A + λI, so no solution changes beyond working precision. Gram
// matrices of narrow kernels have entries spanning hundreds of orders of
// magnitude; without the flush their products fall into the subnormal
// range, where the reduction runs about four times slower.
func flushTiny(a []float64, b int, tau float64) {
	for i := 0; i < b; i++ {
		row := a[i*b : i*b+i+1]
		for j, v := range row {
			if math.Abs(v) < tau {
				row[j] = 0
			}
		}
	}
}

// impl is gonum's pure-Go LAPACK (the tridiagonal solves).
var impl gonum.Implementation
