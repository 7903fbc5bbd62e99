package ngca_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

func ExampleWFLSNGCA() {
	// The paper's data (b): a 2-D super-Gaussian signal hidden among 8
	// correlated Gaussian noise columns. Rows are observations.
	x, truth, err := ngcatest.Artificial{Dist: ngcatest.SuperGaussian, N: 1000, R: 0.5}.Sample(rand.NewPCG(1, 2))
	if err != nil {
		log.Fatal(err)
	}

	est := &ngca.WFLSNGCA{Dim: 2, Src: rand.NewPCG(3, 4)}
	res, err := est.Fit(context.Background(), x)
	if err != nil {
		log.Fatal(err)
	}
	d, m := res.Basis.Dims()
	fmt.Printf("basis: %d×%d, orthonormal columns\n", d, m)
	fmt.Printf("subspace error below 0.001: %v\n", ngca.SubspaceError(truth, res.Basis) < 0.001)
	fmt.Printf("clear eigenvalue gap after 2: %v\n", res.Eigenvalues[1] > 10*res.Eigenvalues[2])

	// Project the data onto the non-Gaussian subspace.
	var z mat.Dense
	res.ProjectTo(&z, x)
	n, k := z.Dims()
	fmt.Printf("projected data: %d×%d\n", n, k)
	// Output:
	// basis: 10×2, orthonormal columns
	// subspace error below 0.001: true
	// clear eigenvalue gap after 2: true
	// projected data: 1000×2
}

func ExampleLSNGCA() {
	x, truth, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: 1000}.Sample(rand.NewPCG(5, 6))
	if err != nil {
		log.Fatal(err)
	}
	res, err := (&ngca.LSNGCA{Dim: 2, Src: rand.NewPCG(7, 8)}).Fit(context.Background(), x)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("subspace error below 0.01: %v\n", ngca.SubspaceError(truth, res.Basis) < 0.01)
	rep := res.Report.(*ngca.LSReport)
	fmt.Printf("%s: %d centers, %d folds\n", res.Method, rep.NumCenters, rep.Folds)
	// Output:
	// subspace error below 0.01: true
	// LSNGCA: 100 centers, 5 folds
}

func ExampleLSLDG() {
	// Standard normal data in 2-D: ∇log p(x) = −x.
	rng := rand.New(rand.NewPCG(9, 10))
	x := mat.NewDense(2000, 2, nil)
	for i := 0; i < 2000; i++ {
		x.Set(i, 0, rng.NormFloat64())
		x.Set(i, 1, rng.NormFloat64())
	}
	model, err := (&ngca.LSLDG{Src: rand.NewPCG(11, 12)}).Fit(context.Background(), x)
	if err != nil {
		log.Fatal(err)
	}
	var g mat.Dense
	model.GradientTo(&g, mat.NewDense(1, 2, []float64{1, -0.5}))
	fmt.Printf("∇log p(1, −0.5) ≈ (%.1f, %.1f)\n", g.At(0, 0), g.At(0, 1))

	var h mat.Dense
	model.JacobianTo(&h, []float64{0, 0})
	fmt.Printf("∇²log p(0, 0) diagonal within 0.2 of −1: %v\n",
		math.Abs(h.At(0, 0)+1) < 0.2 && math.Abs(h.At(1, 1)+1) < 0.2)
	// Output:
	// ∇log p(1, −0.5) ≈ (-1.0, 0.5)
	// ∇²log p(0, 0) diagonal within 0.2 of −1: true
}

func ExampleSubspaceError() {
	truth := mat.NewDense(3, 1, []float64{1, 0, 0})
	// An estimate 30° away from the truth: ε = sin²30° = 0.25.
	est := mat.NewDense(3, 1, []float64{math.Cos(math.Pi / 6), math.Sin(math.Pi / 6), 0})
	fmt.Printf("%.2f\n", ngca.SubspaceError(truth, est))
	// Orthogonal subspaces.
	fmt.Printf("%.2f\n", ngca.SubspaceError(truth, mat.NewDense(3, 1, []float64{0, 0, 5})))
	// Output:
	// 0.25
	// 1.00
}

// ExampleResult_MarshalJSON saves a fit as JSON and loads it back, as a
// program that fits once and projects later would; "ngca transform -basis"
// reads the same file.
func ExampleResult_MarshalJSON() {
	x, _, _ := ngcatest.Artificial{N: 500, D: 5}.Sample(rand.NewPCG(1, 2))
	res, _ := (&ngca.IMAK{Dim: 2}).Fit(context.Background(), x)
	data, err := json.Marshal(res) // or json.NewEncoder(file).Encode(res)
	if err != nil {
		panic(err)
	}
	var loaded ngca.Result
	if err := json.Unmarshal(data, &loaded); err != nil {
		panic(err)
	}
	fmt.Println(loaded.Method, mat.Equal(loaded.Basis, res.Basis))
	// Output:
	// IMAK true
}
