package main

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/ngca-go/ngca/research/internal/repro"
)

// fitEvidence is one row of a tuning file: a fit's ε and the figures
// Check's rule reads.
type fitEvidence struct {
	method       string
	eps, sep     float64
	dIMAK, dMIPP float64
	own, ri, rm  [][]float64 // the refits' ε per share: the fit's, IMAK's, MIPP's
	block        string
	n, d         int
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
		e := fitEvidence{method: rec[col["method"]], eps: num(rec, "eps"), sep: num(rec, "sep"), dIMAK: num(rec, "d_imak"), dMIPP: num(rec, "d_mipp"),
			block: rec[col["block"]], n: int(num(rec, "n")), d: int(num(rec, "d"))}
		e.own = make([][]float64, len(shares))
		e.ri = make([][]float64, len(shares))
		e.rm = make([][]float64, len(shares))
		for j := range shares {
			for b := 0; b < refitsPerShare; b++ {
				e.own[j] = append(e.own[j], num(rec, fmt.Sprintf("s%d_%d", j, b)))
				e.ri[j] = append(e.ri[j], num(rec, fmt.Sprintf("si%d_%d", j, b)))
				e.rm[j] = append(e.rm[j], num(rec, fmt.Sprintf("sm%d_%d", j, b)))
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// rule is a candidate setting of Check's thresholds.
type rule struct {
	share            int // index into shares
	b                int
	stable, k, floor float64
	refStable        float64
	// wide keeps the references' Spread in the agreement limit when the
	// refits hold fewer than d² rows, as Check did before it left it out.
	wide bool
}

// doubtful applies Check's rule: unstable, or (for the estimators that
// are not equivariant) no reference, IMAK then MIPP, stable enough and
// near enough.
func (r rule) doubtful(e fitEvidence) bool {
	spread := r.spread(e.own)
	if spread > r.stable {
		return true
	}
	type ref struct {
		d      float64
		refits [][]float64
	}
	refs := []ref{{e.dIMAK, e.ri}, {e.dMIPP, e.rm}}
	switch e.method {
	case "mipp", "imak", "sngca":
		return false // the equivariant estimators: stability alone
	}
	few := int(shares[r.share]*float64(e.n)) < e.d*e.d
	for _, f := range refs {
		s := r.spread(f.refits)
		widen := s
		if few && !r.wide {
			widen = 0
		}
		if s <= r.refStable && f.d <= r.k*(spread+widen)+r.floor {
			return false
		}
	}
	return true
}

// spread is the median of the first b refits of the rule's share, scaled
// to the full fit: ε(refit on s of n rows, fit) estimates the fit's own
// error times (n−s)/s.
func (r rule) spread(refits [][]float64) float64 {
	q := shares[r.share]
	return median(refits[r.share][:r.b]) * q / (1 - q)
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

// group names the part of the tuning set a fit belongs to: wide data by
// n and d, the rest by block.
func (e fitEvidence) group() string {
	if e.d >= 30 || e.n <= 500 {
		return fmt.Sprintf("n=%d d=%d", e.n, e.d)
	}
	return "d=10, n ≥ 2000"
}

// count is the doubtful fits among the bad and the good ones.
type count struct{ bad, badDoubt, good, goodDoubt int }

func (c *count) add(e fitEvidence, doubtful bool) {
	switch {
	case e.eps > 0.1:
		c.bad++
		if doubtful {
			c.badDoubt++
		}
	case e.eps < 0.01:
		c.good++
		if doubtful {
			c.goodDoubt++
		}
	}
}

func pct(k, n int) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(k)/float64(n))
}

func printGrid(path string) error {
	fits, err := readEvidence(path)
	if err != nil {
		return err
	}
	var all count
	groups := map[string]*count{}
	for _, f := range fits {
		all.add(f, false)
		if groups[f.group()] == nil {
			groups[f.group()] = &count{}
		}
	}
	names := slices.Sorted(maps.Keys(groups))
	fmt.Printf("%d fits: %d bad (ε > 0.1), %d good (ε < 0.01)\n\n", len(fits), all.bad, all.good)
	fmt.Print("| share q | B | τ | k | reference limit | bad doubtful | good doubtful |")
	for _, g := range names {
		fmt.Printf(" %s: bad | good |", g)
	}
	fmt.Print("\n|---|---|---|---|---|---|---|")
	for range names {
		fmt.Print("---|---|")
	}
	fmt.Println()
	for j, q := range shares {
		for _, b := range []int{4, 6} {
			for _, stable := range []float64{0.03, 0.05, 0.1} {
				for _, k := range []float64{1.5, 2, 3} {
					for _, refStable := range []float64{0.1, 0.15, math.Inf(1)} {
						r := rule{share: j, b: b, stable: stable, k: k, floor: 0.01, refStable: refStable}
						var c count
						per := map[string]*count{}
						for _, g := range names {
							per[g] = &count{}
						}
						for _, f := range fits {
							v := r.doubtful(f)
							c.add(f, v)
							per[f.group()].add(f, v)
						}
						fmt.Printf("| %g | %d | %g | %g | %g | %s | %s |", q, b, stable, k, refStable, pct(c.badDoubt, c.bad), pct(c.goodDoubt, c.good))
						for _, g := range names {
							fmt.Printf(" %s | %s |", pct(per[g].badDoubt, per[g].bad), pct(per[g].goodDoubt, per[g].good))
						}
						fmt.Println()
					}
				}
			}
		}
	}
	chosen := rule{share: 1, b: 4, stable: 0.05, k: 2, floor: 0.01, refStable: 0.15}
	var sure, weak count
	var eqAll, eqMIPPRef count
	for _, f := range fits {
		v := chosen.doubtful(f)
		sure.add(f, v)
		weak.add(f, v || f.sep < 10) // NaN (no spectrum) is not weak
		if f.method != "mipp" && f.method != "imak" && f.method != "sngca" {
			continue
		}
		unstable := chosen.spread(f.own) > chosen.stable
		eqAll.add(f, unstable)
		if f.method == "mipp" {
			s := chosen.spread(f.ri)
			eqMIPPRef.add(f, unstable || !(s <= chosen.refStable && f.dIMAK <= chosen.k*(chosen.spread(f.own)+s)+chosen.floor))
		}
	}
	fmt.Printf("\nThe chosen rule (q 0.75, B 4, τ 0.05, k 2, reference limit 0.15) calls %d of %d bad and %d of %d good fits doubtful; "+
		"calling a fit with separation < 10 doubtful as well would make it %d of %d bad and %d of %d good.\n",
		sure.badDoubt, sure.bad, sure.goodDoubt, sure.good, weak.badDoubt, weak.bad, weak.goodDoubt, weak.good)
	wide := chosen
	wide.wide = true
	var was count
	for _, f := range fits {
		was.add(f, wide.doubtful(f))
	}
	fmt.Printf("\nLeaving the references' Spread out of the limit when the refits hold fewer than d² rows: "+
		"with it kept in, the chosen rule would call %d of %d bad and %d of %d good fits doubtful.\n",
		was.badDoubt, was.bad, was.goodDoubt, was.good)
	fmt.Printf("\nEquivariant estimators (MIPP, IMAK, SNGCA), judged by stability alone: %d of %d bad fits unstable, %d of %d good; "+
		"judging MIPP's fits by agreement with IMAK as well would call %d of its %d bad and %d of its %d good fits doubtful.\n",
		eqAll.badDoubt, eqAll.bad, eqAll.goodDoubt, eqAll.good, eqMIPPRef.badDoubt, eqMIPPRef.bad, eqMIPPRef.goodDoubt, eqMIPPRef.good)
	return nil
}
