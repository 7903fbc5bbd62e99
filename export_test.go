package ngca

import "math"

// RegisteredMethods returns the Result.Method of every registered
// estimator, for the tests of package ngca_test.
func RegisteredMethods() []string {
	out := make([]string, len(estimators))
	for i, e := range estimators {
		out[i] = e.method()
	}
	return out
}

// NaNFreeReport returns r, or for a *RobustReport a copy whose float
// figures that were not computed (NaN), its detail's included, read 0, so
// that reflect.DeepEqual can compare two reports.
func NaNFreeReport(r Report) Report {
	rr, ok := r.(*RobustReport)
	if !ok || rr == nil {
		return r
	}
	c := *rr
	d := &c.detail
	for _, f := range []*float64{&c.P, &c.Distance, &d.Wald, &d.P, &d.Distance, &d.MissedAxes, &d.MissedEquivariant} {
		if math.IsNaN(*f) {
			*f = 0
		}
	}
	return &c
}

// ChosenScores returns the held-out score that cross-validation chose for
// every coordinate of an LSLDG model.
func ChosenScores(m *LSLDGModel) []float64 {
	var s []float64
	for _, c := range m.cv.Coords {
		s = append(s, c.Score)
	}
	return s
}
