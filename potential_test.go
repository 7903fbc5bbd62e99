package ngca

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// potentialDesign returns, for the point x, the d×P matrix D with
// ∇ℓ(x) = D·β and the P-vector e with Δℓ(x) = eᵀβ, for the parameters
// β = (θ (b), A's upper triangle row by row, b (d)).
func potentialDesign(x []float64, c *mat.Dense, sigma float64) (*mat.Dense, []float64) {
	nb, d := c.Dims()
	nq := d * (d + 1) / 2
	P := nb + nq + d
	D := mat.NewDense(d, P, nil)
	e := make([]float64, P)
	for k := 0; k < nb; k++ {
		var d2 float64
		for a := 0; a < d; a++ {
			d2 += (c.At(k, a) - x[a]) * (c.At(k, a) - x[a])
		}
		kv := math.Exp(-d2 / (2 * sigma * sigma))
		for a := 0; a < d; a++ {
			D.Set(a, k, (c.At(k, a)-x[a])*kv)
		}
		e[k] = kv * (d2/(sigma*sigma) - float64(d))
	}
	q := nb
	for r := 0; r < d; r++ {
		for s := r; s < d; s++ {
			D.Set(r, q, D.At(r, q)+x[s])
			if s != r {
				D.Set(s, q, D.At(s, q)+x[r])
			} else {
				e[q] = 1
			}
			q++
		}
	}
	for r := 0; r < d; r++ {
		D.Set(r, nb+nq+r, 1)
	}
	return D, e
}

// bruteForce minimises the potential objective over the rows directly.
func bruteForce(x *mat.Dense, rows []int, c *mat.Dense, sigma, lam float64) (theta, a, bv []float64) {
	nb, d := c.Dims()
	nq := d * (d + 1) / 2
	P := nb + nq + d
	M := mat.NewDense(P, P, nil)
	rhs := mat.NewVecDense(P, nil)
	for _, i := range rows {
		D, e := potentialDesign(x.RawRowView(i), c, sigma)
		var dd mat.Dense
		dd.Mul(D.T(), D)
		dd.Scale(1/float64(len(rows)), &dd)
		M.Add(M, &dd)
		for p := 0; p < P; p++ {
			rhs.SetVec(p, rhs.AtVec(p)-e[p]/float64(len(rows)))
		}
	}
	for k := 0; k < nb; k++ {
		M.Set(k, k, M.At(k, k)+lam)
	}
	var beta mat.VecDense
	if err := beta.SolveVec(M, rhs); err != nil {
		panic(err)
	}
	bt := beta.RawVector().Data
	theta = bt[:nb]
	a = make([]float64, d*d)
	q := nb
	for r := 0; r < d; r++ {
		for s := r; s < d; s++ {
			a[r*d+s], a[s*d+r] = bt[q], bt[q]
			q++
		}
	}
	return theta, a, bt[nb+nq:]
}

// bruteScore is the objective without the ridge on the given rows.
func bruteScore(x *mat.Dense, rows []int, c *mat.Dense, sigma float64, theta, a, bv []float64) float64 {
	nb, d := c.Dims()
	beta := append([]float64(nil), theta...)
	for r := 0; r < d; r++ {
		for s := r; s < d; s++ {
			beta = append(beta, a[r*d+s])
		}
	}
	beta = append(beta, bv...)
	_ = nb
	var j float64
	for _, i := range rows {
		D, e := potentialDesign(x.RawRowView(i), c, sigma)
		g := mat.NewVecDense(d, nil)
		g.MulVec(D, mat.NewVecDense(len(beta), beta))
		var div float64
		for p, v := range e {
			div += v * beta[p]
		}
		j += (mat.Dot(g, g) + 2*div) / float64(len(rows))
	}
	return j
}

func TestPotentialAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const n, d, b = 60, 3, 7
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64()*float64(j+1)+0.3*float64(j))
		}
		x.Set(i, 0, x.At(i, 0)+math.Copysign(1.5, rng.NormFloat64()))
	}
	c := mat.DenseCopyOf(x.Slice(0, b, 0, d))
	const sigma, lam = 1.3, 0.02
	part := newPartition(rng, n, 4)
	pd, err := newPotData(context.Background(), 1, x, c, part.order)
	if err != nil {
		t.Fatal(err)
	}
	kt := make([]float64, b*n)
	for i, v := range pd.d2 {
		kt[i] = math.Exp(-v / (2 * sigma * sigma))
	}
	scratch := make([]float64, 2*b*n+2*b*b)
	tot, fold, train := newPotSums(b, d), newPotSums(b, d), newPotSums(b, d)
	pd.sums(tot, kt, sigma, 0, n, scratch)
	pd.sums(fold, kt, sigma, part.bounds[1], part.bounds[2], scratch)
	train.diff(tot, fold)

	var trainRows, testRows []int
	for q, i := range part.order {
		if q >= part.bounds[1] && q < part.bounds[2] {
			testRows = append(testRows, i)
		} else {
			trainRows = append(trainRows, i)
		}
	}
	sys, err := pd.system(train)
	if err != nil {
		t.Fatal(err)
	}
	a := make([]float64, b*b)
	for i := 0; i < b; i++ {
		for j := 0; j <= i; j++ {
			a[i*b+j] = sys.gs[i*b+j]
		}
	}
	th := make([]float64, b)
	ok := []bool{false}
	newRidgePath(b, 1).solve(a, sys.hs, []float64{lam}, th, ok)
	if !ok[0] {
		t.Fatal("solve failed")
	}
	am, bv := sys.quad.quadratic(th)
	wantTh, wantA, wantB := bruteForce(x, trainRows, c, sigma, lam)
	check := func(name string, got, want []float64) {
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-7*math.Max(1, math.Abs(want[i])) {
				t.Errorf("%s[%d] = %.10g, brute force %.10g", name, i, got[i], want[i])
			}
		}
	}
	check("θ", th, wantTh)
	check("A", am, wantA)
	check("b", bv, wantB)

	got := pd.score(fold, th, am, bv)
	want := bruteScore(x, testRows, c, sigma, wantTh, wantA, wantB)
	if math.Abs(got-want) > 1e-8*math.Max(1, math.Abs(want)) {
		t.Errorf("held-out score %.12g, brute force %.12g", got, want)
	}

	// v(x) = ∇ℓ − ∇²ℓ·x against finite differences of ∇ℓ.
	m := &potModel{c: c, sigma: sigma, theta: th, bv: bv, a: am}
	grad := func(y []float64) []float64 {
		D, _ := potentialDesign(y, c, sigma)
		beta := append([]float64(nil), th...)
		for r := 0; r < d; r++ {
			for s := r; s < d; s++ {
				beta = append(beta, am[r*d+s])
			}
		}
		beta = append(beta, bv...)
		var g mat.VecDense
		g.MulVec(D, mat.NewVecDense(len(beta), beta))
		return g.RawVector().Data
	}
	pt := []float64{0.4, -0.7, 1.1}
	v := mat.NewDense(1, d, nil)
	m.vTo(v, mat.NewDense(1, d, pt))
	g0 := grad(pt)
	for r := 0; r < d; r++ {
		want := g0[r]
		for s := 0; s < d; s++ {
			yp, ym := append([]float64(nil), pt...), append([]float64(nil), pt...)
			yp[s] += 1e-5
			ym[s] -= 1e-5
			want -= (grad(yp)[r] - grad(ym)[r]) / 2e-5 * pt[s]
		}
		if math.Abs(v.At(0, r)-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("v[%d] = %.10g, finite differences %.10g", r, v.At(0, r), want)
		}
	}
}
