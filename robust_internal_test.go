package ngca

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca/ngcatest"
	"gonum.org/v1/gonum/mat"
)

// TestAlignStepExplicitCenters: explicit centers equal to some rows of the
// data must give exactly the fit of drawing those rows, in a turned frame
// too (the centers must be carried into the frame with the data).
func TestAlignStepExplicitCenters(t *testing.T) {
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: 400, D: 5}.Sample(rand.NewPCG(9, 9))
	if err != nil {
		t.Fatal(err)
	}
	rows := []int{3, 17, 40, 99, 150, 151, 300, 399, 7, 8, 250, 333}
	c := mat.NewDense(len(rows), 5, nil)
	for k, i := range rows {
		c.SetRow(k, x.RawRowView(i))
	}
	pr1, err := prepare(context.Background(), x, config{kernel: true, centers: c}, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	pr2, err := prepare(context.Background(), x, config{kernel: true}, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	pr2.centerRows = rows
	u := ngcatest.RandomRotation(rand.NewPCG(5, 5), 5)
	pr1.rng, pr2.rng = rand.New(rand.NewPCG(7, 7)), rand.New(rand.NewPCG(7, 7))
	b1, _, err := alignStep(context.Background(), pr1, u, 2, "align", &tiltFit{})
	if err != nil {
		t.Fatal(err)
	}
	b2, _, err := alignStep(context.Background(), pr2, u, 2, "align", &tiltFit{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		for j := 0; j < 2; j++ {
			if math.Abs(b1.At(i, j)-b2.At(i, j)) > 1e-10 {
				t.Fatalf("explicit and drawn centers differ: %v vs %v", mat.Formatted(b1), mat.Formatted(b2))
			}
		}
	}
}

// TestTiltCovariance checks the covariance of the tilt under the
// hypothesis against its definition formed with dense matrices: G =
// (1/n)ΣF_iF_iᵀ, β_j = G⁻¹e_dim+j, g_ij = F_iᵀβ_j, S_jl = (1/n)Σ g_ij·g_il,
// and Cov(Δ̂_jk, Δ̂_lm) = S_jl·(G⁻¹)_km/n for k, m in the h block. It also
// checks it against the Monte Carlo covariance of the tilts where the
// hypothesis holds: the frame coordinates heavy-tailed (Student t with 5
// degrees of freedom), the others Gaussian and independent of them.
func TestTiltCovariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, dim, d = 200, 2, 5
	f := tiltFeatures(rng, n, dim, d)
	beta := tiltBeta(t, f, dim, d)
	got := tiltCovariance(f, beta, dim)
	p := (d - dim) * dim
	if r, _ := got.Dims(); r != p {
		t.Fatalf("covariance is %d×%d, want %d×%d", r, r, p, p)
	}
	for j := dim; j < d; j++ {
		for l := dim; l < d; l++ {
			gj, gl := mat.NewVecDense(n, nil), mat.NewVecDense(n, nil)
			gj.MulVec(f, beta.ColView(j))
			gl.MulVec(f, beta.ColView(l))
			s := mat.Dot(gj, gl) / n
			for a := 0; a < dim; a++ {
				for b := 0; b < dim; b++ {
					want, have := s*beta.At(a, b)/n, got.At((j-dim)*dim+a, (l-dim)*dim+b)
					if math.Abs(have-want) > 1e-9*(math.Abs(want)+1e-12) {
						t.Fatalf("Cov(Δ_%d,%d, Δ_%d,%d) = %g, want %g", j, a, l, b, have, want)
					}
				}
			}
		}
	}

	// Monte Carlo: the variance of every tilt coefficient over many
	// samples against the mean of its estimated variance.
	const reps, big = 400, 1000
	mean, sq, est := make([]float64, p), make([]float64, p), make([]float64, p)
	for range reps {
		f := tiltFeatures(rng, big, dim, d)
		beta := tiltBeta(t, f, dim, d)
		cov := tiltCovariance(f, beta, dim)
		for j := dim; j < d; j++ {
			for k := 0; k < dim; k++ {
				i, v := (j-dim)*dim+k, beta.At(k, j)
				mean[i] += v / reps
				sq[i] += v * v / reps
				est[i] += cov.At(i, i) / reps
			}
		}
	}
	for i := range p {
		mc := sq[i] - mean[i]*mean[i]
		if r := est[i] / mc; r < 0.8 || r > 1.25 {
			t.Errorf("tilt %d: estimated variance %.3g, Monte Carlo %.3g (ratio %.2f)", i, est[i], mc, r)
		}
	}
}

// tiltFeatures draws the features F = (h(y_U), y, 1) of a tilt
// regression where its hypothesis holds: y_U (the first dim coordinates)
// Student t with 5 degrees of freedom, scaled to unit variance, the other
// coordinates independent standard normal, and h = tanh of y_U.
func tiltFeatures(rng *rand.Rand, n, dim, d int) *mat.Dense {
	q := dim + d + 1
	f := mat.NewDense(n, q, nil)
	for i := 0; i < n; i++ {
		row := f.RawRowView(i)
		var chi float64
		for range 5 {
			z := rng.NormFloat64()
			chi += z * z
		}
		for c := 0; c < d; c++ {
			y := rng.NormFloat64()
			if c < dim {
				y *= math.Sqrt(5/chi) * math.Sqrt(3.0/5)
				row[c] = math.Tanh(y)
			}
			row[dim+c] = y
		}
		row[q-1] = 1
	}
	return f
}

// tiltBeta returns beta = G⁻¹·[e_0 … e_dim−1, e_2dim … e_dim+d−1] (q×d)
// of the features f, as alignStep solves it.
func tiltBeta(t *testing.T, f *mat.Dense, dim, d int) *mat.Dense {
	t.Helper()
	n, q := f.Dims()
	var g mat.SymDense
	g.SymOuterK(1/float64(n), f.T())
	var gi mat.Dense
	if err := gi.Inverse(&g); err != nil {
		t.Fatal(err)
	}
	beta := mat.NewDense(q, d, nil)
	for j := 0; j < d; j++ {
		row := j
		if j >= dim {
			row = dim + j
		}
		beta.SetCol(j, mat.Col(nil, row, &gi))
	}
	return beta
}

// TestWaldInvariants: the Wald statistic depends on the span only (any
// basis of it gives the same W), is zero at the refined frame's own
// estimate and grows as the span moves away from it.
func TestWaldInvariants(t *testing.T) {
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: 1000, D: 6, Rotate: true}.Sample(rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	pr, err := prepare(context.Background(), x, config{kernel: true, src: rand.NewPCG(1, 1)}, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	wh, err := newWhitening(pr.z)
	if err != nil {
		t.Fatal(err)
	}
	ef, err := equivariantEstimate(context.Background(), pr, wh, 2, nil, &RobustReport{}, newStopwatch())
	if err != nil {
		t.Fatal(err)
	}
	// The refined estimate u·[I; Δ̂] in standardised coordinates.
	d, dim := 6, 2
	corr := mat.NewDense(d, dim, nil)
	corr.Set(0, 0, 1)
	corr.Set(1, 1, 1)
	corr.Slice(dim, d, 0, dim).(*mat.Dense).Copy(ef.tilt.delta)
	var bw mat.Dense
	bw.Mul(ef.tilt.u, corr)
	refined := wh.unwhiten(&bw)
	if w, df := ef.wald(refined); df != 8 || w > 1e-18 {
		t.Errorf("W at the refined estimate = %g (df %d), want 0 (df 8)", w, df)
	}
	base := mat.DenseCopyOf(ef.basis)
	mix := mat.NewDense(2, 2, []float64{2, 1, -0.5, 3})
	var other mat.Dense
	other.Mul(base, mix)
	w1, _ := ef.wald(base)
	w2, _ := ef.wald(&other)
	if math.Abs(w1-w2) > 1e-9*(1+w1) {
		t.Errorf("W depends on the basis: %g vs %g", w1, w2)
	}
	prev := -1.0
	for _, step := range []float64{0.01, 0.05, 0.2} {
		moved := mat.DenseCopyOf(refined)
		for i := 0; i < d; i++ {
			moved.Set(i, 0, moved.At(i, 0)+step*float64(i%3-1))
		}
		w, _ := ef.wald(moved)
		if !(w > prev) {
			t.Errorf("W = %g at step %g, not above %g at the smaller step", w, step, prev)
		}
		prev = w
	}
}

// TestKeepAtLeast checks that the null test keeps the coordinates closest
// to passing when fewer than k pass, and changes nothing otherwise.
func TestKeepAtLeast(t *testing.T) {
	z := []float64{-1, -5, 0.5, -2, -0.5}
	for _, tc := range []struct {
		null []bool
		k    int
		want []bool
	}{
		{[]bool{true, false, true, true, true}, 2, []bool{true, false, true, false, true}},
		{[]bool{true, true, true, true, true}, 3, []bool{false, false, true, false, true}},
		{[]bool{true, false, true, false, true}, 2, []bool{true, false, true, false, true}},
		{[]bool{false, false, false, false, false}, 2, []bool{false, false, false, false, false}},
	} {
		got := append([]bool(nil), tc.null...)
		keepAtLeast(got, z, tc.k)
		for j := range got {
			if got[j] != tc.want[j] {
				t.Errorf("keepAtLeast(%v, %d) = %v, want %v", tc.null, tc.k, got, tc.want)
				break
			}
		}
	}
}

// sweptStage lays out the stage's data and runs its sweep on the given
// number of workers, with cells for cells workers.
func sweptStage(t *testing.T, st *lsStage, workers, cells int) (*stageSweep, *stageData, []choice) {
	t.Helper()
	sd, err := newStageData(context.Background(), 1, st.x, nil, st.centers, st.x, st.centers, st.part)
	if err != nil {
		t.Fatal(err)
	}
	rs := newStageSweep(st, sd, cells)
	choices, err := sweep(context.Background(), &plan{workers: workers}, rs)
	if err != nil {
		t.Fatal(err)
	}
	return rs, sd, choices
}

// TestNullTestIdleWorker is the regression test of finding 11
// (docs/reliability.md): the null test of a stage with a linear part must
// give a worker whose cell scored no coordinate in the sweep (a worker the
// scheduler left idle) the same per-row losses as a worker that scored
// some. Its losses used to leave out the linear part, so the results
// depended on which worker took which coordinate.
func TestNullTestIdleWorker(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SuperGaussian, N: 150, D: 4}.Sample(rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	st := lsStage{name: "test", x: x, centers: mat.DenseCopyOf(x.Slice(0, 12, 0, 4)),
		widths: []float64{0.7, 2}, ridges: []float64{1e-3, 0.1}, part: newPartition(rng, 150, 3), noSelf: true, linear: true, nullZ: 1}
	// The sweep on one worker: cell 0 scores every coordinate, cell 1
	// none.
	rs, _, choices := sweptStage(t, &st, 1, 2)
	for j := 0; j < 4; j++ {
		w := choices[j].w
		kt0, err0 := rs.cellOf(0).allRows(w)
		d0 := make([]float64, 150)
		rs.lossRows(j, w, kt0, 0, 150, d0)
		kt1, err1 := rs.cellOf(1).allRows(w)
		d1 := make([]float64, 150)
		rs.lossRows(j, w, kt1, 0, 150, d1)
		if err0 != nil || err1 != nil {
			t.Fatal(err0, err1)
		}
		for p := range d0 {
			if d0[p] != d1[p] {
				t.Fatalf("coordinate %d, row %d: loss difference %g from the busy worker, %g from the idle one", j, p, d0[p], d1[p])
			}
		}
	}
}

// TestNullTestPasses checks that the null test's per-row losses are the
// same, up to the rounding of the vectorised exponential, whether the
// stage keeps its distances (kernel values of all rows at once) or forms
// them pass by pass, with passes that cut across folds, and whatever the
// number of workers.
func TestNullTestPasses(t *testing.T) {
	defer func(v int) { blockRows = v }(blockRows)
	blockRows = 23
	rng := rand.New(rand.NewPCG(21, 22))
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: 300, D: 4}.Sample(rand.NewPCG(5, 5))
	if err != nil {
		t.Fatal(err)
	}
	for _, linear := range []bool{true, false} {
		st := lsStage{name: "test", x: x, centers: mat.DenseCopyOf(x.Slice(0, 12, 0, 4)),
			widths: []float64{2, 0.7, 0.3}, ridges: []float64{1e-3, 0.1}, part: newPartition(rng, 300, 3), noSelf: true, linear: linear, nullZ: 1}
		rs, sd, choices := sweptStage(t, &st, 2, 2)
		if sd.d2 == nil {
			t.Fatal("the stage did not keep its distances")
		}
		choices[1].w = 2 // more than one width among the coordinates
		want, err := rs.lossDiffs(context.Background(), 2, choices)
		if err != nil {
			t.Fatal(err)
		}
		// Passes of three blocks each, some across a fold's end.
		sd.d2, sd.passes = nil, nil
		for i := 0; i < len(sd.blocks); i += 3 {
			sd.passes = append(sd.passes, sd.blocks[i:min(i+3, len(sd.blocks))])
		}
		if len(sd.passes) < 4 {
			t.Fatalf("%d passes, want several", len(sd.passes))
		}
		for _, workers := range []int{1, 2} {
			got, err := rs.lossDiffs(context.Background(), workers, choices)
			if err != nil {
				t.Fatal(err)
			}
			for j := range want {
				for p := range want[j] {
					if math.Abs(got[j][p]-want[j][p]) > 1e-12*(1+math.Abs(want[j][p])) {
						t.Fatalf("linear %v, %d workers, coordinate %d, row %d: %g pass by pass, %g at once", linear, workers, j, p, got[j][p], want[j][p])
					}
				}
			}
		}
	}
}

// TestKeptFoldFits checks that the fold fits the sweep keeps for the null
// test are those of every coordinate's chosen width and ridge, not of the
// last width scored: a sweep over the chosen width and ridge alone keeps
// the same fits, up to the rounding of the reduction's flush threshold,
// which depends on the smallest ridge.
func TestKeptFoldFits(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: 200, D: 4}.Sample(rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	for _, linear := range []bool{true, false} {
		st := lsStage{name: "test", x: x, centers: mat.DenseCopyOf(x.Slice(0, 16, 0, 4)),
			widths: []float64{4, 1.5, 0.7, 0.3}, ridges: []float64{1, 0.1, 1e-2, 1e-3}, part: newPartition(rng, 200, 4), noSelf: true, linear: linear, nullZ: 1}
		sweepOf := func(widths, ridges []float64) (*stageSweep, []choice) {
			t.Helper()
			s := st
			s.widths, s.ridges = widths, ridges
			rs, _, choices := sweptStage(t, &s, 1, 1)
			return rs, choices
		}
		rs, choices := sweepOf(st.widths, st.ridges)
		notLast := 0
		for j, ch := range choices {
			if ch.w != len(st.widths)-1 || ch.l != len(st.ridges)-1 {
				notLast++
			}
			one, _ := sweepOf(st.widths[ch.w:ch.w+1], st.ridges[ch.l:ch.l+1])
			for f, ff := range rs.fits[j] {
				want := one.fits[j][f]
				for _, pair := range [][2][]float64{{ff.theta, want.theta}, {ff.a, want.a}, {ff.a0, want.a0}} {
					if len(pair[0]) != len(pair[1]) {
						t.Fatalf("linear %v: lengths %d and %d", linear, len(pair[0]), len(pair[1]))
					}
					for i, v := range pair[0] {
						if math.Abs(v-pair[1][i]) > 1e-9*(1+math.Abs(pair[1][i])) {
							t.Fatalf("linear %v, coordinate %d, fold %d: kept %v, want %v", linear, j, f, pair[0], pair[1])
						}
					}
				}
				if linear == (ff.a == nil) {
					t.Fatalf("linear %v: linear part %v", linear, ff.a)
				}
			}
		}
		if notLast == 0 {
			t.Fatalf("linear %v: every coordinate chose the last candidate; the test shows nothing", linear)
		}
	}
}

// TestLinScorerJoint checks the linear part's profiled solution against
// the joint system solved directly: for every fold and ridge,
//
//	[G + λI  C ] [θ]     [h  ]
//	[Cᵀ      Lm] [a] = − [r_ℓ]
//
// on the training means, and the held-out score θᵀG_fθ + 2θᵀh_f +
// 2θᵀC_f·a + aᵀL_f·a + 2aᵀr_f (fold sums, divided by the fold's size and
// averaged over the folds); and the null model's a0 = −Lm⁻¹r_ℓ.
func TestLinScorerJoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const n, b, q, k = 60, 9, 4, 3
	ridges := []float64{1e-3, 0.1, 2}
	L := len(ridges)
	part := newPartition(rng, n, k)
	psi, ell := mat.NewDense(n, b, nil), mat.NewDense(n, q, nil)
	hRows, rRows := mat.NewDense(n, b, nil), mat.NewDense(n, q, nil)
	for _, m := range []*mat.Dense{psi, ell, hRows, rRows} {
		r, c := m.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				m.Set(i, j, rng.NormFloat64())
			}
		}
	}
	for i := 0; i < n; i++ {
		ell.Set(i, q-1, 1)
	}
	// Fold sums, in the layouts of coordSums and linSums.
	gf, hf := make([][]float64, k), make([][]float64, k)
	lin := &linSums{q: q, cf: make([][]float64, k), lf: make([][]float64, k), rf: make([][]float64, k),
		cTot: make([]float64, b*q), lTot: make([]float64, q*q), rTot: make([]float64, q)}
	gTot, hTot := make([]float64, b*b), make([]float64, b)
	dense := func(f int) (g, c, l *mat.Dense, h, r *mat.VecDense) {
		g, c, l = mat.NewDense(b, b, nil), mat.NewDense(b, q, nil), mat.NewDense(q, q, nil)
		h, r = mat.NewVecDense(b, nil), mat.NewVecDense(q, nil)
		for p := part.bounds[f]; p < part.bounds[f+1]; p++ {
			i := part.order[p]
			pr, lr := psi.RowView(i), ell.RowView(i)
			var o mat.Dense
			o.Outer(1, pr, pr)
			g.Add(g, &o)
			o.Reset()
			o.Outer(1, pr, lr)
			c.Add(c, &o)
			o.Reset()
			o.Outer(1, lr, lr)
			l.Add(l, &o)
			h.AddVec(h, hRows.RowView(i))
			r.AddVec(r, rRows.RowView(i))
		}
		return
	}
	for f := 0; f < k; f++ {
		g, c, l, h, r := dense(f)
		gf[f], hf[f] = make([]float64, b*b), append([]float64(nil), h.RawVector().Data...)
		copy(gf[f], g.RawMatrix().Data)
		lin.cf[f] = append([]float64(nil), c.RawMatrix().Data...)
		lin.lf[f] = append([]float64(nil), l.RawMatrix().Data...)
		lin.rf[f] = append([]float64(nil), r.RawVector().Data...)
		for i := range gTot {
			gTot[i] += gf[f][i]
		}
		for i := range hTot {
			hTot[i] += hf[f][i]
		}
	}
	lin.totals()
	for i := range lin.lTot {
		for f := 0; f < k; f++ {
			lin.lTot[i] += lin.lf[f][i]
		}
	}
	s := newCVScorer(b, L, q)
	s.kept = newCellFits(b, q, L, k)
	got := make([]float64, L)
	s.scores(part, gf, hf, gTot, hTot, ridges, got, nil, nil, lin)

	want := make([]float64, L)
	for f := 0; f < k; f++ {
		nf := float64(part.size(f))
		inv := 1 / (float64(n) - nf)
		// Training means: totals minus the fold.
		gT, cT, lT := mat.NewDense(b, b, nil), mat.NewDense(b, q, nil), mat.NewDense(q, q, nil)
		hT, rT := mat.NewVecDense(b, nil), mat.NewVecDense(q, nil)
		for g := 0; g < k; g++ {
			if g == f {
				continue
			}
			gg, cc, ll, hh, rr := dense(g)
			gT.Add(gT, gg)
			cT.Add(cT, cc)
			lT.Add(lT, ll)
			hT.AddVec(hT, hh)
			rT.AddVec(rT, rr)
		}
		for _, m := range []*mat.Dense{gT, cT, lT} {
			m.Scale(inv, m)
		}
		hT.ScaleVec(inv, hT)
		rT.ScaleVec(inv, rT)
		gF, cF, lF, hF, rF := dense(f)
		var a0 mat.VecDense
		if err := a0.SolveVec(lT, rT); err != nil {
			t.Fatal(err)
		}
		a0.ScaleVec(-1, &a0)
		for c := 0; c < q; c++ {
			if g := s.kept.a0[f][c]; math.Abs(g-a0.AtVec(c)) > 1e-8*(1+math.Abs(a0.AtVec(c))) {
				t.Fatalf("fold %d: a0[%d] = %g, want %g", f, c, g, a0.AtVec(c))
			}
		}
		for l, lam := range ridges {
			joint := mat.NewDense(b+q, b+q, nil)
			joint.Slice(0, b, 0, b).(*mat.Dense).Copy(gT)
			joint.Slice(0, b, b, b+q).(*mat.Dense).Copy(cT)
			joint.Slice(b, b+q, 0, b).(*mat.Dense).Copy(cT.T())
			joint.Slice(b, b+q, b, b+q).(*mat.Dense).Copy(lT)
			for i := 0; i < b; i++ {
				joint.Set(i, i, joint.At(i, i)+lam)
			}
			rhs := mat.NewVecDense(b+q, nil)
			for i := 0; i < b; i++ {
				rhs.SetVec(i, -hT.AtVec(i))
			}
			for c := 0; c < q; c++ {
				rhs.SetVec(b+c, -rT.AtVec(c))
			}
			var sol mat.VecDense
			if err := sol.SolveVec(joint, rhs); err != nil {
				t.Fatal(err)
			}
			th, a := sol.SliceVec(0, b), sol.SliceVec(b, b+q)
			for i := 0; i < b; i++ {
				if g := s.kept.theta[f][i*L+l]; math.Abs(g-th.AtVec(i)) > 1e-8*(1+math.Abs(th.AtVec(i))) {
					t.Fatalf("fold %d, λ %g: θ[%d] = %g, want %g", f, lam, i, g, th.AtVec(i))
				}
			}
			for c := 0; c < q; c++ {
				if g := s.kept.a[f][c*L+l]; math.Abs(g-a.AtVec(c)) > 1e-8*(1+math.Abs(a.AtVec(c))) {
					t.Fatalf("fold %d, λ %g: a[%d] = %g, want %g", f, lam, c, g, a.AtVec(c))
				}
			}
			v := mat.Inner(th, gF, th) + 2*mat.Dot(th, hF) + 2*mat.Inner(th, cF, a) + mat.Inner(a, lF, a) + 2*mat.Dot(a, rF)
			want[l] += v / nf / float64(k)
		}
	}
	for l := range want {
		if math.Abs(got[l]-want[l]) > 1e-8*(1+math.Abs(want[l])) {
			t.Fatalf("λ %g: score %g, want %g", ridges[l], got[l], want[l])
		}
	}
}

// TestRobustScreenRows checks the variant on data with more rows than its
// screens use: the screens and the MIPP start run on robustScreenRows rows
// drawn at random (RobustReport.detail.ScreenRows), the result does not depend on
// the number of workers, and the estimates stay as accurate as with every
// row in the screens: the axes estimate exact on aligned data, the
// equivariant estimate on turned data within 2·ε + 0.01 of the fit whose
// MIPP start used every row.
func TestRobustScreenRows(t *testing.T) {
	defer func(v int) { robustScreenRows = v }(robustScreenRows)
	for _, rotate := range []bool{false, true} {
		x, truth, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: 3000, D: 8, R: 0.3, Rotate: rotate}.Sample(rand.NewPCG(6, 6))
		if err != nil {
			t.Fatal(err)
		}
		fitWith := func(rows, workers int) (*Result, *RobustReport) {
			t.Helper()
			robustScreenRows = rows
			res, err := (&RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(2, 2), Workers: workers}).Fit(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			return res, res.Report.(*RobustReport)
		}
		all, repAll := fitWith(3000, 2)
		few, rep := fitWith(600, 2)
		serial, _ := fitWith(600, 1)
		if repAll.detail.ScreenRows != 3000 || rep.detail.ScreenRows != 600 {
			t.Errorf("rotate %v: ScreenRows %d and %d, want 3000 and 600", rotate, repAll.detail.ScreenRows, rep.detail.ScreenRows)
		}
		if !mat.Equal(few.Basis, serial.Basis) {
			t.Errorf("rotate %v: the basis depends on the number of workers", rotate)
		}
		eAll, eFew := SubspaceError(truth, all.Basis), SubspaceError(truth, few.Basis)
		t.Logf("rotate %v: ε %.2g with every row in the screens, %.2g with 600 (%s)", rotate, eAll, eFew, rep.Estimate)
		switch {
		case !rotate && (rep.Estimate != robustAxes.String() || eFew > 1e-6):
			t.Errorf("aligned: %s estimate with ε = %.3g, want the exact axes estimate", rep.Estimate, eFew)
		case rotate && eFew > 2*eAll+0.01:
			t.Errorf("turned: ε = %.3g, above 2·%.3g + 0.01", eFew, eAll)
		}
	}
}
