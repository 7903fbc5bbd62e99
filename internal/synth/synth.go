// Package synth generates data whose non-Gaussian index space is placed
// anywhere: on random columns, mixed with some Gaussian noise columns, or
// turned by a random rotation of all of them. The paper's artificial data
// (ngcatest.Artificial) always put a two-dimensional signal on the first two
// columns; the orientation study and the tests use this package to try
// every estimator where the published least-squares methods break.
package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

// Signal is a non-Gaussian signal distribution of one or more dimensions.
type Signal struct {
	// Name is the signal's short name, as the study's tables use it.
	Name string
	// About says what the signal is, in a few words.
	About string
	// Dims lists the signal dimensions the signal is defined for (nil:
	// any).
	Dims []int
	// draw fills s with one signal vector.
	draw func(rng *rand.Rand, s []float64)
}

// Signals are the study's signals: the paper's four, (a) to (d),
// generalised to any dimension where that is natural, and five others.
var Signals = []Signal{
	{"a", "independent Gaussian mixtures ½N(−3,1)+½N(3,1)", nil, mixture},
	{"b", "super-Gaussian, dependent: density ∝ exp(−‖s‖)", nil, expRadial},
	{"c", "sub-Gaussian, dependent: uniform in the unit ball", nil, ball},
	{"d", "the paper's (d): Laplace s₁, uniform s₂ shifted by |s₁|", []int{2}, superSub},
	{"uniform", "independent uniforms on [−1, 1]", nil, uniform},
	{"laplace", "independent Laplace", nil, laplace},
	{"skewed", "independent centred exponentials (skewness 2)", nil, skewed},
	{"ring", "a thin shell: uniform direction, radius 1 + 0.1·N(0,1)", nil, ring},
	{"student", "multivariate t with 5 degrees of freedom (heavy tails, dependent)", nil, student},
}

// StudentIndependent is a signal outside the study's list: independent
// Student t coordinates with 5 degrees of freedom (the study's "student"
// is the elliptical multivariate t, whose coordinates are dependent). The
// efficiency-bound runs use it (scripts/efficiency-bound).
var StudentIndependent = Signal{"student-ind", "independent Student t coordinates, 5 degrees of freedom", nil, studentIndependent}

// Lookup returns the signal of the given name: one of Signals or
// StudentIndependent.
func Lookup(name string) (Signal, error) {
	for _, s := range append(Signals[:len(Signals):len(Signals)], StudentIndependent) {
		if s.Name == name {
			return s, nil
		}
	}
	return Signal{}, fmt.Errorf("%w: unknown signal %q", ngca.ErrParam, name)
}

// Supports reports whether the signal is defined in m dimensions.
func (s Signal) Supports(m int) bool {
	return m >= 1 && (s.Dims == nil || slices.Contains(s.Dims, m))
}

// Turn is the value of Spec.Mix that turns all columns by a random
// rotation.
const Turn = -1

// Spec describes a data set:
//
//	x = standardise(P·(s, n))·Qᵀ,
//
// an M-dimensional signal s and d − M Gaussian noise columns n, put on
// random columns by the permutation P, every column standardised, then
// mixed by the orthogonal Q. The noise is N(0, V·diag(10^(−R…R))·Vᵀ), its
// variances log-spaced from 10^(−R) to 10^R and V a random rotation (so
// the covariance's condition number is 10^(2R)). Q turns the signal's
// columns and Mix randomly chosen noise columns by a random rotation of
// those M + Mix columns and leaves the others alone; Mix = Turn turns all
// d. The true index space is Q·span(e_S), S the signal's columns.
type Spec struct {
	Signal Signal
	// M is the signal's dimension; 0 means 2.
	M int
	// N is the number of rows, D the number of columns; 0 means 2000 and
	// 10.
	N, D int
	// R sets the noise's conditioning.
	R float64
	// Mix is the number of noise columns turned with the signal, or Turn.
	Mix int
}

func (sp Spec) dims() (m, n, d int) {
	m, n, d = sp.M, sp.N, sp.D
	if m == 0 {
		m = 2
	}
	if n == 0 {
		n = 2000
	}
	if d == 0 {
		d = 10
	}
	return m, n, d
}

// Sample draws a data set from src: the n×d data and a d×M orthonormal
// basis of the true index space.
func (sp Spec) Sample(src rand.Source) (x, truth *mat.Dense, err error) {
	m, n, d := sp.dims()
	switch {
	case sp.Signal.draw == nil:
		return nil, nil, fmt.Errorf("%w: no signal", ngca.ErrParam)
	case !sp.Signal.Supports(m):
		return nil, nil, fmt.Errorf("%w: signal %s is not defined in %d dimensions", ngca.ErrParam, sp.Signal.Name, m)
	case d <= m:
		return nil, nil, fmt.Errorf("%w: D = %d, need more than M = %d", ngca.ErrDim, d, m)
	case n < 2:
		return nil, nil, fmt.Errorf("%w: N = %d", ngca.ErrSamples, n)
	case !(sp.R >= 0) || math.IsInf(sp.R, 1):
		return nil, nil, fmt.Errorf("%w: R = %v", ngca.ErrParam, sp.R)
	case sp.Mix != Turn && (sp.Mix < 0 || sp.Mix > d-m):
		return nil, nil, fmt.Errorf("%w: Mix = %d, want 0 to %d or Turn", ngca.ErrParam, sp.Mix, d-m)
	case src == nil:
		return nil, nil, fmt.Errorf("%w: nil source", ngca.ErrParam)
	}
	rng := rand.New(src)
	q := d - m
	sd := make([]float64, q)
	for k := range sd {
		e := 0.0
		if q > 1 {
			e = -sp.R + 2*sp.R*float64(k)/float64(q-1)
		}
		sd[k] = math.Pow(10, e/2)
	}
	v := ngcatest.RandomRotation(rng, q)
	cols := rng.Perm(d) // cols[:m] hold the signal, cols[m:] the noise
	x = mat.NewDense(n, d, nil)
	s, g, nz := make([]float64, m), make([]float64, q), mat.NewVecDense(q, nil)
	for i := 0; i < n; i++ {
		sp.Signal.draw(rng, s)
		for k := range g {
			g[k] = sd[k] * rng.NormFloat64()
		}
		nz.MulVec(v, mat.NewVecDense(q, g))
		row := x.RawRowView(i)
		for k, c := range cols {
			if k < m {
				row[c] = s[k]
			} else {
				row[c] = nz.AtVec(k - m)
			}
		}
	}
	standardise(x)
	truth = mat.NewDense(d, m, nil)
	for k := 0; k < m; k++ {
		truth.Set(cols[k], k, 1)
	}
	mixed := cols[:m+max(sp.Mix, 0)]
	if sp.Mix == Turn {
		mixed = cols
	}
	turn(rng, x, truth, mixed)
	return x, truth, nil
}

// turn draws a random rotation R of the columns idx and applies it to
// every row of x (x_S ← R·x_S) and to every column of truth.
func turn(rng *rand.Rand, x, truth *mat.Dense, idx []int) {
	if len(idx) < 2 {
		return
	}
	r := ngcatest.RandomRotation(rng, len(idx))
	rotate := func(a *mat.Dense) { // the rows idx of a ← R·(those rows)
		_, c := a.Dims()
		sub := mat.NewDense(len(idx), c, nil)
		for p, i := range idx {
			sub.SetRow(p, a.RawRowView(i))
		}
		sub.Mul(r, mat.DenseCopyOf(sub))
		for p, i := range idx {
			a.SetRow(i, sub.RawRowView(p))
		}
	}
	var xt mat.Dense
	xt.CloneFrom(x.T())
	rotate(&xt)
	x.Copy(xt.T())
	rotate(truth)
}

// standardise sets every column of x to mean 0 and sample standard
// deviation 1.
func standardise(x *mat.Dense) {
	n, d := x.Dims()
	for j := 0; j < d; j++ {
		var mean, ss float64
		for i := 0; i < n; i++ {
			mean += x.At(i, j)
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			t := x.At(i, j) - mean
			ss += t * t
		}
		sdev := math.Sqrt(ss / float64(n-1))
		for i := 0; i < n; i++ {
			x.Set(i, j, (x.At(i, j)-mean)/sdev)
		}
	}
}

func mixture(rng *rand.Rand, s []float64) {
	for i := range s {
		c := 3.0
		if rng.IntN(2) == 0 {
			c = -3
		}
		s[i] = c + rng.NormFloat64()
	}
}

// direction fills s with a uniform direction on the unit sphere.
func direction(rng *rand.Rand, s []float64) {
	for {
		var ss float64
		for i := range s {
			s[i] = rng.NormFloat64()
			ss += s[i] * s[i]
		}
		if ss > 0 {
			f := 1 / math.Sqrt(ss)
			for i := range s {
				s[i] *= f
			}
			return
		}
	}
}

func expRadial(rng *rand.Rand, s []float64) {
	// Radius Gamma(m, 1), a sum of m exponentials.
	var r float64
	for range s {
		r += rng.ExpFloat64()
	}
	direction(rng, s)
	for i := range s {
		s[i] *= r
	}
}

func ball(rng *rand.Rand, s []float64) {
	r := math.Pow(rng.Float64(), 1/float64(len(s)))
	direction(rng, s)
	for i := range s {
		s[i] *= r
	}
}

func superSub(rng *rand.Rand, s []float64) {
	s1 := rng.ExpFloat64()
	if rng.IntN(2) == 0 {
		s1 = -s1
	}
	c := 0.0
	if math.Abs(s1) > math.Ln2 {
		c = -1
	}
	s[0], s[1] = s1, c+rng.Float64()
}

func uniform(rng *rand.Rand, s []float64) {
	for i := range s {
		s[i] = 2*rng.Float64() - 1
	}
}

func laplace(rng *rand.Rand, s []float64) {
	for i := range s {
		s[i] = rng.ExpFloat64()
		if rng.IntN(2) == 0 {
			s[i] = -s[i]
		}
	}
}

func skewed(rng *rand.Rand, s []float64) {
	for i := range s {
		s[i] = rng.ExpFloat64() - 1
	}
}

func ring(rng *rand.Rand, s []float64) {
	r := 1 + 0.1*rng.NormFloat64()
	direction(rng, s)
	for i := range s {
		s[i] *= r
	}
}

func student(rng *rand.Rand, s []float64) {
	const nu = 5
	var w float64
	for range nu {
		g := rng.NormFloat64()
		w += g * g
	}
	f := math.Sqrt(nu / w)
	for i := range s {
		s[i] = f * rng.NormFloat64()
	}
}

func studentIndependent(rng *rand.Rand, s []float64) {
	for i := range s {
		student(rng, s[i:i+1])
	}
}
