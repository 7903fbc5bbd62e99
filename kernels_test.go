package ngca

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca/internal/asm"
	"gonum.org/v1/gonum/mat"
)

const fdStep = 1e-5

// centralDiff returns the central difference of f along coordinate m at x.
func centralDiff(f func([]float64) float64, x []float64, m int) float64 {
	xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
	xp[m] += fdStep
	xm[m] -= fdStep
	return (f(xp) - f(xm)) / (2 * fdStep)
}

func closeFD(got, want float64) bool {
	return math.Abs(got-want) <= 1e-6*math.Max(1, math.Abs(want))
}

func randomModel(rng *rand.Rand, b, d int) (*derivModel, []float64) {
	c := mat.NewDense(b, d, nil)
	theta := mat.NewDense(b, d, nil)
	for k := 0; k < b; k++ {
		for j := 0; j < d; j++ {
			c.Set(k, j, rng.NormFloat64())
			theta.Set(k, j, rng.NormFloat64())
		}
	}
	widths := make([]float64, d)
	for j := range widths {
		widths[j] = []float64{0.7, 1.5}[j%2] // two coordinates share each width
	}
	x := make([]float64, d)
	for i := range x {
		x[i] = 0.5 * rng.NormFloat64()
	}
	return newDerivModel(c, theta, widths), x
}

// TestBasisDerivative checks that asm.FillBasis's linear term with a = 0 is
// ∂_jψ_kj, and with a ≠ 0 adds ψ_kj·a, against finite differences of ψ.
func TestBasisDerivative(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const b, d, sigma, a = 6, 4, 0.9, 0.37
	m, x := randomModel(rng, b, d)
	c := m.centers
	d2, err := sqDistT(context.Background(), 1, mat.NewDense(1, d, x), c, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	kt := make([]float64, b)
	if err := kernelT(context.Background(), 1, kt, d2, b, sigma); err != nil {
		t.Fatal(err)
	}
	for j := 0; j < d; j++ {
		psi := make([]float64, b)
		sums := [][]float64{make([]float64, b)}
		cj := mat.Col(nil, j, c)
		asm.FillBasis(psi, sums[0], kt, 1, cj, []float64{x[j]}, nil, 1/(sigma*sigma))
		withA := [][]float64{make([]float64, b)}
		asm.FillBasis(psi, withA[0], kt, 1, cj, []float64{x[j]}, []float64{a}, 1/(sigma*sigma))
		for k := 0; k < b; k++ {
			psiAt := func(y []float64) float64 {
				var s float64
				for l := range y {
					s += (y[l] - c.At(k, l)) * (y[l] - c.At(k, l))
				}
				return (c.At(k, j) - y[j]) * math.Exp(-s/(2*sigma*sigma))
			}
			if v := psiAt(x); math.Abs(psi[k]-v) > 1e-15 {
				t.Errorf("ψ_%d%d = %v, want %v", k, j, psi[k], v)
			}
			fd := centralDiff(psiAt, x, j)
			if !closeFD(sums[0][k], fd) {
				t.Errorf("∂_%dψ_%d%d = %v, finite difference %v", j, k, j, sums[0][k], fd)
			}
			if !closeFD(withA[0][k], fd+a*psi[k]) {
				t.Errorf("r_%d%d with a = %v, want %v", k, j, withA[0][k], fd+a*psi[k])
			}
		}
	}
}

// TestModelDerivatives checks evalRow's slopes ∇f_jᵀx and jacobianTo
// against finite differences of the model's values.
func TestModelDerivatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	const b, d = 12, 5
	m, x := randomModel(rng, b, d)
	t.Run("all columns", func(t *testing.T) { checkModelDerivatives(t, m, x, m.jacobianTo) })
	rm := &stageModel{kern: m, inKernel: []bool{true, false, true, false, false}, lin: make([]float64, d*(d+1))}
	for i := range rm.lin {
		rm.lin[i] = rng.NormFloat64()
	}
	t.Run("kernel columns and linear part", func(t *testing.T) { checkModelDerivatives(t, rm, x, nil) })
}

// checkModelDerivatives checks m's slopes ∇f_jᵀx and, if jacobianTo is
// not nil, its Jacobian against finite differences.
func checkModelDerivatives(t *testing.T, m rowModel, x []float64, jacobianTo func(*mat.Dense, []float64)) {
	d := len(x)
	s := m.newScratch()
	vals, slopes := make([]float64, d), make([]float64, d)
	m.evalRow(s, x, vals, slopes)
	jac := mat.NewDense(d, d, nil)
	for j := 0; j < d; j++ {
		f := func(y []float64) float64 {
			v := make([]float64, d)
			m.evalRow(m.newScratch(), y, v, nil)
			return v[j]
		}
		if got := f(x); got != vals[j] {
			t.Errorf("f_%d without slopes %v, with slopes %v", j, got, vals[j])
		}
		var slope float64
		for l := 0; l < d; l++ {
			fd := centralDiff(f, x, l)
			if jacobianTo == nil {
				slope += x[l] * fd
				continue
			}
			jacobianTo(jac, x)
			if !closeFD(jac.At(j, l), fd) {
				t.Errorf("∂_%d f_%d = %v, finite difference %v", l, j, jac.At(j, l), fd)
			}
			slope += x[l] * fd
		}
		if !closeFD(slopes[j], slope) {
			t.Errorf("∇f_%dᵀx = %v, finite differences %v", j, slopes[j], slope)
		}
	}
}

// TestLSLDGModelCoordinates checks that the public model's gradient and
// Jacobian are consistent in the caller's coordinates when the columns have
// very different scales and offsets.
func TestLSLDGModelCoordinates(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const n, d = 300, 3
	scale := []float64{1, 1000, 0.01}
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			v := rng.NormFloat64()
			if j == 0 {
				v += math.Copysign(2, rng.NormFloat64())
			}
			x.Set(i, j, scale[j]*v+float64(10*j))
		}
	}
	model, err := (&LSLDG{NumCenters: 40, Widths: []float64{0.5, 1}, Ridges: []float64{1e-3, 1e-1}}).Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	pt := []float64{1.2 * scale[0], 0.3*scale[1] + 10, -0.5*scale[2] + 20}
	var jac mat.Dense
	model.JacobianTo(&jac, pt)
	grad := func(j int) func([]float64) float64 {
		return func(y []float64) float64 {
			var g mat.Dense
			model.GradientTo(&g, mat.NewDense(1, d, y))
			return g.At(0, j)
		}
	}
	for j := 0; j < d; j++ {
		for l := 0; l < d; l++ {
			h := fdStep * scale[l]
			yp, ym := append([]float64(nil), pt...), append([]float64(nil), pt...)
			yp[l] += h
			ym[l] -= h
			fd := (grad(j)(yp) - grad(j)(ym)) / (2 * h)
			if math.Abs(jac.At(j, l)-fd) > 1e-6*math.Max(1e-12, math.Abs(fd))+1e-9/(scale[j]*scale[l]) {
				t.Errorf("∂g_%d/∂x_%d = %v, finite difference %v", j, l, jac.At(j, l), fd)
			}
		}
	}
	// The gradient in caller coordinates is D⁻¹ times the standardised model.
	var g mat.Dense
	model.GradientTo(&g, mat.NewDense(1, d, pt))
	z := make([]float64, d)
	for j := range z {
		z[j] = (pt[j] - model.Mean()[j]) / model.Scale()[j]
	}
	vals := make([]float64, d)
	model.model.evalRow(model.model.newScratch(), z, vals, nil)
	for j := 0; j < d; j++ {
		if want := vals[j] / model.Scale()[j]; math.Abs(g.At(0, j)-want) > 1e-12*math.Abs(want) {
			t.Errorf("gradient[%d] = %v, want %v", j, g.At(0, j), want)
		}
	}
}
