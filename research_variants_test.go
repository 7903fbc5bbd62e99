package ngca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// wfOpts are the knobs of the research variants of WF-LSNGCA.
type wfOpts struct {
	linear1, linear2 bool
	noSelf           bool
	kernelCols       []int
	nullZ            float64
}

// wfStagesOpts runs the two stages of WF-LSNGCA on the points y (n×d) with
// the given centers and options, returning v̂ at the rows.
func wfStagesOpts(ctx context.Context, y, centers *mat.Dense, pr *prepared, o wfOpts) (*mat.Dense, error) {
	n, d := y.Dims()
	part1 := newPartition(pr.rng, n, pr.folds)
	part2 := newPartition(pr.rng, n, pr.folds)
	g, _, err := fitStage(ctx, stage{name: "lsldg", x: y, centers: centers, widths: pr.widths, ridges: pr.ridges,
		part: part1, linear: o.linear1, noSelf: o.noSelf, kernelCols: o.kernelCols, nullZ: o.nullZ}, &pr.plan)
	if err != nil {
		return nil, err
	}
	a := mat.NewDense(n, d, nil)
	if err := g.eval(ctx, pr.workers, y, mat.NewDense(n, d, nil), a); err != nil {
		return nil, err
	}
	v, _, err := fitStage(ctx, stage{name: "v", x: y, a: a, centers: centers, widths: pr.vWidths, ridges: pr.vRidges,
		part: part2, linear: o.linear2, noSelf: o.noSelf, kernelCols: o.kernelCols, nullZ: o.nullZ}, &pr.plan)
	if err != nil {
		return nil, err
	}
	vals := mat.NewDense(n, d, nil)
	err = v.eval(ctx, pr.workers, y, vals, nil)
	return vals, err
}

func wfVariant(o wfOpts) variantFn {
	return func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
		if err != nil {
			return nil, err
		}
		v, err := wfStagesOpts(ctx, pr.z, pr.centersFrom(pr.z, nil), pr, o)
		if err != nil {
			return nil, err
		}
		b, _, err := basisFrom(v, dim, pr.scale.unscale)
		return b, err
	}
}

func init() {
	researchVariants["lin1"] = wfVariant(wfOpts{linear1: true})
	researchVariants["lin12"] = wfVariant(wfOpts{linear1: true, linear2: true})
	researchVariants["noself"] = wfVariant(wfOpts{noSelf: true})
	researchVariants["lin1-noself"] = wfVariant(wfOpts{linear1: true, noSelf: true})
}

// frameFit runs the variant's stages on y = z·U (U orthonormal d×d) and
// returns the eigenvectors of Γ = (1/n)Σv̂v̂ᵀ mapped back to z: U·V_Γ
// (columns in descending order of eigenvalue).
func frameFit(ctx context.Context, pr *prepared, u *mat.Dense, o wfOpts) (*mat.Dense, error) {
	var y mat.Dense
	y.Mul(pr.z, u)
	centers := pr.centersFrom(&y, nil)
	if pr.explicit != nil {
		var c mat.Dense
		c.Mul(pr.explicit, u)
		centers = &c
	}
	v, err := wfStagesOpts(ctx, &y, centers, pr, o)
	if err != nil {
		return nil, err
	}
	_, d := y.Dims()
	vecs, _, err := leadingEigen(v, d)
	if err != nil {
		return nil, err
	}
	var out mat.Dense
	out.Mul(u, vecs)
	return &out, nil
}

// completeFrame returns an orthonormal d×d matrix whose first m columns are
// an orthonormal basis of span(b) (d×m) and the rest the eigenvectors of
// I − QQᵀ with eigenvalue 1.
func completeFrame(b *mat.Dense) *mat.Dense {
	d, m := b.Dims()
	q, _ := orthonormal(b)
	p := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			v := -mat.Dot(q.RowView(i), q.RowView(j))
			if i == j {
				v++
			}
			p.SetSym(i, j, v)
		}
	}
	var e mat.EigenSym
	e.Factorize(p, true)
	var vecs mat.Dense
	e.VectorsTo(&vecs)
	u := mat.NewDense(d, d, nil)
	u.Slice(0, d, 0, m).(*mat.Dense).Copy(q)
	// Eigenvalues ascend: the last d−m have eigenvalue 1.
	u.Slice(0, d, m, d).(*mat.Dense).Copy(vecs.Slice(0, d, m, d))
	return u
}

func eye(d int) *mat.Dense {
	e := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		e.Set(i, i, 1)
	}
	return e
}

// iterVariant refits `rounds` times, each in the frame of the previous
// estimate, starting from start (nil: the data's axes).
func iterVariant(o wfOpts, rounds int, start func(ctx context.Context, pr *prepared, dim int) (*mat.Dense, error)) variantFn {
	return func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
		if err != nil {
			return nil, err
		}
		u := eye(pr.d)
		if start != nil {
			b, err := start(ctx, pr, dim)
			if err != nil {
				return nil, err
			}
			u = completeFrame(b)
		}
		for r := 0; r < rounds; r++ {
			if u, err = frameFit(ctx, pr, u, o); err != nil {
				return nil, err
			}
		}
		b, _ := orthonormal(pr.scale.unscale(u.Slice(0, pr.d, 0, dim)))
		return b, nil
	}
}

// mippStart is MIPP's estimate on the standardised data.
func mippStart(ctx context.Context, pr *prepared, dim int) (*mat.Dense, error) {
	r, err := (&MIPP{Dim: dim, Src: pr.rng, Workers: pr.workers}).Fit(ctx, pr.z)
	if err != nil {
		return nil, err
	}
	return r.Basis, nil
}

func init() {
	ln := wfOpts{linear1: true, noSelf: true}
	researchVariants["lin12-noself"] = wfVariant(wfOpts{linear1: true, linear2: true, noSelf: true})
	researchVariants["iter2"] = iterVariant(ln, 2, nil)
	researchVariants["iter3"] = iterVariant(ln, 3, nil)
	researchVariants["mipp+1"] = iterVariant(ln, 1, mippStart)
	researchVariants["mipp+2"] = iterVariant(ln, 2, mippStart)
}

// deltaStep fits LSLDG (linear part, no self-pairs) in the frame y = z·U and
// returns the corrected basis U·[I; Δ] (d×m, not orthonormalised), where
// row j > m of Δ is the coefficient on the signal coordinates' kernel
// parts k_U in the least-squares fit g_j = Δ_jᵀk_U(y) + a_jᵀy + c_j.
func deltaStep(ctx context.Context, pr *prepared, u *mat.Dense, m int) (*mat.Dense, error) {
	var y mat.Dense
	y.Mul(pr.z, u)
	n, d := y.Dims()
	centers := pr.centersFrom(&y, nil)
	part := newPartition(pr.rng, n, pr.folds)
	g, _, err := fitStage(ctx, stage{name: "lsldg", x: &y, centers: centers, widths: pr.widths, ridges: pr.ridges,
		part: part, linear: true, noSelf: true}, &pr.plan)
	if err != nil {
		return nil, err
	}
	// Kernel part of the signal rows and its derivatives at every row.
	q := m + d + 1
	ff := mat.NewSymDense(q, nil)
	dj := mat.NewDense(d, q, nil) // row j: E[∂_j F]
	vals := make([]float64, d)
	jac := mat.NewDense(d, d, nil)
	s := g.newScratch()
	f := make([]float64, q)
	for i := 0; i < n; i++ {
		yi := y.RawRowView(i)
		g.evalRow(s, yi, vals, nil)
		g.jacobianTo(jac, yi)
		for k := 0; k < m; k++ {
			lk := g.lin[k*(d+1) : (k+1)*(d+1)]
			kv := vals[k] - lk[d]
			for l, v := range yi {
				kv -= lk[l] * v
			}
			f[k] = kv
			for j := 0; j < d; j++ {
				dj.Set(j, k, dj.At(j, k)+(jac.At(k, j)-lk[j])/float64(n))
			}
		}
		copy(f[m:], yi)
		f[m+d] = 1
		ff.SymRankOne(ff, 1/float64(n), mat.NewVecDense(q, f))
	}
	for j := 0; j < d; j++ {
		dj.Set(j, m+j, 1)
	}
	var ch mat.Cholesky
	if !ch.Factorize(ff) {
		return nil, ErrSingular
	}
	out := mat.NewDense(d, m, nil)
	for k := 0; k < m; k++ {
		out.Set(k, k, 1)
	}
	for j := m; j < d; j++ {
		var beta mat.VecDense
		if err := ch.SolveVecTo(&beta, dj.RowView(j)); err != nil {
			return nil, err
		}
		for k := 0; k < m; k++ {
			out.Set(j, k, -beta.AtVec(k))
		}
	}
	var b mat.Dense
	b.Mul(u, out)
	return &b, nil
}

// lin1Start is the leading eigen-frame of a lin1-noself fit in the data's axes.
func lin1Start(ctx context.Context, pr *prepared, dim int) (*mat.Dense, error) {
	u, err := frameFit(ctx, pr, eye(pr.d), wfOpts{linear1: true, noSelf: true})
	if err != nil {
		return nil, err
	}
	return mat.DenseCopyOf(u.Slice(0, pr.d, 0, dim)), nil
}

func deltaVariant(rounds int, start func(ctx context.Context, pr *prepared, dim int) (*mat.Dense, error)) variantFn {
	return func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
		if err != nil {
			return nil, err
		}
		b, err := start(ctx, pr, dim)
		if err != nil {
			return nil, err
		}
		for r := 0; r < rounds; r++ {
			if b, err = deltaStep(ctx, pr, completeFrame(b), dim); err != nil {
				return nil, err
			}
		}
		out, _ := orthonormal(pr.scale.unscale(b))
		return out, nil
	}
}

func init() {
	researchVariants["delta-lin1-1"] = deltaVariant(1, lin1Start)
	researchVariants["delta-lin1-3"] = deltaVariant(3, lin1Start)
	researchVariants["delta-mipp-1"] = deltaVariant(1, mippStart)
	researchVariants["delta-mipp-3"] = deltaVariant(3, mippStart)
}

// delta2Step: in the frame y = z·U, fit the m signal rows with kernels on
// y_U only (plus a linear part in all of y), then regress each other row
// on [h(y_U), y, 1] by the LSLDG objective; return U·[I; Δ].
func delta2Step(ctx context.Context, pr *prepared, u *mat.Dense, m int) (*mat.Dense, error) {
	var y mat.Dense
	y.Mul(pr.z, u)
	n, d := y.Dims()
	yu := mat.DenseCopyOf(y.Slice(0, n, 0, m))
	centers := pr.centersFrom(yu, nil)
	part := newPartition(pr.rng, n, pr.folds)
	g, _, err := fitStage(ctx, stage{name: "lsldg", x: yu, centers: centers, widths: pr.widths, ridges: pr.ridges,
		part: part, linear: true, linX: &y, noSelf: true}, &pr.plan)
	if err != nil {
		return nil, err
	}
	g.lin = nil // evaluate the kernel parts h_k(y_U) only
	h := mat.NewDense(n, m, nil)
	if err := g.eval(ctx, pr.workers, yu, h, nil); err != nil {
		return nil, err
	}
	q := m + d + 1
	ff := mat.NewSymDense(q, nil)
	f := make([]float64, q)
	for i := 0; i < n; i++ {
		copy(f, h.RawRowView(i))
		copy(f[m:], y.RawRowView(i))
		f[m+d] = 1
		ff.SymRankOne(ff, 1/float64(n), mat.NewVecDense(q, f))
	}
	var ch mat.Cholesky
	if !ch.Factorize(ff) {
		return nil, ErrSingular
	}
	out := mat.NewDense(d, m, nil)
	for k := 0; k < m; k++ {
		out.Set(k, k, 1)
	}
	rhs := mat.NewVecDense(q, nil)
	for j := m; j < d; j++ {
		rhs.Zero()
		rhs.SetVec(m+j, 1) // E[∂_j F] = e_j in the y block
		var beta mat.VecDense
		if err := ch.SolveVecTo(&beta, rhs); err != nil {
			return nil, err
		}
		for k := 0; k < m; k++ {
			out.Set(j, k, -beta.AtVec(k))
		}
	}
	var b mat.Dense
	b.Mul(u, out)
	return &b, nil
}

func delta2Variant(rounds int, start func(ctx context.Context, pr *prepared, dim int) (*mat.Dense, error)) variantFn {
	return func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
		if err != nil {
			return nil, err
		}
		b, err := start(ctx, pr, dim)
		if err != nil {
			return nil, err
		}
		for r := 0; r < rounds; r++ {
			if b, err = delta2Step(ctx, pr, completeFrame(b), dim); err != nil {
				return nil, err
			}
		}
		out, _ := orthonormal(pr.scale.unscale(b))
		return out, nil
	}
}

func init() {
	researchVariants["d2-mipp-3"] = delta2Variant(3, mippStart)
	researchVariants["d2-mipp-6"] = delta2Variant(6, mippStart)
	researchVariants["d2-lin1-3"] = delta2Variant(3, lin1Start)
}

// axesStart is the first dim coordinate axes: the truth for aligned data
// (a diagnostic only).
func axesStart(_ context.Context, pr *prepared, dim int) (*mat.Dense, error) {
	return mat.DenseCopyOf(eye(pr.d).Slice(0, pr.d, 0, dim)), nil
}

func init() {
	researchVariants["d2-axes-3"] = delta2Variant(3, axesStart)
	researchVariants["d2-axes-0"] = delta2Variant(0, axesStart)
}

// topRows returns the indices of the k rows of b with the largest norms,
// in increasing order.
func topRows(b mat.Matrix, k int) []int {
	d, _ := b.Dims()
	idx := make([]int, d)
	norms := make([]float64, d)
	for i := range idx {
		idx[i] = i
		norms[i] = mat.Norm(b.(*mat.Dense).RowView(i), 2)
	}
	sort.Slice(idx, func(a, c int) bool { return norms[idx[a]] > norms[idx[c]] })
	out := append([]int(nil), idx[:k]...)
	sort.Ints(out)
	return out
}

// selVariant: pass A in the data's axes with all kernel columns, then
// pass B with the kernel on the k coordinates that load most on pass A's
// estimate.
func selVariant(extra int, nullZ ...float64) variantFn {
	return func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
		if err != nil {
			return nil, err
		}
		o := wfOpts{linear1: true, noSelf: true}
		centers := pr.centersFrom(pr.z, nil)
		v, err := wfStagesOpts(ctx, pr.z, centers, pr, o)
		if err != nil {
			return nil, err
		}
		ba, _, err := leadingEigen(v, dim)
		if err != nil {
			return nil, err
		}
		o.kernelCols = topRows(ba, min(pr.d, dim+extra))
		if len(nullZ) > 0 {
			o.nullZ = nullZ[0]
		}
		v, err = wfStagesOpts(ctx, pr.z, centers, pr, o)
		if err != nil {
			return nil, err
		}
		b, _, err := basisFrom(v, dim, pr.scale.unscale)
		return b, err
	}
}

func init() {
	researchVariants["sel+0"] = selVariant(0)
	researchVariants["sel+2"] = selVariant(2)
	researchVariants["sel+4"] = selVariant(4)
	researchVariants["sel+2-z3"] = selVariant(2, 3)
	researchVariants["lin1-noself-z3"] = wfVariant(wfOpts{linear1: true, noSelf: true, nullZ: 3})
}

// alignmentWald returns W/df for H0: Δ = 0 in the frame of b (d×m): the
// Wald statistic of the first-order Δ regression of the other rows on
// [h(y_U), y, 1], with a sandwich covariance.
func alignmentWald(ctx context.Context, pr *prepared, b *mat.Dense, m int) (float64, error) {
	u := completeFrame(b)
	var y mat.Dense
	y.Mul(pr.z, u)
	n, d := y.Dims()
	yu := mat.DenseCopyOf(y.Slice(0, n, 0, m))
	centers := pr.centersFrom(yu, nil)
	part := newPartition(pr.rng, n, pr.folds)
	g, _, err := fitStage(ctx, stage{name: "lsldg", x: yu, centers: centers, widths: pr.widths, ridges: pr.ridges,
		part: part, linear: true, linX: &y, noSelf: true}, &pr.plan)
	if err != nil {
		return 0, err
	}
	g.lin = nil
	h := mat.NewDense(n, m, nil)
	if err := g.eval(ctx, pr.workers, yu, h, nil); err != nil {
		return 0, err
	}
	q := m + d + 1
	fm := mat.NewDense(n, q, nil)
	for i := 0; i < n; i++ {
		row := fm.RawRowView(i)
		copy(row, h.RawRowView(i))
		copy(row[m:], y.RawRowView(i))
		row[m+d] = 1
	}
	var gg mat.SymDense
	gg.SymOuterK(1/float64(n), fm.T())
	var ginv mat.Dense
	if err := ginv.Inverse(&gg); err != nil {
		return 0, err
	}
	var w float64
	for j := m; j < d; j++ {
		beta := mat.NewVecDense(q, nil)
		beta.MulVec(&ginv, mat.NewVecDense(q, unit(q, m+j)))
		beta.ScaleVec(-1, beta)
		// ψ_i = F_i F_iᵀβ + e_{m+j}.
		sm := mat.NewSymDense(q, nil)
		psi := mat.NewVecDense(q, nil)
		for i := 0; i < n; i++ {
			fi := mat.NewVecDense(q, fm.RawRowView(i))
			psi.ScaleVec(mat.Dot(fi, beta), fi)
			psi.SetVec(m+j, psi.AtVec(m+j)+1)
			sm.SymRankOne(sm, 1/float64(n), psi)
		}
		var cov, tmp mat.Dense
		tmp.Mul(&ginv, sm)
		cov.Mul(&tmp, &ginv)
		cov.Scale(1/float64(n), &cov)
		cd := mat.DenseCopyOf(cov.Slice(0, m, 0, m))
		var ci mat.Dense
		if err := ci.Inverse(cd); err != nil {
			continue
		}
		dl := mat.NewVecDense(m, beta.RawVector().Data[:m])
		var t mat.VecDense
		t.MulVec(&ci, dl)
		w += mat.Dot(dl, &t)
	}
	return w / float64(m*(d-m)), nil
}

func unit(n, i int) []float64 {
	v := make([]float64, n)
	v[i] = 1
	return v
}

func TestResearchWald(t *testing.T) {
	if os.Getenv("NGCA_WALD") == "" {
		t.Skip("set NGCA_WALD=1")
	}
	for _, cell := range researchCells {
		line := cell.name + ":"
		for _, dist := range Distributions {
			for s := 0; s < 2; s++ {
				x, truth, _ := Artificial{Dist: dist, D: cell.d, R: cell.r, Rotate: cell.rotate}.Sample(rand.NewPCG(uint64(s), 7777))
				bv, err := selVariant(2, 3)(context.Background(), x, 2, rand.NewPCG(uint64(s), 1))
				if err != nil {
					t.Fatal(err)
				}
				pr, _ := prepare(context.Background(), x, config{kernel: true, src: rand.NewPCG(uint64(s), 2)}, 2, true)
				// The basis in the standardised coordinates: D·B.
				bz := mat.DenseCopyOf(bv)
				for i := 0; i < pr.d; i++ {
					for c := 0; c < 2; c++ {
						bz.Set(i, c, bz.At(i, c)*pr.scale.sd[i])
					}
				}
				w, err := alignmentWald(context.Background(), pr, bz, 2)
				if err != nil {
					t.Fatal(err)
				}
				line += fmt.Sprintf(" %v:%.2g(ε%.0e)", dist, w, SubspaceError(truth, bv))
			}
		}
		fmt.Println(line)
	}
}

// selNonNull runs sel+2-z3 and returns the basis and the number of rows
// of v̂ that are not identically zero.
func selNonNull(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, int, error) {
	pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
	if err != nil {
		return nil, 0, err
	}
	o := wfOpts{linear1: true, noSelf: true}
	centers := pr.centersFrom(pr.z, nil)
	v, err := wfStagesOpts(ctx, pr.z, centers, pr, o)
	if err != nil {
		return nil, 0, err
	}
	ba, _, _ := leadingEigen(v, dim)
	o.kernelCols = topRows(ba, min(pr.d, dim+2))
	o.nullZ = 3
	v, err = wfStagesOpts(ctx, pr.z, centers, pr, o)
	if err != nil {
		return nil, 0, err
	}
	nz := 0
	for j := 0; j < pr.d; j++ {
		if mat.Norm(v.ColView(j), 2) > 0 {
			nz++
		}
	}
	b, _, err := basisFrom(v, dim, pr.scale.unscale)
	return b, nz, err
}

func TestResearchNonNull(t *testing.T) {
	if os.Getenv("NGCA_NONNULL") == "" {
		t.Skip("set NGCA_NONNULL=1")
	}
	for _, cell := range researchCells {
		line := cell.name + ":"
		for _, dist := range Distributions {
			for s := 0; s < 3; s++ {
				x, truth, _ := Artificial{Dist: dist, D: cell.d, R: cell.r, Rotate: cell.rotate}.Sample(rand.NewPCG(uint64(s), 7777))
				b, nz, err := selNonNull(context.Background(), x, 2, rand.NewPCG(uint64(s), 1))
				if err != nil {
					t.Fatal(err)
				}
				line += fmt.Sprintf(" %v:%d(%.0e)", dist, nz, SubspaceError(truth, b))
			}
		}
		fmt.Println(line)
	}
}

// concentration is the fraction of the energy of the orthonormal basis b
// (d×m) in its m rows of largest norm.
func concentration(b *mat.Dense) float64 {
	d, m := b.Dims()
	norms := make([]float64, d)
	for i := range norms {
		r := b.RawRowView(i)
		for _, v := range r {
			norms[i] += v * v
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(norms)))
	var s float64
	for _, v := range norms[:m] {
		s += v
	}
	return s / float64(m)
}

func TestResearchConcentration(t *testing.T) {
	if os.Getenv("NGCA_CONC") == "" {
		t.Skip("set NGCA_CONC=1")
	}
	for _, cell := range researchCells {
		line := cell.name + ":"
		for _, dist := range Distributions {
			for s := 0; s < 3; s++ {
				x, _, _ := Artificial{Dist: dist, D: cell.d, R: cell.r, Rotate: cell.rotate}.Sample(rand.NewPCG(uint64(s), 7777))
				pr, _ := prepare(context.Background(), x, config{kernel: true, src: rand.NewPCG(uint64(s), 1)}, 2, true)
				v, err := wfStagesOpts(context.Background(), pr.z, pr.centersFrom(pr.z, nil), pr, wfOpts{linear1: true, noSelf: true})
				if err != nil {
					t.Fatal(err)
				}
				ba, _, _ := leadingEigen(v, 2)
				line += fmt.Sprintf(" %v:%.2f", dist, concentration(ba))
			}
		}
		fmt.Println(line)
	}
}

// whitenedError is ε between span(Σ^½·Dq·a) and span(Σ^½·Dq·b) for bases a,
// b in the caller's coordinates, Σ the covariance of the standardised data:
// differences along directions of small variance count little.
func whitenedError(pr *prepared, a, b *mat.Dense) float64 {
	n, d := pr.z.Dims()
	var cov mat.SymDense
	cov.SymOuterK(1/float64(n-1), pr.z.T())
	var e mat.EigenSym
	e.Factorize(&cov, true)
	vals := e.Values(nil)
	var vecs mat.Dense
	e.VectorsTo(&vecs)
	half := mat.NewDense(d, d, nil)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			var s float64
			for k := 0; k < d; k++ {
				s += vecs.At(i, k) * math.Sqrt(math.Max(vals[k], 0)) * vecs.At(j, k)
			}
			half.Set(i, j, s)
		}
	}
	tr := func(x *mat.Dense) *mat.Dense {
		z := mat.DenseCopyOf(x)
		_, m := z.Dims()
		for i := 0; i < d; i++ {
			for c := 0; c < m; c++ {
				z.Set(i, c, z.At(i, c)*pr.scale.sd[i])
			}
		}
		var out mat.Dense
		out.Mul(half, z)
		return &out
	}
	return SubspaceError(tr(a), tr(b))
}

func TestResearchDecision(t *testing.T) {
	if os.Getenv("NGCA_DECIDE") == "" {
		t.Skip("set NGCA_DECIDE=1")
	}
	eq := delta2Variant(3, mippStart)
	for _, cell := range researchCells {
		line := cell.name + ":"
		for _, dist := range Distributions {
			for s := 0; s < 3; s++ {
				x, truth, _ := Artificial{Dist: dist, D: cell.d, R: cell.r, Rotate: cell.rotate}.Sample(rand.NewPCG(uint64(s), 7777))
				bi, err := selVariant(2, 3)(context.Background(), x, 2, rand.NewPCG(uint64(s), 1))
				if err != nil {
					t.Fatal(err)
				}
				be, err := eq(context.Background(), x, 2, rand.NewPCG(uint64(s), 1))
				if err != nil {
					t.Fatal(err)
				}
				pr, _ := prepare(context.Background(), x, config{kernel: true}, 2, true)
				line += fmt.Sprintf(" %v:%.1e[I%.0e E%.0e]", dist, whitenedError(pr, bi, be), SubspaceError(truth, bi), SubspaceError(truth, be))
			}
		}
		fmt.Println(line)
	}
}

// linearGaussianTest tests H0: given the columns S of z, the other columns
// are linear-Gaussian (equivalently E ⊆ span(e_S)). It returns the
// smallest of three p-values: Mardia's multivariate kurtosis and skewness of
// the whitened OLS residuals, and a chi-square test of their correlation
// with nonlinear features of z_S.
func linearGaussianTest(z *mat.Dense, sel []int) (float64, [3]float64) {
	n, d := z.Dims()
	in := make([]bool, d)
	for _, s := range sel {
		in[s] = true
	}
	var rest []int
	for j := 0; j < d; j++ {
		if !in[j] {
			rest = append(rest, j)
		}
	}
	m := len(sel)
	xs := mat.NewDense(n, m+1, nil)
	xr := mat.NewDense(n, len(rest), nil)
	for i := 0; i < n; i++ {
		for k, s := range sel {
			xs.Set(i, k, z.At(i, s))
		}
		xs.Set(i, m, 1)
		for k, r := range rest {
			xr.Set(i, k, z.At(i, r))
		}
	}
	var qr mat.QR
	qr.Factorize(xs)
	var beta mat.Dense
	if err := qr.SolveTo(&beta, false, xr); err != nil {
		return 1, [3]float64{}
	}
	var rho mat.Dense
	rho.Mul(xs, &beta)
	rho.Sub(xr, &rho)
	// Whiten the residuals within their range.
	var cov mat.SymDense
	cov.SymOuterK(1/float64(n), rho.T())
	var e mat.EigenSym
	e.Factorize(&cov, true)
	vals := e.Values(nil)
	var vecs mat.Dense
	e.VectorsTo(&vecs)
	var keep []int
	for k, v := range vals {
		if v > 1e-10*vals[len(vals)-1] {
			keep = append(keep, k)
		}
	}
	p := len(keep)
	if p == 0 {
		return 1, [3]float64{}
	}
	w := mat.NewDense(len(rest), p, nil)
	for c, k := range keep {
		for r := 0; r < len(rest); r++ {
			w.Set(r, c, vecs.At(r, k)/math.Sqrt(vals[k]))
		}
	}
	var rt mat.Dense
	rt.Mul(&rho, w)

	// Mardia's kurtosis: b2 ≈ N(p(p+2), 8p(p+2)/n).
	var b2 float64
	for i := 0; i < n; i++ {
		r := rt.RawRowView(i)
		var s float64
		for _, v := range r {
			s += v * v
		}
		b2 += s * s / float64(n)
	}
	fp := float64(p)
	zk := (b2 - fp*(fp+2)) / math.Sqrt(8*fp*(fp+2)/float64(n))
	pk := 2 * (1 - normCDF(math.Abs(zk)))

	// Mardia's skewness: n·b1/6 ≈ χ²(p(p+1)(p+2)/6).
	var g mat.Dense
	g.Mul(&rt, rt.T())
	var b1 float64
	for _, v := range g.RawMatrix().Data {
		b1 += v * v * v
	}
	b1 /= float64(n) * float64(n)
	ps := chi2Sf(float64(n)*b1/6, fp*(fp+1)*(fp+2)/6)

	// Dependence: correlations of the residuals with z_l², z_l³, z_k·z_l.
	var feats [][]float64
	for a := 0; a < m; a++ {
		sq, cu := make([]float64, n), make([]float64, n)
		for i := 0; i < n; i++ {
			v := xs.At(i, a)
			sq[i], cu[i] = v*v, v*v*v
		}
		feats = append(feats, sq, cu)
		for b := a + 1; b < m; b++ {
			pr := make([]float64, n)
			for i := 0; i < n; i++ {
				pr[i] = xs.At(i, a) * xs.At(i, b)
			}
			feats = append(feats, pr)
		}
	}
	var stat float64
	for _, f := range feats {
		mean, sd := stat2(f)
		for c := 0; c < p; c++ {
			var s float64
			for i := 0; i < n; i++ {
				s += (f[i] - mean) / sd * rt.At(i, c)
			}
			corr := s / float64(n)
			stat += float64(n) * corr * corr
		}
	}
	pd := chi2Sf(stat, float64(len(feats)*p))
	return math.Min(pk, math.Min(ps, pd)), [3]float64{pk, ps, pd}
}

func stat2(f []float64) (mean, sd float64) {
	for _, v := range f {
		mean += v
	}
	mean /= float64(len(f))
	for _, v := range f {
		sd += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(sd / float64(len(f)))
}

func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// chi2Sf is the upper tail of χ²(k) at x (Wilson–Hilferty).
func chi2Sf(x, k float64) float64 {
	if k <= 0 {
		return 1
	}
	zz := (math.Cbrt(x/k) - (1 - 2/(9*k))) / math.Sqrt(2/(9*k))
	return 1 - normCDF(zz)
}

func TestResearchLGTest(t *testing.T) {
	if os.Getenv("NGCA_LG") == "" {
		t.Skip("set NGCA_LG=1")
	}
	for _, cell := range researchCells {
		if cell.name == "aligned r=4" {
			continue
		}
		line := cell.name + ":"
		for _, dist := range Distributions {
			for s := 0; s < 3; s++ {
				x, truth, _ := Artificial{Dist: dist, D: cell.d, R: cell.r, Rotate: cell.rotate}.Sample(rand.NewPCG(uint64(s), 7777))
				b, _, err := selNonNull(context.Background(), x, 2, rand.NewPCG(uint64(s), 1))
				if err != nil {
					t.Fatal(err)
				}
				pr, _ := prepare(context.Background(), x, config{kernel: true}, 2, true)
				bz := mat.DenseCopyOf(b)
				for i := 0; i < pr.d; i++ {
					for c := 0; c < 2; c++ {
						bz.Set(i, c, bz.At(i, c)*pr.scale.sd[i])
					}
				}
				pmin, _ := linearGaussianTest(pr.z, topRows(bz, 2))
				line += fmt.Sprintf(" %v:%.0e(ε%.0e)", dist, pmin, SubspaceError(truth, b))
			}
		}
		fmt.Println(line)
	}
}

// mippLightStart is MIPP with 250 index functions per family.
func mippLightStart(ctx context.Context, pr *prepared, dim int) (*mat.Dense, error) {
	fams := DefaultFamilies()
	for i := range fams {
		fams[i].L = 250
	}
	r, err := (&MIPP{Dim: dim, Src: pr.rng, Workers: pr.workers, Families: fams}).Fit(ctx, pr.z)
	if err != nil {
		return nil, err
	}
	return r.Basis, nil
}

// frameLoss fits the structured score model whose kernels use only the m
// coordinates of span(b) (frame completeFrame(b)) and returns every row's
// held-out loss summed over the coordinates.
func frameLoss(ctx context.Context, pr *prepared, u *mat.Dense, cols []int, part partition) ([]float64, error) {
	var y mat.Dense
	y.Mul(pr.z, u)
	loss := make([]float64, pr.n)
	_, _, err := fitStage(ctx, stage{name: "compare", x: &y, centers: pr.centersFrom(&y, nil), widths: pr.widths,
		ridges: pr.ridges, part: part, linear: true, noSelf: true, kernelCols: cols, lossOut: loss}, &pr.plan)
	return loss, err
}

// robustDecision records the last decision of robustVariant (diagnostics).
var robustDecision string

func robustVariant(zcut float64) variantFn {
	return func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
		if err != nil {
			return nil, err
		}
		o := wfOpts{linear1: true, noSelf: true}
		centers := pr.centersFrom(pr.z, nil)
		v, err := wfStagesOpts(ctx, pr.z, centers, pr, o)
		if err != nil {
			return nil, err
		}
		ba, _, _ := leadingEigen(v, dim)
		o.kernelCols = topRows(ba, min(pr.d, dim+2))
		o.nullZ = 3
		v, err = wfStagesOpts(ctx, pr.z, centers, pr, o)
		if err != nil {
			return nil, err
		}
		bi, _, err := leadingEigen(v, dim)
		if err != nil {
			return nil, err
		}
		// The equivariant estimate.
		be, err := mippLightStart(ctx, pr, dim)
		if err != nil {
			return nil, err
		}
		for r := 0; r < 3; r++ {
			if be, err = delta2Step(ctx, pr, completeFrame(be), dim); err != nil {
				return nil, err
			}
		}
		part := newPartition(pr.rng, pr.n, pr.folds)
		li, err := frameLoss(ctx, pr, eye(pr.d), topRows(bi, dim), part)
		if err != nil {
			return nil, err
		}
		first := make([]int, dim)
		for i := range first {
			first[i] = i
		}
		le, err := frameLoss(ctx, pr, completeFrame(be), first, part)
		if err != nil {
			return nil, err
		}
		z := pairedZ(le, li)
		chosen := bi
		robustDecision = fmt.Sprintf("I(z=%.1f)", z)
		if z < -zcut {
			chosen = be
			robustDecision = fmt.Sprintf("E(z=%.1f)", z)
		}
		out, _ := orthonormal(pr.scale.unscale(chosen))
		return out, nil
	}
}

func init() {
	researchVariants["robust"] = robustVariant(3)
}

func TestResearchRobust(t *testing.T) {
	if os.Getenv("NGCA_ROBUST") == "" {
		t.Skip("set NGCA_ROBUST=1")
	}
	fn := robustVariant(3)
	for _, cell := range researchCells {
		if cell.name == "aligned r=4" || cell.name == "aligned d=50" {
			continue
		}
		line := cell.name + ":"
		for _, dist := range Distributions {
			for s := 0; s < 3; s++ {
				x, truth, _ := Artificial{Dist: dist, D: cell.d, R: cell.r, Rotate: cell.rotate}.Sample(rand.NewPCG(uint64(s), 7777))
				b, err := fn(context.Background(), x, 2, rand.NewPCG(uint64(s), 1))
				if err != nil {
					t.Fatal(err)
				}
				line += fmt.Sprintf(" %v:%s%.0e", dist, robustDecision, SubspaceError(truth, b))
			}
		}
		fmt.Println(line)
	}
}

// energyTop selects the k coordinates whose stage-1 kernel part (score
// minus its linear part) has the largest mean square.
func energyTop(ctx context.Context, pr *prepared, k int) ([]int, error) {
	part := newPartition(pr.rng, pr.n, pr.folds)
	g, _, err := fitStage(ctx, stage{name: "lsldg", x: pr.z, centers: pr.centersFrom(pr.z, nil), widths: pr.widths,
		ridges: pr.ridges, part: part, linear: true, noSelf: true}, &pr.plan)
	if err != nil {
		return nil, err
	}
	g.lin = nil
	vals := mat.NewDense(pr.n, pr.d, nil)
	if err := g.eval(ctx, pr.workers, pr.z, vals, nil); err != nil {
		return nil, err
	}
	e := mat.NewDense(pr.d, 1, nil)
	for j := 0; j < pr.d; j++ {
		c := mat.Col(nil, j, vals)
		e.Set(j, 0, math.Sqrt(floatsDot(c, c)/float64(pr.n)))
	}
	return topRows(e, k), nil
}

func floatsDot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func init() {
	researchVariants["selE+2-z3"] = func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
		if err != nil {
			return nil, err
		}
		cols, err := energyTop(ctx, pr, min(pr.d, dim+2))
		if err != nil {
			return nil, err
		}
		v, err := wfStagesOpts(ctx, pr.z, pr.centersFrom(pr.z, nil), pr, wfOpts{linear1: true, noSelf: true, kernelCols: cols, nullZ: 3})
		if err != nil {
			return nil, err
		}
		b, _, err := basisFrom(v, dim, pr.scale.unscale)
		return b, err
	}
}

// zTop selects the k coordinates whose stage-1 kernel part is most
// significant (most negative paired z against the linear part alone).
func zTop(ctx context.Context, pr *prepared, k int) ([]int, error) {
	part := newPartition(pr.rng, pr.n, pr.folds)
	z := make([]float64, pr.d)
	_, _, err := fitStage(ctx, stage{name: "lsldg", x: pr.z, centers: pr.centersFrom(pr.z, nil), widths: pr.widths,
		ridges: pr.ridges, part: part, linear: true, noSelf: true, zOut: z}, &pr.plan)
	if err != nil {
		return nil, err
	}
	e := mat.NewDense(pr.d, 1, nil)
	for j, v := range z {
		e.Set(j, 0, -v)
	}
	return topRowsSigned(e, k), nil
}

// topRowsSigned returns the k rows of the column vector e with the largest
// values, in increasing index order.
func topRowsSigned(e *mat.Dense, k int) []int {
	d, _ := e.Dims()
	idx := make([]int, d)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, c int) bool { return e.At(idx[a], 0) > e.At(idx[c], 0) })
	out := append([]int(nil), idx[:k]...)
	sort.Ints(out)
	return out
}

func init() {
	researchVariants["selZ+2-z3"] = func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
		if err != nil {
			return nil, err
		}
		cols, err := zTop(ctx, pr, min(pr.d, dim+2))
		if err != nil {
			return nil, err
		}
		v, err := wfStagesOpts(ctx, pr.z, pr.centersFrom(pr.z, nil), pr, wfOpts{linear1: true, noSelf: true, kernelCols: cols, nullZ: 3})
		if err != nil {
			return nil, err
		}
		b, _, err := basisFrom(v, dim, pr.scale.unscale)
		return b, err
	}
}
