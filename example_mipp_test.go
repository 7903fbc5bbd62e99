package ngca_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

func ExampleMIPP() {
	// The paper's data (d): a super- and sub-Gaussian signal among 8
	// Gaussian noise columns.
	x, truth, err := ngcatest.Artificial{Dist: ngcatest.SuperSubGaussian, N: 1000}.Sample(rand.NewPCG(1, 2))
	if err != nil {
		log.Fatal(err)
	}

	// The paper's settings: four families of 1000 index functions each,
	// 10 iterations, threshold 1.6.
	res, err := (&ngca.MIPP{Dim: 2, Src: rand.NewPCG(3, 4)}).Fit(context.Background(), x)
	if err != nil {
		log.Fatal(err)
	}
	d, m := res.Basis.Dims()
	fmt.Printf("basis: %d×%d\n", d, m)
	fmt.Printf("subspace error below 0.02: %v\n", ngca.SubspaceError(truth, res.Basis) < 0.02)
	fmt.Printf("clear eigenvalue gap after 2: %v\n", res.Eigenvalues[1] > 10*res.Eigenvalues[2])
	kept := res.Report.(*ngca.MIPPReport).KeptFunctions
	fmt.Printf("index functions kept: between 2 and 4000: %v\n", kept >= 2 && kept <= 4000)
	// Output:
	// basis: 10×2
	// subspace error below 0.02: true
	// clear eigenvalue gap after 2: true
	// index functions kept: between 2 and 4000: true
}
