package screen

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var figures = flag.Bool("figures", false, "print the figures of docs/rows-set-aside.md")

// tDraw returns a Student t value with nu degrees of freedom, standardised.
func tDraw(rng *rand.Rand, nu int) float64 {
	var c float64
	for range nu {
		g := rng.NormFloat64()
		c += g * g
	}
	return rng.NormFloat64() / math.Sqrt(c/float64(nu)) / math.Sqrt(float64(nu)/float64(nu-2))
}

// TestFigures prints the screen's figures that docs/your-data.md quotes:
// go test -run TestFigures -v ./internal/screen -args -figures
func TestFigures(t *testing.T) {
	if !*figures {
		t.Skip("run with -args -figures")
	}
	count := func(x *mat.Dense) int {
		s, err := Fit(x)
		if err != nil {
			t.Fatal(err)
		}
		return len(s.RowsOf(x))
	}
	fmt.Println("Gaussian tables: tables with a row set aside, of those tried")
	for _, n := range []int{30, 100, 400, 2000, 20000} {
		for _, d := range []int{2, 5, 10, 20, 40} {
			if n <= 2*(d+1) {
				continue
			}
			reps := map[int]int{30: 200, 100: 200, 400: 100, 2000: 20, 20000: 5}[n]
			any := 0
			rng := rand.New(rand.NewPCG(uint64(n), uint64(d)))
			for range reps {
				x := mat.NewDense(n, d, nil)
				for i := range n {
					for j := range d {
						x.Set(i, j, rng.NormFloat64())
					}
				}
				if count(x) > 0 {
					any++
				}
			}
			fmt.Printf("  n = %5d, d = %2d: %d of %d\n", n, d, any, reps)
		}
	}
	fmt.Println("Student t signals in 2 of 10 columns (20 tables each): tables with a row set aside, rows set aside in all")
	for _, nu := range []int{3, 5} {
		for _, n := range []int{200, 2000, 20000} {
			rng := rand.New(rand.NewPCG(uint64(nu), uint64(n)))
			any, tot := 0, 0
			for range 20 {
				x := mat.NewDense(n, 10, nil)
				for i := range n {
					for j := range 10 {
						if j < 2 {
							x.Set(i, j, tDraw(rng, nu))
						} else {
							x.Set(i, j, rng.NormFloat64())
						}
					}
				}
				k := count(x)
				tot += k
				if k > 0 {
					any++
				}
			}
			fmt.Printf("  t%d, n = %5d: %d of 20 tables, %d rows\n", nu, n, any, tot)
		}
	}
	fmt.Println("One row at a given norm among 800 Gaussian rows of 20 columns (20 tables): set aside")
	rng := rand.New(rand.NewPCG(9, 9))
	for _, norm := range []float64{8, 10, 12, 14, 16, 18, 20} {
		caught := 0
		for range 20 {
			x := mat.NewDense(801, 20, nil)
			for i := range 800 {
				for j := range 20 {
					x.Set(i, j, rng.NormFloat64())
				}
			}
			u := make([]float64, 20)
			var ss float64
			for j := range u {
				u[j] = rng.NormFloat64()
				ss += u[j] * u[j]
			}
			for j := range u {
				x.Set(800, j, u[j]/math.Sqrt(ss)*norm)
			}
			s, _ := Fit(x)
			if r := s.RowsOf(x); len(r) == 1 && r[0] == 800 {
				caught++
			}
		}
		fmt.Printf("  norm %2g: %d of 20\n", norm, caught)
	}
	fmt.Println("The fewest Gaussian rows in which one value of 1e6 is set aside")
	for _, d := range []int{2, 5, 10, 20, 40} {
		for n := 2*(d+1) + 1; n < 2000; n++ {
			x := mat.NewDense(n, d, nil)
			for i := range n {
				for j := range d {
					x.Set(i, j, rng.NormFloat64())
				}
			}
			x.Set(0, 0, 1e6)
			if count(x) == 1 {
				fmt.Printf("  d = %2d: n = %d\n", d, n)
				break
			}
		}
	}
}
