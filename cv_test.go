package ngca

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// plainBasis evaluates ψ_kj(x) and r_kj(x) = ∂_jψ_kj(x) + ψ_kj(x)·a for
// all k straight from the formulas, independently of asm.FillBasis; with
// linear it appends the features ℓ(x) = (x, 1) and their terms
// ∂_jℓ + ℓ·a.
func plainBasis(x []float64, c *mat.Dense, j int, sigma, a float64, linear ...bool) (psi, r []float64) {
	psi, r = plainKernel(x, c, j, sigma, a)
	if len(linear) > 0 && linear[0] {
		for m, v := range x {
			psi = append(psi, v)
			dr := v * a
			if m == j {
				dr++
			}
			r = append(r, dr)
		}
		psi, r = append(psi, 1), append(r, a)
	}
	return psi, r
}

// plainKernelCols restricts plainKernel's distances (nil: all columns);
// plainNoSelf gives a point at distance zero from a center kernel value 0.
var (
	plainKernelCols map[int]bool
	plainNoSelf     bool
)

func plainKernel(x []float64, c *mat.Dense, j int, sigma, a float64) (psi, r []float64) {
	b, _ := c.Dims()
	psi, r = make([]float64, b), make([]float64, b)
	in := func(m int) bool { return plainKernelCols == nil || plainKernelCols[m] }
	for k := 0; k < b; k++ {
		var d2 float64
		for m := range x {
			if in(m) {
				d2 += (x[m] - c.At(k, m)) * (x[m] - c.At(k, m))
			}
		}
		kv := math.Exp(-d2 / (2 * sigma * sigma))
		if plainNoSelf && d2 == 0 {
			kv = 0
		}
		diff := c.At(k, j) - x[j]
		psi[k] = diff * kv
		dj := -kv
		if in(j) {
			dj += diff * diff / (sigma * sigma) * kv
		}
		r[k] = dj + psi[k]*a
	}
	return psi, r
}

// plainFit returns θ = −(G + λI)⁻¹h with G and h the means over the given
// rows, by a direct dense solve.
func plainFit(x, a *mat.Dense, rows []int, c *mat.Dense, j int, sigma, lam float64, linear ...bool) []float64 {
	nb, d := c.Dims()
	b := nb
	if len(linear) > 0 && linear[0] {
		b += d + 1
	}
	g := mat.NewDense(b, b, nil)
	h := mat.NewVecDense(b, nil)
	for _, i := range rows {
		av := 0.0
		if a != nil {
			av = a.At(i, j)
		}
		psi, r := plainBasis(x.RawRowView(i), c, j, sigma, av, linear...)
		for k := 0; k < b; k++ {
			for l := 0; l < b; l++ {
				g.Set(k, l, g.At(k, l)+psi[k]*psi[l]/float64(len(rows)))
			}
			h.SetVec(k, h.AtVec(k)-r[k]/float64(len(rows)))
		}
	}
	for k := 0; k < nb; k++ { // the ridge is on θ only
		g.Set(k, k, g.At(k, k)+lam)
	}
	var theta mat.VecDense
	if err := theta.SolveVec(g, h); err != nil {
		panic(err)
	}
	return theta.RawVector().Data
}

// plainScore is the mean over rows of f(x)² + 2∂_j f(x) + 2f(x)·a.
func plainScore(x, a *mat.Dense, rows []int, c *mat.Dense, j int, sigma float64, theta []float64, linear ...bool) float64 {
	var s float64
	for _, i := range rows {
		av := 0.0
		if a != nil {
			av = a.At(i, j)
		}
		psi, r := plainBasis(x.RawRowView(i), c, j, sigma, av, linear...)
		var f, lin float64
		for k := range theta {
			f += theta[k] * psi[k]
			lin += theta[k] * r[k]
		}
		s += f*f + 2*lin
	}
	return s / float64(len(rows))
}

// TestCVAgainstPlainLoop compares the score tables, choices and refitted θ
// of fitStage (per-fold sums formed once, training sums by subtraction, one
// tridiagonalisation per λ path) with a plain k-fold loop that refits from
// the training rows directly; and likewise with the robust variant's
// options (no self-pairs, a linear part and kernel columns).
func TestCVAgainstPlainLoop(t *testing.T) {
	const n, d, b, k = 61, 3, 8, 4 // folds of 15, 15, 15 and 16 rows
	rng := rand.New(rand.NewPCG(7, 8))
	x := mat.NewDense(n, d, nil)
	a := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64()+float64(j%2)*math.Copysign(1.5, rng.NormFloat64()))
			a.Set(i, j, rng.NormFloat64())
		}
	}
	c := mat.DenseCopyOf(x.Slice(0, b, 0, d))
	widths, ridges := []float64{0.6, 1.3, 4}, []float64{1e-3, 0.05, 1}
	defer func() { plainKernelCols, plainNoSelf = nil, false }()
	for _, tc := range []struct {
		withA, linear bool
		kcols         []int
		robust        bool
	}{{false, false, nil, false}, {true, false, nil, false}, {true, false, nil, true}, {false, true, nil, true},
		{true, true, nil, true}, {true, true, []int{0, 2}, true}} {
		withA, linear := tc.withA, tc.linear
		plainNoSelf = tc.robust
		plainKernelCols = nil
		if tc.kcols != nil {
			plainKernelCols = map[int]bool{}
			for _, c := range tc.kcols {
				plainKernelCols[c] = true
			}
		}
		var av *mat.Dense
		if withA {
			av = a
		}
		part := newPartition(rng, n, k)
		p := &plan{workers: 2}
		st := lsStage{name: "test", x: x, a: av, centers: c, widths: widths, ridges: ridges, part: part,
			noSelf: tc.robust, linear: linear, kernelCols: tc.kcols}
		m, cv, err := fitStage(context.Background(), st, p)
		var (
			theta *mat.Dense
			lin   []float64
		)
		if err == nil {
			theta, lin = m.kern.theta, m.lin
		}
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < d; j++ {
			best, bw, bl := math.Inf(1), -1, -1
			for w, sigma := range widths {
				for l, lam := range ridges {
					var want float64
					for f := 0; f < k; f++ {
						var train, test []int
						for q, i := range part.order {
							if q >= part.bounds[f] && q < part.bounds[f+1] {
								test = append(test, i)
							} else {
								train = append(train, i)
							}
						}
						theta := plainFit(x, av, train, c, j, sigma, lam, linear)
						want += plainScore(x, av, test, c, j, sigma, theta, linear) / k
					}
					got := cv.Coords[j].Scores.At(w, l)
					if math.Abs(got-want) > 1e-8*math.Max(1, math.Abs(want)) {
						t.Errorf("a=%v linear=%v j=%d σ=%g λ=%g: score %.12g, plain loop %.12g", withA, linear, j, sigma, lam, got, want)
					}
					if want < best {
						best, bw, bl = want, w, l
					}
				}
			}
			sel := cv.Coords[j]
			if sel.Width != widths[bw] || sel.Ridge != ridges[bl] {
				t.Errorf("a=%v j=%d: chose (%g, %g), plain loop (%g, %g)", withA, j, sel.Width, sel.Ridge, widths[bw], ridges[bl])
			}
			all := make([]int, n)
			for i := range all {
				all[i] = i
			}
			want := plainFit(x, av, all, c, j, widths[bw], ridges[bl], linear)
			nb, _ := c.Dims()
			for q, w := range want {
				got := 0.0
				if q < nb {
					got = theta.At(q, j)
				} else {
					got = lin[j*(d+1)+q-nb]
				}
				if math.Abs(got-w) > 1e-8*math.Max(1, math.Abs(w)) {
					t.Errorf("a=%v linear=%v j=%d: refit coefficient %d = %.12g, want %.12g", withA, linear, j, q, got, w)
				}
			}
		}
	}
}

func TestPartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct{ n, k int }{{5, 5}, {61, 4}, {2000, 5}, {7, 3}} {
		p := newPartition(rng, tc.n, tc.k)
		seen := make([]bool, tc.n)
		for _, i := range p.order {
			if seen[i] {
				t.Fatalf("n=%d: row %d twice", tc.n, i)
			}
			seen[i] = true
		}
		lo, hi := tc.n, 0
		for f := 0; f < p.folds(); f++ {
			lo, hi = min(lo, p.size(f)), max(hi, p.size(f))
		}
		if p.folds() != tc.k || hi-lo > 1 || lo < 1 {
			t.Errorf("n=%d k=%d: %d folds of sizes %d..%d", tc.n, tc.k, p.folds(), lo, hi)
		}
	}
}
