// Command quickstart is the README's first program: fit the recommended
// estimator to data with a known subspace, check the fit, save and load it.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

func main() {
	ctx := context.Background()
	// x is n×d, rows are observations: the paper's data, a 2-D signal among
	// 8 correlated Gaussian noise columns (n = 2000), with the true subspace.
	x, truth, err := ngcatest.Artificial{}.Sample(rand.NewPCG(1, 2))
	if err != nil {
		log.Fatal(err)
	}

	// The zero value with Dim set is the recommended setting; Src seeds it.
	est := &ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(1, 2)}
	res, err := est.Fit(ctx, x)
	if err != nil {
		log.Fatal(err) // wraps a sentinel: errors.Is(err, ngca.ErrConstant), ...
	}
	d, m := res.Basis.Dims()
	fmt.Printf("%s: basis %d×%d, error against the truth %.1g\n",
		res.Method, d, m, ngca.SubspaceError(truth, res.Basis))

	var z mat.Dense
	res.ProjectTo(&z, x) // the rows' coordinates in the subspace, (x − mean)·Basis
	rows, cols := z.Dims()
	fmt.Printf("projected: %d×%d\n", rows, cols)

	// Can the fit be trusted without the truth? Refits and second opinions.
	chk, err := ngca.Check(ctx, est, x, res, ngca.CheckOptions{Src: rand.NewPCG(1, 3)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("doubtful:", chk.Doubtful)

	// Save the fit and load it back (the format of "ngca fit -json").
	data, err := json.Marshal(res)
	if err != nil {
		log.Fatal(err)
	}
	var loaded ngca.Result
	if err := json.Unmarshal(data, &loaded); err != nil {
		log.Fatal(err)
	}
	fmt.Println("loaded the same basis:", mat.Equal(loaded.Basis, res.Basis))
}
