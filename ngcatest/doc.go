// Package ngcatest generates the data of the artificial experiments of
// Shiino et al., Whitening-Free Least-Squares Non-Gaussian Component
// Analysis (ACML 2017, §4.2), with the true non-Gaussian subspace, for
// tests, examples and benchmarks of NGCA estimators, in the way
// net/http/httptest serves tests of net/http.
//
// Every random number comes from a caller-supplied math/rand/v2 source, so
// the same seed gives the same data.
package ngcatest
