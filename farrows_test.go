package ngca_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/synth"
)

// gaussRows returns n×d independent standard Gaussian rows.
func gaussRows(n, d int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 31))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x
}

// studentTurned returns n rows of m independent standardised Student t
// columns with nu degrees of freedom among d − m Gaussian ones, all turned
// by a random rotation.
func studentTurned(n, d, m, nu int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 32))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			g := rng.NormFloat64()
			if j < m {
				var c float64
				for range nu {
					h := rng.NormFloat64()
					c += h * h
				}
				g = g / math.Sqrt(c/float64(nu)) / math.Sqrt(float64(nu)/float64(nu-2))
			}
			x.Set(i, j, g)
		}
	}
	var q mat.QR
	q.Factorize(gaussRows(d, d, seed+1000))
	var rot, y mat.Dense
	q.QTo(&rot)
	y.Mul(x, &rot)
	return &y
}

// TestFarRowsDirt checks that FarRows names what a table's dirt puts far
// out, and only that: one gross cell, a missing-value code in 3 rows of a
// column, one row far out only jointly (norm 20 among 20 Gaussian
// columns, no cell beyond 4.5); and that it keeps groups that carry a
// direction's spread together: the same code in 30 rows (the command's
// rule for codes names those), a cluster of a tenth of the rows.
func TestFarRowsDirt(t *testing.T) {
	uni, _ := synth.Lookup("uniform")
	clean, _, err := synth.Spec{Signal: uni, N: 1500, D: 6, Mix: synth.Turn}.Sample(rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if rows, err := ngca.FarRows(clean); err != nil || len(rows) != 0 {
		t.Fatalf("clean table: FarRows = %v, %v; want none", rows, err)
	}
	for _, tc := range []struct {
		name string
		edit func(x *mat.Dense)
		want []int
	}{
		{"one cell at 1e6", func(x *mat.Dense) { x.Set(57, 3, 1e6) }, []int{57}},
		{"one cell at 1e300", func(x *mat.Dense) { x.Set(57, 3, 1e300) }, []int{57}},
		{"one cell at 30 and one at -1e5", func(x *mat.Dense) { x.Set(57, 3, 30); x.Set(900, 0, -1e5) }, []int{57, 900}},
		{"-999 in 3 rows", func(x *mat.Dense) { x.Set(5, 1, -999); x.Set(500, 1, -999); x.Set(1400, 1, -999) }, []int{5, 500, 1400}},
		{"-999 in 30 rows", func(x *mat.Dense) {
			for i := 100; i < 1300; i += 40 {
				x.Set(i, 1, -999)
			}
		}, nil},
		{"a tenth of the rows at 50", func(x *mat.Dense) {
			for i := 0; i < 1500; i += 10 {
				x.Set(i, 2, 50+x.At(i, 2))
			}
		}, nil},
	} {
		x := mat.DenseCopyOf(clean)
		tc.edit(x)
		if rows, err := ngca.FarRows(x); err != nil || !slices.Equal(rows, tc.want) {
			t.Errorf("%s: FarRows = %v, %v; want %v", tc.name, rows, err, tc.want)
		}
	}
	const n, d = 800, 20
	far := gaussRows(n, d, 5)
	u := make([]float64, d)
	for j := range u {
		u[j] = 20 / math.Sqrt(d) * float64(1-2*(j%2)) // norm 20, every cell ±4.47
	}
	far.SetRow(400, u)
	if rows, err := ngca.FarRows(far); err != nil || !slices.Equal(rows, []int{400}) {
		t.Errorf("one row at norm 20: FarRows = %v, %v; want [400]", rows, err)
	}
}

// TestFarRowsGaussian checks the rule's chance of naming a row of clean
// Gaussian data, which its second term keeps near α = 1/100 for any n and
// d: among 300 tables of 30 to 2000 rows and 2 to 40 columns, more than 12
// with a row named has probability below 10⁻³ at α.
func TestFarRowsGaussian(t *testing.T) {
	named := 0
	k := 0
	for _, n := range []int{30, 100, 400, 2000} {
		for _, d := range []int{2, 5, 10, 20, 40} {
			if n <= 2*(d+1) {
				continue
			}
			reps := 20
			if n == 2000 {
				reps = 5
			}
			for range reps {
				k++
				rows, err := ngca.FarRows(gaussRows(n, d, uint64(k)))
				if err != nil {
					t.Fatal(err)
				}
				if len(rows) > 0 {
					named++
				}
			}
		}
	}
	if named > 12 || k < 250 {
		t.Errorf("%d of %d Gaussian tables had a row set aside", named, k)
	}
}

// TestFarRowsHeavyTails checks that heavy tails are signal, not dirt: on
// clean signals turned among Gaussian columns at n = 20 000, Student t3
// and t5, Laplace and the paper's four, FarRows sets aside at most 0.1 %
// of the rows; and when it sets any aside, the robust variant's fit
// without them is as accurate as with them (ε within 0.005 or 20 %).
func TestFarRowsHeavyTails(t *testing.T) {
	if testing.Short() {
		t.Skip("tables of 20 000 rows")
	}
	const n, d, m = 20000, 10, 2
	type table struct {
		name  string
		x     *mat.Dense
		truth *mat.Dense
	}
	var tables []table
	for _, nu := range []int{3, 5} {
		for seed := range uint64(3) {
			x := studentTurned(n, d, m, nu, seed)
			tables = append(tables, table{name: "t" + string(rune('0'+nu)), x: x})
		}
	}
	for _, name := range []string{"laplace", "a", "b", "c", "d", "student"} {
		s, _ := synth.Lookup(name)
		x, truth, err := synth.Spec{Signal: s, N: n, D: d, Mix: synth.Turn}.Sample(rand.NewPCG(11, 12))
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, table{name, x, truth})
	}
	for _, tb := range tables {
		rows, err := ngca.FarRows(tb.x)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) > n/1000 {
			t.Errorf("%s: %d of %d rows set aside, more than 0.1 %%", tb.name, len(rows), n)
		}
		if len(rows) == 0 || tb.truth == nil {
			continue
		}
		fit := func(x mat.Matrix) float64 {
			res, err := (&ngca.RobustWFLSNGCA{Dim: m, Src: rand.NewPCG(1, 2)}).Fit(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			return ngca.SubspaceError(tb.truth, res.Basis)
		}
		all, kept := fit(tb.x), fit(dropRows(tb.x, rows))
		if kept > max(all+0.005, 1.2*all) {
			t.Errorf("%s: ε %.3g without the %d rows set aside, %.3g with them", tb.name, kept, len(rows), all)
		}
	}
}

// dropRows returns x without the rows (ascending).
func dropRows(x *mat.Dense, rows []int) *mat.Dense {
	n, d := x.Dims()
	out := mat.NewDense(n-len(rows), d, nil)
	r := 0
	for i := range n {
		if slices.Contains(rows, i) {
			continue
		}
		out.SetRow(r, x.RawRowView(i))
		r++
	}
	return out
}

// TestFarRowsErrors checks FarRows' errors and its tiny tables.
func TestFarRowsErrors(t *testing.T) {
	if _, err := ngca.FarRows(nil); !errors.Is(err, ngca.ErrShape) {
		t.Errorf("nil: %v, want ErrShape", err)
	}
	x := gaussRows(50, 3, 1)
	x.Set(4, 1, math.NaN())
	if _, err := ngca.FarRows(x); !errors.Is(err, ngca.ErrNonFinite) {
		t.Errorf("NaN: %v, want ErrNonFinite", err)
	}
	tiny := gaussRows(8, 2, 1)
	tiny.Set(0, 0, 1e9)
	if rows, err := ngca.FarRows(tiny); err != nil || rows != nil {
		t.Errorf("8 rows: %v, %v; want nothing set aside", rows, err)
	}
}

// TestCheckRowsDecide checks that Check calls a fit that one gross cell
// decides doubtful, names that row first, and advises leaving the rows out,
// not more rows; and that on the clean table the refit without the farthest
// rows does not move the fit.
func TestCheckRowsDecide(t *testing.T) {
	if testing.Short() {
		t.Skip("two fits and checks at n = 1500")
	}
	ctx := context.Background()
	uni, _ := synth.Lookup("uniform")
	clean, _, err := synth.Spec{Signal: uni, N: 1500, D: 6, Mix: synth.Turn}.Sample(rand.NewPCG(7, 7))
	if err != nil {
		t.Fatal(err)
	}
	gross := mat.DenseCopyOf(clean)
	gross.Set(57, 3, 1e6)
	for _, tc := range []struct {
		x      *mat.Dense
		decide bool
	}{{clean, false}, {gross, true}} {
		est := &ngca.RobustWFLSNGCA{Dim: 2, Src: rand.NewPCG(1, 2)}
		res, err := est.Fit(ctx, tc.x)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := ngca.Check(ctx, est, tc.x, res, ngca.CheckOptions{Src: rand.NewPCG(1, 3)})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.FarRows) < 15 {
			t.Errorf("%d rows left out of the refit, want at least 15 (1 %%)", len(rep.FarRows))
		}
		if rep.RowsDecide != tc.decide {
			t.Errorf("RowsDecide = %v (moved %.3g, limit %.3g), want %v", rep.RowsDecide, rep.FarRowsMove, rep.FarRowsLimit, tc.decide)
			continue
		}
		if !tc.decide {
			continue
		}
		if !rep.Doubtful || rep.FarRows[0] != 57 || rep.FarRowsSetAside != 1 {
			t.Errorf("doubtful %v, rows %v, set aside %d; want doubtful, 57 first, 1", rep.Doubtful, rep.FarRows[:3], rep.FarRowsSetAside)
		}
		all := strings.Join(rep.Reasons, "; ")
		if !strings.HasPrefix(all, "decided by a few rows") || !strings.Contains(all, "leave those rows out") || strings.Contains(all, "more rows") {
			t.Errorf("reasons %q: want the rows first, the advice to leave them out and none of more rows", all)
		}
	}
}
