// Command check-tuning gathers the evidence that ngca.Check's thresholds
// were chosen on, and tabulates candidate thresholds against it.
//
// It fits every estimator to the orientation study's data sets of seed 0
// (its data and fit seeds, so ε equals docs/orientation/orientation.csv),
// refits each on 8 random halves of the rows (the same halves for every
// estimator of a data set), fits IMAK and MIPP as references with their own
// refits, and writes one row per fit: ε, separation, the ε of each refit
// to the fit, the distance from the fit to IMAK's and MIPP's fits and the
// ε of their refits. Cells run in a fixed random order, so -cells N runs the
// first N of it:
//
//	go run ./scripts/check-tuning -cells 104 -out docs/check/tuning.csv
//
// With -grid it reads such a file and prints, for every combination of
// refits B, stability threshold τ, agreement factor k and reference
// stability limit, the share of bad fits (ε > 0.1) and of good fits
// (ε < 0.01) that Check's rule would call doubtful:
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
	"strconv"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/repro"
	"github.com/ngca-go/ngca/internal/repro/orientation"
)

// halvesPerFit is the number of refits gathered per fit; -grid tries the
// first B of them.
const halvesPerFit = 8

func main() {
	out := flag.String("out", "tuning.csv", "output CSV")
	cells := flag.Int("cells", 268, "run the first `N` cells of the fixed random order")
	workers := flag.Int("workers", 2, "data sets at once")
	grid := flag.String("grid", "", "print the grid of thresholds for this tuning CSV instead of fitting")
	flag.Parse()
	if *grid != "" {
		if err := printGrid(*grid); err != nil {
			log.Fatal(err)
		}
		return
	}
	if err := run(*out, *cells, *workers); err != nil {
		log.Fatal(err)
	}
}

// evidence is what one estimator gives on one data set.
type evidence struct {
	basis          *mat.Dense
	eps, sep, secs float64
	refSecs        float64
	refit          []float64
	err            string
}

func run(out string, ncells, workers int) error {
	all := orientation.DefaultCells()
	perm := rand.New(rand.NewPCG(3, 3)).Perm(len(all))
	if ncells < len(perm) {
		perm = perm[:ncells]
	}
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
	for _, ci := range perm {
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
		for b := 0; b < halvesPerFit; b++ {
			h = append(h, p+strconv.Itoa(b))
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
	halves := make([][]int, halvesPerFit)
	for b := range halves {
		halves[b] = rng.Perm(c.N)[:c.N/2]
	}
	evs := map[string]evidence{}
	for _, m := range methods.All() {
		if m.Key == "sngca" && ci%8 != 0 {
			continue
		}
		evs[m.Key] = gather(m, c, seed, x, truth, halves)
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
		for _, l := range [][]float64{e.refit, evs["imak"].refit, evs["mipp"].refit} {
			for b := 0; b < halvesPerFit; b++ {
				v := "NaN"
				if b < len(l) {
					v = fmt.Sprint(l[b])
				}
				rec = append(rec, v)
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
// half, one worker per fit.
func gather(m methods.Method, c orientation.Cell, seed int, x, truth *mat.Dense, halves [][]int) (e evidence) {
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
	for b, idx := range halves {
		s := rand.NewPCG(7, repro.Key("checkexp-refit", c.Name, seed, m.Key, b))
		r, err := m.New(methods.Settings{Dim: c.M, Workers: 1, Src: s}).Fit(ctx, rowsOf(x, idx))
		if err != nil {
			e.refit = append(e.refit, 1)
			continue
		}
		e.refit = append(e.refit, ngca.SubspaceError(res.Basis, r.Basis))
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
