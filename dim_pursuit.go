package ngca

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The projection pursuit of EstimateDim. On whitened data y (n×q, sample
// mean 0 and covariance I with the 1/n denominator) the non-Gaussianity
// of a direction u (unit length) is the index
//
//	J(u) = n·[ m₁²/v₁ + (m₂ − 1/√2)²/v₂ ],
//	m₁ = mean of yᵤ·exp(−yᵤ²/2),   m₂ = mean of exp(−yᵤ²/2),   yᵤ = y·u,
//
// a robust two-function approximation of negentropy (Hyvärinen, "New
// approximations of differential entropy", NIPS 1997): m₁ measures
// asymmetry, m₂ the weight of the centre against the tails, and both are
// bounded, so that one row moves each by no more than about 1/n (a row far
// enough out to carry a sizeable share of the variance in its direction still
// makes that direction look non-Gaussian, through the whitening, which
// compresses the other rows).
// v₁ and v₂ are their asymptotic variances on Gaussian data once the
// whitening has fixed the mean and variance of yᵤ, so that J of one fixed
// direction is asymptotically χ²₂ there.
const (
	dimGaussCentre = 0.7071067811865476  // E exp(−g²/2) = 1/√2 for g ~ N(0, 1)
	dimVarOdd      = 0.06744878283587543 // 1/(3√3) − 1/8: var of g·exp(−g²/2) net of g
	dimVarEven     = 0.01485026918962576 // 1/√3 − 1/2 − 1/16: var of exp(−g²/2) net of g²
)

// The search for the most non-Gaussian direction (pursue). It starts where
// fourth moments point: the eigenvectors of FOBI's matrix
// C₄ = mean of (‖y‖² − q − 2)·y·yᵀ at its two ends (Cardoso 1989), whose
// eigenvalues are the excess kurtoses of independent signals and whose
// spread on Gaussian data is about 2q·√(2/n), so that signals weaker than
// that merge with the noise below about d² rows. Within the span of the
// dimSub eigenvectors of the lowest eigenvalues (where sub-Gaussian signals
// lie) and of the dimSuper of the highest, symmetric FastICA (Hyvärinen
// 1999) separates the merged directions. The dimKeep best of these, of
// the skewness vector mean of (‖y‖² − q − 2)·y and of the data's columns
// (by J), and the best of each kind of start, are refined in all q
// dimensions by dimRefine steps of one-unit FastICA, and the best J seen
// is the answer. Every FastICA step here climbs J itself, its skewness
// term included (indexNonlinearity).
const (
	dimSub        = 15
	dimSuper      = 5
	dimSubSteps   = 30
	dimKeep       = 3
	dimRefine     = 10
	dimColumnNorm = 0.9 // a column shorter than this outside the directions found is left out
)

// pursuit is the outcome of pursue on whitened data.
type pursuit struct {
	u       []float64 // the most non-Gaussian direction found (unit, q)
	index   float64   // its J
	columns float64   // the largest J of the data's columns (0 without any)
	colU    []float64 // that column's direction (unit, q; nil without any)
	frob    float64   // ‖C₄‖²_F/(var ‖y‖² + 8), FOBI's matrix net of Gaussian (fobi)
}

// pursue searches y (n×q, whitened) for its most non-Gaussian direction.
// cols (q×m, or nil) holds the directions of the data's columns in y's
// coordinates; those shorter than dimColumnNorm are left out. pursue is
// deterministic: the same y and cols give the same result.
func pursue(y *mat.Dense, cols *mat.Dense) pursuit {
	_, q := y.Dims()
	if q == 1 {
		j := dimIndex(y, nil, nil)[0]
		p := pursuit{u: []float64{1}, index: j}
		if cols != nil && len(columnStarts(cols)) > 0 {
			p.columns, p.colU = j, []float64{1}
		}
		_, p.frob = fobi(y)
		return p
	}
	c4, frob := fobi(y)
	var starts [][]float64
	// groups holds the starts of each kind (the two ends of FOBI's
	// spectrum, the skewness vector) as ranges of starts.
	var groups [][2]int
	add := func(s ...[]float64) {
		groups = append(groups, [2]int{len(starts), len(starts) + len(s)})
		starts = append(starts, s...)
	}
	// A failed eigendecomposition (not seen for a finite symmetric
	// matrix) leaves the skewness vector and the columns to start from.
	if eig := (mat.EigenSym{}); eig.Factorize(c4, true) {
		var vecs mat.Dense
		eig.VectorsTo(&vecs)
		sub := min(q, dimSub)
		add(subspaceICA(y, &vecs, 0, sub)...)
		if sup := min(q-sub, dimSuper); sup > 0 {
			add(subspaceICA(y, &vecs, q-sup, q)...)
		}
	}
	if sk := skewness(y); floatsNorm(sk) > 0 {
		add(sk) // 0 only for exactly symmetric data
	}
	colStarts := columnStarts(cols)
	starts = append(starts, colStarts...)
	if len(starts) == 0 {
		e := make([]float64, q)
		e[0] = 1
		starts = append(starts, e)
	}
	u := mat.NewDense(q, len(starts), nil)
	for j, s := range starts {
		u.SetCol(j, s)
	}
	normaliseCols(u)
	js := dimIndex(y, u, nil)
	p := pursuit{frob: frob}
	first := len(js) - len(colStarts)
	for i, j := range js[first:] {
		if j > p.columns {
			p.columns, p.colU = j, mat.Col(nil, first+i, u)
		}
	}
	idx := refineStarts(js, groups)
	keep := mat.NewDense(q, len(idx), nil)
	for j, i := range idx {
		keep.SetCol(j, mat.Col(nil, i, u))
	}
	p.u, p.index = refine(y, keep, dimRefine)
	return p
}

// refineStarts returns the starts to refine, by their J (js): the dimKeep
// largest, then the largest of each group not among them. A start's J is
// a poor guide to where refining it leads: the skewness vector points
// about at a strongly skewed direction, but with so much noise mixed in
// that its J can lie below that of the best noise direction, which
// refining does not improve much.
func refineStarts(js []float64, groups [][2]int) []int {
	order := make([]int, len(js))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case js[a] > js[b]:
			return -1
		case js[a] < js[b]:
			return 1
		}
		return 0
	})
	idx := slices.Clone(order[:min(dimKeep, len(order))])
	for _, g := range groups {
		best := g[0]
		for i := g[0]; i < g[1]; i++ {
			if js[i] > js[best] {
				best = i
			}
		}
		if !slices.Contains(idx, best) {
			idx = append(idx, best)
		}
	}
	return idx
}

// fobi returns C₄ = mean of (‖y‖² − q − 2)·y·yᵀ of whitened y (FOBI's
// matrix net of its Gaussian value) and ‖C₄‖²_F/(var ‖y‖² + 8): the sum of
// squares of FOBI's eigenvalues minus q + 2 scaled by the variance of their
// noise, σ₁ = var ‖y‖² + 8 in the asymptotic test of Nordhausen, Oja,
// Tyler and Virta (2017, ICtest's FOBIasymp). Scaled so, the statistic
// grows with any fourth-moment signal; unscaled, sub-Gaussian signals,
// which make ‖y‖² less variable, would lower its noise more than their
// own share raises it.
func fobi(y *mat.Dense) (*mat.SymDense, float64) {
	n, q := y.Dims()
	w := mat.NewDense(n, q, nil)
	var s1, s2 float64
	for i := 0; i < n; i++ {
		row := y.RawRowView(i)
		var r float64
		for _, v := range row {
			r += v * v
		}
		s1 += r
		s2 += r * r
		r = math.Sqrt(r)
		out := w.RawRowView(i)
		for j, v := range row {
			out[j] = r * v
		}
	}
	c := mat.NewSymDense(q, nil)
	c.SymOuterK(1/float64(n), w.T())
	var frob float64
	for i := 0; i < q; i++ {
		c.SetSym(i, i, c.At(i, i)-float64(q+2))
		for j := i; j < q; j++ {
			v := c.At(i, j)
			if j > i {
				v *= math.Sqrt2
			}
			frob += v * v
		}
	}
	mean := s1 / float64(n)
	return c, frob / (s2/float64(n) - mean*mean + 8)
}

// skewness returns mean of (‖y‖² − q − 2)·y, the sum over independent
// signals of their skewness times their direction.
func skewness(y *mat.Dense) []float64 {
	n, q := y.Dims()
	out := make([]float64, q)
	for i := 0; i < n; i++ {
		row := y.RawRowView(i)
		var r float64
		for _, v := range row {
			r += v * v
		}
		r -= float64(q + 2)
		for j, v := range row {
			out[j] += r * v
		}
	}
	return out
}

// columnStarts returns the columns of cols (q×m) whose length is at least
// dimColumnNorm, unnormalised; nil for nil cols.
func columnStarts(cols *mat.Dense) [][]float64 {
	if cols == nil {
		return nil
	}
	_, m := cols.Dims()
	var out [][]float64
	for j := 0; j < m; j++ {
		c := mat.Col(nil, j, cols)
		if floatsNorm(c) >= dimColumnNorm {
			out = append(out, c)
		}
	}
	return out
}

// subspaceICA runs symmetric FastICA on y projected on the eigenvectors
// vecs[:, from:to] (one component each, started at the eigenvectors) and
// returns the components as directions of y.
func subspaceICA(y *mat.Dense, vecs *mat.Dense, from, to int) [][]float64 {
	_, q := y.Dims()
	b := to - from
	basis := mat.DenseCopyOf(vecs.Slice(0, q, from, to))
	if b == 1 {
		return [][]float64{mat.Col(nil, 0, basis)}
	}
	var yb mat.Dense
	yb.Mul(y, basis)
	w := mat.NewDense(b, b, nil)
	for i := 0; i < b; i++ {
		w.Set(i, i, 1)
	}
	w = fastICA(&yb, w, dimSubSteps)
	var dirs mat.Dense
	dirs.Mul(basis, w.T())
	out := make([][]float64, b)
	for j := range out {
		out[j] = mat.Col(nil, j, &dirs)
	}
	return out
}

// fastICA runs up to steps iterations of symmetric FastICA on whitened y
// (n×q) from the orthonormal rows of w (k×q), each row climbing the
// index J by the nonlinearity of indexNonlinearity, and returns the rows.
// One iteration is
//
//	W ← orth( mean of h(W·yᵢ)·yᵢᵀ − diag(mean of h′(W·yᵢ))·W ).
func fastICA(y, w *mat.Dense, steps int) *mat.Dense {
	n, _ := y.Dims()
	k, _ := w.Dims()
	var proj, next mat.Dense
	g := mat.NewDense(n, k, nil)
	gp := make([]float64, k)
	for it := 0; it < steps; it++ {
		proj.Mul(y, w.T())
		m1, m2 := indexMoments(&proj, g)
		indexNonlinearity(&proj, g, gp, m1, m2)
		next.Mul(g.T(), y)
		next.Scale(1/float64(n), &next)
		for j := 0; j < k; j++ {
			row := next.RawRowView(j)
			for l, v := range w.RawRowView(j) {
				row[l] -= gp[j] * v
			}
		}
		orth, ok := symmetricOrth(&next)
		if !ok {
			break
		}
		var agree mat.Dense
		agree.Mul(orth, w.T())
		least := 1.0
		for i := 0; i < k; i++ {
			least = math.Min(least, math.Abs(agree.At(i, i)))
		}
		w = orth
		if 1-least < 1e-7 {
			break
		}
	}
	return w
}

// indexNonlinearity sets, for each column p_j of p (n×s, projections of
// whitened data on unit directions), g_j = h_j(p_j) elementwise and gp[j]
// to the mean of h_j′(p_j), where h_j is the derivative of the index's
// contrast a·G₁ + b·G₂ at the column's current means: G₁(y) =
// y·exp(−y²/2), G₂(y) = exp(−y²/2), a = m₁/v₁, b = (m₂ − 1/√2)/v₂ (the
// terms of J). One-unit FastICA with h, w ← mean of y·h(wᵀy) − mean of
// h′(wᵀy)·w, then climbs J itself, its odd (skewness) term included; the
// Gaussian nonlinearity alone sees only the even term and stalls between
// two equally skewed signals.
//
// g must hold exp(−p²/2) elementwise and m1, m2 the column sums of
// p·exp(−p²/2) and exp(−p²/2), as indexMoments leaves them.
func indexNonlinearity(p, g *mat.Dense, gp, m1, m2 []float64) {
	n, s := p.Dims()
	a := make([]float64, s)
	b := make([]float64, s)
	for j := range a {
		a[j] = m1[j] / float64(n) / dimVarOdd
		b[j] = (m2[j]/float64(n) - dimGaussCentre) / dimVarEven
		gp[j] = 0
	}
	for i := 0; i < n; i++ {
		prow, grow := p.RawRowView(i), g.RawRowView(i)
		for j, v := range prow {
			e, v2 := grow[j], v*v
			grow[j] = (a[j]*(1-v2) - b[j]*v) * e
			gp[j] += (a[j]*(v2-3)*v + b[j]*(v2-1)) * e
		}
	}
	for j := range gp[:s] {
		gp[j] /= float64(n)
	}
}

// symmetricOrth returns (W·Wᵀ)^(−1/2)·W, the orthonormal rows closest to
// those of w; false if W·Wᵀ is not positive definite.
func symmetricOrth(w *mat.Dense) (*mat.Dense, bool) {
	b, _ := w.Dims()
	var ww mat.SymDense
	ww.SymOuterK(1, w)
	var eig mat.EigenSym
	if !eig.Factorize(&ww, true) {
		return nil, false
	}
	vals := eig.Values(nil)
	if !(vals[0] > 0) {
		return nil, false
	}
	var v mat.Dense
	eig.VectorsTo(&v)
	scaled := mat.DenseCopyOf(&v)
	for k, l := range vals {
		s := 1 / math.Sqrt(l)
		for i := 0; i < b; i++ {
			scaled.Set(i, k, scaled.At(i, k)*s)
		}
	}
	var inv, out mat.Dense
	inv.Mul(scaled, v.T())
	out.Mul(&inv, w)
	return &out, true
}

// refine runs steps of one-unit FastICA (Gaussian nonlinearity) from each
// column of u (q×s, unit columns; changed) and returns the direction with
// the largest J seen on the way, and that J.
func refine(y, u *mat.Dense, steps int) ([]float64, float64) {
	n, q := y.Dims()
	_, s := u.Dims()
	best := make([]float64, s)
	bestU := mat.DenseCopyOf(u)
	proj := mat.NewDense(n, s, nil)
	g := mat.NewDense(n, s, nil)
	gp := make([]float64, s)
	var next mat.Dense
	for it := 0; ; it++ {
		proj.Mul(y, u)
		m1, m2 := indexMoments(proj, g)
		js := indexOf(n, m1, m2)
		for j, v := range js {
			if it == 0 || v > best[j] {
				best[j] = v
				bestU.SetCol(j, mat.Col(nil, j, u))
			}
		}
		if it == steps {
			break
		}
		indexNonlinearity(proj, g, gp, m1, m2)
		next.Mul(y.T(), g)
		moved := false
		for j := 0; j < s; j++ {
			col := make([]float64, q)
			for i := range col {
				col[i] = next.At(i, j)/float64(n) - gp[j]*u.At(i, j)
			}
			norm := floatsNorm(col)
			if !(norm > 0) {
				continue
			}
			var dot float64
			for i := range col {
				col[i] /= norm
				dot += col[i] * u.At(i, j)
			}
			if math.Abs(dot) < 1-1e-12 {
				moved = true
			}
			u.SetCol(j, col)
		}
		if !moved {
			break
		}
	}
	k := 0
	for j := range best {
		if best[j] > best[k] {
			k = j
		}
	}
	return mat.Col(nil, k, bestU), best[k]
}

// dimIndex returns J of each column of proj (n×s, the projections y·u), or,
// with proj nil, of the columns of u (q×s; nil for the single direction of
// a one-column y).
func dimIndex(y, u, proj *mat.Dense) []float64 {
	if proj == nil {
		if u == nil {
			proj = y
		} else {
			proj = &mat.Dense{}
			proj.Mul(y, u)
		}
	}
	n, _ := proj.Dims()
	m1, m2 := indexMoments(proj, nil)
	return indexOf(n, m1, m2)
}

// indexMoments returns the column sums of p·exp(−p²/2) and exp(−p²/2)
// over the n rows of p (n×s) and, with e not nil (n×s), stores
// exp(−p²/2) in it.
func indexMoments(p, e *mat.Dense) (m1, m2 []float64) {
	n, s := p.Dims()
	m1 = make([]float64, s)
	m2 = make([]float64, s)
	for i := 0; i < n; i++ {
		var erow []float64
		if e != nil {
			erow = e.RawRowView(i)
		}
		for j, v := range p.RawRowView(i) {
			x := math.Exp(-v * v / 2)
			if erow != nil {
				erow[j] = x
			}
			m1[j] += v * x
			m2[j] += x
		}
	}
	return m1, m2
}

// indexOf returns J of each column from the sums of indexMoments over n
// rows.
func indexOf(n int, m1, m2 []float64) []float64 {
	fn := float64(n)
	out := make([]float64, len(m1))
	for j := range out {
		a, b := m1[j]/fn, m2[j]/fn-dimGaussCentre
		out[j] = fn * (a*a/dimVarOdd + b*b/dimVarEven)
	}
	return out
}

// normaliseCols scales the columns of m to unit length (zero columns stay).
func normaliseCols(m *mat.Dense) {
	r, c := m.Dims()
	for j := 0; j < c; j++ {
		col := mat.Col(nil, j, m)
		if norm := floatsNorm(col); norm > 0 {
			for i := 0; i < r; i++ {
				m.Set(i, j, col[i]/norm)
			}
		}
	}
}

// floatsNorm returns the Euclidean norm of v.
func floatsNorm(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// deflate removes the direction u (unit, q) from y (n×q) and cols (q×m, or
// nil): with H the Householder reflection that maps u to ±e₁, it returns
// the last q − 1 columns of y·H and the last q − 1 rows of H·cols, the data
// and column directions in an orthonormal basis of u's complement.
func deflate(y, cols *mat.Dense, u []float64) (*mat.Dense, *mat.Dense) {
	n, q := y.Dims()
	v := slices.Clone(u)
	v[0] += math.Copysign(1, u[0])
	scale := 2 / (floatsNorm(v) * floatsNorm(v))
	out := mat.NewDense(n, q-1, nil)
	for i := 0; i < n; i++ {
		row := y.RawRowView(i)
		var dot float64
		for j, x := range row {
			dot += x * v[j]
		}
		f := scale * dot
		o := out.RawRowView(i)
		for j := 1; j < q; j++ {
			o[j-1] = row[j] - f*v[j]
		}
	}
	if cols == nil {
		return out, nil
	}
	_, m := cols.Dims()
	c := mat.NewDense(q-1, m, nil)
	for k := 0; k < m; k++ {
		var dot float64
		for j := 0; j < q; j++ {
			dot += cols.At(j, k) * v[j]
		}
		f := scale * dot
		for j := 1; j < q; j++ {
			c.Set(j-1, k, cols.At(j, k)-f*v[j])
		}
	}
	return out, c
}
