package checkstudy_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/synth"
)

// TestCheckSpreadScale, a calibration of ngca.Check beside the check
// study's: Spread estimates the fit's own error whatever the
// share of the rows the refits see. Over seeded data sets on which MIPP's
// error is sampling noise (signal b turned, n = 2000, d = 10), the median
// ratio of Spread to the true ε lies within a factor 2.5 of 1 for halves
// and for the default three quarters, and the two agree within a factor 2.
func TestCheckSpreadScale(t *testing.T) {
	if testing.Short() {
		t.Skip("checks several fits")
	}
	ratios := map[float64][]float64{}
	for seed := range uint64(6) {
		x, truth := checkData(t, "b", synth.Spec{Mix: synth.Turn}, 40+seed)
		est := &ngca.MIPP{Dim: 2, Src: rand.NewPCG(seed, 1)}
		res, err := est.Fit(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		eps := ngca.SubspaceError(truth, res.Basis)
		for _, q := range []float64{0.5, 0} {
			rep, err := ngca.Check(context.Background(), est, x, res, ngca.CheckOptions{Share: q, Refits: 6, Src: rand.NewPCG(seed, 2)})
			if err != nil {
				t.Fatal(err)
			}
			if want := int(map[float64]float64{0.5: 0.5, 0: 0.75}[q] * 2000); rep.RefitRows != want {
				t.Fatalf("share %g: RefitRows %d, want %d", q, rep.RefitRows, want)
			}
			ratios[q] = append(ratios[q], rep.Spread/eps)
		}
	}
	med := map[float64]float64{}
	for q, r := range ratios {
		slices.Sort(r)
		med[q] = (r[2] + r[3]) / 2
		t.Logf("share %g: Spread/ε %.3g, median %.3g", q, r, med[q])
		if med[q] < 1/2.5 || med[q] > 2.5 {
			t.Errorf("share %g: median Spread/ε = %.3g, want within a factor 2.5 of 1", q, med[q])
		}
	}
	if r := med[0] / med[0.5]; r < 0.5 || r > 2 {
		t.Errorf("Spread/ε: %.3g with three quarters, %.3g with halves; want them within a factor 2", med[0], med[0.5])
	}
}

// checkData draws a data set of the orientation study's generator (the
// root package's check tests draw theirs the same way).
func checkData(t *testing.T, signal string, spec synth.Spec, seed uint64) (x, truth *mat.Dense) {
	t.Helper()
	sig, err := synth.Lookup(signal)
	if err != nil {
		t.Fatal(err)
	}
	spec.Signal = sig
	x, truth, err = spec.Sample(rand.NewPCG(seed, 2027))
	if err != nil {
		t.Fatal(err)
	}
	return x, truth
}
