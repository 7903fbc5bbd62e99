package ngca

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAlignStepExplicitCenters: explicit centers equal to some rows of the
// data must give exactly the fit of drawing those rows, in a turned frame
// too (the centers must be carried into the frame with the data).
func TestAlignStepExplicitCenters(t *testing.T) {
	x, _, err := Artificial{Dist: SubGaussian, N: 400, D: 5}.Sample(rand.NewPCG(9, 9))
	if err != nil {
		t.Fatal(err)
	}
	rows := []int{3, 17, 40, 99, 150, 151, 300, 399, 7, 8, 250, 333}
	c := mat.NewDense(len(rows), 5, nil)
	for k, i := range rows {
		c.SetRow(k, x.RawRowView(i))
	}
	pr1, err := prepare(context.Background(), x, config{kernel: true, centers: c}, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	pr2, err := prepare(context.Background(), x, config{kernel: true}, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	pr2.centerRows = rows
	u := RandomRotation(rand.NewPCG(5, 5), 5)
	pr1.rng, pr2.rng = rand.New(rand.NewPCG(7, 7)), rand.New(rand.NewPCG(7, 7))
	b1, _, err := alignStep(context.Background(), pr1, u, 2, "align")
	if err != nil {
		t.Fatal(err)
	}
	b2, _, err := alignStep(context.Background(), pr2, u, 2, "align")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		for j := 0; j < 2; j++ {
			if math.Abs(b1.At(i, j)-b2.At(i, j)) > 1e-10 {
				t.Fatalf("explicit and drawn centers differ: %v vs %v", mat.Formatted(b1), mat.Formatted(b2))
			}
		}
	}
}

// TestKeepAtLeast checks that the null test keeps the coordinates closest
// to passing when fewer than k pass, and changes nothing otherwise.
func TestKeepAtLeast(t *testing.T) {
	z := []float64{-1, -5, 0.5, -2, -0.5}
	for _, tc := range []struct {
		null []bool
		k    int
		want []bool
	}{
		{[]bool{true, false, true, true, true}, 2, []bool{true, false, true, false, true}},
		{[]bool{true, true, true, true, true}, 3, []bool{false, false, true, false, true}},
		{[]bool{true, false, true, false, true}, 2, []bool{true, false, true, false, true}},
		{[]bool{false, false, false, false, false}, 2, []bool{false, false, false, false, false}},
	} {
		got := append([]bool(nil), tc.null...)
		keepAtLeast(got, z, tc.k)
		for j := range got {
			if got[j] != tc.want[j] {
				t.Errorf("keepAtLeast(%v, %d) = %v, want %v", tc.null, tc.k, got, tc.want)
				break
			}
		}
	}
}
