// Command mipp-control refits MIPP with another seed to the orientation
// study's data sets of one block and counts, per cell, the fits that break
// the study's bound against the study's own MIPP fit (ε > 2·ε_MIPP + 0.01):
// how often MIPP's own randomness breaks the bound (docs/default-method.md).
// Run from the repository's root, after the study:
//
//	go run ./scripts/mipp-control aligned
package main

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/research/internal/repro"
	"github.com/ngca-go/ngca/research/internal/repro/orientation"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: mipp-control BLOCK")
	}
	recs, err := repro.ReadCSV("docs/orientation/orientation.csv")
	if err != nil {
		log.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	mipp := map[string]float64{} // the study's MIPP ε by cell and seed
	for _, r := range recs[1:] {
		if r[col["method"]] == "mipp" {
			e, _ := strconv.ParseFloat(r[col["epsilon"]], 64)
			mipp[r[col["cell"]]+"#"+r[col["seed"]]] = e
		}
	}
	cells, err := orientation.SelectCells([]string{os.Args[1]}, nil)
	if err != nil {
		log.Fatal(err)
	}
	type out struct {
		cell string
		bad  int
	}
	res := make([]out, len(cells))
	var wg sync.WaitGroup
	sem := make(chan bool, 2)
	for i, c := range cells {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- true
			defer func() { <-sem }()
			res[i].cell = c.Name
			for seed := 0; seed < 10; seed++ {
				spec, _ := c.Spec()
				x, truth, _ := spec.Sample(rand.NewPCG(1, repro.Key("orientation", c.Name, seed)))
				src := rand.NewPCG(1, repro.Key("orientation-fit-alt", c.Name, seed))
				r, err := methods.MustLookup("mipp").New(methods.Settings{Dim: c.M, Workers: 1, Src: src}).Fit(context.Background(), x)
				if err != nil {
					continue
				}
				e := ngca.SubspaceError(truth, r.Basis)
				if e > 2*mipp[c.Name+"#"+strconv.Itoa(seed)]+0.01 {
					res[i].bad++
				}
			}
		}()
	}
	wg.Wait()
	cellsBad, fits := 0, 0
	for _, r := range res {
		if r.bad > 0 {
			fmt.Printf("%s: %d of 10 fits outside the bound\n", r.cell, r.bad)
			cellsBad++
			fits += r.bad
		}
	}
	fmt.Printf("block %s: %d of %d cells, %d fits outside the bound\n", os.Args[1], cellsBad, len(cells), fits)
}
