package ngca_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

func ExampleIMAK() {
	// The paper's data (c): a sub-Gaussian signal, uniform on the unit
	// disk, among 8 Gaussian noise columns, turned by a random rotation.
	x, truth, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, Rotate: true}.Sample(rand.NewPCG(1, 2))
	if err != nil {
		log.Fatal(err)
	}

	// The defaults: α = 0.5, the metric narrowing onto the estimate over
	// the passes. The fit is deterministic: it needs no source.
	res, err := (&ngca.IMAK{Dim: 2}).Fit(context.Background(), x)
	if err != nil {
		log.Fatal(err)
	}
	rep := res.Report.(*ngca.IMAKReport)
	d, m := res.Basis.Dims()
	fmt.Printf("basis: %d×%d\n", d, m)
	fmt.Printf("subspace error below 0.01: %v\n", ngca.SubspaceError(truth, res.Basis) < 0.01)
	fmt.Printf("clear eigenvalue gap after 2: %v\n", res.Eigenvalues[1] > 10*res.Eigenvalues[2])
	fmt.Printf("converged in fewer than 30 passes: %v\n", rep.Converged && rep.Passes < 30)
	// Output:
	// basis: 10×2
	// subspace error below 0.01: true
	// clear eigenvalue gap after 2: true
	// converged in fewer than 30 passes: true
}
