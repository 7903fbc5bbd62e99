package ngca

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/ngca-go/ngca/internal/asm"
	"gonum.org/v1/gonum/mat"
)

// A Plan is what a least-squares fit (WFLSNGCA, LSNGCA or LSLDG) chose on
// one set of rows, a sample say: its kernel centers, the columns it left
// out as linear combinations of others (Result.Dependent) and, for every
// stage and coordinate, the width and ridge its cross-validation chose.
// With these fixed, fitting the same estimator to any rows, all of a data
// set too large for one machine say, takes a few passes over the rows,
// each of which only adds up sums over them: FitPlan returns the plan, and
//
//	for !plan.Done() {
//		sums := plan.NewSums()
//		// sums.Add(block) for every block of rows, on any machines,
//		// with sums.Merge(other) joining the machines' sums
//		plan, err = plan.Next(sums)
//	}
//	res, err := plan.Result() // or plan.Model() for LSLDG
//
// The passes, on the rows x of the caller's data (standardised z = D⁻¹(x −
// μ), of the columns kept; for LSNGCA whitened, y = W(z − μ_z)), with the
// plan's centers c_k standardised (and whitened) the same way:
//
//  1. the column counts, means and sums of squared deviations (and for
//     LSNGCA the sums of cross-products), from which μ, D (and W) follow as
//     the estimators compute them from all the rows;
//  2. stage 1 (LSLDG, Shiino et al., ACML 2017, §2.3): for every
//     coordinate j, at its chosen width σ_j,
//     G_j = Σᵢ ψ_j(zᵢ)ψ_j(zᵢ)ᵀ and h_j = Σᵢ ∂_jψ_j(zᵢ), whence
//     θ_j = −(G_j/n + λ_jI)⁻¹h_j/n and g_j = θ_jᵀψ_j ≈ ∂_j log p;
//  3. WF-LSNGCA only, stage 2 (§3.2): with aᵢⱼ = ∇g_j(zᵢ)ᵀzᵢ, at the
//     chosen width t_j, S_j = Σᵢ φ_j(zᵢ)φ_j(zᵢ)ᵀ (formed in pass 2, as
//     it does not depend on a) and t_j = Σᵢ [∂_jφ_j(zᵢ) + φ_j(zᵢ)aᵢⱼ],
//     whence α_j = −(S_j/n + γ_jI)⁻¹t_j/n and v̂_j = α_jᵀφ_j;
//  4. Γ = (1/n)Σᵢ v̂(zᵢ)v̂(zᵢ)ᵀ (LSNGCA: u(yᵢ) = ĝ(yᵢ) + yᵢ in place of
//     v̂), whose Dim leading eigenvectors, mapped back to the caller's
//     coordinates, are the Result's Basis (Algorithm 1).
//
// WF-LSNGCA makes 4 passes, LSNGCA 3 (no stage 2), LSLDG 2 (passes 1
// and 2 of the list, then Model). The solves are those of the estimators'
// own refit on all rows, so that a plan whose passes run over the rows it
// was fitted to gives the estimator's fit, Basis and Eigenvalues, to
// rounding: the sums are added in another order (ε = SubspaceError below
// 1e-10 on the paper's data, TestPlanEqualsFit). Over other rows, it
// gives the fit to those rows with the plan's centers and choices,
// without cross-validating again. The columns left out are the plan's:
// they are linear combinations of the others in any rows.
//
// No method modifies a Plan but UnmarshalBinary, so that one may be used
// by concurrent goroutines; Next returns a new Plan. It and Sums encode to bytes
// (MarshalBinary), so that a distributed engine can send the plan to its
// workers and their sums back: the sums of one pass, formed in any
// blocks on any machines and merged in any order, give the same plan to
// rounding, and equal sums give the same bits.
type Plan struct {
	method    string // methodWFLSNGCA, methodLSNGCA or methodLSLDG
	dim       int    // 0 for LSLDG
	d         int    // the columns of the caller's data
	dependent []int  // columns left out (Result.Dependent)
	centers   *mat.Dense
	choices   [][]lsChoice // per stage, per kept coordinate
	folds     int
	cv        []stageCV // the cross-validation that chose them
	pass      int       // the passes done

	// After pass 1: the rows, the standardisation (with kept set when
	// columns are left out) and for LSNGCA the whitening; cz, the centers
	// in the coordinates of the stages.
	n     int
	scale scaling
	wh    *whitening
	cz    *mat.Dense
	// After pass 2: stage 1's model, and for WF-LSNGCA the Gram matrices
	// S_j of stage 2 (lower triangles; nil where S_j is G_j).
	g     *derivModel
	gram2 [][]float64
	// After pass 3 (WF-LSNGCA): stage 2's model.
	v *derivModel
	// After the last pass (estimators): the basis and eigenvalues.
	basis *mat.Dense
	eig   []float64
}

// lsChoice is a coordinate's cross-validated width and ridge.
type lsChoice struct{ width, ridge float64 }

// methodLSLDG names an LSLDG plan.
const methodLSLDG = "LSLDG"

// The kinds of pass.
const (
	passMoments = iota // column statistics
	passStage1         // stage 1 (and stage 2's Gram matrices)
	passStage2         // stage 2's targets (WF-LSNGCA)
	passFinal          // Γ (estimators)
)

// FitPlan fits w to the rows of x as Fit does, returning the same Result
// (bit for bit), and the Plan of its choices.
func (w *WFLSNGCA) FitPlan(ctx context.Context, x mat.Matrix) (*Result, *Plan, error) {
	sw := newStopwatch()
	pr, err := prepare(ctx, x, w.config(), w.Dim, true)
	if err != nil {
		return nil, nil, err
	}
	s1, s2 := pr.wfStages(pr.centersFrom(pr.z, nil), w.newStage2Partition(ctx))
	sw.lap("prepare")
	fit := func(ctx context.Context, st lsStage) (rowModel, stageCV, error) { return fitStage(ctx, st, &pr.plan) }
	v, cv, err := twoStages(ctx, pr, s1, s2, fit, fit, sw)
	if err != nil {
		return nil, nil, err
	}
	basis, eig, err := basisFrom(v, w.Dim, pr.scale.unscale, "vectors v(xᵢ)")
	if err != nil {
		return nil, nil, err
	}
	sw.lap("eigen")
	rep := &LSReport{NumCenters: pr.b, Folds: pr.folds, cv: cv}
	rep.record(ctx)
	res := &Result{Method: methodWFLSNGCA, Basis: basis, Eigenvalues: eig, Mean: pr.scale.mean, Dependent: pr.dependent, Timings: sw.total(),
		Report: rep}
	return res, newPlan(methodWFLSNGCA, w.Dim, x, pr, cv), nil
}

// FitPlan fits l to the rows of x as Fit does, returning the same Result
// (bit for bit), and the Plan of its choices.
func (l *LSNGCA) FitPlan(ctx context.Context, x mat.Matrix) (*Result, *Plan, error) {
	sw := newStopwatch()
	pr, err := prepare(ctx, x, l.config(), l.Dim, true)
	if err != nil {
		return nil, nil, err
	}
	st, err := fitLS(ctx, pr, sw)
	if err != nil {
		return nil, nil, err
	}
	back := func(b mat.Matrix) *mat.Dense { return pr.scale.unscale(st.wh.unwhiten(b)) }
	basis, eig, err := basisFrom(st.u, l.Dim, back, "vectors u(yᵢ)")
	if err != nil {
		return nil, nil, err
	}
	sw.lap("eigen")
	cv := []stageCV{st.cv}
	rep := &LSReport{NumCenters: pr.b, Folds: pr.folds, cv: cv}
	rep.record(ctx)
	res := &Result{Method: methodLSNGCA, Basis: basis, Eigenvalues: eig, Mean: pr.scale.mean, Dependent: pr.dependent, Timings: sw.total(),
		Report: rep}
	return res, newPlan(methodLSNGCA, l.Dim, x, pr, cv), nil
}

// FitPlan fits l to the rows of x as Fit does, returning the same model,
// and the Plan of its choices.
func (l *LSLDG) FitPlan(ctx context.Context, x mat.Matrix) (*LSLDGModel, *Plan, error) {
	sw := newStopwatch()
	pr, err := prepare(ctx, x, l.config(), 0, false)
	if err != nil {
		return nil, nil, err
	}
	centers := pr.centersFrom(pr.z, nil)
	part := newPartition(pr.rng, pr.n, pr.folds)
	sw.lap("prepare")
	g, cv, err := fitStage(ctx, lsStage{name: "lsldg", x: pr.z, centers: centers,
		widths: pr.widths, ridges: pr.ridges, part: part}, &pr.plan)
	if err != nil {
		return nil, nil, err
	}
	sw.lap("lsldg")
	m := &LSLDGModel{cv: cv, Timings: sw.total(), model: g.kern, scale: pr.scale, workers: pr.workers}
	return m, newPlan(methodLSLDG, 0, x, pr, []stageCV{cv}), nil
}

// newPlan returns the plan, before its first pass, of a fit of x
// prepared as pr whose stages' cross-validation chose cv.
func newPlan(method string, dim int, x mat.Matrix, pr *prepared, cv []stageCV) *Plan {
	p := &Plan{method: method, dim: dim, dependent: slices.Clone(pr.dependent), folds: pr.folds, cv: cv}
	_, p.d = x.Dims()
	if pr.plan.centers != nil {
		p.centers = mat.DenseCopyOf(pr.plan.centers)
	} else {
		p.centers = mat.NewDense(len(pr.centerRows), p.d, nil)
		for k, i := range pr.centerRows {
			for j := 0; j < p.d; j++ {
				p.centers.Set(k, j, x.At(i, j))
			}
		}
	}
	for _, s := range cv {
		ch := make([]lsChoice, len(s.Coords))
		for j, c := range s.Coords {
			ch[j] = lsChoice{width: c.Width, ridge: c.Ridge}
		}
		p.choices = append(p.choices, ch)
	}
	return p
}

// Passes returns the number of passes of the plan: 4 for WF-LSNGCA, 3 for
// LSNGCA, 2 for LSLDG.
func (p *Plan) Passes() int {
	switch p.method {
	case methodWFLSNGCA:
		return 4
	case methodLSNGCA:
		return 3
	}
	return 2
}

// Pass returns the number of passes done, from 0 (a plan as FitPlan
// returns it) to Passes.
func (p *Plan) Pass() int { return p.pass }

// Done reports whether every pass is done: Result (or Model) is then
// ready.
func (p *Plan) Done() bool { return p.pass == p.Passes() }

// Rows returns the number of rows of the passes: 0 until the first is
// done, then the number its sums held.
func (p *Plan) Rows() int { return p.n }

// Method returns the name of the plan's estimator: "WF-LSNGCA", "LSNGCA"
// (Result.Method) or "LSLDG".
func (p *Plan) Method() string { return p.method }

// kind returns the kind of the next pass.
func (p *Plan) kind() int {
	switch {
	case p.pass < 2:
		return p.pass
	case p.method == methodWFLSNGCA && p.pass == 2:
		return passStage2
	}
	return passFinal
}

// cols returns the number of columns the stages run on.
func (p *Plan) cols() int { return p.d - len(p.dependent) }

// Sums are the sums over rows of one pass of a Plan: NewSums returns
// empty sums, Add adds rows to them, Merge adds other sums of the same
// pass. Sums are not safe for concurrent use; give each goroutine its own
// and merge them.
type Sums struct {
	plan   *Plan // nil for sums read by UnmarshalBinary
	method string
	pass   int
	d, b   int
	n      int
	// Pass 1: per column, the largest magnitude, its binary exponent k,
	// and the mean and sum of squared deviations in units of 2^k; for
	// LSNGCA the sums of cross-products of deviations (d×d, in units of
	// 2^(k_j + k_l)).
	maxAbs, mean, m2 []float64
	exp              []int
	co               []float64
	// Other passes: the sums, added entry by entry (sumsLayout).
	acc [][]float64

	work *sumsWork
}

// NewSums returns empty sums of the plan's next pass. It panics if the
// plan is Done.
func (p *Plan) NewSums() *Sums {
	if p.Done() {
		panic("ngca: NewSums of a plan whose passes are done")
	}
	s := &Sums{plan: p, method: p.method, pass: p.pass, d: p.d}
	s.b, _ = p.centers.Dims()
	switch p.kind() {
	case passMoments:
		s.maxAbs, s.mean, s.m2, s.exp = make([]float64, p.d), make([]float64, p.d), make([]float64, p.d), make([]int, p.d)
		if p.method == methodLSNGCA {
			s.co = make([]float64, p.d*p.d)
		}
	default:
		for _, size := range p.sumsLayout() {
			s.acc = append(s.acc, make([]float64, size))
		}
	}
	return s
}

// sumsLayout returns the lengths of the arrays of the sums of the next
// pass (not the first): for stage 1, G_j (b×b, lower triangle) and h_j
// (b) of every coordinate j, then for WF-LSNGCA S_j where stage 2's
// width differs from stage 1's (empty where it does not); for stage 2,
// t_j; for the last pass, Γ (d×d, upper triangle).
func (p *Plan) sumsLayout() []int {
	d := p.cols()
	b, _ := p.centers.Dims()
	var out []int
	switch p.kind() {
	case passStage1:
		for range d {
			out = append(out, b*b)
		}
		for range d {
			out = append(out, b)
		}
		if p.method == methodWFLSNGCA {
			for j := range d {
				size := 0
				if p.choices[1][j].width != p.choices[0][j].width {
					size = b * b
				}
				out = append(out, size)
			}
		}
	case passStage2:
		for range d {
			out = append(out, b)
		}
	case passFinal:
		out = append(out, d*d)
	}
	return out
}

// Rows returns the number of rows added to the sums (directly or through
// Merge).
func (s *Sums) Rows() int { return s.n }

// sumsBlock is the most rows Add processes at once.
const sumsBlock = 4096

// Add adds the rows of x (n×d, d the columns of the data the plan was
// fitted to, in the same order) to the sums. It returns an error wrapping
// ErrShape for a matrix with other columns, or ErrNonFinite for a NaN or
// infinite value (naming its row of x), and then adds nothing; or an
// error wrapping ErrParam for sums read by UnmarshalBinary, which can only
// be merged. Add shares its work among GOMAXPROCS goroutines, each
// coordinate's sums (and each row's model values) on one of them, so that
// the sums are the same bits for any number.
func (s *Sums) Add(x mat.Matrix) error {
	if s.plan == nil {
		return fmt.Errorf("%w: Add to sums read from bytes (only NewSums's sums take rows; these can be merged)", ErrParam)
	}
	if x == nil {
		return fmt.Errorf("%w: nil matrix", ErrShape)
	}
	if m, ok := x.(interface{ IsEmpty() bool }); ok && m.IsEmpty() {
		return nil
	}
	n, d := x.Dims()
	if d != s.d {
		return fmt.Errorf("%w: rows of %d columns for a plan of %d", ErrShape, d, s.d)
	}
	if err := checkFinite("rows", x); err != nil {
		return err
	}
	xd, ok := x.(*mat.Dense)
	if !ok {
		xd = mat.DenseCopyOf(x)
	}
	for lo := 0; lo < n; lo += sumsBlock {
		s.addBlock(xd.Slice(lo, min(n, lo+sumsBlock), 0, d))
	}
	return nil
}

// addBlock adds the rows of a block of at most sumsBlock finite rows.
func (s *Sums) addBlock(x mat.Matrix) {
	p := s.plan
	m, _ := x.Dims()
	if p.kind() == passMoments {
		t := blockMoments(x, s.co != nil)
		s.mergeMoments(t)
		return
	}
	s.n += m
	if s.work == nil {
		s.work = newSumsWork(p)
	}
	z := p.scale.apply(x)
	if p.wh != nil {
		z = p.wh.apply(z)
	}
	switch p.kind() {
	case passStage1, passStage2:
		s.addStage(z)
	case passFinal:
		s.addFinal(z)
	}
}

// addStage adds the block z (standardised, whitened for LSNGCA) to the
// Gram matrices and vectors of a stage: width by width, since the kernel
// values of a width serve every coordinate that uses it, and each
// coordinate's sums are one task, so that they are the same bits for any
// number of workers.
func (s *Sums) addStage(z *mat.Dense) {
	p, w, b := s.plan, s.work, s.b
	m, _ := z.Dims()
	d := p.cols()
	ctx := context.Background() // never done: the tasks return no error
	xT := transposeTo(w.xT[:d*m], z)
	var aT []float64
	if p.kind() == passStage2 {
		slopes := mat.NewDense(m, d, nil)
		_ = evalRows(ctx, w.workers, p.g, z, mat.NewDense(m, d, nil), slopes)
		aT = transposeTo(w.aT[:d*m], slopes)
	}
	order := w.order[:m]
	d2, kt := w.d2[:b*m], w.kt[:b*m]
	_ = sqDistTo(ctx, w.workers, d2, z, p.cz, order)
	for _, sigma := range p.passWidths() {
		_ = kernelT(ctx, w.workers, kt, d2, b, sigma)
		curv := 1 / (sigma * sigma)
		tasks := s.stageTasks(sigma, aT, m)
		_ = parallelFor(ctx, w.workers, len(tasks), func(wk, t int) error {
			tk := tasks[t]
			cj, xj := w.cT.RawRowView(tk.j), xT[tk.j*m:(tk.j+1)*m]
			ws := w.worker(wk, b)
			switch {
			case tk.g == nil:
				asm.FillBasis(nil, tk.h, kt, m, cj, xj, tk.a, curv)
			case tk.h == nil:
				clear(ws.h)
				ws.gram(tk.g, ws.h, kt, m, cj, xj, curv)
			default:
				ws.gram(tk.g, tk.h, kt, m, cj, xj, curv)
			}
			return nil
		}, nil)
	}
}

// stageTasks returns the sums of the stage's coordinates whose width is
// sigma, for a block of m rows whose stage-2 slopes are aT (by
// coordinate).
func (s *Sums) stageTasks(sigma float64, aT []float64, m int) []sumsTask {
	p := s.plan
	d := p.cols()
	var tasks []sumsTask
	for j := 0; j < d; j++ {
		switch {
		case p.kind() == passStage2:
			if p.choices[1][j].width == sigma {
				tasks = append(tasks, sumsTask{j: j, h: s.acc[j], a: aT[j*m : (j+1)*m]})
			}
			continue
		case p.choices[0][j].width == sigma:
			tasks = append(tasks, sumsTask{j: j, g: s.acc[j], h: s.acc[d+j]})
		}
		if p.method == methodWFLSNGCA && len(s.acc[2*d+j]) > 0 && p.choices[1][j].width == sigma {
			tasks = append(tasks, sumsTask{j: j, g: s.acc[2*d+j]})
		}
	}
	return tasks
}

// addFinal adds the block z to the final stage's matrix Σ u(y)u(y)ᵀ.
func (s *Sums) addFinal(z *mat.Dense) {
	p, w := s.plan, s.work
	m, d := z.Dims()
	u := mat.NewDense(m, d, nil)
	model := p.v
	if model == nil {
		model = p.g
	}
	_ = evalRows(context.Background(), w.workers, model, z, u, nil)
	if p.v == nil {
		u.Add(u, z) // LSNGCA's u(y) = ĝ(y) + y
	}
	gamma := mat.NewSymDense(d, s.acc[0])
	gamma.SymRankK(gamma, 1, u.T())
}

// transposeTo writes the m×d matrix z into dst by columns (dst[j·m + i] =
// z[i][j]) and returns dst.
func transposeTo(dst []float64, z *mat.Dense) []float64 {
	m, _ := z.Dims()
	for i := 0; i < m; i++ {
		for j, v := range z.RawRowView(i) {
			dst[j*m+i] = v
		}
	}
	return dst
}

// sumsTask is the sums of one coordinate j at one width in a pass: g
// (Gram matrix; nil: none) and h (linear term; nil: none), with a the
// targets of stage 2 (nil in stage 1).
type sumsTask struct {
	j    int
	g, h []float64
	a    []float64
}

// passWidths returns the distinct widths the next pass forms kernel
// values at, in the order of first use.
func (p *Plan) passWidths() []float64 {
	var out []float64
	add := func(v float64) {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	for j := 0; j < p.cols(); j++ {
		switch {
		case p.kind() == passStage2:
			add(p.choices[1][j].width)
		default:
			add(p.choices[0][j].width)
			if p.method == methodWFLSNGCA {
				add(p.choices[1][j].width)
			}
		}
	}
	return out
}

// sumsWork is the workspace of Add: the block's coordinates and targets,
// transposed, its distances to the centers and kernel values, and each
// worker's basis workspace.
type sumsWork struct {
	workers int
	order   []int
	xT, aT  []float64  // d×rows
	d2, kt  []float64  // b×rows
	cT      *mat.Dense // d×b: the centers, transposed
	fused   bool
	ws      []*basisWork
}

// basisWork is one worker's workspace of the basis sums.
type basisWork struct {
	psi, s, h []float64
	fused     bool
}

func newSumsWork(p *Plan) *sumsWork {
	b, _ := p.centers.Dims()
	d := p.cols()
	w := &sumsWork{workers: runtime.GOMAXPROCS(0), order: make([]int, sumsBlock), xT: make([]float64, d*sumsBlock), aT: make([]float64, d*sumsBlock),
		d2: make([]float64, b*sumsBlock), kt: make([]float64, b*sumsBlock), cT: mat.DenseCopyOf(p.cz.T()), fused: asm.FusedGram(b)}
	w.ws = make([]*basisWork, w.workers)
	for i := range w.order {
		w.order[i] = i
	}
	return w
}

// worker returns worker wk's workspace, made on first use.
func (w *sumsWork) worker(wk, b int) *basisWork {
	if w.ws[wk] == nil {
		ws := &basisWork{s: make([]float64, b), h: make([]float64, b), fused: w.fused}
		if w.fused {
			ws.psi = make([]float64, b*asm.GramChunk)
		} else {
			ws.psi = make([]float64, b*sumsBlock)
		}
		w.ws[wk] = ws
	}
	return w.ws[wk]
}

// gram adds to g (b×b, lower triangle) and h the sums of ψψᵀ and of
// ∂_jψ over the m rows whose kernel values kt (b×m) and coordinate xj
// are given, as coordSums.add does.
func (w *basisWork) gram(g, h, kt []float64, m int, cj, xj []float64, curv float64) {
	if w.fused {
		asm.AddBasisGram(g, h, w.psi, w.s, kt, m, cj, xj, nil, curv)
		return
	}
	b := len(cj)
	psi := w.psi[:b*m]
	asm.FillBasis(psi, h, kt, m, cj, xj, nil, curv)
	asm.AddGram(g, psi, b, m)
}

// moments are the column statistics of some rows (see Sums).
type moments struct {
	n                int
	maxAbs, mean, m2 []float64
	exp              []int
	co               []float64
}

// blockMoments returns the moments of the rows of x, computed in two
// passes over them.
func blockMoments(x mat.Matrix, cross bool) moments {
	n, d := x.Dims()
	t := moments{n: n, maxAbs: make([]float64, d), mean: make([]float64, d), m2: make([]float64, d), exp: make([]int, d)}
	dev := mat.NewDense(n, d, nil)
	for j := 0; j < d; j++ {
		for i := 0; i < n; i++ {
			t.maxAbs[j] = math.Max(t.maxAbs[j], math.Abs(x.At(i, j)))
		}
		_, k := math.Frexp(t.maxAbs[j])
		t.exp[j] = k
		var sum float64
		for i := 0; i < n; i++ {
			sum += math.Ldexp(x.At(i, j), -k)
		}
		mu := sum / float64(n)
		var ss float64
		for i := 0; i < n; i++ {
			v := math.Ldexp(x.At(i, j), -k) - mu
			dev.Set(i, j, v)
			ss += v * v
		}
		t.mean[j], t.m2[j] = mu, ss
	}
	if cross {
		var c mat.Dense
		c.Mul(dev.T(), dev)
		t.co = c.RawMatrix().Data
	}
	return t
}

// mergeMoments adds the moments t to those of s (Chan, Golub and LeVeque's
// pairwise update, in units of the larger power of two of each column).
func (s *Sums) mergeMoments(t moments) {
	if t.n == 0 {
		return
	}
	d := len(t.mean)
	if s.n == 0 {
		s.n = t.n
		copy(s.maxAbs, t.maxAbs)
		copy(s.mean, t.mean)
		copy(s.m2, t.m2)
		copy(s.exp, t.exp)
		if s.co != nil {
			copy(s.co, t.co)
		}
		return
	}
	n := s.n + t.n
	ka, kb, delta := make([]int, d), make([]int, d), make([]float64, d)
	for j := 0; j < d; j++ {
		k := max(s.exp[j], t.exp[j])
		ka[j], kb[j] = s.exp[j]-k, t.exp[j]-k
		ma, mb := math.Ldexp(s.mean[j], ka[j]), math.Ldexp(t.mean[j], kb[j])
		delta[j] = mb - ma
		s.mean[j] = ma + delta[j]*(float64(t.n)/float64(n))
		s.m2[j] = math.Ldexp(s.m2[j], 2*ka[j]) + math.Ldexp(t.m2[j], 2*kb[j]) + delta[j]*delta[j]*(float64(s.n)*float64(t.n)/float64(n))
		s.maxAbs[j] = math.Max(s.maxAbs[j], t.maxAbs[j])
		s.exp[j] = k
	}
	if s.co != nil {
		f := float64(s.n) * float64(t.n) / float64(n)
		for j := 0; j < d; j++ {
			for l := 0; l < d; l++ {
				s.co[j*d+l] = math.Ldexp(s.co[j*d+l], ka[j]+ka[l]) + math.Ldexp(t.co[j*d+l], kb[j]+kb[l]) + delta[j]*delta[l]*f
			}
		}
	}
	s.n = n
}

// Merge adds the sums t, of the same pass of the same plan, to s. It
// returns an error wrapping ErrParam for sums of another pass or plan.
func (s *Sums) Merge(t *Sums) error {
	if t.method != s.method || t.pass != s.pass || t.d != s.d || t.b != s.b || len(t.acc) != len(s.acc) || (t.co == nil) != (s.co == nil) {
		return fmt.Errorf("%w: merging sums of pass %d of a %s plan into those of pass %d of a %s plan", ErrParam, t.pass+1, t.method, s.pass+1, s.method)
	}
	for i := range s.acc {
		if len(t.acc[i]) != len(s.acc[i]) {
			return fmt.Errorf("%w: merging sums of another plan", ErrParam)
		}
	}
	if s.maxAbs != nil {
		s.mergeMoments(moments{n: t.n, maxAbs: t.maxAbs, mean: t.mean, m2: t.m2, exp: t.exp, co: t.co})
		return nil
	}
	for i, a := range s.acc {
		for k, v := range t.acc[i] {
			a[k] += v
		}
	}
	s.n += t.n
	return nil
}

// Next returns the plan after the pass whose sums (over all the rows) s
// holds. It returns an error wrapping ErrParam for sums of another pass or
// plan; ErrSamples for fewer than 2 rows, or rows other than the first
// pass's in number; ErrConstant for a constant column; ErrSingular for a
// covariance LSNGCA cannot whiten, a solve that fails, or estimated
// vectors that span fewer than Dim dimensions (as the estimators do).
func (p *Plan) Next(s *Sums) (*Plan, error) {
	if p.Done() {
		return nil, fmt.Errorf("%w: Next of a plan whose %d passes are done", ErrParam, p.Passes())
	}
	if s.method != p.method || s.pass != p.pass || s.d != p.d {
		return nil, fmt.Errorf("%w: sums of pass %d of a %s plan for pass %d of a %s plan", ErrParam, s.pass+1, s.method, p.pass+1, p.method)
	}
	if !p.fits(s) {
		return nil, fmt.Errorf("%w: sums of another plan", ErrParam)
	}
	q := *p
	q.pass++
	if p.kind() != passMoments && s.n != p.n {
		return nil, fmt.Errorf("%w: pass %d added %d rows, pass 1 %d: every pass must add the same rows", ErrSamples, p.pass+1, s.n, p.n)
	}
	var err error
	switch p.kind() {
	case passMoments:
		err = q.fromMoments(s)
	case passStage1:
		err = q.stage1(s)
	case passStage2:
		err = q.stage2(s)
	case passFinal:
		err = q.final(s)
	}
	if err != nil {
		return nil, err
	}
	return &q, nil
}

// fits reports whether the sums s, of the plan's next pass, have the
// plan's shape.
func (p *Plan) fits(s *Sums) bool {
	if p.kind() == passMoments {
		return len(s.maxAbs) == p.d && len(s.mean) == p.d && len(s.m2) == p.d && len(s.exp) == p.d && len(s.acc) == 0 &&
			(p.method == methodLSNGCA && len(s.co) == p.d*p.d || p.method != methodLSNGCA && s.co == nil)
	}
	layout := p.sumsLayout()
	if len(layout) != len(s.acc) || s.maxAbs != nil {
		return false
	}
	for i, size := range layout {
		if len(s.acc[i]) != size {
			return false
		}
	}
	return true
}

// fromMoments sets the standardisation (and whitening) from the column
// statistics of every row.
func (p *Plan) fromMoments(s *Sums) error {
	if s.n < 2 {
		return fmt.Errorf("%w: %d row, need at least 2", ErrSamples, s.n)
	}
	d := p.d
	p.n = s.n
	sc := scaling{mean: make([]float64, d), sd: make([]float64, d), exp: make([]int, d), mu: make([]float64, d), unit: make([]float64, d)}
	for j := 0; j < d; j++ {
		k, mu, sd := s.exp[j], s.mean[j], math.Sqrt(s.m2[j]/float64(s.n-1))
		if !(sd > 16*eps*math.Ldexp(s.maxAbs[j], -k)) {
			return fmt.Errorf("%w: column index %d (0-based) has standard deviation %.3g", ErrConstant, j, math.Ldexp(sd, k))
		}
		sc.mean[j], sc.sd[j], sc.exp[j], sc.mu[j], sc.unit[j] = math.Ldexp(mu, k), math.Ldexp(sd, k), k, mu, sd
	}
	if len(p.dependent) > 0 {
		for j := 0; j < d; j++ {
			if !slices.Contains(p.dependent, j) {
				sc.kept = append(sc.kept, j)
			}
		}
	}
	p.scale = sc
	p.cz = sc.apply(p.centers)
	if p.method != methodLSNGCA {
		return nil
	}
	cols := sc.kept
	if cols == nil {
		for j := 0; j < d; j++ {
			cols = append(cols, j)
		}
	}
	dk := len(cols)
	if s.n <= dk {
		return fmt.Errorf("%w: %d rows for %d columns; whitening needs more rows than columns", ErrSamples, s.n, dk)
	}
	cov := mat.NewSymDense(dk, nil)
	for a, j := range cols {
		for b := a; b < dk; b++ {
			l := cols[b]
			cov.SetSym(a, b, s.co[j*d+l]/float64(s.n-1)/(sc.unit[j]*sc.unit[l]))
		}
	}
	wh, err := whiteningOf(make([]float64, dk), cov)
	if err != nil {
		return err
	}
	p.wh = &wh
	p.cz = wh.apply(p.cz)
	return nil
}

// refit solves one stage's problems from its total sums: column j of the
// result is −(G_j/n + λ_jI)⁻¹h_j/n, as the estimators' refit computes it.
func (p *Plan) refit(name string, gram [][]float64, h [][]float64, ch []lsChoice) (*mat.Dense, error) {
	b, _ := p.centers.Dims()
	theta := mat.NewDense(b, len(ch), nil)
	sc := newCVScorer(b, 1, 0)
	for j, c := range ch {
		th, _, ok := sc.refit(gram[j], h[j], nil, p.n, c.ridge)
		if !ok {
			return nil, fmt.Errorf("%w: stage %q, coordinate %d: refit with λ = %g failed", ErrSingular, name, j, c.ridge)
		}
		theta.SetCol(j, th)
	}
	return theta, nil
}

// widths returns the chosen widths of stage st.
func (p *Plan) widths(st int) []float64 {
	out := make([]float64, len(p.choices[st]))
	for j, c := range p.choices[st] {
		out[j] = c.width
	}
	return out
}

// stage1 solves stage 1 (LSLDG) from its sums.
func (p *Plan) stage1(s *Sums) error {
	d := p.cols()
	theta, err := p.refit(p.cv[0].Name, s.acc[:d], s.acc[d:2*d], p.choices[0])
	if err != nil {
		return err
	}
	p.g = newDerivModel(p.cz, theta, p.widths(0))
	if p.method == methodWFLSNGCA {
		p.gram2 = make([][]float64, d)
		for j := range d {
			if len(s.acc[2*d+j]) > 0 {
				p.gram2[j] = slices.Clone(s.acc[2*d+j])
			} else {
				p.gram2[j] = slices.Clone(s.acc[j])
			}
		}
	}
	return nil
}

// stage2 solves WF-LSNGCA's stage 2 from its sums.
func (p *Plan) stage2(s *Sums) error {
	alpha, err := p.refit(p.cv[1].Name, p.gram2, s.acc, p.choices[1])
	if err != nil {
		return err
	}
	p.v = newDerivModel(p.cz, alpha, p.widths(1))
	p.gram2 = nil
	return nil
}

// final takes the basis from Γ.
func (p *Plan) final(s *Sums) error {
	d := p.cols()
	gamma := mat.NewSymDense(d, slices.Clone(s.acc[0]))
	gamma.ScaleSym(1/float64(p.n), gamma)
	what := "vectors v(xᵢ)"
	back := p.scale.unscale
	if p.wh != nil {
		what = "vectors u(yᵢ)"
		back = func(b mat.Matrix) *mat.Dense { return p.scale.unscale(p.wh.unwhiten(b)) }
	}
	if err := checkFinite("estimated vectors", gamma); err != nil {
		return fmt.Errorf("%w: %w", ErrSingular, err)
	}
	b, vals, err := leadingEigenOf(gamma, p.dim)
	if err != nil {
		return err
	}
	if !(vals[p.dim-1] > float64(d)*eps*vals[0]) {
		return fmt.Errorf("%w: the %d %s span fewer than Dim = %d dimensions (eigenvalues %.3g)", ErrSingular, p.n, what, p.dim, vals)
	}
	if p.basis, err = mapBack(b, back); err != nil {
		return err
	}
	p.eig = vals
	return nil
}

// Result returns the fit of a WF-LSNGCA or LSNGCA plan whose passes are
// done: its Basis and Eigenvalues from the passes' sums, its Mean the
// rows' means, Dependent the plan's, Report an *LSReport with the plan's
// settings and cross-validation, and no Timings (the passes ran
// elsewhere). It returns an error wrapping ErrParam before the last pass
// or for an LSLDG plan.
func (p *Plan) Result() (*Result, error) {
	if p.method == methodLSLDG {
		return nil, fmt.Errorf("%w: an LSLDG plan has no Result (use Model)", ErrParam)
	}
	if !p.Done() {
		return nil, fmt.Errorf("%w: Result of a plan after %d of its %d passes", ErrParam, p.pass, p.Passes())
	}
	b, _ := p.centers.Dims()
	return &Result{Method: p.method, Basis: mat.DenseCopyOf(p.basis), Eigenvalues: slices.Clone(p.eig), Mean: slices.Clone(p.scale.mean),
		Dependent: slices.Clone(p.dependent), Report: &LSReport{NumCenters: b, Folds: p.folds, cv: p.cv}}, nil
}

// Model returns the fit of an LSLDG plan whose passes are done. It
// returns an error wrapping ErrParam before the last pass or for another
// plan.
func (p *Plan) Model() (*LSLDGModel, error) {
	if p.method != methodLSLDG {
		return nil, fmt.Errorf("%w: a %s plan has no LSLDG model (use Result)", ErrParam, p.method)
	}
	if !p.Done() {
		return nil, fmt.Errorf("%w: Model of a plan after %d of its %d passes", ErrParam, p.pass, p.Passes())
	}
	return &LSLDGModel{cv: p.cv[0], model: p.g, scale: p.scale, workers: runtime.GOMAXPROCS(0)}, nil
}
