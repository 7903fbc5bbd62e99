package ngca

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// This file holds a rotation-equivariant model of the log-density: one
// scalar potential
//
//	ℓ(x) = Σ_k θ_k κ_k(x) + ½xᵀAx + bᵀx,   κ_k(x) = σ²·exp(−‖x − c_k‖²/(2σ²)),
//
// whose gradient ∇ℓ(x) = Σ_k θ_k φ_k(x) + Ax + b has the kernel fields
// φ_k(x) = (c_k − x)·exp(−‖x − c_k‖²/(2σ²)): coordinate j of φ_k is the
// Gaussian-derivative basis ψ_kj of kernels.go, with one θ_k shared by all
// coordinates. It is fitted by score matching (Hyvärinen, JMLR 2005), the
// LSLDG loss summed over the coordinates,
//
//	J = E‖∇ℓ(x)‖² + 2E[Δℓ(x)] + λ‖θ‖²,
//
// with the quadratic part (A symmetric, b) unpenalised: it represents a
// Gaussian's log-density exactly, however ill-conditioned its covariance,
// so the kernels only have to model the non-Gaussian factor. For WF-LSNGCA
// the quadratic part drops out of
//
//	v(x) = ∇ℓ − ∇²ℓ·x = b + Σ_k θ_k e_k(x),
//	e_k(x) = exp(−‖x − c_k‖²/(2σ²))·[c_k − (c_k − x)·((c_k − x)ᵀx)/σ²].
//
// Because every part of the model is invariant under rotations (isotropic
// kernels centred on data points, a quadratic, a rotation-invariant
// penalty), so is the fit.
//
// Profiling out (A, b): for fixed θ, with u = Σθ_kφ_k, the optimal
// b = −E[u] − A·x̄, and the optimal A solves the Lyapunov equation
// A·S + S·A = −2(R + I), S = Cov(x), R = sym Cov(u, x). In the eigenbasis
// S = V·diag(s)·Vᵀ, Â = VᵀAV has Â_ij = −2R̂_ij/(s_i + s_j), and the
// profiled objective is
//
//	J(θ) = θᵀ(G_c − 2W)θ + 2θᵀ(h − 2w) + λ‖θ‖² + const,
//
// with G_c = Cov(Φ) summed over coordinates, h = E[div φ],
// W_kl = Σ_ij R̂_k,ij R̂_l,ij/(s_i + s_j) and w_k = Σ_i R̂_k,ii/(2s_i),
// where R̂_k = Vᵀ·sym Cov(φ_k, x)·V. G_c − 2W is the Schur complement of the
// full Gram matrix, so the ridge path of ridge.go applies unchanged.

// potSums are sums over a set of rows of everything the potential model
// needs: they add over folds, so training sums are totals minus a fold.
type potSums struct {
	n    float64
	sumK []float64 // b: Σ κ_k
	t1   []float64 // b×d: Σ κ_k x
	g    []float64 // b×b: Σ φ_kᵀφ_l
	h    []float64 // b: Σ div φ_k
	t2   []float64 // b×d²: Σ κ_k x xᵀ
	xs   []float64 // d: Σ x
	s    []float64 // d×d: Σ x xᵀ
}

func newPotSums(b, d int) *potSums {
	return &potSums{sumK: make([]float64, b), t1: make([]float64, b*d), g: make([]float64, b*b),
		h: make([]float64, b), t2: make([]float64, b*d*d), xs: make([]float64, d), s: make([]float64, d*d)}
}

// diff sets p = a − c.
func (p *potSums) diff(a, c *potSums) {
	p.n = a.n - c.n
	for _, f := range [][3][]float64{{p.sumK, a.sumK, c.sumK}, {p.t1, a.t1, c.t1}, {p.g, a.g, c.g},
		{p.h, a.h, c.h}, {p.t2, a.t2, c.t2}, {p.xs, a.xs, c.xs}, {p.s, a.s, c.s}} {
		for i := range f[0] {
			f[0][i] = f[1][i] - f[2][i]
		}
	}
}

// add sets p = a + c.
func (p *potSums) add(a, c *potSums) {
	p.n = a.n + c.n
	for _, f := range [][3][]float64{{p.sumK, a.sumK, c.sumK}, {p.t1, a.t1, c.t1}, {p.g, a.g, c.g},
		{p.h, a.h, c.h}, {p.t2, a.t2, c.t2}, {p.xs, a.xs, c.xs}, {p.s, a.s, c.s}} {
		for i := range f[0] {
			f[0][i] = f[1][i] + f[2][i]
		}
	}
}

// potData is the data of one fit in fold order, with the per-row
// quantities every width shares.
type potData struct {
	n, d, b int
	x       []float64 // n×d rows in fold order
	c       *mat.Dense
	cc      []float64 // b×b: c_kᵀc_l
	d2      []float64 // b×n: ‖x_p − c_k‖²
	q       []float64 // b×n: c_kᵀx_p
	sq      []float64 // n: ‖x_p‖²
	xx      []float64 // n×d²: x_p x_pᵀ
}

func newPotData(ctx context.Context, workers int, x, c *mat.Dense, order []int) (*potData, error) {
	n := len(order)
	_, d := x.Dims()
	b, _ := c.Dims()
	pd := &potData{n: n, d: d, b: b, x: make([]float64, n*d), c: c, cc: make([]float64, b*b),
		q: make([]float64, b*n), sq: make([]float64, n), xx: make([]float64, n*d*d)}
	for p, i := range order {
		row := x.RawRowView(i)
		copy(pd.x[p*d:], row)
		var s float64
		for a, va := range row {
			s += va * va
			for bb, vb := range row {
				pd.xx[p*d*d+a*d+bb] = va * vb
			}
		}
		pd.sq[p] = s
	}
	for k := 0; k < b; k++ {
		ck := c.RawRowView(k)
		for l := 0; l < b; l++ {
			var s float64
			for m, v := range c.RawRowView(l) {
				s += ck[m] * v
			}
			pd.cc[k*b+l] = s
		}
		for p := 0; p < n; p++ {
			var s float64
			for m, v := range pd.x[p*d : (p+1)*d] {
				s += ck[m] * v
			}
			pd.q[k*n+p] = s
		}
	}
	var err error
	pd.d2, err = sqDistT(ctx, workers, x, c, order)
	return pd, err
}

// sums accumulates the potSums of rows lo..hi−1 (fold order) for the
// kernel matrix kt (b×n, exp(−d2/(2σ²))).
func (pd *potData) sums(out *potSums, kt []float64, sigma float64, lo, hi int, scratch []float64) {
	n, d, b := pd.n, pd.d, pd.b
	m := hi - lo
	out.n = float64(m)
	inv := 1 / (sigma * sigma)
	kf := blas64.General{Rows: b, Cols: m, Stride: n, Data: kt[lo:]}
	xf := blas64.General{Rows: m, Cols: d, Stride: d, Data: pd.x[lo*d:]}
	xxf := blas64.General{Rows: m, Cols: d * d, Stride: d * d, Data: pd.xx[lo*d*d:]}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, kf, xf, 0, blas64.General{Rows: b, Cols: d, Stride: d, Data: out.t1})
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, kf, xxf, 0, blas64.General{Rows: b, Cols: d * d, Stride: d * d, Data: out.t2})

	// Σ_p κ_kκ_l (c_k − x)ᵀ(c_l − x) = cc∘M0 − M1 − M1ᵀ + M2 with
	// M0 = Σκκ, M1 = Σ(κ_k q_k)κ_l, M2 = Σκκ‖x‖².
	kq := scratch[:b*m]
	ks := scratch[b*m : 2*b*m]
	for k := 0; k < b; k++ {
		var sk, hk float64
		for p := lo; p < hi; p++ {
			kv := kt[k*n+p]
			sk += kv
			hk += kv * (pd.d2[k*n+p]*inv - float64(d))
			kq[k*m+p-lo] = kv * pd.q[k*n+p]
			ks[k*m+p-lo] = kv * math.Sqrt(pd.sq[p])
		}
		out.sumK[k], out.h[k] = sk, hk
	}
	m0 := scratch[2*b*m : 2*b*m+b*b]
	m1 := scratch[2*b*m+b*b : 2*b*m+2*b*b]
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, kf, kf, 0, blas64.General{Rows: b, Cols: b, Stride: b, Data: m0})
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, blas64.General{Rows: b, Cols: m, Stride: m, Data: kq}, kf, 0,
		blas64.General{Rows: b, Cols: b, Stride: b, Data: m1})
	ksg := blas64.General{Rows: b, Cols: m, Stride: m, Data: ks}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, ksg, ksg, 0, blas64.General{Rows: b, Cols: b, Stride: b, Data: out.g})
	for k := 0; k < b; k++ {
		for l := 0; l < b; l++ {
			out.g[k*b+l] += pd.cc[k*b+l]*m0[k*b+l] - m1[k*b+l] - m1[l*b+k]
		}
	}
	clear(out.xs)
	clear(out.s)
	for p := lo; p < hi; p++ {
		row := pd.x[p*d : (p+1)*d]
		for a, v := range row {
			out.xs[a] += v
		}
		for i, v := range pd.xx[p*d*d : (p+1)*d*d] {
			out.s[i] += v
		}
	}
}

// potSystem is the profiled least-squares problem of a set of rows (means):
// θ minimises θᵀ(gs + λI)θ + 2θᵀhs, and quad maps θ to the optimal (A, b).
type potSystem struct {
	gs, hs []float64 // b×b, b
	quad   potQuad
}

// potQuad holds what maps θ to the profiled quadratic part.
type potQuad struct {
	b, d int
	v    []float64 // d×d eigenvectors of S (columns)
	ev   []float64 // d eigenvalues of S (regularised)
	rhat []float64 // b×d²: R̂_k = Vᵀ sym Cov(φ_k, x) V
	phi  []float64 // b×d: E[φ_k]
	xbar []float64 // d
}

// system forms the profiled problem from the sums of a set of rows.
func (pd *potData) system(s *potSums) (*potSystem, error) {
	d, b := pd.d, pd.b
	inv := 1 / s.n
	xbar := make([]float64, d)
	for a := range xbar {
		xbar[a] = s.xs[a] * inv
	}
	cov := mat.NewSymDense(d, nil)
	var tr float64
	for a := 0; a < d; a++ {
		for c := a; c < d; c++ {
			cov.SetSym(a, c, s.s[a*d+c]*inv-xbar[a]*xbar[c])
		}
		tr += cov.At(a, a)
	}
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return nil, fmt.Errorf("%w: eigendecomposition of the covariance did not converge", ErrSingular)
	}
	ev := eig.Values(nil)
	// A tiny ridge on A keeps a singular covariance solvable.
	rho := 1e-12 * tr / float64(d)
	for i := range ev {
		ev[i] = math.Max(ev[i], 0) + rho
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	q := &potQuad{b: b, d: d, v: vecs.RawMatrix().Data, ev: ev, rhat: make([]float64, b*d*d),
		phi: make([]float64, b*d), xbar: xbar}
	if vecs.RawMatrix().Stride != d {
		q.v = mat.DenseCopyOf(&vecs).RawMatrix().Data
	}

	// E[φ_k] = (c_k Σκ_k − Σκ_k x)/n.
	for k := 0; k < b; k++ {
		ck := pd.c.RawRowView(k)
		for a := 0; a < d; a++ {
			q.phi[k*d+a] = (ck[a]*s.sumK[k] - s.t1[k*d+a]) * inv
		}
	}
	// Cov(φ_k, x) = E[φ_k xᵀ] − E[φ_k]x̄ᵀ, E[φ_k xᵀ] = (c_k t1_kᵀ − t2_k)/n;
	// R̂_k = Vᵀ sym(·) V.
	r := make([]float64, d*d)
	tmp := make([]float64, d*d)
	for k := 0; k < b; k++ {
		ck := pd.c.RawRowView(k)
		for a := 0; a < d; a++ {
			for c := 0; c < d; c++ {
				e := (ck[a]*s.t1[k*d+c]-s.t2[k*d*d+a*d+c])*inv - q.phi[k*d+a]*xbar[c]
				et := (ck[c]*s.t1[k*d+a]-s.t2[k*d*d+c*d+a])*inv - q.phi[k*d+c]*xbar[a]
				r[a*d+c] = 0.5 * (e + et)
			}
		}
		vg := blas64.General{Rows: d, Cols: d, Stride: d, Data: q.v}
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, vg, blas64.General{Rows: d, Cols: d, Stride: d, Data: r}, 0,
			blas64.General{Rows: d, Cols: d, Stride: d, Data: tmp})
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: d, Cols: d, Stride: d, Data: tmp}, vg, 0,
			blas64.General{Rows: d, Cols: d, Stride: d, Data: q.rhat[k*d*d:]})
	}

	// gs = G_c − 2W, hs = h − 2w.
	sys := &potSystem{gs: make([]float64, b*b), hs: make([]float64, b), quad: *q}
	scaled := make([]float64, b*d*d)
	for k := 0; k < b; k++ {
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				scaled[k*d*d+i*d+j] = q.rhat[k*d*d+i*d+j] / math.Sqrt(ev[i]+ev[j])
			}
		}
	}
	sg := blas64.General{Rows: b, Cols: d * d, Stride: d * d, Data: scaled}
	blas64.Gemm(blas.NoTrans, blas.Trans, -2, sg, sg, 0, blas64.General{Rows: b, Cols: b, Stride: b, Data: sys.gs})
	for k := 0; k < b; k++ {
		for l := 0; l < b; l++ {
			var pp float64
			for a := 0; a < d; a++ {
				pp += q.phi[k*d+a] * q.phi[l*d+a]
			}
			sys.gs[k*b+l] += s.g[k*b+l]*inv - pp
		}
		var wk float64
		for i := 0; i < d; i++ {
			wk += q.rhat[k*d*d+i*d+i] / (2 * ev[i])
		}
		sys.hs[k] = s.h[k]*inv - 2*wk
	}
	return sys, nil
}

// quadratic returns the profiled A (d×d) and b for θ.
func (q *potQuad) quadratic(theta []float64) (a, bv []float64) {
	d, b := q.d, q.b
	ah := make([]float64, d*d)
	for k := 0; k < b; k++ {
		if theta[k] == 0 {
			continue
		}
		for i, v := range q.rhat[k*d*d : (k+1)*d*d] {
			ah[i] += theta[k] * v
		}
	}
	for i := 0; i < d; i++ {
		ah[i*d+i]++
		for j := 0; j < d; j++ {
			ah[i*d+j] *= -2 / (q.ev[i] + q.ev[j])
		}
	}
	// A = V Â Vᵀ.
	vg := blas64.General{Rows: d, Cols: d, Stride: d, Data: q.v}
	tmp := make([]float64, d*d)
	a = make([]float64, d*d)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, vg, blas64.General{Rows: d, Cols: d, Stride: d, Data: ah}, 0,
		blas64.General{Rows: d, Cols: d, Stride: d, Data: tmp})
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, blas64.General{Rows: d, Cols: d, Stride: d, Data: tmp}, vg, 0,
		blas64.General{Rows: d, Cols: d, Stride: d, Data: a})
	// b = −(E[u] + A x̄), E[u] = Σθ_k E[φ_k].
	bv = make([]float64, d)
	for a2 := 0; a2 < d; a2++ {
		var s float64
		for k := 0; k < b; k++ {
			s += theta[k] * q.phi[k*d+a2]
		}
		for c := 0; c < d; c++ {
			s += a[a2*d+c] * q.xbar[c]
		}
		bv[a2] = -s
	}
	return a, bv
}

// score returns the held-out objective J of (θ, A, b) on the rows summed in
// s (means over them).
func (pd *potData) score(s *potSums, theta, a, bv []float64) float64 {
	d, b := pd.d, pd.b
	inv := 1 / s.n
	var j float64
	// θᵀḠθ + 2θᵀh̄.
	for k := 0; k < b; k++ {
		if theta[k] == 0 {
			continue
		}
		var gk float64
		for l := 0; l < b; l++ {
			gk += s.g[k*b+l] * theta[l]
		}
		j += theta[k] * (gk + 2*s.h[k]) * inv
	}
	// 2E[uᵀ(Ax + b)] = 2Σθ_k(⟨A, E[φ_k xᵀ]⟩ + E[φ_k]ᵀb).
	for k := 0; k < b; k++ {
		if theta[k] == 0 {
			continue
		}
		ck := pd.c.RawRowView(k)
		var t float64
		for r := 0; r < d; r++ {
			phir := (ck[r]*s.sumK[k] - s.t1[k*d+r]) * inv
			t += phir * bv[r]
			for c := 0; c < d; c++ {
				t += a[r*d+c] * (ck[r]*s.t1[k*d+c] - s.t2[k*d*d+r*d+c]) * inv
			}
		}
		j += 2 * theta[k] * t
	}
	// E‖Ax + b‖² + 2tr A = tr(A S̄ A) + 2bᵀA x̄ + ‖b‖² + 2tr A.
	for r := 0; r < d; r++ {
		var ax float64
		for c := 0; c < d; c++ {
			ax += a[r*d+c] * s.xs[c] * inv
			var asr float64
			for e := 0; e < d; e++ {
				asr += a[r*d+e] * s.s[e*d+c] * inv
			}
			j += asr * a[c*d+r]
		}
		j += 2*bv[r]*ax + bv[r]*bv[r] + 2*a[r*d+r]
	}
	return j
}

// potModel is a fitted potential: enough to evaluate v.
type potModel struct {
	c     *mat.Dense
	sigma float64
	theta []float64
	bv    []float64
	a     []float64
}

// vTo sets row i of dst to v(x_i) = b + Σ_k θ_k e_k(x_i).
func (m *potModel) vTo(dst, x *mat.Dense) {
	n, d := x.Dims()
	b, _ := m.c.Dims()
	inv := 1 / (m.sigma * m.sigma)
	c := -inv / 2
	diff := make([]float64, d)
	for i := 0; i < n; i++ {
		xi := x.RawRowView(i)
		out := dst.RawRowView(i)
		copy(out, m.bv)
		for k := 0; k < b; k++ {
			if m.theta[k] == 0 {
				continue
			}
			ck := m.c.RawRowView(k)
			var d2, q float64
			for a := range xi {
				diff[a] = ck[a] - xi[a]
				d2 += diff[a] * diff[a]
				q += diff[a] * xi[a]
			}
			w := m.theta[k] * gauss(c*d2)
			if w == 0 {
				continue
			}
			for a := range out {
				out[a] += w * (ck[a] - diff[a]*q*inv)
			}
		}
	}
}

// fitPotential selects (σ, λ) by k-fold cross-validation of the held-out
// score-matching objective and refits the potential on all rows.
func fitPotential(ctx context.Context, x, centers *mat.Dense, widths, ridges []float64, part partition, noSelf bool, p *plan) (*potModel, StageCV, error) {
	pd, err := newPotData(ctx, p.workers, x, centers, part.order)
	if err != nil {
		return nil, StageCV{}, err
	}
	n, d, b := pd.n, pd.d, pd.b
	k := part.folds()
	W, L := len(widths), len(ridges)
	scores := make([]float64, W*L)
	type widthFit struct {
		tot *potSums
	}
	fits := make([]widthFit, W)
	err = parallelFor(ctx, p.workers, W, func(_ int, w int) error {
		sigma := widths[w]
		kt := make([]float64, b*n)
		cc := -1 / (2 * sigma * sigma)
		for i, v := range pd.d2 {
			kt[i] = gauss(cc * v)
			if noSelf && v == 0 {
				kt[i] = 0
			}
		}
		maxm := 0
		for f := 0; f < k; f++ {
			maxm = max(maxm, part.size(f))
		}
		scratch := make([]float64, 2*b*maxm+2*b*b)
		folds := make([]*potSums, k)
		tot := newPotSums(b, d)
		for f := 0; f < k; f++ {
			folds[f] = newPotSums(b, d)
			pd.sums(folds[f], kt, sigma, part.bounds[f], part.bounds[f+1], scratch)
			tot.add(tot, folds[f])
		}
		fits[w].tot = tot
		train := newPotSums(b, d)
		path := newRidgePath(b, L)
		theta := make([]float64, b*L)
		ok := make([]bool, L)
		th := make([]float64, b)
		row := scores[w*L : (w+1)*L]
		for f := 0; f < k; f++ {
			train.diff(tot, folds[f])
			sys, err := pd.system(train)
			if err != nil {
				return err
			}
			a := make([]float64, b*b)
			for i := 0; i < b; i++ {
				for j := 0; j <= i; j++ {
					a[i*b+j] = sys.gs[i*b+j]
				}
			}
			path.solve(a, sys.hs, ridges, theta, ok)
			for l := range ridges {
				if !ok[l] {
					row[l] = math.Inf(1)
					continue
				}
				for i := 0; i < b; i++ {
					th[i] = theta[i*L+l]
				}
				am, bv := sys.quad.quadratic(th)
				row[l] += pd.score(folds[f], th, am, bv) / float64(k)
			}
		}
		for l, v := range row {
			if math.IsNaN(v) {
				row[l] = math.Inf(1)
			}
		}
		return nil
	}, nil)
	if err != nil {
		return nil, StageCV{}, err
	}
	best, bw, bl := math.Inf(1), -1, -1
	for w := 0; w < W; w++ {
		for l := 0; l < L; l++ {
			if v := scores[w*L+l]; v < best {
				best, bw, bl = v, w, l
			}
		}
	}
	if bw < 0 {
		return nil, StageCV{}, fmt.Errorf("%w: every (width, ridge) candidate of the potential failed", ErrSingular)
	}
	sys, err := pd.system(fits[bw].tot)
	if err != nil {
		return nil, StageCV{}, err
	}
	a := make([]float64, b*b)
	for i := 0; i < b; i++ {
		for j := 0; j <= i; j++ {
			a[i*b+j] = sys.gs[i*b+j]
		}
	}
	th := make([]float64, b)
	var ok [1]bool
	newRidgePath(b, 1).solve(a, sys.hs, []float64{ridges[bl]}, th, ok[:])
	if !ok[0] {
		return nil, StageCV{}, fmt.Errorf("%w: potential refit failed", ErrSingular)
	}
	am, bv := sys.quad.quadratic(th)
	cv := StageCV{Name: "potential", Widths: widths, Ridges: ridges, Coords: []Selection{{
		Width: widths[bw], Ridge: ridges[bl], Score: best, Scores: mat.NewDense(W, L, scores)}}}
	return &potModel{c: centers, sigma: widths[bw], theta: th, bv: bv, a: am}, cv, nil
}
