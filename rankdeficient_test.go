package ngca_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

// Rank-deficient data: a column that is a copy of another (up to scale and
// shift) or a linear combination of others. Their density is degenerate,
// which no estimator's model describes; every estimator leaves such
// columns out, fits the others and names the left-out columns in
// Result.Dependent. LSLDG, which models the density of every column,
// returns an ErrSingular error naming the column.

// withColumn returns x with a column f(row) appended.
func withColumn(x *mat.Dense, f func(row []float64) float64) *mat.Dense {
	n, d := x.Dims()
	y := mat.NewDense(n, d+1, nil)
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		copy(y.RawRowView(i), row)
		y.Set(i, d, f(row))
	}
	return y
}

// allFitters lists every estimator, LSLDG included, as a function from
// data to an error.
func allFitters(dim int) map[string]func(x mat.Matrix) error {
	small := func(ec estimatorCase) func(x mat.Matrix) error {
		return func(x mat.Matrix) error {
			_, err := ec.new(dim, 0, nil).Fit(context.Background(), x)
			return err
		}
	}
	fs := map[string]func(x mat.Matrix) error{
		"LSLDG": func(x mat.Matrix) error {
			_, err := (&ngca.LSLDG{}).Fit(context.Background(), x)
			return err
		},
	}
	for _, ec := range estimators {
		fs[ec.name] = small(ec)
	}
	return fs
}

// withoutColumn returns x without column j.
func withoutColumn(x *mat.Dense, j int) *mat.Dense {
	n, d := x.Dims()
	y := mat.NewDense(n, d-1, nil)
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		copy(y.RawRowView(i), row[:j])
		copy(y.RawRowView(i)[j:], row[j+1:])
	}
	return y
}

// withZeroRow returns b with a zero row inserted at index j.
func withZeroRow(b *mat.Dense, j int) *mat.Dense {
	r, c := b.Dims()
	out := mat.NewDense(r+1, c, nil)
	for i := 0; i < r; i++ {
		k := i
		if i >= j {
			k++
		}
		out.SetRow(k, b.RawRowView(i))
	}
	return out
}

// checkLeftOut fits every estimator to y, whose column dep depends on the
// others, and to y without that column, and checks that the first fit
// names the column in Dependent and is the second with a zero row there,
// bit for bit; LSLDG must refuse y with ErrSingular saying want.
func checkLeftOut(t *testing.T, name string, y *mat.Dense, dep int, want string, all bool) {
	t.Helper()
	x := withoutColumn(y, dep)
	for _, ec := range estimators {
		if !all && ec.name != "MIPP" {
			continue
		}
		got, err := ec.new(2, 0, nil).Fit(context.Background(), y)
		if err != nil {
			t.Errorf("%s, %s: %v", name, ec.name, err)
			continue
		}
		ref, err := ec.new(2, 0, nil).Fit(context.Background(), x)
		if err != nil {
			t.Fatalf("%s, %s without the column: %v", name, ec.name, err)
		}
		if len(got.Dependent) != 1 || got.Dependent[0] != dep {
			t.Errorf("%s, %s: Dependent = %v, want [%d]", name, ec.name, got.Dependent, dep)
		}
		if !mat.Equal(got.Basis, withZeroRow(ref.Basis, dep)) {
			t.Errorf("%s, %s: basis\n%v\nis not the fit without column %d with a zero row there\n%v",
				name, ec.name, mat.Formatted(got.Basis), dep, mat.Formatted(ref.Basis))
		}
		if _, d := y.Dims(); len(got.Mean) != d || (got.Eigenvalues != nil && len(got.Eigenvalues) != d-1) {
			t.Errorf("%s, %s: %d means and %d eigenvalues for %d columns, one left out", name, ec.name, len(got.Mean), len(got.Eigenvalues), d)
		}
	}
	_, err := (&ngca.LSLDG{}).Fit(context.Background(), y)
	if !errors.Is(err, ngca.ErrSingular) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s, LSLDG: error %v, want ErrSingular saying %q", name, err, want)
	}
}

func TestRankDeficient(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every estimator four times")
	}
	t.Parallel()
	x, _ := invariantData(t) // 1000×6
	// Every estimator on two cases, MIPP alone on the others.
	for _, tc := range []struct {
		name string
		col  func(row []float64) float64
		want string
		all  bool
	}{
		{"copy of a signal column", func(r []float64) float64 { return r[0] }, "column index 6 (0-based) is a copy of column index 0", true},
		{"copy of a noise column", func(r []float64) float64 { return r[3] }, "column index 6 (0-based) is a copy of column index 3", false},
		{"negated copy", func(r []float64) float64 { return -r[1] }, "column index 6 (0-based) is a copy of column index 1", false},
		{"scaled and shifted copy", func(r []float64) float64 { return 1e3*r[4] - 7e5 }, "column index 6 (0-based) is a copy of column index 4", false},
		{"sum of two", func(r []float64) float64 { return r[0] + 2*r[4] }, "column index 6 (0-based) is a linear combination of column indices 0 and 4", false},
		{"sum of three", func(r []float64) float64 { return 0.3*r[1] - 1.7*r[2] + r[5] }, "column index 6 (0-based) is a linear combination of column indices 1, 2 and 5", true},
	} {
		checkLeftOut(t, tc.name, withColumn(x, tc.col), 6, tc.want, tc.all)
	}
}

// TestRankDeficientInside: the dependent column need not be the last; the
// column that is a combination of the ones before it is left out.
func TestRankDeficientInside(t *testing.T) {
	t.Parallel()
	x, _ := invariantData(t)
	y := transformed(x, func(i, j int, v float64) float64 {
		if j == 2 {
			return x.At(i, 1) - x.At(i, 0)
		}
		return v
	})
	checkLeftOut(t, "column 2 = column 1 − column 0", y, 2, "column index 2 (0-based) is a linear combination of column indices 0 and 1", true)
}

// TestOneHotGroups: two one-hot groups that each sum to one, and a total
// column: the last column of each group and the total are left out, the
// basis has zero rows there, and a Dim that the remaining columns cannot
// hold is an ErrDim error.
func TestOneHotGroups(t *testing.T) {
	t.Parallel()
	x, _ := invariantData(t) // 1000×6
	n, d := x.Dims()
	rng := rand.New(rand.NewPCG(5, 5))
	y := mat.NewDense(n, d+3+2+1, nil)
	for i := 0; i < n; i++ {
		copy(y.RawRowView(i), x.RawRowView(i))
		y.Set(i, d+rng.IntN(3), 1)   // columns 6, 7, 8
		y.Set(i, d+3+rng.IntN(2), 1) // columns 9, 10
		y.Set(i, d+5, x.At(i, 3)+x.At(i, 4)+x.At(i, 5))
	}
	want := []int{8, 10, 11}
	for _, ec := range estimators {
		res, err := ec.new(2, 0, nil).Fit(context.Background(), y)
		if err != nil {
			t.Errorf("%s: %v", ec.name, err)
			continue
		}
		if fmt.Sprint(res.Dependent) != fmt.Sprint(want) {
			t.Errorf("%s: Dependent = %v, want %v", ec.name, res.Dependent, want)
		}
		for _, j := range want {
			if row := res.Basis.RawRowView(j); row[0] != 0 || row[1] != 0 {
				t.Errorf("%s: basis row %d = %v, want zero", ec.name, j, row)
			}
		}
		var g mat.Dense
		g.Mul(res.Basis.T(), res.Basis)
		if !mat.EqualApprox(&g, eye(2), 1e-12) {
			t.Errorf("%s: basis not orthonormal", ec.name)
		}
	}
	if _, err := (&ngca.MIPP{Dim: 9}).Fit(context.Background(), y); !errors.Is(err, ngca.ErrDim) {
		t.Errorf("Dim 9 of 9 independent columns: error %v, want ErrDim", err)
	}
}

// TestNearlyDependent: a column that differs from a combination of others
// by more than the data's rounding error is not rank-deficient, however
// ill-conditioned: the estimators that do not whiten fit, and LSNGCA,
// MIPP and the robust variant fit or report a covariance they cannot whiten (the accuracy of such
// fits is another matter; see docs/reliability.md). Exact copies are found
// even in data with a large offset, whose rounding error is larger.
func TestNearlyDependent(t *testing.T) {
	t.Parallel()
	x, _ := invariantData(t)
	rng := rand.New(rand.NewPCG(8, 9))
	for _, tc := range []struct {
		name string
		col  func(row []float64) float64
	}{
		{"copy plus 1e-9 noise", func(r []float64) float64 { return r[3] + 1e-9*rng.NormFloat64() }},
		{"combination plus 1e-6 noise", func(r []float64) float64 { return r[0] + 2*r[4] + 1e-6*rng.NormFloat64() }},
	} {
		y := withColumn(x, tc.col)
		for _, ec := range estimators {
			est := ec.new(2, 0, nil)
			if e, ok := est.(*ngca.WFLSNGCA); ok {
				e.Widths, e.Ridges = []float64{1}, []float64{0.1}
			}
			if e, ok := est.(*ngca.RobustWFLSNGCA); ok {
				e.Widths, e.Ridges = []float64{1}, []float64{0.1}
			}
			if e, ok := est.(*ngca.LSNGCA); ok {
				e.Widths, e.Ridges = []float64{1}, []float64{0.1}
			}
			_, err := est.Fit(context.Background(), y)
			whitens := ec.name == "LSNGCA" || ec.name == "MIPP" || ec.name == "WFLSNGCA-robust"
			if err != nil && !(whitens && errors.Is(err, ngca.ErrSingular) && strings.Contains(err.Error(), "cannot whiten")) {
				t.Errorf("%s, %s: %v", tc.name, ec.name, err)
			}
		}
	}
	// Exact copies are found whatever the offset of the data, which
	// lowers their precision relative to their spread.
	for _, off := range []float64{0, 1e6, 1e12} {
		y := withColumn(x, func(r []float64) float64 { return 3 * r[2] })
		shifted := transformed(y, func(_, _ int, v float64) float64 { return v + off })
		res, err := (&ngca.LSNGCA{Dim: 2}).Fit(context.Background(), shifted)
		if err != nil || len(res.Dependent) != 1 || res.Dependent[0] != 6 {
			t.Errorf("offset %g: error %v, want column 6 left out", off, err)
		}
	}
}

// TestFewRowsRankDeficient: with no more rows than columns the data are
// rank-deficient whatever their columns. WF-LSNGCA, LSNGCA, MIPP and the
// robust variant need more rows than columns (ErrSamples); LSLDG accepts
// fewer, without the column check.
func TestFewRowsRankDeficient(t *testing.T) {
	x, _, err := ngcatest.Artificial{Dist: ngcatest.SubGaussian, N: 30, D: 40}.Sample(rand.NewPCG(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, ec := range estimators {
		est := ec.new(2, 0, nil)
		_, err := est.Fit(context.Background(), x)
		if !errors.Is(err, ngca.ErrSamples) {
			t.Errorf("%s with 30 rows for 40 columns: error %v, want ErrSamples", ec.name, err)
		}
	}
	if _, err := (&ngca.LSLDG{NumCenters: 20, Widths: []float64{1}, Ridges: []float64{0.1}}).Fit(context.Background(), x); err != nil {
		t.Errorf("LSLDG with 30 rows for 40 columns: %v", err)
	}
}

// ExampleResult_dependent shows a fit of data with a column that is a
// linear combination of others: it is left out, and the basis has a zero
// row for it.
func ExampleResult_dependent() {
	x, _, _ := ngcatest.Artificial{N: 500, D: 4}.Sample(rand.NewPCG(1, 2))
	y := withColumn(x, func(r []float64) float64 { return 2*r[1] + 1 })
	res, err := (&ngca.WFLSNGCA{Dim: 2}).Fit(context.Background(), y)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("left out:", res.Dependent)
	fmt.Println("basis row 4:", res.Basis.RawRowView(4))
	// Output:
	// left out: [4]
	// basis row 4: [0 0]
}

// TestDependentJSON: a fit that left columns out keeps them through JSON,
// and a file whose dependent columns do not match its basis or
// eigenvalues is refused.
func TestDependentJSON(t *testing.T) {
	x, _ := invariantData(t)
	y := withColumn(x, func(r []float64) float64 { return r[1] - r[2] })
	res, err := (&ngca.MIPP{Dim: 2}).Fit(context.Background(), y)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back ngca.Result
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back.Dependent) != "[6]" || !mat.Equal(back.Basis, res.Basis) || len(back.Eigenvalues) != 6 {
		t.Errorf("read back Dependent %v, %d eigenvalues", back.Dependent, len(back.Eigenvalues))
	}
	for _, tc := range []struct{ from, to string }{
		{`"dependent":[6]`, `"dependent":[0]`},   // row 0 is not zero
		{`"dependent":[6]`, `"dependent":[7]`},   // no such column
		{`"dependent":[6]`, `"dependent":[6,6]`}, // not distinct
		{`"dependent":[6]`, `"dependent":[]`},    // 6 eigenvalues for 7 rows
	} {
		bad := strings.Replace(string(data), tc.from, tc.to, 1)
		if bad == string(data) {
			t.Fatalf("%s not in the JSON", tc.from)
		}
		if err := json.Unmarshal([]byte(bad), &back); !errors.Is(err, ngca.ErrShape) {
			t.Errorf("%s: error %v, want ErrShape", tc.to, err)
		}
	}
}
