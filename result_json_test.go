package ngca_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

// jsonEstimators are every estimator, and both paths of the robust
// variant, with small grids (and SNGCA with few test functions and
// passes): the JSON tests need fits, not accurate ones.
func jsonEstimators() []ngca.Estimator {
	small := []float64{0.5, 1}
	return []ngca.Estimator{
		&ngca.WFLSNGCA{Dim: 2, Widths: small, Ridges: small, Src: seeded()},
		&ngca.LSNGCA{Dim: 2, Widths: small, Ridges: small, Src: seeded()},
		&ngca.MIPP{Dim: 2, Src: seeded()},
		&ngca.IMAK{Dim: 2},
		&ngca.SNGCA{Dim: 2, Functions: 200, FinalFunctions: 40, Passes: 2, MaxIter: 200, Src: seeded()},
		&ngca.RobustWFLSNGCA{Dim: 2, Widths: small, Ridges: small, Src: seeded()},
		robustAxes(&ngca.RobustWFLSNGCA{Dim: 2, Widths: small, Ridges: small, Src: seeded()}),
	}
}

// TestResultJSONRoundTrip: a fit of every estimator survives MarshalJSON
// and UnmarshalJSON with Method, Basis, Mean and Eigenvalues equal bit for
// bit, its Report of the same type and writing back the same bytes (so
// every float, NaN and ±Inf included, is kept), and Timings to the
// nanosecond; on data whose columns have scales 2^±30 too (the basis
// is then still orthonormal to the tolerance UnmarshalJSON checks).
func TestResultJSONRoundTrip(t *testing.T) {
	x, _, err := ngcatest.Artificial{N: 300, D: 5, Rotate: true}.Sample(rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	scales := []int{30, -30, 0, 10, -10}
	scaled := mat.DenseCopyOf(x)
	scaled.Apply(func(_, j int, v float64) float64 { return math.Ldexp(v, scales[j]) }, scaled)
	for _, data := range []struct {
		name string
		x    mat.Matrix
	}{{"plain", x}, {"scaled", scaled}} {
		for _, est := range jsonEstimators() {
			res, err := est.Fit(t.Context(), data.x)
			if err != nil {
				t.Fatalf("%s, %T: %v", data.name, est, err)
			}
			name := data.name + ", " + res.Method
			b, err := json.Marshal(res)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var got ngca.Result
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkSameResult(t, name, &got, res)
			again, err := json.Marshal(&got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, b) {
				t.Errorf("%s: the reloaded result writes different JSON", name)
			}
		}
	}
}

// checkSameResult fails unless got is want as the JSON keeps it: Method,
// Basis, Mean, Eigenvalues (nil or not) bit for bit, Timings to the
// nanosecond, and a Report of the same type that writes the same JSON.
func checkSameResult(t *testing.T, name string, got, want *ngca.Result) {
	t.Helper()
	if got.Method != want.Method || !mat.Equal(got.Basis, want.Basis) || !equalBits(got.Mean, want.Mean) || !equalBits(got.Eigenvalues, want.Eigenvalues) ||
		(got.Eigenvalues == nil) != (want.Eigenvalues == nil) {
		t.Errorf("%s: method, basis, mean or eigenvalues changed", name)
	}
	if len(got.Timings) != len(want.Timings) {
		t.Errorf("%s: %d timings, want %d", name, len(got.Timings), len(want.Timings))
	}
	for i := range got.Timings {
		if i < len(want.Timings) && got.Timings[i] != want.Timings[i] {
			t.Errorf("%s: timing %d = %v, want %v", name, i, got.Timings[i], want.Timings[i])
		}
	}
	if w, g := fmt.Sprintf("%T", want.Report), fmt.Sprintf("%T", got.Report); w != g {
		t.Errorf("%s: report %s, want %s", name, g, w)
	} else if want.Report != nil {
		a, errA := json.Marshal(ngca.Result{Basis: want.Basis, Mean: want.Mean, Report: got.Report})
		b, errB := json.Marshal(ngca.Result{Basis: want.Basis, Mean: want.Mean, Report: want.Report})
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the report changed (%v, %v)", name, errA, errB)
		}
	}
}

// TestResultJSONHolders: a Result is written in full, and read back, held
// by value or by pointer, alone or in a struct, a slice or a map; every
// holder writes the same object.
func TestResultJSONHolders(t *testing.T) {
	x, _, err := ngcatest.Artificial{N: 300, D: 5}.Sample(rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	for _, est := range jsonEstimators() {
		res := fit(t, est, x)
		want, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		type holder struct {
			R ngca.Result
			P *ngca.Result
		}
		for _, tc := range []struct {
			name string
			v    any                      // what is written
			dst  func() any               // a pointer to read it into
			get  func(any) []*ngca.Result // the results read
		}{
			{"value", *res, func() any { return new(ngca.Result) }, func(v any) []*ngca.Result { return []*ngca.Result{v.(*ngca.Result)} }},
			{"pointer", res, func() any { return new(*ngca.Result) }, func(v any) []*ngca.Result { return []*ngca.Result{*v.(**ngca.Result)} }},
			{"struct", holder{R: *res, P: res}, func() any { return new(holder) }, func(v any) []*ngca.Result {
				h := v.(*holder)
				return []*ngca.Result{&h.R, h.P}
			}},
			{"slice of values", []ngca.Result{*res, *res}, func() any { return new([]ngca.Result) }, func(v any) []*ngca.Result {
				s := *v.(*[]ngca.Result)
				return []*ngca.Result{&s[0], &s[1]}
			}},
			{"slice of pointers", []*ngca.Result{res, res}, func() any { return new([]*ngca.Result) }, func(v any) []*ngca.Result { return *v.(*[]*ngca.Result) }},
			{"map", map[string]ngca.Result{"a": *res, "b": *res}, func() any { return new(map[string]ngca.Result) }, func(v any) []*ngca.Result {
				m := *v.(*map[string]ngca.Result)
				a, b := m["a"], m["b"]
				return []*ngca.Result{&a, &b}
			}},
		} {
			name := res.Method + ", " + tc.name
			data, err := json.Marshal(tc.v)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if n := bytes.Count(data, want); n == 0 || n*len(want) < len(data)-20 {
				t.Errorf("%s: %d copies of the result's object in %.200s", name, n, data)
			}
			dst := tc.dst()
			if err := json.Unmarshal(data, dst); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := tc.get(dst)
			if len(got) == 0 {
				t.Fatalf("%s: nothing read", name)
			}
			for _, g := range got {
				if g == nil || g.Basis == nil {
					t.Fatalf("%s: read an empty result", name)
				}
				checkSameResult(t, name, g, res)
			}
		}
	}
}

func equalBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestResultJSONValues: non-finite eigenvalues, signed zeros, subnormal
// and extreme numbers, odd step names and durations from −2⁶³ to 2⁶³−1 ns
// survive the round trip exactly.
func TestResultJSONValues(t *testing.T) {
	c := math.Sqrt(0.5)
	res := ngca.Result{
		Method:      "hand-made \"result\" <&>",
		Basis:       mat.NewDense(3, 2, []float64{c, 0, -c, math.Copysign(0, -1), 0, 1}),
		Mean:        []float64{math.MaxFloat64, -5e-324, math.Copysign(0, -1)},
		Eigenvalues: []float64{math.Inf(1), math.NaN(), math.Inf(-1)},
		Timings: []ngca.Timing{{"zero", 0}, {"ns", 1}, {"minus", -1}, {"almost", 999999999}, {"hour", 90 * time.Minute},
			{"max", math.MaxInt64}, {"min", math.MinInt64}, {"ünïcode \"step\"", 1234567891}, {"zero", 2}},
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"eigenvalues":["+Inf","NaN","-Inf"]`) {
		t.Errorf("eigenvalues not written as strings: %s", data)
	}
	var got ngca.Result
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	checkSameResult(t, "hand-made", &got, &res)
	if got.Basis.At(1, 1) != 0 || !math.Signbit(got.Basis.At(1, 1)) || !math.Signbit(got.Mean[2]) {
		t.Error("a negative zero lost its sign")
	}
}

// TestResultJSONOlder: files of earlier versions load: the command's JSON
// without a format field or report, eigenvalues [] (the robust variant's
// equivariant estimate) or null, a null eigenvalue (NaN), timings as
// floating-point seconds.
func TestResultJSONOlder(t *testing.T) {
	for _, tc := range []struct {
		json   string
		eig    []float64
		timing time.Duration
	}{
		{`{"method": "mipp", "label": "MIPP", "basis": [[1], [0]], "mean": [0, 0], "eigenvalues": null, "cv": [], "timings": {"total": 6.68e-05}}`, nil, 66800},
		{`{"method": "wflsngca-robust", "label": "MIPP", "basis": [[1], [0]], "mean": [0, 0], "eigenvalues": [], "timings": {"total": 0.000389968}}`, nil, 389968},
		{`{"ngca_result": 1, "label": "MIPP", "basis": [[1], [0]], "mean": [0, 0], "eigenvalues": [1, null], "timings": {"total": 1e3}}`, []float64{1, math.NaN()}, time.Second * 1000},
	} {
		var r ngca.Result
		if err := json.Unmarshal([]byte(tc.json), &r); err != nil {
			t.Errorf("%s: %v", tc.json, err)
			continue
		}
		if r.Method != "MIPP" || !equalBits(r.Eigenvalues, tc.eig) || (r.Eigenvalues == nil) != (tc.eig == nil) || r.Report != nil ||
			len(r.Timings) != 1 || r.Timings[0].Elapsed != tc.timing {
			t.Errorf("%s: read %+v", tc.json, r)
		}
	}
	// Reports written when RobustReport.Path was a number and
	// MIPPReport.Kept a list per family: the fields the reports no longer
	// have are left out, the others read.
	for _, tc := range []struct {
		json string
		want ngca.Report
	}{
		{`{"ngca_result": 1, "label": "WF-LSNGCA robust", "basis": [[1], [0]], "mean": [0, 0], "report": {"type": "RobustReport", "value": ` +
			`{"Path": 1, "P": 0.5, "Distance": 2, "Wald": 3, "KernelCoords": [0, 1], "CV": [{"Name": "v", "Widths": [1], "Ridges": [1], "Coords": []}], "NullCoords": [1], "NumCenters": 100, "Folds": 5}}}`,
			&ngca.RobustReport{P: 0.5, Distance: 2, NullCoords: []int{1}, NumCenters: 100, Folds: 5}},
		{`{"ngca_result": 1, "label": "MIPP", "basis": [[1], [0]], "mean": [0, 0], "report": {"type": "MIPPReport", "value": ` +
			`{"Iterations": 10, "Kept": [{"Degenerate": 0, "Family": "tanh", "Kept": 809, "Total": 1000}], "Threshold": 1.6}}}`,
			&ngca.MIPPReport{}},
	} {
		var r ngca.Result
		if err := json.Unmarshal([]byte(tc.json), &r); err != nil {
			t.Errorf("%s: %v", tc.json, err)
		} else if !reflect.DeepEqual(r.Report, tc.want) {
			t.Errorf("%s: report %+v, want %+v", tc.json, r.Report, tc.want)
		}
	}
	// null leaves the result alone, as for other types.
	r := ngca.Result{Method: "kept"}
	if err := json.Unmarshal([]byte("null"), &r); err != nil || r.Method != "kept" {
		t.Errorf("null: %v, %+v", err, r)
	}
}

// TestResultJSONErrors: malformed, inconsistent or newer files give the
// package's errors and leave the result unchanged.
func TestResultJSONErrors(t *testing.T) {
	const c = "0.7071067811865476"
	ok := `"basis": [[1, 0], [0, 1], [0, 0]], "mean": [0, 0, 0]`
	for _, tc := range []struct {
		name, json string
		want       []error
	}{
		{"newer format", `{"ngca_result": 2, "label": "MIPP", "basis": [[1]], "mean": [0]}`, []error{ngca.ErrParam}},
		{"negative format", `{"ngca_result": -1, ` + ok + `}`, []error{ngca.ErrParam}},
		{"format a string", `{"ngca_result": "1", ` + ok + `}`, []error{ngca.ErrParam}},
		{"not an object", `[1, 2]`, []error{ngca.ErrParam}},
		{"a string", `"result"`, []error{ngca.ErrParam}},
		{"no basis", `{"ngca_result": 1, "mean": [0]}`, []error{ngca.ErrShape}},
		{"null basis", `{"basis": null, "mean": [0]}`, []error{ngca.ErrShape}},
		{"empty basis", `{"basis": [], "mean": []}`, []error{ngca.ErrShape}},
		{"empty rows", `{"basis": [[], []], "mean": [0, 0]}`, []error{ngca.ErrShape}},
		{"basis an object", `{"basis": {}, "mean": [0]}`, []error{ngca.ErrShape}},
		{"basis a flat list", `{"basis": [1, 0], "mean": [0, 0]}`, []error{ngca.ErrShape}},
		{"null row", `{"basis": [[1], null], "mean": [0, 0]}`, []error{ngca.ErrShape}},
		{"ragged", `{"basis": [[1, 0], [0]], "mean": [0, 0]}`, []error{ngca.ErrShape}},
		{"ragged later", `{"basis": [[1, 0], [0, 1], [0, 0, 0]], "mean": [0, 0, 0]}`, []error{ngca.ErrShape}},
		{"more columns than rows", `{"basis": [[1, 0, 0], [0, 1, 0]], "mean": [0, 0]}`, []error{ngca.ErrShape}},
		{"string in basis", `{"basis": [["1"], [0]], "mean": [0, 0]}`, []error{ngca.ErrShape}},
		{"bool in basis", `{"basis": [[true], [0]], "mean": [0, 0]}`, []error{ngca.ErrShape}},
		{"NaN in basis", `{"basis": [["NaN"], [0]], "mean": [0, 0]}`, []error{ngca.ErrShape, ngca.ErrNonFinite}},
		{"+Inf in basis", `{"basis": [["+Inf"], [0]], "mean": [0, 0]}`, []error{ngca.ErrShape, ngca.ErrNonFinite}},
		{"null in basis", `{"basis": [[1], [null]], "mean": [0, 0]}`, []error{ngca.ErrShape, ngca.ErrNonFinite}},
		{"1e999 in basis", `{"basis": [[1e999], [0]], "mean": [0, 0]}`, []error{ngca.ErrShape, ngca.ErrNonFinite}},
		{"column not unit", `{"basis": [[2], [0]], "mean": [0, 0]}`, []error{ngca.ErrShape}},
		{"columns not orthogonal", `{"basis": [[1, ` + c + `], [0, ` + c + `], [0, 0]], "mean": [0, 0, 0]}`, []error{ngca.ErrShape}},
		{"columns equal", `{"basis": [[1, 1], [0, 0], [0, 0]], "mean": [0, 0, 0]}`, []error{ngca.ErrShape}},
		{"zero column", `{"basis": [[1, 0], [0, 0], [0, 0]], "mean": [0, 0, 0]}`, []error{ngca.ErrShape}},
		{"rounded to 4 digits", `{"basis": [[0.7071], [0.7071]], "mean": [0, 0]}`, []error{ngca.ErrShape}},
		{"no mean", `{"basis": [[1], [0]]}`, []error{ngca.ErrShape}},
		{"null mean", `{"basis": [[1], [0]], "mean": null}`, []error{ngca.ErrShape}},
		{"short mean", `{"basis": [[1], [0]], "mean": [0]}`, []error{ngca.ErrShape}},
		{"long mean", `{"basis": [[1], [0]], "mean": [0, 0, 0]}`, []error{ngca.ErrShape}},
		{"mean a number", `{"basis": [[1], [0]], "mean": 0}`, []error{ngca.ErrShape}},
		{"NaN mean", `{"basis": [[1], [0]], "mean": [0, "NaN"]}`, []error{ngca.ErrShape, ngca.ErrNonFinite}},
		{"null in mean", `{"basis": [[1], [0]], "mean": [null, 0]}`, []error{ngca.ErrShape, ngca.ErrNonFinite}},
		{"-Inf mean", `{"basis": [[1], [0]], "mean": ["-Inf", 0]}`, []error{ngca.ErrShape, ngca.ErrNonFinite}},
		{"short eigenvalues", `{"basis": [[1], [0]], "mean": [0, 0], "eigenvalues": [1]}`, []error{ngca.ErrShape}},
		{"long eigenvalues", `{"basis": [[1], [0]], "mean": [0, 0], "eigenvalues": [3, 2, 1]}`, []error{ngca.ErrShape}},
		{"eigenvalue a word", `{"basis": [[1], [0]], "mean": [0, 0], "eigenvalues": [1, "inf"]}`, []error{ngca.ErrShape}},
		{"eigenvalues an object", `{"basis": [[1], [0]], "mean": [0, 0], "eigenvalues": {}}`, []error{ngca.ErrShape}},
		{"timings a list", `{"basis": [[1], [0]], "mean": [0, 0], "timings": [{"Step": "total", "Elapsed": 1}]}`, []error{ngca.ErrParam}},
		{"timing a string", `{"basis": [[1], [0]], "mean": [0, 0], "timings": {"total": "1s"}}`, []error{ngca.ErrParam}},
		{"timing too long", `{"basis": [[1], [0]], "mean": [0, 0], "timings": {"total": 1e10}}`, []error{ngca.ErrParam}},
		{"timing too long, decimal", `{"basis": [[1], [0]], "mean": [0, 0], "timings": {"total": 9223372036.854775808}}`, []error{ngca.ErrParam}},
		{"label a number", `{"label": 1, "basis": [[1], [0]], "mean": [0, 0]}`, []error{ngca.ErrParam}},
		{"unknown report", `{"basis": [[1], [0]], "mean": [0, 0], "report": {"type": "Nope", "value": {}}}`, []error{ngca.ErrParam}},
		{"report field of another type", `{"basis": [[1], [0]], "mean": [0, 0], "report": {"type": "RobustReport", "value": {"P": "many"}}}`, []error{ngca.ErrParam}},
	} {
		r := ngca.Result{Method: "kept"}
		err := json.Unmarshal([]byte(tc.json), &r)
		for _, want := range tc.want {
			if !errors.Is(err, want) {
				t.Errorf("%s: error %v, want %v", tc.name, err, want)
			}
		}
		if r.Method != "kept" || r.Basis != nil {
			t.Errorf("%s: the result changed to %+v", tc.name, r)
		}
	}
	// The limits themselves are accepted.
	for name, j := range map[string]string{
		"square basis":          `{"basis": [[0, 1], [1, 0]], "mean": [0, 0]}`,
		"rounded to 9 digits":   `{"basis": [[0.707106781], [0.707106781]], "mean": [0, 0]}`,
		"longest timing":        `{"basis": [[1]], "mean": [0], "timings": {"max": 9223372036.854775807, "min": -9223372036.854775808}}`,
		"underflow to zero":     `{"basis": [[1], [1e-400]], "mean": [0, 0]}`,
		"no eigenvalues, label": `{"label": "x", "basis": [[1], [0]], "mean": [0, 0], "eigenvalues": null}`,
	} {
		var r ngca.Result
		if err := json.Unmarshal([]byte(j), &r); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestResultJSONWriteErrors: MarshalJSON refuses what UnmarshalJSON would
// refuse to read back.
func TestResultJSONWriteErrors(t *testing.T) {
	eye := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 0})
	mean := []float64{0, 0, 0}
	for _, tc := range []struct {
		name string
		r    ngca.Result
		want []error
	}{
		{"no basis", ngca.Result{Mean: mean}, []error{ngca.ErrShape}},
		{"only a method", ngca.Result{Method: "MIPP"}, []error{ngca.ErrShape}},
		{"empty basis", ngca.Result{Basis: &mat.Dense{}, Mean: mean}, []error{ngca.ErrShape}},
		{"more columns than rows", ngca.Result{Basis: mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1, 0}), Mean: []float64{0, 0}}, []error{ngca.ErrShape}},
		{"NaN in basis", ngca.Result{Basis: mat.NewDense(3, 2, []float64{1, 0, 0, math.NaN(), 0, 0}), Mean: mean}, []error{ngca.ErrShape, ngca.ErrNonFinite}},
		{"not orthonormal", ngca.Result{Basis: mat.NewDense(3, 2, []float64{1, 1, 0, 1, 0, 0}), Mean: mean}, []error{ngca.ErrShape}},
		{"no mean", ngca.Result{Basis: eye}, []error{ngca.ErrShape}},
		{"Inf in mean", ngca.Result{Basis: eye, Mean: []float64{0, math.Inf(1), 0}}, []error{ngca.ErrShape, ngca.ErrNonFinite}},
		{"eigenvalues of another length", ngca.Result{Basis: eye, Mean: mean, Eigenvalues: []float64{1, 2}}, []error{ngca.ErrShape}},
		{"empty eigenvalues", ngca.Result{Basis: eye, Mean: mean, Eigenvalues: []float64{}}, []error{ngca.ErrShape}},
		{"nil report pointer", ngca.Result{Basis: eye, Mean: mean, Report: (*ngca.LSReport)(nil)}, []error{ngca.ErrParam}},
	} {
		_, err := json.Marshal(tc.r)
		for _, want := range tc.want {
			if !errors.Is(err, want) {
				t.Errorf("%s: error %v, want %v", tc.name, err, want)
			}
		}
		if _, perr := json.Marshal(&tc.r); (perr == nil) != (err == nil) {
			t.Errorf("%s: by pointer error %v, by value %v", tc.name, perr, err)
		}
	}
}

// TestResultJSONZero: the zero Result is written as null and read back as
// the zero Result, so that a struct with an unset Result round-trips.
func TestResultJSONZero(t *testing.T) {
	type run struct {
		Fit ngca.Result
		Err string
	}
	data, err := json.Marshal(run{Err: "failed"})
	if want := `{"Fit":null,"Err":"failed"}`; err != nil || string(data) != want {
		t.Fatalf("%s, %v; want %s", data, err, want)
	}
	var got run
	if err := json.Unmarshal(data, &got); err != nil || got.Err != "failed" || got.Fit.Basis != nil || got.Fit.Method != "" {
		t.Errorf("read back %+v, %v", got, err)
	}
}

// robustAxes returns w on the axes path.
func robustAxes(w *ngca.RobustWFLSNGCA) *ngca.RobustWFLSNGCA {
	if err := ngca.SetRobustPath(w, "axes"); err != nil {
		panic(err)
	}
	return w
}
