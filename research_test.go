package ngca

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// The research harness: NGCA_RESEARCH=variant1,variant2 go test -run TestResearch -v
// runs each variant over the cells of issue 7 and prints mean ε per cell.

type researchCell struct {
	name   string
	r      float64
	d      int
	rotate bool
}

var researchCells = []researchCell{
	{"aligned r=0", 0, 10, false},
	{"aligned r=0.8", 0.8, 10, false},
	{"rotated r=0", 0, 10, true},
	{"rotated r=0.8", 0.8, 10, true},
	{"aligned r=1", 1, 10, false},
	{"aligned r=1.5", 1.5, 10, false},
	{"aligned r=2", 2, 10, false},
	{"aligned d=20", 0, 20, false},
	{"aligned d=50", 0, 50, false},
	{"aligned r=4", 4, 10, false},
}

type variantFn func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error)

var researchVariants = map[string]variantFn{
	"faithful": func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		r, err := (&WFLSNGCA{Dim: dim, Src: src}).Fit(ctx, x)
		if err != nil {
			return nil, err
		}
		return r.Basis, nil
	},
	"lsngca": func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		r, err := (&LSNGCA{Dim: dim, Src: src}).Fit(ctx, x)
		if err != nil {
			return nil, err
		}
		return r.Basis, nil
	},
	"mipp": func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		r, err := (&MIPP{Dim: dim, Src: src}).Fit(ctx, x)
		if err != nil {
			return nil, err
		}
		return r.Basis, nil
	},
	"potential": func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		return potentialBasis(ctx, x, dim, src, false)
	},
	"potential-noself": func(ctx context.Context, x *mat.Dense, dim int, src rand.Source) (*mat.Dense, error) {
		return potentialBasis(ctx, x, dim, src, true)
	},
}

// potentialBasis: standardise, fit the potential with isotropic kernels,
// take the leading eigenvectors of (1/n)Σvvᵀ.
func potentialBasis(ctx context.Context, x *mat.Dense, dim int, src rand.Source, noSelf bool) (*mat.Dense, error) {
	pr, err := prepare(ctx, x, config{kernel: true, src: src}, dim, true)
	if err != nil {
		return nil, err
	}
	centers := pr.centersFrom(pr.z, nil)
	part := newPartition(pr.rng, pr.n, pr.folds)
	m, _, err := fitPotential(ctx, pr.z, centers, pr.widths, pr.ridges, part, noSelf, &pr.plan)
	if err != nil {
		return nil, err
	}
	v := mat.NewDense(pr.n, pr.d, nil)
	m.vTo(v, pr.z)
	b, _, err := basisFrom(v, dim, pr.scale.unscale)
	return b, err
}

func TestResearch(t *testing.T) {
	list := os.Getenv("NGCA_RESEARCH")
	if list == "" {
		t.Skip("set NGCA_RESEARCH to a comma-separated list of variants")
	}
	seeds := 3
	if s, err := strconv.Atoi(os.Getenv("NGCA_SEEDS")); err == nil {
		seeds = s
	}
	cellFilter := os.Getenv("NGCA_CELLS")
	for _, name := range strings.Split(list, ",") {
		fn, ok := researchVariants[name]
		if !ok {
			t.Fatalf("unknown variant %q", name)
		}
		fmt.Printf("\n## %s (%d seeds)\n| cell | (a) | (b) | (c) | (d) | s/fit |\n|---|---|---|---|---|---|\n", name, seeds)
		for _, cell := range researchCells {
			if cellFilter != "" && !strings.Contains(cellFilter, cell.name) {
				continue
			}
			line := fmt.Sprintf("| %s |", cell.name)
			var secs float64
			for _, dist := range Distributions {
				var mean float64
				for s := 0; s < seeds; s++ {
					x, truth, err := Artificial{Dist: dist, D: cell.d, R: cell.r, Rotate: cell.rotate}.Sample(rand.NewPCG(uint64(s), 7777))
					if err != nil {
						t.Fatal(err)
					}
					start := time.Now()
					b, err := fn(context.Background(), x, 2, rand.NewPCG(uint64(s), 1))
					secs += time.Since(start).Seconds()
					e := math.NaN()
					if err == nil {
						e = SubspaceError(truth, b)
					}
					mean += e / float64(seeds)
				}
				line += fmt.Sprintf(" %.2e |", mean)
			}
			fmt.Printf("%s %.2f |\n", line, secs/float64(4*seeds))
		}
	}
}
