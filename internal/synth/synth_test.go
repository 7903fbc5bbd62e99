package synth

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/ngca-go/ngca"
)

// TestSample checks every signal in each placement: the shapes, an
// orthonormal truth, centred columns, a truth supported on the signal's
// columns and the mixed ones only, Gaussian directions outside the truth
// and non-Gaussian ones inside it.
func TestSample(t *testing.T) {
	for _, sig := range Signals {
		for _, m := range []int{1, 2, 3} {
			if !sig.Supports(m) {
				continue
			}
			for _, mix := range []int{0, 1, 4, Turn} {
				sp := Spec{Signal: sig, M: m, N: 4000, D: 10, R: 1, Mix: mix}
				x, truth, err := sp.Sample(rand.NewPCG(1, uint64(m)))
				if err != nil {
					t.Fatalf("%s m=%d mix=%d: %v", sig.Name, m, mix, err)
				}
				checkSample(t, sp, x, truth)
			}
		}
	}
}

func checkSample(t *testing.T, sp Spec, x, truth *mat.Dense) {
	t.Helper()
	name := func() string { return sp.Signal.Name }
	n, d := x.Dims()
	if r, c := truth.Dims(); n != sp.N || d != sp.D || r != d || c != sp.M {
		t.Fatalf("%s: x %d×%d, truth %d×%d", name(), n, d, r, c)
	}
	var g mat.Dense
	g.Mul(truth.T(), truth)
	if !mat.EqualApprox(&g, eye(sp.M), 1e-12) {
		t.Errorf("%s: truth not orthonormal", name())
	}
	// Columns are centred (the turn keeps the mean at zero) and, where no
	// turn touches them, of unit variance.
	for j := 0; j < d; j++ {
		m, s := stat.MeanStdDev(mat.Col(nil, j, x), nil)
		if math.Abs(m) > 1e-12 {
			t.Errorf("%s: column %d mean %g", name(), j, m)
		}
		if sp.Mix != Turn && mat.Norm(truth.RowView(j), 2) == 0 && math.Abs(s-1) > 1e-12 {
			t.Errorf("%s: untouched column %d sd %g", name(), j, s)
		}
	}
	// Rows of truth outside the turned columns are zero: count the rows in
	// use.
	used := 0
	for i := 0; i < d; i++ {
		if mat.Norm(truth.RowView(i), 2) > 1e-12 {
			used++
		}
	}
	want := sp.M + sp.Mix
	if sp.Mix == Turn {
		want = d
	}
	if used > want || used < sp.M {
		t.Errorf("%s mix=%d: truth uses %d rows, want %d to %d", name(), sp.Mix, used, sp.M, want)
	}
	// Directions in the truth are non-Gaussian, those orthogonal to it
	// Gaussian (excess kurtosis and skewness near 0). The data are whitened
	// first: the index space is orthogonal to the noise after whitening.
	comp := complement(truth)
	for k := 0; k < d-sp.M; k++ {
		p := project(x, comp.ColView(k))
		if ek, sk := stat.ExKurtosis(p, nil), stat.Skew(p, nil); math.Abs(ek) > 0.4 || math.Abs(sk) > 0.25 {
			t.Errorf("%s m=%d mix=%d: noise direction %d has excess kurtosis %.2f, skewness %.2f", name(), sp.M, sp.Mix, k, ek, sk)
		}
	}
}

// complement returns an orthonormal basis of the orthogonal complement of
// the columns of b.
func complement(b *mat.Dense) *mat.Dense {
	d, m := b.Dims()
	var p mat.Dense
	p.Mul(b, b.T())
	var proj mat.Dense
	proj.Sub(eye(d), &p)
	var s mat.EigenSym
	s.Factorize(mat.NewSymDense(d, proj.RawMatrix().Data), true)
	var v mat.Dense
	s.VectorsTo(&v)
	return mat.DenseCopyOf(v.Slice(0, d, m, d)) // eigenvalue 1 columns, ascending order
}

func project(x *mat.Dense, v mat.Vector) []float64 {
	n, _ := x.Dims()
	out := mat.NewVecDense(n, nil)
	out.MulVec(x, v)
	return out.RawVector().Data
}

func eye(n int) *mat.Dense {
	e := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		e.Set(i, i, 1)
	}
	return e
}

// TestSignalsNonGaussian: every signal's own directions are clearly
// non-Gaussian (aligned data, the truth's columns).
func TestSignalsNonGaussian(t *testing.T) {
	for _, sig := range Signals {
		x, truth, err := Spec{Signal: sig, N: 4000}.Sample(rand.NewPCG(2, 3))
		if err != nil {
			t.Fatal(err)
		}
		p := project(x, truth.ColView(0))
		if ek, sk := stat.ExKurtosis(p, nil), stat.Skew(p, nil); math.Abs(ek) < 0.5 && math.Abs(sk) < 0.5 {
			t.Errorf("%s: first signal direction looks Gaussian (excess kurtosis %.2f, skewness %.2f)", sig.Name, ek, sk)
		}
	}
}

// TestSampleDeterministic: the same source gives the same data.
func TestSampleDeterministic(t *testing.T) {
	sig, _ := Lookup("student")
	sp := Spec{Signal: sig, M: 3, Mix: 2, R: 2}
	x1, t1, _ := sp.Sample(rand.NewPCG(5, 6))
	x2, t2, _ := sp.Sample(rand.NewPCG(5, 6))
	if !mat.Equal(x1, x2) || !mat.Equal(t1, t2) {
		t.Error("same seed, different data")
	}
}

// TestSampleErrors: bad specs give the package's errors.
func TestSampleErrors(t *testing.T) {
	d, _ := Lookup("d")
	a, _ := Lookup("a")
	for _, tc := range []struct {
		sp   Spec
		want error
	}{
		{Spec{}, ngca.ErrParam},
		{Spec{Signal: d, M: 3}, ngca.ErrParam},
		{Spec{Signal: a, M: 4, D: 4}, ngca.ErrDim},
		{Spec{Signal: a, N: 1}, ngca.ErrSamples},
		{Spec{Signal: a, R: math.NaN()}, ngca.ErrParam},
		{Spec{Signal: a, R: -1}, ngca.ErrParam},
		{Spec{Signal: a, Mix: 9}, ngca.ErrParam},
		{Spec{Signal: a, Mix: -2}, ngca.ErrParam},
	} {
		if _, _, err := tc.sp.Sample(rand.NewPCG(1, 1)); !errors.Is(err, tc.want) {
			t.Errorf("%+v: error %v, want %v", tc.sp, err, tc.want)
		}
	}
	if _, _, err := (Spec{Signal: a}).Sample(nil); !errors.Is(err, ngca.ErrParam) {
		t.Errorf("nil source: error %v, want ErrParam", err)
	}
	if _, err := Lookup("nope"); !errors.Is(err, ngca.ErrParam) {
		t.Errorf("Lookup: %v", err)
	}
}
