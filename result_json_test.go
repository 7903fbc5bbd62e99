package ngca_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/ngcatest"
)

// TestResultJSONRoundTrip: a fit of every estimator survives MarshalJSON
// and UnmarshalJSON with Method, Basis, Mean and Eigenvalues equal bit for
// bit, its Report of the same type and writing back the same bytes (so
// every float, NaN and ±Inf included, is kept), and Timings to the
// nanosecond.
func TestResultJSONRoundTrip(t *testing.T) {
	x, _, err := ngcatest.Artificial{N: 300, D: 5, Rotate: true}.Sample(rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	small := []float64{0.5, 1}
	for _, est := range []ngca.Estimator{
		&ngca.WFLSNGCA{Dim: 2, Widths: small, Ridges: small, Src: seeded()},
		&ngca.LSNGCA{Dim: 2, Widths: small, Ridges: small, Src: seeded()},
		&ngca.MIPP{Dim: 2, Src: seeded()},
		&ngca.IMAK{Dim: 2},
		&ngca.SNGCA{Dim: 2, Src: seeded()},
		&ngca.RobustWFLSNGCA{Dim: 2, Widths: small, Ridges: small, Src: seeded()},
		&ngca.RobustWFLSNGCA{Dim: 2, Widths: small, Ridges: small, Src: seeded(), Path: ngca.RobustAxes},
	} {
		res := fit(t, est, x)
		data, err := json.Marshal(res)
		if err != nil {
			t.Fatalf("%s: %v", res.Method, err)
		}
		var got ngca.Result
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("%s: %v", res.Method, err)
		}
		if got.Method != res.Method || !mat.Equal(got.Basis, res.Basis) || !equalBits(got.Mean, res.Mean) || !equalBits(got.Eigenvalues, res.Eigenvalues) ||
			(got.Eigenvalues == nil) != (res.Eigenvalues == nil) {
			t.Errorf("%s: method, basis, mean or eigenvalues changed", res.Method)
		}
		if len(got.Timings) != len(res.Timings) {
			t.Errorf("%s: %d timings, want %d", res.Method, len(got.Timings), len(res.Timings))
		}
		for i := range got.Timings {
			if i < len(res.Timings) && got.Timings[i] != res.Timings[i] {
				t.Errorf("%s: timing %d = %v, want %v", res.Method, i, got.Timings[i], res.Timings[i])
			}
		}
		again, err := json.Marshal(&got)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, data) {
			t.Errorf("%s: the reloaded result writes different JSON", res.Method)
		}
		if want, have := fmt.Sprintf("%T", res.Report), fmt.Sprintf("%T", got.Report); want != have {
			t.Errorf("%s: report %s, want %s", res.Method, have, want)
		}
	}
}

func equalBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return true
}

// TestResultJSONErrors: malformed or newer files give the package's
// errors.
func TestResultJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		json string
		want error
	}{
		{`{"ngca_result": 2, "label": "MIPP", "basis": [[1]], "mean": [0]}`, ngca.ErrParam},
		{`{"ngca_result": 1, "label": "MIPP", "basis": [], "mean": []}`, ngca.ErrShape},
		{`{"ngca_result": 1, "label": "MIPP", "basis": [[1, 0], [0]], "mean": [0, 0]}`, ngca.ErrShape},
		{`{"ngca_result": 1, "label": "MIPP", "basis": [[1], [0]], "mean": [0]}`, ngca.ErrShape},
		{`{"ngca_result": 1, "label": "MIPP", "basis": [[1], [0]], "mean": [0, 0], "report": {"type": "Nope", "value": {}}}`, ngca.ErrParam},
		{`{"ngca_result": 1, "label": "MIPP", "basis": [[1], [0]], "mean": [0, 0], "report": {"type": "MIPPReport", "value": {"Threshold": "many"}}}`, ngca.ErrParam},
	} {
		var r ngca.Result
		if err := json.Unmarshal([]byte(tc.json), &r); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.json, err, tc.want)
		}
	}
	if _, err := json.Marshal(&ngca.Result{}); err == nil {
		t.Error("a result without a basis was written")
	}
	// A file of the command without the format field, report or
	// eigenvalues still loads.
	var r ngca.Result
	if err := json.Unmarshal([]byte(`{"method": "mipp", "label": "MIPP", "basis": [[1], [0]], "mean": [0, 0], "eigenvalues": null}`), &r); err != nil || r.Method != "MIPP" || r.Eigenvalues != nil {
		t.Errorf("command file: %v, %+v", err, r)
	}
}
