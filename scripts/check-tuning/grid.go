package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ngca-go/ngca/internal/repro"
)

// fitEvidence is one row of a tuning file: a fit's ε and the figures
// Check's rule reads.
type fitEvidence struct {
	method       string
	eps, sep     float64
	dIMAK, dMIPP float64
	own, ri, rm  []float64 // the refits' ε: the fit's, IMAK's, MIPP's
}

func readEvidence(path string) ([]fitEvidence, error) {
	recs, err := repro.ReadCSV(path)
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	num := func(rec []string, name string) float64 {
		v, err := strconv.ParseFloat(rec[col[name]], 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	var out []fitEvidence
	for _, rec := range recs[1:] {
		if rec[col["err"]] != "" {
			continue
		}
		e := fitEvidence{method: rec[col["method"]], eps: num(rec, "eps"), sep: num(rec, "sep"), dIMAK: num(rec, "d_imak"), dMIPP: num(rec, "d_mipp")}
		for b := 0; b < halvesPerFit; b++ {
			e.own = append(e.own, num(rec, "s"+strconv.Itoa(b)))
			e.ri = append(e.ri, num(rec, "si"+strconv.Itoa(b)))
			e.rm = append(e.rm, num(rec, "sm"+strconv.Itoa(b)))
		}
		out = append(out, e)
	}
	return out, nil
}

// rule is a candidate setting of Check's thresholds.
type rule struct {
	b                int
	stable, k, floor float64
	refStable        float64
}

// doubtful applies Check's rule: unstable, or (for the estimators that
// are not equivariant) no reference, IMAK then MIPP, stable enough and
// near enough.
func (r rule) doubtful(e fitEvidence) bool {
	spread := median(e.own[:r.b])
	if spread > r.stable {
		return true
	}
	type ref struct {
		d      float64
		refits []float64
	}
	refs := []ref{{e.dIMAK, e.ri}, {e.dMIPP, e.rm}}
	switch e.method {
	case "mipp", "imak", "sngca":
		return false // the equivariant estimators: stability alone
	}
	for _, f := range refs {
		s := median(f.refits[:r.b])
		if s <= r.refStable && f.d <= r.k*(spread+s)+r.floor {
			return false
		}
	}
	return true
}

func median(v []float64) float64 {
	w := slices.Clone(v)
	slices.Sort(w)
	h := len(w) / 2
	if len(w)%2 == 1 {
		return w[h]
	}
	return (w[h-1] + w[h]) / 2
}

func printGrid(path string) error {
	fits, err := readEvidence(path)
	if err != nil {
		return err
	}
	var bad, good int
	for _, f := range fits {
		switch {
		case f.eps > 0.1:
			bad++
		case f.eps < 0.01:
			good++
		}
	}
	fmt.Printf("%d fits: %d bad (ε > 0.1), %d good (ε < 0.01)\n\n", len(fits), bad, good)
	fmt.Println("| B | τ (checkStable) | k (checkAgreeFactor) | reference limit | bad doubtful | good doubtful |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, b := range []int{4, 6, 8} {
		for _, stable := range []float64{0.03, 0.05, 0.1} {
			for _, k := range []float64{1.5, 2, 3} {
				for _, refStable := range []float64{0.1, 0.15, math.Inf(1)} {
					r := rule{b: b, stable: stable, k: k, floor: 0.01, refStable: refStable}
					var bd, gd int
					for _, f := range fits {
						switch {
						case f.eps > 0.1 && r.doubtful(f):
							bd++
						case f.eps < 0.01 && r.doubtful(f):
							gd++
						}
					}
					fmt.Printf("| %d | %g | %g | %g | %.1f %% | %.1f %% |\n", b, stable, k, refStable,
						100*float64(bd)/float64(bad), 100*float64(gd)/float64(good))
				}
			}
		}
	}
	chosen := rule{b: 6, stable: 0.05, k: 2, floor: 0.01, refStable: 0.15}
	var bd, gd, bs, gs int
	for _, f := range fits {
		weak := f.sep < 10 // NaN (no spectrum) is not weak
		switch {
		case f.eps > 0.1 && chosen.doubtful(f):
			bd++
		case f.eps > 0.1 && weak:
			bs++
		case f.eps < 0.01 && chosen.doubtful(f):
			gd++
		case f.eps < 0.01 && weak:
			gs++
		}
	}
	var eqBad, eqBadUnstable, eqGood, eqGoodUnstable, mippGood, mippRefDoubt int
	for _, f := range fits {
		if f.method != "mipp" && f.method != "imak" && f.method != "sngca" {
			continue
		}
		unstable := median(f.own[:chosen.b]) > chosen.stable
		switch {
		case f.eps > 0.1:
			eqBad++
			if unstable {
				eqBadUnstable++
			}
		case f.eps < 0.01:
			eqGood++
			if unstable {
				eqGoodUnstable++
			}
		}
		if f.method == "mipp" && f.eps < 0.01 {
			mippGood++
			s := median(f.ri[:chosen.b])
			if !unstable && !(s <= chosen.refStable && f.dIMAK <= chosen.k*(median(f.own[:chosen.b])+s)+chosen.floor) {
				mippRefDoubt++
			}
		}
	}
	fmt.Printf("\nEquivariant estimators (MIPP, IMAK, SNGCA), judged by stability alone: %d of %d bad fits unstable, %d of %d good; "+
		"comparing MIPP's fits with IMAK as well would call %d of its %d good fits doubtful.\n",
		eqBadUnstable, eqBad, eqGoodUnstable, eqGood, mippRefDoubt, mippGood)
	fmt.Printf("\nThe chosen rule (B 6, τ 0.05, k 2, reference limit 0.15) calls %d of %d bad and %d of %d good fits doubtful; "+
		"calling a fit with separation < 10 doubtful as well would add %d bad and %d good fits.\n", bd, bad, gd, good, bs, gs)
	return nil
}
