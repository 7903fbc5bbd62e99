// Command robust-eval fits the robust variant of WF-LSNGCA and MIPP to data
// whose signal lies on random columns (aligned), is mixed with one noise
// column, or is turned, and prints every fit as CSV: the decision of the
// robust variant against the truth. It measures the robust variant's
// choice between its axes and equivariant estimates (docs/robust.md).
//
//	go run ./scripts/robust-eval -n 1000,2000 -d 10,30 -seeds 3 > fits.csv
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
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/internal/synth"
)

func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(f)
		if err != nil {
			log.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func floats(s string) []float64 {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			log.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

type job struct {
	sig        synth.Signal
	n, d, mix  int
	r          float64
	seed       int
	rec        []string
	failRobust string
}

func main() {
	ns := flag.String("n", "1000,2000", "rows")
	ds := flag.String("d", "10,30", "columns")
	rs := flag.String("r", "0.3,1", "noise conditioning")
	mixes := flag.String("mix", "0,1,-1", "noise columns mixed with the signal (-1: turned)")
	sigs := flag.String("signals", "", "signals (default all)")
	seeds := flag.Int("seeds", 3, "seeds per cell")
	workers := flag.Int("workers", 2, "fits at a time")
	flag.Parse()
	var signals []synth.Signal
	if *sigs == "" {
		signals = synth.Signals
	} else {
		for _, name := range strings.Split(*sigs, ",") {
			s, err := synth.Lookup(name)
			if err != nil {
				log.Fatal(err)
			}
			signals = append(signals, s)
		}
	}
	var jobs []*job
	for _, n := range ints(*ns) {
		for _, d := range ints(*ds) {
			for _, r := range floats(*rs) {
				for _, mix := range ints(*mixes) {
					for _, sig := range signals {
						for seed := 0; seed < *seeds; seed++ {
							jobs = append(jobs, &job{sig: sig, n: n, d: d, r: r, mix: mix, seed: seed})
						}
					}
				}
			}
		}
	}
	ch := make(chan *job)
	var wg sync.WaitGroup
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				run(j)
			}
		}()
	}
	w := csv.NewWriter(os.Stdout)
	w.Write([]string{"signal", "n", "d", "r", "mix", "seed", "eps_robust", "eps_axes", "eps_equivariant", "eps_mipp", "path", "p", "distance", "kernel_coords", "missed_axes", "missed_equivariant", "err"})
	go func() {
		for _, j := range jobs {
			ch <- j
		}
		close(ch)
	}()
	// The fits are written in job order once all are done.
	wg.Wait()
	for _, j := range jobs {
		w.Write(j.rec)
	}
	w.Flush()
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

func run(j *job) {
	mix := j.mix
	if mix < 0 {
		mix = synth.Turn
	}
	x, truth, err := synth.Spec{Signal: j.sig, N: j.n, D: j.d, R: j.r, Mix: mix}.Sample(rand.NewPCG(uint64(j.seed), 77))
	base := []string{j.sig.Name, strconv.Itoa(j.n), strconv.Itoa(j.d), g(j.r), strconv.Itoa(j.mix), strconv.Itoa(j.seed)}
	if err != nil {
		j.rec = append(base, "", "", "", "", "", "", "", "", "", "", err.Error())
		return
	}
	ctx := context.Background()
	// The robust fit records its detail in rec.
	rec := probe.NewRecorder()
	res, err := (&ngca.RobustWFLSNGCA{Dim: 2, Workers: 1, Src: rand.NewPCG(uint64(j.seed), 1)}).Fit(probe.WithRecorder(ctx, rec), x)
	if err != nil {
		j.rec = append(base, "", "", "", "", "", "", "", "", "", "", err.Error())
		return
	}
	mres, err := (&ngca.MIPP{Dim: 2, Workers: 1, Src: rand.NewPCG(uint64(j.seed), 2)}).Fit(ctx, x)
	em := "NaN"
	if err == nil {
		em = g(ngca.SubspaceError(truth, mres.Basis))
	}
	rep, _ := rec.RobustOf(res.Report)
	eps := func(b *mat.Dense) string {
		if b == nil {
			return "NaN"
		}
		return g(ngca.SubspaceError(truth, b))
	}
	kc := fmt.Sprint(rep.KernelCoords)
	j.rec = append(base, eps(res.Basis), eps(rep.Axes), eps(rep.Equivariant), em, rep.Estimate, g(rep.P), g(rep.Distance), kc, g(rep.MissedAxes), g(rep.MissedEquivariant), "")
}
