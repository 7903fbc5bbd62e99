package ngca_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

func ExampleRobustWFLSNGCA() {
	// The paper's data (c), a 2-D sub-Gaussian signal among 8 correlated
	// Gaussian noise columns: once on the first two columns, as in the
	// paper, and once turned by a random rotation, which the published
	// least-squares methods cannot follow.
	for _, turned := range []bool{false, true} {
		x, truth, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, Rotate: turned}.Sample(rand.NewPCG(1, 2))
		if err != nil {
			log.Fatal(err)
		}
		res, err := (&ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(3, 4)}).Fit(context.Background(), x)
		if err != nil {
			log.Fatal(err)
		}
		rep := res.Report.(*ngca.RobustReport)
		eps := ngca.SubspaceError(truth, res.Basis)
		fmt.Printf("turned %-5v: %s estimate, subspace error below 1e-6: %v, below 0.01: %v\n",
			turned, rep.Estimate, eps < 1e-6, eps < 0.01)
	}
	// Output:
	// turned false: axes estimate, subspace error below 1e-6: true, below 0.01: true
	// turned true : equivariant estimate, subspace error below 1e-6: false, below 0.01: true
}
