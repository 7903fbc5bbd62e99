// Command efficiency-bound fits the library's default estimator, the
// robust variant of WF-LSNGCA (its zero value), and optionally MIPP to
// turned data (noise covariance I, r = 0, a random rotation of all
// columns) of the signals whose Fisher information is finite, and prints
// every fit's ε as CSV. bound.py compares the medians with the efficient
// estimator's (docs/robust.md).
//
//	go run ./scripts/efficiency-bound -seeds 30 > fits.csv
//	/usr/bin/python3 scripts/efficiency-bound/bound.py -fits fits.csv
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/internal/synth"
)

// defaultCells are the goal's cells (n ≥ max(2000, d², 200·d)) and, at
// d = 30, n = 2000, three below it: signal, m, n, d.
const defaultCells = "a,2,2000,10;b,2,2000,10;laplace,2,2000,10;student,2,2000,10;student-ind,2,2000,10;ring,2,2000,10;" +
	"a,1,2000,10;student,1,2000,10;ring,1,2000,10;" +
	"a,3,2000,10;b,3,2000,10;laplace,3,2000,10;student,3,2000,10;student-ind,3,2000,10;ring,3,2000,10;" +
	"a,2,10000,10;b,2,10000,10;laplace,2,10000,10;student,2,10000,10;ring,2,10000,10;" +
	"a,2,2000,30;b,2,2000,30;laplace,2,2000,30;" +
	"a,2,10000,50;b,2,10000,50;laplace,2,10000,50"

type job struct {
	sig       synth.Signal
	m, n, d   int
	seed      int
	def, mipp float64
	err       error
}

func main() {
	cells := flag.String("cells", defaultCells, "cells: signal,m,n,d separated by ;")
	seeds := flag.Int("seeds", 30, "data sets per cell")
	mipp := flag.Bool("mipp", false, "fit MIPP too")
	workers := flag.Int("workers", 2, "fits at a time")
	eqOnly := flag.Bool("equivariant", false, "fit the variant's equivariant estimate only (the equivariant path), the estimate the default returns on turned data unless its axes estimate passes both checks")
	flag.Parse()
	path := "adaptive"
	if *eqOnly {
		path = "equivariant"
	}
	var jobs []*job
	for _, c := range strings.Split(*cells, ";") {
		f := strings.Split(c, ",")
		if len(f) != 4 {
			log.Fatalf("cell %q: want signal,m,n,d", c)
		}
		sig, err := synth.Lookup(f[0])
		if err != nil {
			log.Fatal(err)
		}
		var v [3]int
		for i := range v {
			if v[i], err = strconv.Atoi(f[i+1]); err != nil {
				log.Fatal(err)
			}
		}
		for s := 0; s < *seeds; s++ {
			jobs = append(jobs, &job{sig: sig, m: v[0], n: v[1], d: v[2], seed: s})
		}
	}
	w := csv.NewWriter(os.Stdout)
	w.Write([]string{"signal", "m", "n", "d", "seed", "eps_default", "eps_mipp", "err"})
	w.Flush()
	// Every fit is written as soon as it is done (in the order they
	// finish), so that an interrupted run keeps its fits.
	var mu sync.Mutex
	ch := make(chan *job)
	var wg sync.WaitGroup
	for k := 0; k < *workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				j.run(path, *mipp)
				msg := ""
				if j.err != nil {
					msg = j.err.Error()
				}
				mu.Lock()
				w.Write([]string{j.sig.Name, strconv.Itoa(j.m), strconv.Itoa(j.n), strconv.Itoa(j.d), strconv.Itoa(j.seed),
					g(j.def), g(j.mipp), msg})
				w.Flush()
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
	if err := w.Error(); err != nil {
		log.Fatal(err)
	}
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func (j *job) run(path string, mipp bool) {
	j.def, j.mipp = math.NaN(), math.NaN()
	x, truth, err := synth.Spec{Signal: j.sig, M: j.m, N: j.n, D: j.d, Mix: synth.Turn}.Sample(rand.NewPCG(uint64(j.seed), 77))
	if err != nil {
		j.err = err
		return
	}
	ctx := context.Background()
	// The path travels into the fit in its context (internal/probe).
	est := &ngca.RobustWFLSNGCA{Dim: j.m, Workers: 1, Src: rand.NewPCG(uint64(j.seed), 1)}
	res, err := est.Fit(probe.WithSettings(ctx, probe.Settings{RobustPath: path}), x)
	if err != nil {
		j.err = fmt.Errorf("default: %w", err)
		return
	}
	j.def = ngca.SubspaceError(truth, res.Basis)
	if !mipp {
		return
	}
	mres, err := (&ngca.MIPP{Dim: j.m, Workers: 1, Src: rand.NewPCG(uint64(j.seed), 2)}).Fit(ctx, x)
	if err != nil {
		j.err = fmt.Errorf("mipp: %w", err)
		return
	}
	j.mipp = ngca.SubspaceError(truth, mres.Basis)
}
