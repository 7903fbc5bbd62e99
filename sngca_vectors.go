package ngca

import (
	"context"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// sngcaData is what every pass of an SNGCA fit shares: the centred
// standardised data (not whitened) and the §3.1 metric.
type sngcaData struct {
	zc blas64.General // z − mean, n×d
	wh whitening      // W = Σ̂^(−1/2): ω = W·u maps metric coordinates u to index directions
}

// sngcaVectors are the vectors of L test functions hₗ(z) = fₗ(ωₗᵀz):
//
//	ψₗ = Σ̂^(1/2)·(1/n)Σᵢ ∇hₗ(zᵢ) = uₗ·(1/n)Σᵢ fₗ′(ωₗᵀzᵢ)   (η̂ₗ in the metric)
//	γₗ = (1/n)Σᵢ zᵢ·hₗ(zᵢ),   μₗ = (1/n)Σᵢ hₗ(zᵢ)
//
// each divided by the root mean square of hₗ over the data, so that every
// function enters at the same noise level.
type sngcaVectors struct {
	psi   *mat.Dense // d×L, columns ψₗ (metric coordinates)
	gamma *mat.Dense // L×(d+1), rows (γₗᵀ, μₗ): the constraints
	dead  int        // functions whose values vanished or were not finite
}

// testFn is one test function: its kind, parameter and direction in
// metric coordinates (unit length).
type testFn struct {
	kind familyKind
	p    float64
	u    []float64
}

// randomProbes returns count random vectors in metric coordinates,
// ξ = W·Zcᵀg/√(n−1), each from n random signs g drawn from rng (⌈n/64⌉
// Uint64 values per vector, as MIPP's starts). Zcᵀg has covariance (n−1)Σ̂,
// so ξ is isotropic, and it turns with the data: under z ↦ M·z the
// directions ω = W·ξ become M⁻ᵀω.
func (sd *sngcaData) randomProbes(rng *rand.Rand, count int) *mat.Dense {
	n, d := sd.zc.Rows, sd.zc.Cols
	g := mat.NewDense(n, count, nil)
	words := (n + 63) / 64
	for c := 0; c < count; c++ {
		for w := 0; w < words; w++ {
			bits := rng.Uint64()
			for i := w * 64; i < min(n, (w+1)*64); i++ {
				v := 1.0
				if bits>>(i&63)&1 != 0 {
					v = -1
				}
				g.Set(i, c, v)
			}
		}
	}
	var zg mat.Dense
	zg.Mul(mat.NewDense(n, d, sd.zc.Data).T(), g)
	var xi mat.Dense
	xi.Mul(sd.wh.w, &zg)
	xi.Scale(1/math.Sqrt(float64(n-1)), &xi)
	return &xi
}

// concentrate turns the columns of xi towards the span of the orthonormal
// columns of b (metric coordinates): ξ ↦ (ξ's part in b)·‖ξ‖/‖its part‖
// + ρ·(ξ's part off b), then scales each to unit length. With b nil it
// only scales. A column whose part in b vanishes keeps its direction.
func concentrate(xi, b *mat.Dense, rho float64) {
	d, count := xi.Dims()
	col := make([]float64, d)
	for c := 0; c < count; c++ {
		mat.Col(col, c, xi)
		if b != nil {
			norm := math.Sqrt(dot(col, col))
			_, m := b.Dims()
			in := make([]float64, d)
			for k := 0; k < m; k++ {
				bk := mat.Col(nil, k, b)
				a := dot(bk, col)
				for i := range in {
					in[i] += a * bk[i]
				}
			}
			if inNorm := math.Sqrt(dot(in, in)); inNorm > 0 {
				for i := range col {
					col[i] = in[i]*norm/inNorm + rho*(col[i]-in[i])
				}
			}
		}
		if nrm := math.Sqrt(dot(col, col)); nrm > 0 {
			for i := range col {
				col[i] /= nrm
			}
		}
		xi.SetCol(c, col)
	}
}

// testFunctions pairs the unit directions (columns of u) with kinds and
// parameters drawn from the families: function l uses family l mod F and
// a parameter drawn uniformly from that family's list.
func testFunctions(rng *rand.Rand, fams []mippFamily, u *mat.Dense) []testFn {
	_, count := u.Dims()
	fns := make([]testFn, count)
	for l := range fns {
		f := fams[l%len(fams)]
		fns[l] = testFn{kind: f.kind, p: f.params[rng.IntN(len(f.params))], u: mat.Col(nil, l, u)}
	}
	return fns
}

// vectors evaluates the test functions on the data in parallel, one
// function per task; done, if not nil, is called after each.
func (sd *sngcaData) vectors(ctx context.Context, workers int, fns []testFn, done func()) (sngcaVectors, error) {
	n, d := sd.zc.Rows, sd.zc.Cols
	v := sngcaVectors{psi: mat.NewDense(d, len(fns), nil), gamma: mat.NewDense(len(fns), d+1, nil)}
	dead := make([]bool, len(fns))
	type scratch struct{ omega, t, s, ds, g []float64 }
	pool := make([]*scratch, max(1, workers))
	err := parallelFor(ctx, workers, len(fns), func(wk, l int) error {
		sc := pool[wk]
		if sc == nil {
			sc = &scratch{omega: make([]float64, d), t: make([]float64, n), s: make([]float64, n), ds: make([]float64, n), g: make([]float64, d)}
			pool[wk] = sc
		}
		fn := fns[l]
		blas64.Symv(1, sd.wh.w.RawSymmetric(), blasVec(fn.u), 0, blasVec(sc.omega))
		blas64.Gemv(blas.NoTrans, 1, sd.zc, blasVec(sc.omega), 0, blasVec(sc.t))
		sumDS := indexValues(fn.kind, fn.p, sc.t, sc.s, sc.ds)
		rms := math.Sqrt(dot(sc.s, sc.s) / float64(n))
		if !(rms > 0) || math.IsInf(rms, 1) || math.IsNaN(sumDS) || math.IsInf(sumDS, 0) {
			dead[l] = true
			return nil
		}
		blas64.Gemv(blas.Trans, 1, sd.zc, blasVec(sc.s), 0, blasVec(sc.g))
		scale := 1 / (float64(n) * rms)
		var sum float64
		for _, s := range sc.s {
			sum += s
		}
		row := v.gamma.RawRowView(l)
		for j := 0; j < d; j++ {
			v.psi.Set(j, l, fn.u[j]*sumDS*scale)
			row[j] = sc.g[j] * scale
		}
		row[d] = sum * scale
		return nil
	}, done)
	for _, b := range dead {
		if b {
			v.dead++
		}
	}
	return v, err
}

// nullBasis returns an orthonormal basis (L×(L−r)) of the orthogonal
// complement of the column span of gt (L×r, L > r): the vectors c with
// gtᵀc = 0, from the full Householder QR of gt.
func nullBasis(gt *mat.Dense) *mat.Dense {
	l, r := gt.Dims()
	return qrColumns(gt, r, l)
}

// rangeBasis returns the thin Q (L×r) of gt: an orthonormal basis of its
// column span (when gt has full column rank).
func rangeBasis(gt *mat.Dense) *mat.Dense {
	_, r := gt.Dims()
	return qrColumns(gt, 0, r)
}

// qrColumns returns the columns from, …, to−1 of the full Q of gt's
// Householder QR.
func qrColumns(gt *mat.Dense, from, to int) *mat.Dense {
	l, _ := gt.Dims()
	var qr mat.QR
	qr.Factorize(gt)
	var q mat.Dense
	qr.QTo(&q)
	return mat.DenseCopyOf(q.Slice(0, l, from, to))
}

// residuals returns R = Ψ(I − QQᵀ) for Q = rangeBasis(Γᵀ): the parts of
// the combinations Ψc that satisfy the constraints, the closed form of
// SNGCA at λ = 0 being PCA of RRᵀ.
func (v sngcaVectors) residuals() *mat.Dense {
	q := rangeBasis(v.gamma)
	var pq, r mat.Dense
	pq.Mul(v.psi, q)
	r.Mul(&pq, q.T())
	r.Sub(v.psi, &r)
	return &r
}
