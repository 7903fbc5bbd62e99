package benchmark

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/methods"
)

// Method is a dimension reduction applied before classification, or none.
type Method struct {
	// Key is the name used on the command line and in runs.csv.
	Key string
	// Label is the column heading of the table.
	Label string
	// reduce fits on the training rows and returns their reduction to m
	// dimensions; nil means no reduction.
	reduce func(ctx context.Context, train, test *mat.Dense, m int, src rand.Source) (*reduction, error)
}

// reduction is what a method made of one run: the training and test rows
// in m dimensions, the d×m basis of the subspace it projects on, and, for
// the robust variant, the estimate it returned ("axes" or "equivariant").
type reduction struct {
	train, test, basis *mat.Dense
	path               string
}

// The methods of the paper's Table 2, and the two other NGCA methods of its
// Table 1 (IMAK and SNGCA, which its Table 2 does not run); the NGCA
// estimators come from the registry of internal/methods, by key.
var (
	NoReduction = Method{Key: "none", Label: "No reduction"}
	PCA         = Method{Key: "pca", Label: "PCA", reduce: reducePCA}
	MIPP        = ngcaMethod("mipp")
	IMAK        = ngcaMethod("imak")
	SNGCA       = ngcaMethod("sngca")
	LSNGCA      = ngcaMethod("lsngca")
	WFLSNGCA    = ngcaMethod("wflsngca")
	// Robust is the robust variant of WF-LSNGCA, the ngca command's
	// default estimator; its column says so.
	Robust = labelled(ngcaMethod("wflsngca-robust"), "WF-LSNGCA robust (default)")
)

// Methods returns every method in the order of the columns: the paper's
// Table 2, with IMAK and SNGCA after MIPP as in its Table 1, and the
// command's default estimator (the robust variant of WF-LSNGCA) last.
func Methods() []Method {
	return []Method{NoReduction, PCA, MIPP, IMAK, SNGCA, LSNGCA, WFLSNGCA, Robust}
}

// ParseMethods returns the methods named in a comma-separated list of
// keys, in the order of the paper's columns.
func ParseMethods(list string) ([]Method, error) {
	want := map[string]bool{}
	for _, k := range strings.Split(list, ",") {
		if k = strings.ToLower(strings.TrimSpace(k)); k == "" {
			continue
		}
		found := false
		for _, m := range Methods() {
			found = found || m.Key == k
		}
		if !found {
			return nil, fmt.Errorf("unknown method %q (want some of %s)", k, MethodKeys())
		}
		want[k] = true
	}
	var out []Method
	for _, m := range Methods() {
		if want[m.Key] {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no method given (want some of %s)", MethodKeys())
	}
	return out, nil
}

// MethodKeys returns the keys of every method, comma-separated, in the
// order of Methods.
func MethodKeys() string {
	var k []string
	for _, m := range Methods() {
		k = append(k, m.Key)
	}
	return strings.Join(k, ",")
}

// ngcaMethod fits the registry's estimator key with its default settings
// (the paper's) on one goroutine (the study runs jobs in parallel instead).
func ngcaMethod(key string) Method {
	nm := methods.MustLookup(key)
	return Method{Key: nm.Key, Label: nm.Label,
		reduce: func(ctx context.Context, train, test *mat.Dense, m int, src rand.Source) (*reduction, error) {
			res, err := nm.New(methods.Settings{Dim: m, Workers: 1, Src: src}).Fit(ctx, train)
			if err != nil {
				return nil, err
			}
			r := &reduction{train: new(mat.Dense), test: new(mat.Dense), basis: res.Basis}
			res.ProjectTo(r.train, train)
			res.ProjectTo(r.test, test)
			if rep, ok := res.Report.(*ngca.RobustReport); ok {
				r.path = rep.Estimate
			}
			return r, nil
		}}
}

// labelled returns m with the column heading label.
func labelled(m Method, label string) Method {
	m.Label = label
	return m
}

// reducePCA projects on the m leading principal directions of the training
// rows (gonum's stat.PC), after subtracting their mean.
func reducePCA(_ context.Context, train, test *mat.Dense, m int, _ rand.Source) (*reduction, error) {
	var pc stat.PC
	if !pc.PrincipalComponents(train, nil) {
		return nil, errors.New("PCA: the singular value decomposition failed")
	}
	var vecs mat.Dense
	pc.VectorsTo(&vecs)
	_, d := train.Dims()
	basis := vecs.Slice(0, d, 0, m)
	mean := make([]float64, d)
	for j := range mean {
		mean[j] = stat.Mean(mat.Col(nil, j, train), nil)
	}
	return &reduction{train: project(train, mean, basis), test: project(test, mean, basis), basis: mat.DenseCopyOf(basis)}, nil
}

// project returns (x − mean)·basis.
func project(x *mat.Dense, mean []float64, basis mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.CloneFrom(x)
	n, _ := c.Dims()
	for i := 0; i < n; i++ {
		row := c.RawRowView(i)
		for j := range row {
			row[j] -= mean[j]
		}
	}
	var z mat.Dense
	z.Mul(&c, basis)
	return &z
}
