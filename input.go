package ngca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/colscale"
	"github.com/ngca-go/ngca/internal/defaults"
	"gonum.org/v1/gonum/mat"
)

// config is the union of the estimators' configuration fields, as the
// caller set them. kernel is true for the estimators built on the
// Gaussian-derivative basis (centers, grids, folds).
type config struct {
	kernel           bool
	numCenters       int
	centers          mat.Matrix
	widths, ridges   []float64
	vWidths, vRidges []float64
	folds            int
	src              rand.Source
	workers          int
	progress         func(Progress)
	steps            int // the number of progress stages of a fit
	// rows, if not nil, gives the fewest rows the fit accepts for d
	// columns (its estimator's rows); nil means 2. A kernel estimator's
	// must ask for at least one row per fold.
	rows func(d int) rowNeed
}

// plan is a config resolved against the data: defaults filled in, every value
// checked.
type plan struct {
	b                int // number of centers
	centers          *mat.Dense
	widths, ridges   []float64
	vWidths, vRidges []float64
	folds            int
	rng              *rand.Rand
	workers          int
	progress         *reporter
}

// resolve checks the configuration against an n×d data set and fills in
// the defaults: the worker count and source always, the folds, grids and
// centers only for an estimator with a kernel basis. It checks that n is
// at least c.rows's minimum (2 if c.rows is nil) once the folds are known.
func (c config) resolve(n, d int) (plan, error) {
	p := plan{progress: &reporter{fn: c.progress, steps: c.steps}, workers: c.workers}
	switch {
	case p.workers == 0:
		p.workers = runtime.GOMAXPROCS(0)
	case p.workers < 0:
		return p, fmt.Errorf("%w: Workers = %d", ErrParam, c.workers)
	}
	src := c.src
	if src == nil {
		src = rand.NewPCG(0, 0)
	}
	p.rng = rand.New(src)
	if c.kernel {
		p.folds = c.folds
		switch {
		case p.folds == 0:
			p.folds = defaults.Folds
		case p.folds < 2:
			return p, fmt.Errorf("%w: Folds = %d, need at least 2", ErrParam, c.folds)
		}
	}
	need := rowNeed{method: "the fit", min: 2, what: countOf(d, "column"), why: "a column's spread needs two values"}
	if c.rows != nil {
		need = c.rows(d)
	}
	if err := needRows(n, need); err != nil {
		return p, err
	}
	if !c.kernel {
		return p, nil
	}
	var err error
	if p.widths, err = grid("Widths", c.widths, defaults.Widths()); err != nil {
		return p, err
	}
	if p.ridges, err = grid("Ridges", c.ridges, defaults.Ridges()); err != nil {
		return p, err
	}
	if p.vWidths, err = grid("VWidths", c.vWidths, p.widths); err != nil {
		return p, err
	}
	if p.vRidges, err = grid("VRidges", c.vRidges, p.ridges); err != nil {
		return p, err
	}
	if c.numCenters < 0 {
		return p, fmt.Errorf("%w: NumCenters = %d", ErrParam, c.numCenters)
	}
	if c.centers != nil {
		p.centers, err = centersMatrix(c.centers, d)
		if err != nil {
			return p, err
		}
		p.b, _ = p.centers.Dims()
		if c.numCenters != 0 && c.numCenters != p.b {
			return p, fmt.Errorf("%w: NumCenters = %d but Centers has %d rows", ErrParam, c.numCenters, p.b)
		}
	} else {
		p.b = c.numCenters
		switch {
		case p.b == 0:
			p.b = min(n, defaults.Centers)
		case p.b > n:
			return p, fmt.Errorf("%w: NumCenters = %d exceeds the %d rows", ErrSamples, p.b, n)
		}
	}
	return p, nil
}

// grid returns v, or def when v is empty, after checking that every value
// is positive and finite.
func grid(name string, v, def []float64) ([]float64, error) {
	if len(v) == 0 {
		return def, nil
	}
	for i, s := range v {
		if !(s > 0) || math.IsInf(s, 1) {
			return nil, fmt.Errorf("%w: %s[%d] = %v, need a positive finite value", ErrParam, name, i, s)
		}
	}
	return append([]float64(nil), v...), nil
}

// centersMatrix copies explicit centers after checking their shape and values.
func centersMatrix(c mat.Matrix, d int) (*mat.Dense, error) {
	b, cd := c.Dims()
	if b == 0 || cd != d {
		return nil, fmt.Errorf("%w: Centers is %d×%d, need b×%d with b ≥ 1", ErrShape, b, cd, d)
	}
	if err := checkFinite("Centers", c); err != nil {
		return nil, err
	}
	return mat.DenseCopyOf(c), nil
}

// checkFinite returns an ErrNonFinite error naming the first NaN or Inf of x.
func checkFinite(name string, x mat.Matrix) error {
	n, d := x.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s.At(%d, %d) is %v", ErrNonFinite, name, i, j, v)
			}
		}
	}
	return nil
}

// checkData validates the shape and values of the data matrix: at least
// minCols columns and 2 rows, every value finite.
func checkData(x mat.Matrix, minCols int) (n, d int, err error) {
	if n, d, err = checkShape(x, minCols); err != nil {
		return n, d, err
	}
	if n < 2 {
		return n, d, fmt.Errorf("%w: %d row, need at least 2", ErrSamples, n)
	}
	return n, d, checkFinite("data", x)
}

// checkShape validates the shape of the data matrix: not nil nor empty,
// with at least minCols columns.
func checkShape(x mat.Matrix, minCols int) (n, d int, err error) {
	if x == nil {
		return 0, 0, fmt.Errorf("%w: nil data matrix", ErrShape)
	}
	if m, ok := x.(interface{ IsEmpty() bool }); ok && m.IsEmpty() {
		return 0, 0, fmt.Errorf("%w: empty data matrix", ErrShape)
	}
	n, d = x.Dims()
	if n == 0 || d == 0 {
		return n, d, fmt.Errorf("%w: data matrix is %d×%d", ErrShape, n, d)
	}
	if d < minCols {
		return n, d, fmt.Errorf("%w: data have %d columns, need at least %d", ErrDim, d, minCols)
	}
	return n, d, nil
}

// checkDim validates a target dimension m for d-dimensional data.
func checkDim(m, d int) error {
	if m < 1 || m >= d {
		return fmt.Errorf("%w: Dim = %d, need 1 ≤ Dim ≤ %d for %d columns", ErrDim, m, d-1, d)
	}
	return nil
}

// scaling is the element-wise standardisation z = D⁻¹(x − μ) of the data:
// μ holds the column means and D the sample standard deviations (n−1
// denominator).
//
// Every column is computed on in units of 2^k, k the binary exponent of
// its largest magnitude: x·2⁻ᵏ lies in [−1, 1] and the scaling is exact,
// so that the sums of values near ±1e308 cannot overflow nor the squares
// of values near 1e-308 underflow. For data of ordinary magnitude the
// results are bit-identical to computing in the caller's units.
//
// kept, if not nil, lists the columns the fit runs on (the others being
// linear combinations of earlier columns, see dependentColumns): apply
// then returns those columns only, and unscale expects one row per kept
// column and returns one per column of the caller's data, zero for the
// others.
type scaling struct {
	kept []int
	mean []float64 // μ, in the caller's units
	sd   []float64 // D, in the caller's units (+Inf if it overflows)
	exp  []int     // k of every column
	mu   []float64 // μ·2⁻ᵏ
	unit []float64 // D·2⁻ᵏ
}

// newScaling computes the column means and standard deviations of x. A column
// whose standard deviation is zero, or no larger than the rounding error of
// its values, is reported as constant.
func newScaling(x mat.Matrix) (scaling, error) {
	_, d := x.Dims()
	s := scaling{mean: make([]float64, d), sd: make([]float64, d), exp: make([]int, d), mu: make([]float64, d), unit: make([]float64, d)}
	for j := 0; j < d; j++ {
		k, mu, sd, maxAbs := colscale.Stats(x, j)
		if !(sd > 16*eps*math.Ldexp(maxAbs, -k)) {
			return s, fmt.Errorf("%w: column index %d (0-based) has standard deviation %.3g", ErrConstant, j, math.Ldexp(sd, k))
		}
		s.mean[j], s.sd[j], s.exp[j], s.mu[j], s.unit[j] = math.Ldexp(mu, k), math.Ldexp(sd, k), k, mu, sd
	}
	return s, nil
}

// div returns v/D_j, computed in the column's units so that it does not
// overflow.
func (s scaling) div(v float64, j int) float64 { return math.Ldexp(v/s.unit[j], -s.exp[j]) }

// apply returns the standardised copy D⁻¹(x − μ) of the rows of x, of
// the kept columns only if s.kept is set.
func (s scaling) apply(x mat.Matrix) *mat.Dense {
	n, d := x.Dims()
	cols := s.kept
	if cols == nil {
		cols = make([]int, d)
		for j := range cols {
			cols[j] = j
		}
	}
	z := mat.NewDense(n, len(cols), nil)
	for c, j := range cols {
		k, mu, sd := s.exp[j], s.mu[j], s.unit[j]
		for i := 0; i < n; i++ {
			z.Set(i, c, (math.Ldexp(x.At(i, j), -k)-mu)/sd)
		}
	}
	return z
}

// unscale returns the span of D⁻¹·b for a d×m matrix b: it maps a basis
// of the non-Gaussian index space of the standardised data to one of the
// caller's data (E_x = D⁻¹E_z). Every column comes scaled by the power of
// two that brings its largest entry to [½, 1), which keeps it finite and
// its small entries from underflowing, for data near ±1e308 or 1e-308,
// and makes the result the same for the data times any power of two.
//
// If s.kept is set, b has one row per kept column and the result one row
// per column of the data, zero in the rows of the columns left out.
func (s scaling) unscale(b mat.Matrix) *mat.Dense {
	out := mat.DenseCopyOf(b)
	if s.kept != nil {
		_, c := b.Dims()
		full := mat.NewDense(len(s.mean), c, nil)
		for i, j := range s.kept {
			full.SetRow(j, out.RawRowView(i))
		}
		out = full
	}
	r, c := out.Dims()
	for j := 0; j < c; j++ {
		top, found := 0, false
		for i := 0; i < r; i++ {
			if v := out.At(i, j) / s.unit[i]; v != 0 {
				_, e := math.Frexp(v)
				if e -= s.exp[i]; !found || e > top {
					top, found = e, true
				}
			}
		}
		for i := 0; i < r; i++ {
			out.Set(i, j, math.Ldexp(out.At(i, j)/s.unit[i], -s.exp[i]-top))
		}
	}
	return out
}

// dependency is a column of the standardised data that is a linear
// combination of the columns before it: col is its index, of and resid
// the columns it combines (those with a coefficient that is not negligible
// against the largest) and the standard deviation of the residual of its
// regression on all earlier kept columns (its own being 1).
type dependency struct {
	col   int
	of    []int
	resid float64
}

// String describes the dependency for an error message.
func (dep dependency) String() string {
	what := "a linear combination of the columns before it"
	switch len(dep.of) {
	case 0:
		what = "constant to within the rounding error of its values"
	case 1:
		what = fmt.Sprintf("a copy of column index %d (up to scale and shift)", dep.of[0])
	default:
		names := make([]string, len(dep.of))
		for i, c := range dep.of {
			names[i] = strconv.Itoa(c)
		}
		what = "a linear combination of column indices " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	return fmt.Sprintf("column index %d (0-based) is %s: the residual has standard deviation %.2g of its own", dep.col, what, dep.resid)
}

// dependentColumns returns the columns of the standardised data z (n×d,
// n > d) that are linear combinations of the columns before them, to
// within the rounding error of the data, in column order: each column is
// regressed on the earlier columns not already found dependent (and a
// constant). The data then lie in a subspace of lower dimension, spanned
// by the other columns.
//
// Column j is dependent if the residual of that regression has a standard
// deviation below tol_j times its own (1, the columns being standardised),
//
//	tol_j = 16·ε·(d·max_k max_i |x_ik|/D_k + √n·max_ik |z_ik|), k ≤ j kept:
//
// the rounding error of the least precise of the columns in the
// regression, which a combination carries into its residual, and the
// error of the factorisation. A column with no digits left of its own
// (its spread below about 10⁻¹⁴ of its magnitude) thus counts as
// dependent without making the columns before it so. The
// residuals are the diagonal of R in z_c = QR (Householder, backward
// stable), z_c being the kept columns of z centred once more, which
// removes the rounding error of the means (√n times that of a value); the
// factorisation is redone without each dependent column found. Exact
// combinations of 6 columns come out below a hundredth of tol, for n = 20
// to 10⁶ and means up to 10¹²·D (where the data have four significant
// digits left). Ill-conditioned data pass: the artificial data of
// condition parameter r = 8 (noise variances over 16 orders of magnitude)
// have a smallest residual of 10⁻⁷, tol is 5·10⁻¹² at n = 10⁵. Data whose
// spread is below about 10⁻¹⁴ of their magnitude have no digits left to
// tell: every column but the first is dependent.
func (s scaling) dependentColumns(z *mat.Dense) []dependency {
	n, d := z.Dims()
	zc := mat.NewDense(n, d, nil)
	prec := make([]float64, d) // max_i |x_ij| / D_j, as x/D = z + μ/D
	var zmax float64           // max |z|
	for j := 0; j < d; j++ {
		off := s.mu[j] / s.unit[j]
		var m float64
		for i := 0; i < n; i++ {
			v := z.At(i, j)
			prec[j] = math.Max(prec[j], math.Abs(v+off))
			zmax = math.Max(zmax, math.Abs(v))
			m += v
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			zc.Set(i, j, z.At(i, j)-m)
		}
	}
	norm := math.Sqrt(float64(n - 1))
	kept := make([]int, d)
	for j := range kept {
		kept[j] = j
	}
	var deps []dependency
	for start := 0; len(kept) > 0; {
		var qr mat.QR
		qr.Factorize(columns(zc, kept))
		var r mat.Dense
		qr.RTo(&r)
		p := -1
		var worst float64 // the largest prec of kept[:c+1]
		for c := 0; c < start; c++ {
			worst = math.Max(worst, prec[kept[c]])
		}
		for c := start; c < len(kept); c++ {
			worst = math.Max(worst, prec[kept[c]])
			tol := 16 * eps * (float64(d)*worst + math.Sqrt(float64(n))*zmax)
			if rho := math.Abs(r.At(c, c)) / norm; !(rho > tol) {
				p = c
				deps = append(deps, dependency{col: kept[c], resid: rho})
				break
			}
		}
		if p < 0 {
			return deps
		}
		for _, c := range combination(&r, p) {
			deps[len(deps)-1].of = append(deps[len(deps)-1].of, kept[c])
		}
		kept = append(kept[:p], kept[p+1:]...)
		start = p
	}
	return deps // every column dependent: no digits left to tell them apart
}

// combination returns the columns before j that column j of z = QR is a
// combination of: those whose coefficient in R[:j,:j]·β = R[:j,j] is not
// negligible against the largest.
func combination(r *mat.Dense, j int) []int {
	beta := make([]float64, j)
	for k := j - 1; k >= 0; k-- {
		v := r.At(k, j)
		for l := k + 1; l < j; l++ {
			v -= r.At(k, l) * beta[l]
		}
		beta[k] = v / r.At(k, k)
	}
	var big float64
	for _, b := range beta {
		big = math.Max(big, math.Abs(b))
	}
	var cols []int
	for k, b := range beta {
		if math.Abs(b) > 1e-6*big {
			cols = append(cols, k)
		}
	}
	return cols
}

// prepared is what every fit starts from: the checked configuration, the
// standardised data and, for a kernel estimator, the centers of the
// Gaussian basis.
type prepared struct {
	plan
	n, d  int
	scale scaling
	z     *mat.Dense // standardised data, n×d
	// dependent lists the columns of the caller's data left out of the
	// fit as linear combinations of earlier ones (0-based, ascending); z,
	// d and scale then cover the other columns only.
	dependent []int
	// Either centerRows lists the rows of the data drawn as centers, or
	// explicit holds the caller's centers, standardised.
	centerRows []int
	explicit   *mat.Dense
}

// prepare checks x and the configuration, standardises x and chooses the
// centers. dim is the target dimension; hasDim is false for LSLDG, which has
// none.
// Random draws happen here and in the caller, on the calling goroutine, in
// a fixed order: centers, then the partitions (one for WF-LSNGCA's two
// stages unless newPartition; the robust variant's draws are listed at
// RobustWFLSNGCA.Fit).
func prepare(ctx context.Context, x mat.Matrix, c config, dim int, hasDim bool) (*prepared, error) {
	if err := checkContext(ctx); err != nil {
		return nil, err
	}
	minCols := 1
	if hasDim {
		minCols = 2
	}
	n, d, err := checkShape(x, minCols)
	if err != nil {
		return nil, err
	}
	if err := checkFinite("data", x); err != nil {
		return nil, err
	}
	if hasDim {
		if err := checkDim(dim, d); err != nil {
			return nil, err
		}
	}
	p, err := c.resolve(n, d)
	if err != nil {
		return nil, err
	}
	pr := &prepared{plan: p, n: n, d: d}
	if pr.scale, err = newScaling(x); err != nil {
		return nil, err
	}
	pr.z = pr.scale.apply(x)
	if n > d {
		if err := pr.dropDependent(hasDim, dim); err != nil {
			return nil, err
		}
	}
	switch {
	case !c.kernel:
	case p.centers != nil:
		pr.explicit = pr.scale.apply(p.centers)
	default:
		pr.centerRows = drawRows(p.rng, n, p.b)
	}
	return pr, nil
}

// dropDependent finds the columns of pr.z that are linear combinations of
// earlier columns and, for an estimator (hasDim), removes them from the
// fit: pr.z, pr.d and pr.scale then cover the other columns only, and
// pr.dependent lists the removed ones. LSLDG, whose model is of the
// density of every column, returns an ErrSingular error instead, as does
// an estimator whose Dim is not below the number of columns kept.
func (pr *prepared) dropDependent(hasDim bool, dim int) error {
	deps := pr.scale.dependentColumns(pr.z)
	if len(deps) == 0 {
		return nil
	}
	if !hasDim {
		return fmt.Errorf("%w: %v: the data's density is degenerate; remove the column", ErrSingular, deps[0])
	}
	drop := make([]bool, pr.d)
	for _, dep := range deps {
		drop[dep.col] = true
		pr.dependent = append(pr.dependent, dep.col)
	}
	for j := range drop {
		if !drop[j] {
			pr.scale.kept = append(pr.scale.kept, j)
		}
	}
	if dim >= len(pr.scale.kept) {
		return fmt.Errorf("%w: Dim = %d, but the data span only %d dimensions (%v)", ErrDim, dim, len(pr.scale.kept), deps[0])
	}
	pr.z = columns(pr.z, pr.scale.kept)
	pr.d = len(pr.scale.kept)
	return nil
}

// centersFrom returns the centers as points of pts, the data after the
// transformation the estimator applies (rows of pts for drawn centers);
// transform maps explicit standardised centers the same way (nil: identity).
func (pr *prepared) centersFrom(pts *mat.Dense, transform func(*mat.Dense) *mat.Dense) *mat.Dense {
	if pr.explicit != nil {
		if transform == nil {
			return pr.explicit
		}
		return transform(pr.explicit)
	}
	_, d := pts.Dims()
	c := mat.NewDense(len(pr.centerRows), d, nil)
	for k, i := range pr.centerRows {
		c.SetRow(k, pts.RawRowView(i))
	}
	return c
}

// drawRows draws b of the n row indices uniformly without replacement
// (a partial Fisher–Yates shuffle).
func drawRows(rng *rand.Rand, n, b int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for i := 0; i < b; i++ {
		j := i + rng.IntN(n-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	return idx[:b]
}

// foldsOf returns the folds of a Folds field: the default for 0, and at
// least 2 (an invalid value is reported by config.resolve).
func foldsOf(folds int) int {
	if folds == 0 {
		return defaults.Folds
	}
	return max(folds, 2)
}
