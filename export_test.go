package ngca

// RegisteredMethods returns the Result.Method of every registered
// estimator, for the tests of package ngca_test.
func RegisteredMethods() []string {
	out := make([]string, len(estimators))
	for i, e := range estimators {
		out[i] = e.method()
	}
	return out
}
