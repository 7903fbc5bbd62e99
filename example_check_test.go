package ngca_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

func ExampleCheck() {
	// The paper's data (a), once with the signal on the first two columns
	// and once turned by a random rotation of all ten columns. WF-LSNGCA
	// as published needs the subspace along the columns; nobody fitting
	// real data knows whether it is, so check the fit.
	for _, rotate := range []bool{false, true} {
		x, truth, err := ngcatest.Artificial{N: 1000, Rotate: rotate}.Sample(rand.NewPCG(1, 2))
		if err != nil {
			log.Fatal(err)
		}
		est := &ngca.WFLSNGCA{Dim: 2, Src: rand.NewPCG(3, 4)}
		res, err := est.Fit(context.Background(), x)
		if err != nil {
			log.Fatal(err)
		}
		rep, err := ngca.Check(context.Background(), est, x, res, ngca.CheckOptions{Src: rand.NewPCG(5, 6)})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("turned: %-5v  subspace error above 0.1: %-5v  doubtful: %v\n",
			rotate, ngca.SubspaceError(truth, res.Basis) > 0.1, rep.Doubtful)
	}
	// Output:
	// turned: false  subspace error above 0.1: false  doubtful: false
	// turned: true   subspace error above 0.1: true   doubtful: true
}
