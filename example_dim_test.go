package ngca_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
)

// ExampleEstimateDim finds how many of six correlated columns carry
// non-Gaussian structure: one bimodal signal, hidden in a mixture with
// Gaussian noise.
func ExampleEstimateDim() {
	rng := rand.New(rand.NewPCG(1, 2))
	n, d := 600, 6
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		s := math.Copysign(3, rng.NormFloat64()) + rng.NormFloat64() // bimodal
		for j := 0; j < d; j++ {
			x.Set(i, j, float64(j%3)*s+rng.NormFloat64()+0.5*float64(j)*x.At(i, max(j-1, 0)))
		}
	}
	rep, err := ngca.EstimateDim(context.Background(), x, ngca.DimOptions{Src: rand.NewPCG(1, 1)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("non-Gaussian dimensions:", rep.Dim)
	for _, t := range rep.Tests {
		fmt.Printf("k = %d: p = %.3f, rejected %v\n", t.K, t.PValue, t.Rejected)
	}
	// Output:
	// non-Gaussian dimensions: 1
	// k = 0: p = 0.025, rejected true
	// k = 1: p = 1.000, rejected false
}
