package ngca_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

func ExampleSNGCA() {
	// The paper's data (d), super- and sub-Gaussian, among 8 Gaussian noise
	// columns whose variances span 10^−0.5 to 10^0.5 (r = 0.5); SNGCA does
	// not whiten.
	x, truth, err := ngcatest.Artificial{Dist: ngcatest.SuperSubGaussian, N: 1000, R: 0.5}.Sample(rand.NewPCG(1, 2))
	if err != nil {
		log.Fatal(err)
	}
	res, err := (&ngca.SNGCA{Dim: 2, Src: rand.NewPCG(3, 4)}).Fit(context.Background(), x)
	if err != nil {
		log.Fatal(err)
	}
	rep := res.Report.(*ngca.SNGCAReport)
	fmt.Printf("converged: %v\n", rep.Converged)
	fmt.Printf("subspace error below 0.01: %v\n", ngca.SubspaceError(truth, res.Basis) < 0.01)
	fmt.Printf("clear eigenvalue gap after 2: %v\n", res.Eigenvalues[1] > 10*res.Eigenvalues[2])
	// Output:
	// converged: true
	// subspace error below 0.01: true
	// clear eigenvalue gap after 2: true
}
