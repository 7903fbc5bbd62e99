package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/words"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/dataio"
)

// The summary that fit and plot end with on stderr: each direction of the
// basis by its largest weights on the standardised data columns, named,
// and with -check whether it is stable across the refits.

// Loadings shown per direction: the largest, until they hold this share
// of the direction's squared weights, at most maxLoadings of them.
const (
	loadingShare = 0.8
	maxLoadings  = 5
)

// writeDirections writes a line per direction of res, the fit to the data
// of t: its largest standardised weights by column name, and with a check
// report whether refits keep it.
func writeDirections(e *env, res *ngca.Result, t *dataio.Table, chk *ngca.CheckReport) {
	_, m := res.Basis.Dims()
	w := standardisedWeights(res.Basis, t.X)
	fmt.Fprintf(e.stderr, "%s: %s of the %s, by their largest weights on the standardised columns:\n",
		res.Method, words.CountNoun(m, "direction"), words.CountNoun(len(t.Fields), "data column"))
	for k := 0; k < m; k++ {
		tag := ""
		if chk != nil && k < len(chk.Directions) {
			tag = " (stable across refits)"
			if chk.Directions[k] > chk.SpreadLimit {
				tag = " (moves across refits)"
			}
		}
		fmt.Fprintf(e.stderr, "  direction %d%s: %s\n", k+1, tag, loadingText(w.ColView(k), t))
		if tag != "" {
			e.detailf("  its spread across refits: ε = %.2g (stable up to %g)", chk.Directions[k], chk.SpreadLimit)
		}
	}
}

// standardisedWeights returns the basis (d×m, in the data's units) as
// weights on the standardised columns: row j times column j's standard
// deviation, each direction scaled to unit length, so that weights of
// columns in different units compare.
func standardisedWeights(basis *mat.Dense, x *mat.Dense) *mat.Dense {
	d, m := basis.Dims()
	w := mat.DenseCopyOf(basis)
	for j := 0; j < d; j++ {
		sd := stat.StdDev(mat.Col(nil, j, x), nil)
		for k := 0; k < m; k++ {
			w.Set(j, k, basis.At(j, k)*sd)
		}
	}
	for k := 0; k < m; k++ {
		if nrm := mat.Norm(w.ColView(k), 2); nrm > 0 {
			for j := 0; j < d; j++ {
				w.Set(j, k, w.At(j, k)/nrm)
			}
		}
	}
	return w
}

// loadingText lists the largest weights of a direction as
// "+0.61 flavanoids, −0.38 hue, … (10 more)".
func loadingText(v mat.Vector, t *dataio.Table) string {
	d := v.Len()
	idx := make([]int, d)
	for j := range idx {
		idx[j] = j
	}
	sort.SliceStable(idx, func(a, b int) bool { return math.Abs(v.AtVec(idx[a])) > math.Abs(v.AtVec(idx[b])) })
	var parts []string
	var share float64
	rest := 0
	for _, j := range idx {
		switch {
		case v.AtVec(j) == 0:
		case len(parts) == maxLoadings || share >= loadingShare:
			rest++
		default:
			share += v.AtVec(j) * v.AtVec(j)
			parts = append(parts, fmt.Sprintf("%+.2f %s", v.AtVec(j), shortColumnName(t, j)))
		}
	}
	if rest > 0 {
		parts = append(parts, fmt.Sprintf("… (%d smaller)", rest))
	}
	return strings.Join(parts, ", ")
}

// shortColumnName names data column j of t as a user refers to it: its
// header name, or "column 3" ("feature 3" in a LIBSVM file).
func shortColumnName(t *dataio.Table, j int) string {
	if t.Names != nil && t.Names[j] != "" {
		if _, err := strconv.ParseFloat(t.Names[j], 64); err == nil {
			return fmt.Sprintf("column %q", t.Names[j]) // pandas' integer names: 9, not the weight's neighbour
		}
		return t.Names[j]
	}
	if t.Format == dataio.LIBSVM {
		return fmt.Sprintf("feature %d", t.Fields[j])
	}
	return fmt.Sprintf("column %d", t.Fields[j])
}
