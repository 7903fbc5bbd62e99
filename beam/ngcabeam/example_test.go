package ngcabeam_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/beam/ngcabeam"
	"github.com/ngca-go/ngca/ngcatest"
)

// reportFn prints a fit's subspace error against the true subspace.
type reportFn struct {
	Truth []float64 // d×2, row-major
}

func (f *reportFn) ProcessElement(fit ngcabeam.Fitted) error {
	res, err := fit.Decode()
	if err != nil {
		return err
	}
	d, _ := res.Basis.Dims()
	e := ngca.SubspaceError(mat.NewDense(d, 2, f.Truth), res.Basis)
	fmt.Printf("%s on %d of the %d rows: ε < 0.01: %v\n", res.Method, fit.Rows, fit.Of, e < 0.01)
	return nil
}

func init() { register.DoFn1x1[ngcabeam.Fitted, error](&reportFn{}) }

// A pipeline that fits WF-LSNGCA to a sample of 2000 of 5000 rows. The
// rows come from vectors here; Read reads them from files. The example
// runs on prism, Beam's local runner; the same pipeline runs on
// Dataflow, Flink or Spark.
func Example() {
	x, truth, err := ngcatest.Artificial{N: 5000}.Sample(rand.NewPCG(1, 2))
	if err != nil {
		log.Fatal(err)
	}
	vectors := make([][]float64, 5000)
	for i := range vectors {
		vectors[i] = x.RawRowView(i)
	}
	p, s := beam.NewPipelineWithRoot()
	rows := ngcabeam.FromVectors(s, beam.CreateList(s, vectors))
	fit := ngcabeam.Fit(s, rows, ngcabeam.FitOptions{Method: "wflsngca", Dim: 2, Sample: 2000, Seed: 1})
	beam.ParDo0(s, &reportFn{Truth: truth.RawMatrix().Data}, fit)
	if _, err := beam.Run(context.Background(), "prism", p); err != nil {
		log.Fatal(err)
	}
	// Output:
	// WF-LSNGCA on 2000 of the 5000 rows: ε < 0.01: true
}
