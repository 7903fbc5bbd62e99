package ngca

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// SubspaceError returns the subspace estimation error of Shiino et al.
// (ACML 2017, §4.2) between the spans of two d×m bases,
//
//	ε(E, Ê) = (1/m) Σᵢ ‖êᵢ − Π_E êᵢ‖²,
//
// where ê₁, …, ê_m is an orthonormal basis of Ê = span(estimate) and Π_E the
// orthogonal projection onto E = span(truth). Both arguments are
// orthonormalised internally, so any bases will do; basis vectors are
// columns. ε is 0 exactly when the spans agree and 1 when they are
// orthogonal; for equal dimensions it is symmetric in its arguments.
//
// SubspaceError panics if the shapes differ or m > d, and returns NaN if
// either argument has a non-finite entry or linearly dependent columns.
func SubspaceError(truth, estimate mat.Matrix) float64 {
	d, m := truth.Dims()
	if ed, em := estimate.Dims(); ed != d || em != m || m > d || m == 0 {
		panic(mat.ErrShape)
	}
	qt, okT := orthonormal(truth)
	qe, okE := orthonormal(estimate)
	if !okT || !okE {
		return math.NaN()
	}
	// R = Ê − E(EᵀÊ); ε = ‖R‖²_F / m. Forming the residual directly keeps
	// tiny errors accurate, unlike m − ‖EᵀÊ‖²_F.
	var c, r mat.Dense
	c.Mul(qt.T(), qe)
	r.Mul(qt, &c)
	r.Sub(qe, &r)
	f := mat.Norm(&r, 2)
	return math.Min(f*f/float64(m), 1) // ε ≤ 1 exactly; rounding can exceed it by an ulp
}

// orthonormalRows is orthonormal, but a row of a that is exactly zero is
// exactly zero in q: the factorisation runs on the other rows, so that a
// column left out of a fit keeps an exact zero row of its basis.
func orthonormalRows(a mat.Matrix) (q *mat.Dense, ok bool) {
	d, m := a.Dims()
	if checkFinite("", a) != nil {
		return nil, false
	}
	var nonzero []int
	for i := 0; i < d; i++ {
		for j := 0; j < m; j++ {
			if a.At(i, j) != 0 {
				nonzero = append(nonzero, i)
				break
			}
		}
	}
	if len(nonzero) < d {
		if len(nonzero) < m {
			return nil, false
		}
		sub, ok := orthonormal(rowsOf(mat.DenseCopyOf(a), nonzero))
		if !ok {
			return nil, false
		}
		q = mat.NewDense(d, m, nil)
		for k, i := range nonzero {
			q.SetRow(i, sub.RawRowView(k))
		}
		return q, true
	}
	return orthonormal(a)
}

// orthonormal returns an orthonormal basis of the column span of a (d×m, m ≤
// d), obtained by Householder QR, so that column i spans the part of
// column i of a orthogonal to the columns before it. Each column's sign is
// fixed so that its entry of largest magnitude is positive. ok is false if
// a is not finite or its columns are (numerically) linearly dependent.
func orthonormal(a mat.Matrix) (q *mat.Dense, ok bool) {
	d, m := a.Dims()
	if checkFinite("", a) != nil {
		return nil, false
	}
	// Every column is brought to a largest magnitude in [½, 1) by an exact
	// power of two, which changes neither its span nor (barring underflow)
	// any bit of Q, so that the rank test below is relative to every
	// column's own size, not to the largest column's: the columns of a
	// basis of data near 1e308 and 1e-308 can differ by a factor of 2¹⁰⁰⁰.
	ac := mat.DenseCopyOf(a)
	for j := 0; j < m; j++ {
		_, e := math.Frexp(mat.Norm(ac.ColView(j), math.Inf(1)))
		for i := 0; i < d; i++ {
			ac.Set(i, j, math.Ldexp(ac.At(i, j), -e))
		}
	}
	var qr mat.QR
	qr.Factorize(ac)
	var r mat.Dense
	qr.RTo(&r)
	var maxDiag float64
	for i := 0; i < m; i++ {
		maxDiag = math.Max(maxDiag, math.Abs(r.At(i, i)))
	}
	for i := 0; i < m; i++ {
		if !(math.Abs(r.At(i, i)) > float64(max(d, m))*eps*maxDiag) {
			return nil, false
		}
	}
	var full mat.Dense
	qr.QTo(&full)
	q = mat.DenseCopyOf(full.Slice(0, d, 0, m))
	for j := 0; j < m; j++ {
		big := 0
		for i := 1; i < d; i++ {
			if math.Abs(q.At(i, j)) > math.Abs(q.At(big, j)) {
				big = i
			}
		}
		sign := 1.0
		if q.At(big, j) < 0 {
			sign = -1
		}
		for i := 0; i < d; i++ {
			q.Set(i, j, sign*q.At(i, j)+0) // +0 turns −0 into 0
		}
	}
	return q, true
}

// leadingEigen forms the d×d matrix Γ = (1/n)·UᵀU from the n×d matrix u and
// returns its dim leading eigenvectors (as the columns of a d×dim matrix) and
// all its eigenvalues in descending order.
func leadingEigen(u *mat.Dense, dim int) (*mat.Dense, []float64, error) {
	n, _ := u.Dims()
	var gamma mat.SymDense
	gamma.SymOuterK(1/float64(n), u.T())
	return leadingEigenOf(&gamma, dim)
}

// leadingEigenOf is leadingEigen of the matrix gamma = (1/n)·UᵀU itself.
func leadingEigenOf(gamma *mat.SymDense, dim int) (*mat.Dense, []float64, error) {
	d := gamma.SymmetricDim()
	var eig mat.EigenSym
	if !eig.Factorize(gamma, true) {
		return nil, nil, fmt.Errorf("%w: eigendecomposition did not converge", ErrSingular)
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	desc := make([]float64, d)
	basis := mat.NewDense(d, dim, nil)
	for i := range desc {
		desc[i] = vals[d-1-i]
	}
	for c := 0; c < dim; c++ {
		for i := 0; i < d; i++ {
			basis.Set(i, c, vecs.At(i, d-1-c))
		}
	}
	return basis, desc, nil
}

// basisFrom finishes an estimator whose rows of u lie in the non-Gaussian
// index space of the data in the coordinates where u was formed: it takes
// the dim leading eigenvectors B of (1/n)·UᵀU, maps them to the caller's
// coordinates with back, and orthonormalises the result. If the rows of u
// span fewer than dim dimensions (the dim-th eigenvalue is zero to
// rounding), the last vectors of B would be arbitrary: that is an
// ErrSingular error, whose message calls the rows what.
func basisFrom(u *mat.Dense, dim int, back func(mat.Matrix) *mat.Dense, what string) (*mat.Dense, []float64, error) {
	b, vals, err := leadingBasis(u, dim, what)
	if err != nil {
		return nil, nil, err
	}
	q, err := mapBack(b, back)
	if err != nil {
		return nil, nil, err
	}
	return q, vals, nil
}

// leadingBasis is basisFrom before the map back: the dim leading
// eigenvectors B of (1/n)·UᵀU, in the coordinates where u was formed, and
// all its eigenvalues in descending order.
func leadingBasis(u *mat.Dense, dim int, what string) (*mat.Dense, []float64, error) {
	if err := checkFinite("estimated vectors", u); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrSingular, err)
	}
	b, vals, err := leadingEigen(u, dim)
	if err != nil {
		return nil, nil, err
	}
	n, d := u.Dims()
	if !(vals[dim-1] > float64(d)*eps*vals[0]) {
		return nil, nil, fmt.Errorf("%w: the %d %s span fewer than Dim = %d dimensions (eigenvalues %.3g)", ErrSingular, n, what, dim, vals)
	}
	return b, vals, nil
}

// mapBack maps a basis b to the caller's coordinates with back and
// orthonormalises it.
func mapBack(b mat.Matrix, back func(mat.Matrix) *mat.Dense) (*mat.Dense, error) {
	q, ok := orthonormalRows(back(b))
	if !ok {
		return nil, fmt.Errorf("%w: basis lost rank when mapped back to the data's coordinates", ErrSingular)
	}
	return q, nil
}

// completeFrame returns an orthonormal d×d matrix whose first m columns
// are an orthonormal basis of span(b) (d×m) and whose others span its
// orthogonal complement (the eigenvectors of I − QQᵀ of eigenvalue 1).
func completeFrame(b *mat.Dense) *mat.Dense {
	d, m := b.Dims()
	q, ok := orthonormal(b)
	if !ok {
		q = mat.NewDense(d, m, nil)
		for i := 0; i < m; i++ {
			q.Set(i, i, 1)
		}
	}
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
	// The eigenvalues ascend: the last d−m are 1.
	u.Slice(0, d, m, d).(*mat.Dense).Copy(vecs.Slice(0, d, m, d))
	return u
}

// inFrame returns the map of explicit (whitened) centers into the first k
// coordinates of the frame y = x·u.
func inFrame(u *mat.Dense, k int) func(*mat.Dense) *mat.Dense {
	return func(c *mat.Dense) *mat.Dense {
		d, _ := u.Dims()
		var out mat.Dense
		out.Mul(c, u.Slice(0, d, 0, k))
		return &out
	}
}
