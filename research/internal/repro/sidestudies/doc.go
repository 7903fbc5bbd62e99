// Package sidestudies holds measurements that run as tests, each behind
// a flag (skipped otherwise): SNGCA's projections against MIPP
// (-sngca.study, docs/sngca.md) and IMAK against MIPP and LSNGCA
// (-imak.study, docs/imak.md). Run them inside research/, e.g.
//
//	nice go test -run TestSNGCAStudy -sngca.study 0,0.8 -v ./internal/repro/sidestudies
package sidestudies
