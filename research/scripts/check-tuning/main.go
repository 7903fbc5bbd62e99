// Command check-tuning gathers the evidence that ngca.Check's scheme and
// thresholds were chosen on, and tabulates candidates against it.
//
// It fits every estimator to data sets of seed 0 of a fixed random choice of
// cells per block: the orientation study's cells (its data and fit seeds,
// so ε equals docs/orientation/orientation.csv) and the check study's wide
// cells (d = 30 at n = 5000, d = 50 at n = 2000 and 10000). It refits each
// fit on 6 random subsamples of half and 6 of three quarters of the rows
// (the same subsamples for every estimator of a data set), fits IMAK and
// MIPP as references with their own refits, and writes one row per fit:
// ε, separation, the ε of each refit to the fit, the distance from the fit
// to IMAK's and MIPP's fits and the ε of their refits. SNGCA runs on every
// 8th cell only.
//
//	go run ./scripts/check-tuning -out docs/check/tuning.csv
//
// With -grid it reads such a file and prints, for every combination of
// share q, refits B, stability threshold τ, agreement factor k and
// reference stability limit, the share of bad fits (ε > 0.1) and of good
// fits (ε < 0.01) that Check's rule would call doubtful, over all fits and
// per part of the tuning set:
//
//	go run ./scripts/check-tuning -grid docs/check/tuning.csv
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/research/internal/repro"
	"github.com/ngca-go/ngca/research/internal/repro/checkstudy"
	"github.com/ngca-go/ngca/research/internal/repro/orientation"
)

// shares are the shares of the rows that the refits are drawn at, each
// share refitsPerShare times; -grid tries the first B refits of a share.
var shares = []float64{0.5, 0.75}

const refitsPerShare = 6

func main() {
	out := flag.String("out", "tuning.csv", "output CSV")
	perBlock := flag.String("cells", "mix=24,m=8,n=16,d=40,d30=6,d50=10", "how many cells of each block to run, the first of a fixed random order (`block=N,...`)")
	workers := flag.Int("workers", 2, "data sets at once")
	grid := flag.String("grid", "", "print the grid of thresholds for this tuning CSV instead of fitting")
	flag.Parse()
	if *grid != "" {
		if err := printGrid(*grid); err != nil {
			log.Fatal(err)
		}
		return
	}
	cells, err := selectCells(*perBlock)
	if err != nil {
		log.Fatal(err)
	}
	if err := run(*out, cells, *workers); err != nil {
		log.Fatal(err)
	}
}

// selectCells returns, for each block=N of spec, the first N cells of the
// block in a fixed random order of the orientation study's cells and the
// check study's wide cells.
func selectCells(spec string) ([]orientation.Cell, error) {
	all := append(checkstudy.OrientationCells(), checkstudy.WideCells()...)
	perm := rand.New(rand.NewPCG(3, 3)).Perm(len(all))
	want := map[string]int{}
	for _, f := range strings.Split(spec, ",") {
		b, n, ok := strings.Cut(f, "=")
		k, err := strconv.Atoi(n)
		if !ok || err != nil {
			return nil, fmt.Errorf("-cells: %q is not block=N", f)
		}
		want[b] = k
	}
	var cells []orientation.Cell
	for _, i := range perm {
		c := all[i]
		if want[c.Block] > 0 {
			want[c.Block]--
			cells = append(cells, c)
		}
	}
	return cells, nil
}

// evidence is what one estimator gives on one data set.
type evidence struct {
	basis          *mat.Dense
	eps, sep, secs float64
	refSecs        float64
	refit          [][]float64 // per share
	err            string
}

func run(out string, all []orientation.Cell, workers int) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	w := csv.NewWriter(f)
	w.Write(header())
	var mu sync.Mutex
	jobs := make(chan int)
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ci := range jobs {
				recs, err := cellRecords(ci, all[ci])
				mu.Lock()
				if err != nil {
					log.Print(err)
				}
				w.WriteAll(recs)
				mu.Unlock()
				fmt.Fprintln(os.Stderr, all[ci].Name)
			}
		}()
	}
	for ci := range all {
		jobs <- ci
	}
	close(jobs)
	wg.Wait()
	w.Flush()
	return w.Error()
}

func header() []string {
	h := []string{"block", "cell", "signal", "m", "n", "d", "r", "mix", "seed", "method", "eps", "sep", "secs", "refsecs", "err",
		"d_imak", "d_mipp", "d_trueimak", "d_truemipp"}
	for _, p := range []string{"s", "si", "sm"} {
		for j := range shares {
			for b := 0; b < refitsPerShare; b++ {
				h = append(h, fmt.Sprintf("%s%d_%d", p, j, b))
			}
		}
	}
	return h
}

// cellRecords fits and refits every estimator on the cell's data set of
// seed 0 (SNGCA on every 8th cell of the default order only).
func cellRecords(ci int, c orientation.Cell) ([][]string, error) {
	const seed = 0
	spec, err := c.Spec()
	if err != nil {
		return nil, err
	}
	x, truth, err := spec.Sample(rand.NewPCG(1, repro.Key("orientation", c.Name, seed)))
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(7, repro.Key("checkexp-halves", c.Name, seed)))
	subs := make([][][]int, len(shares))
	for j, q := range shares {
		for range refitsPerShare {
			idx := rng.Perm(c.N)[:int(q*float64(c.N))]
			slices.Sort(idx)
			subs[j] = append(subs[j], idx)
		}
	}
	evs := map[string]evidence{}
	for _, m := range methods.All() {
		if m.Key == "sngca" && ci%8 != 0 {
			continue
		}
		evs[m.Key] = gather(m, c, seed, x, truth, subs)
	}
	var recs [][]string
	for _, m := range methods.All() {
		e, ok := evs[m.Key]
		if !ok {
			continue
		}
		rec := []string{c.Block, c.Name, c.Signal, strconv.Itoa(c.M), strconv.Itoa(c.N), strconv.Itoa(c.D), fmt.Sprint(c.R),
			orientation.MixString(c.Mix), strconv.Itoa(seed), m.Key, fmt.Sprint(e.eps), fmt.Sprint(e.sep), fmt.Sprint(e.secs), fmt.Sprint(e.refSecs), e.err}
		rec = append(rec, distance(e, evs["imak"]), distance(e, evs["mipp"]), fmt.Sprint(evs["imak"].eps), fmt.Sprint(evs["mipp"].eps))
		for _, l := range [][][]float64{e.refit, evs["imak"].refit, evs["mipp"].refit} {
			for j := range shares {
				for b := 0; b < refitsPerShare; b++ {
					v := "NaN"
					if j < len(l) && b < len(l[j]) {
						v = fmt.Sprint(l[j][b])
					}
					rec = append(rec, v)
				}
			}
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

func distance(a, b evidence) string {
	if a.basis == nil || b.basis == nil {
		return "NaN"
	}
	return fmt.Sprint(ngca.SubspaceError(a.basis, b.basis))
}

// gather fits m with the orientation study's seed and refits it on each
// subsample of each share, one worker per fit.
func gather(m methods.Method, c orientation.Cell, seed int, x, truth *mat.Dense, subs [][][]int) (e evidence) {
	ctx := context.Background()
	src := rand.NewPCG(1, repro.Key("orientation-fit", c.Name, seed, m.Key))
	start := time.Now()
	res, err := m.New(methods.Settings{Dim: c.M, Workers: 1, Src: src}).Fit(ctx, x)
	if err != nil {
		return evidence{err: err.Error()}
	}
	e = evidence{basis: res.Basis, eps: ngca.SubspaceError(truth, res.Basis), sep: res.Separation(), secs: time.Since(start).Seconds()}
	start = time.Now()
	defer func() { e.refSecs = time.Since(start).Seconds() }()
	e.refit = make([][]float64, len(subs))
	for j, share := range subs {
		for b, idx := range share {
			s := rand.NewPCG(7, repro.Key("checkexp-refit", c.Name, seed, m.Key, j, b))
			r, err := m.New(methods.Settings{Dim: c.M, Workers: 1, Src: s}).Fit(ctx, rowsOf(x, idx))
			if err != nil {
				e.refit[j] = append(e.refit[j], 1)
				continue
			}
			e.refit[j] = append(e.refit[j], ngca.SubspaceError(res.Basis, r.Basis))
		}
	}
	return e
}

func rowsOf(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	y := mat.NewDense(len(idx), d, nil)
	for k, i := range idx {
		y.SetRow(k, x.RawRowView(i))
	}
	return y
}
