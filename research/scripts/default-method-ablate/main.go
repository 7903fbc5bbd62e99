// Command default-method-ablate fits the robust WF-LSNGCA with settings
// that the ngca command does not expose (the null test's threshold, a
// single path; they travel into the fit in its context through
// internal/probe, which also returns the fit's robust detail), for
// scripts/default-method.sh.
// Input: a CSV of numbers (no header, no label); output: JSON with basis,
// robust (path, wald, df, p, distance, refined, kernel_coords, null_coords,
// columns 1-based, wald and p null when not finite: the shape in which
// default_method_eval.py reads the report of `ngca fit -json`) and
// seconds; Src is rand.NewPCG(seed, 0), as `ngca fit -seed`. With
// -artificial it draws the paper's artificial data as `ngca demo` does and
// prints one JSON line per distribution with the subspace error ε, the path,
// the p-value of the Wald test and the number of null coordinates.
package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/ngcatest"
)

func main() {
	dim := flag.Int("dim", 2, "M")
	seed := flag.Uint64("seed", 1, "seed (Src = rand.NewPCG(seed, 0), as the ngca command)")
	nullz := flag.Float64("nullz", 0, "the null test's threshold (0 = default 3, negative = off)")
	path := flag.String("path", "adaptive", "the estimates: adaptive, axes or equivariant")
	art := flag.String("artificial", "", "instead of a file: the paper's artificial data, distributions (e.g. a,b,c,d), drawn as `ngca demo` draws them")
	an := flag.Int("n", 2000, "-artificial: observations")
	ad := flag.Int("d", 10, "-artificial: dimensions")
	ar := flag.Float64("r", 0, "-artificial: condition-number controller r")
	rot := flag.Bool("rotate", false, "-artificial: turn the data by a random rotation")
	flag.Parse()
	// The fits run with the settings in their context, and record their
	// robust detail in a probe.Recorder that it carries.
	settings := probe.Settings{RobustPath: *path, RobustNullZ: *nullz}
	fitCtx := func() (context.Context, *probe.Recorder) {
		rec := probe.NewRecorder()
		return probe.WithRecorder(probe.WithSettings(context.Background(), settings), rec), rec
	}
	opts := func() (*ngca.RobustWFLSNGCA, error) {
		switch *path {
		case "adaptive", "axes", "equivariant":
		default:
			err := fmt.Errorf("%w: unknown robust path %q (want adaptive, axes or equivariant)", ngca.ErrParam, *path)
			return nil, fmt.Errorf("bad -path %q: %w", *path, err)
		}
		return &ngca.RobustWFLSNGCA{}, nil
	}
	if *art != "" {
		// As `ngca demo -seed S`: data Src rand.NewPCG(S, k), estimator
		// Src rand.NewPCG(S, 1000+k), k the distribution's index a=0 … d=3.
		o, err := opts()
		if err != nil {
			fail(err)
		}
		for _, name := range strings.Split(*art, ",") {
			dist, err := ngcatest.ParseDistribution(name)
			if err != nil {
				fail(err)
			}
			k := uint64(dist)
			x, truth, err := ngcatest.Artificial{Dist: dist, N: *an, D: *ad, R: *ar, Rotate: *rot}.Sample(rand.NewPCG(*seed, k))
			if err != nil {
				fail(err)
			}
			t0 := time.Now()
			e := *o
			e.Dim, e.Src = 2, rand.NewPCG(*seed, 1000+k)
			ctx, rec := fitCtx()
			res, err := e.Fit(ctx, x)
			out := map[string]any{"dist": dist.String(), "seconds": time.Since(t0).Seconds()}
			if err != nil {
				out["err"] = err.Error()
			} else {
				out["eps"] = ngca.SubspaceError(truth, res.Basis)
				r, _ := rec.RobustOf(res.Report)
				out["path"] = r.Estimate
				out["p"] = finite(r.P)
				out["null"] = len(r.NullCoords)
			}
			if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
				fail(err)
			}
		}
		return
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		fail(err)
	}
	x := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		for j, s := range r {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				fail(err)
			}
			x.Set(i, j, v)
		}
	}
	o, err := opts()
	if err != nil {
		fail(err)
	}
	est := o
	est.Dim, est.Src = *dim, rand.NewPCG(*seed, 0)
	ctx, rec := fitCtx()
	t0 := time.Now()
	res, err := est.Fit(ctx, x)
	if err != nil {
		fail(err)
	}
	_, d := x.Dims()
	out := map[string]any{"seconds": time.Since(t0).Seconds()}
	basis := make([][]float64, d)
	for i := range basis {
		basis[i] = mat.Row(nil, i, res.Basis)
	}
	out["basis"] = basis
	if r, ok := rec.RobustOf(res.Report); ok {
		one := func(v []int) []int {
			w := make([]int, len(v))
			for i, c := range v {
				w[i] = c + 1
			}
			return w
		}
		out["robust"] = map[string]any{"path": r.Estimate, "wald": finite(r.Wald), "df": r.DF, "p": finite(r.P),
			"distance": finite(r.Distance), "refined": r.Refined, "kernel_coords": one(r.KernelCoords), "null_coords": one(r.NullCoords)}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail(err)
	}
}

// finite returns v, or nil (JSON null) if v is NaN or infinite, as
// default_method_eval.py reads the robust report: Wald, P and Distance are NaN
// when only one path ran, Wald is +Inf (P = 0) when the test's regression
// is singular, and Distance +Inf when the axes estimate is orthogonal to
// part of the equivariant estimate's frame.
func finite(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ablate:", err)
	os.Exit(1)
}
