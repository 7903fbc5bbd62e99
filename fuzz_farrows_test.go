package ngca_test

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
)

// FuzzFarRows runs FarRows on a small matrix decoded from the fuzz input
// (decodeFuzz): it must return either an error wrapping one of the
// package's sentinels or distinct row indices, ascending and in range.
// Then, from the input's first bytes as a seed, a size (10 to 2000 rows,
// 1 to 40 columns) and a covariance, it draws a clean Gaussian table, on
// which FarRows must set aside at most max(1, ⌊n/100⌋) rows, the share
// that FarRows' doc comment states.
func FuzzFarRows(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{40, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 3})
	f.Add([]byte{64, 6, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		rows, err := ngca.FarRows(fc.x)
		if err != nil {
			if rows != nil {
				t.Fatalf("rows %v and error %v", rows, err)
			}
			checkFitError(t, err)
		} else {
			n, _ := fc.x.Dims()
			if !slices.IsSorted(rows) || len(slices.Compact(slices.Clone(rows))) != len(rows) || len(rows) > 0 && (rows[0] < 0 || rows[len(rows)-1] >= n) {
				t.Fatalf("rows %v of %d", rows, n)
			}
		}

		var seed [8]byte
		copy(seed[:], data)
		rng := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:]), 7))
		n, d := 10+rng.IntN(1991), 1+rng.IntN(40)
		mix := mat.NewDense(d, d, nil) // a random covariance, condition up to 10⁶
		for i := range d {
			for j := range d {
				mix.Set(i, j, rng.NormFloat64())
			}
			mix.Set(i, i, mix.At(i, i)*float64(1+rng.IntN(1000)))
		}
		g := mat.NewDense(n, d, nil)
		for i := range n {
			for j := range d {
				g.Set(i, j, rng.NormFloat64())
			}
		}
		var x mat.Dense
		x.Mul(g, mix)
		got, err := ngca.FarRows(&x)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > max(1, n/100) {
			t.Fatalf("a Gaussian table of %d×%d: %d rows set aside, more than max(1, n/100)", n, d, len(got))
		}
	})
}
