package ngca

import (
	"context"
	"math"

	"gonum.org/v1/gonum/stat"
)

// nullTest compares, for every coordinate j with its chosen (σ_j, λ_j),
// the per-row held-out losses of the fitted model and of the null model
// (the linear part alone, or f_j = 0 without one). It fills the stage's
// zOut if set, and reports which coordinates fail the test (all false
// when nullZ ≤ 0). When the stage asks for neither it does nothing and
// returns nil.
func (ss *stageSweep) nullTest(ctx context.Context, workers int, choices []choice) ([]bool, error) {
	st, sd := ss.st, ss.sd
	if !st.testsNull() {
		return nil, nil
	}
	zeroed := make([]bool, sd.d)
	dlt, err := ss.lossDiffs(ctx, workers, choices)
	if err != nil {
		return nil, err
	}
	z := make([]float64, sd.d)
	for j := range z {
		z[j] = meanZ(dlt[j])
		if st.nullZ > 0 {
			zeroed[j] = !(z[j] < -st.nullZ)
		}
	}
	keepAtLeast(zeroed, z, st.minKept)
	if st.zOut != nil {
		copy(st.zOut, z)
	}
	return zeroed, nil
}

// keepAtLeast clears zeroed for the coordinates with the lowest z until at
// least k coordinates are not null (ties to the smaller index).
func keepAtLeast(zeroed []bool, z []float64, k int) {
	kept := 0
	for _, n := range zeroed {
		if !n {
			kept++
		}
	}
	for _, j := range ascending(z) {
		if kept >= k {
			return
		}
		if zeroed[j] {
			zeroed[j] = false
			kept++
		}
	}
}

// lossDiffs returns, for every coordinate j in fold order, every row's
// held-out loss f² + 2(∂_j f + f·a) under the model with the chosen width
// (and the chosen ridge, whose fold fits the sweep kept in ss.fits) minus
// the same loss under the null model, each row predicted by the fits
// without its fold. When the stage keeps its distances (b·n ≤
// keptDistances), the kernel values of all rows are formed once per worker
// and width, in parallel over the coordinates: the rows are then few
// passes, often one, which would leave workers idle. Otherwise they are
// formed pass by pass (blocks.go), in parallel over the passes, so that
// the memory stays O(b·passRows) per worker. The two agree up to the
// rounding of the vectorised exponential (TestNullTestPasses).
func (ss *stageSweep) lossDiffs(ctx context.Context, workers int, choices []choice) ([][]float64, error) {
	sd, st := ss.sd, ss.st
	dlt := make([][]float64, sd.d)
	for j := range dlt {
		dlt[j] = make([]float64, sd.n)
	}
	if sd.d2 != nil {
		err := parallelFor(ctx, workers, sd.d, func(wk, j int) error {
			kt, err := ss.cellOf(wk).allRows(choices[j].w)
			if err != nil {
				return err
			}
			ss.lossRows(j, choices[j].w, kt, 0, sd.n, dlt[j])
			return nil
		}, nil)
		return dlt, err
	}
	scratch := make([]*blockScratch, max(1, workers))
	err := parallelFor(ctx, workers, len(sd.passes), func(wk, i int) error {
		if scratch[wk] == nil {
			scratch[wk] = newBlockScratch(sd)
		}
		ps := sd.passes[i]
		lo, hi := ps[0].lo, ps[len(ps)-1].hi
		for w, sigma := range st.widths {
			var kt []float64
			for j := range choices {
				if choices[j].w != w {
					continue
				}
				if kt == nil {
					var err error
					if kt, err = scratch[wk].kernel(ctx, 1, sd, ss.kernel, ps, sigma); err != nil {
						return err
					}
				}
				ss.lossRows(j, w, kt, lo, hi, dlt[j][lo:hi])
			}
		}
		return nil
	}, nil)
	return dlt, err
}

// allRows returns the kernel values of all rows (b×n) at the width index
// w, kept in the cell for the next coordinate of the same width.
func (c *stageCell) allRows(w int) ([]float64, error) {
	sd := c.ss.sd
	if c.kt == nil {
		c.kt = make([]float64, sd.b*sd.n)
	}
	if c.ktWidth != w {
		c.ktWidth = -1
		if err := c.ss.kernel(context.Background(), 1, c.kt, sd.d2, sd.b, c.ss.st.widths[w]); err != nil {
			return nil, err
		}
		c.ktWidth = w
	}
	return c.kt, nil
}

// lossRows sets dlt[p−lo], for the rows lo ≤ p < hi of the fold order, to
// the difference of the held-out losses of lossDiffs, from the kernel
// values kt of those rows (b×(hi−lo)) at the width index w.
func (ss *stageSweep) lossRows(j, w int, kt []float64, lo, hi int, dlt []float64) {
	sd := ss.sd
	n, m := sd.n, hi-lo
	var aj []float64
	if sd.aT != nil {
		aj = sd.aT[j*n : (j+1)*n]
	}
	xj, cj, curv := sd.xT[j*n:(j+1)*n], sd.cT.RawRowView(j), ss.curv(j, ss.st.widths[w])
	// The kernel part, center by center over each fold's rows (contiguous
	// in kt); the sums over centers keep their order.
	fv, df := make([]float64, m), make([]float64, m)
	for f, ff := range ss.fits[j] {
		flo, fhi := max(lo, sd.part.bounds[f]), min(hi, sd.part.bounds[f+1])
		if flo >= fhi {
			continue
		}
		xs, fvs, dfs := xj[flo:fhi], fv[flo-lo:fhi-lo], df[flo-lo:fhi-lo]
		for k, t := range ff.theta {
			if t == 0 {
				continue
			}
			ck := cj[k]
			for i, kv := range kt[k*m+flo-lo : k*m+fhi-lo] {
				diff := ck - xs[i]
				fvs[i] += t * diff * kv
				dfs[i] += t * (diff*diff*curv - 1) * kv
			}
		}
		for p := flo; p < fhi; p++ {
			fvp, dfp := fv[p-lo], df[p-lo]
			var f0, df0 float64
			if ss.lf != nil {
				q := ss.lf.q
				for col, v := range ss.lf.rows[p*q : (p+1)*q] {
					fvp += ff.a[col] * v
					f0 += ff.a0[col] * v
				}
				dfp += ff.a[j]
				df0 += ff.a0[j]
			}
			av := 0.0
			if aj != nil {
				av = aj[p]
			}
			dlt[p-lo] = (fvp*fvp + 2*(dfp+fvp*av)) - (f0*f0 + 2*(df0+f0*av))
		}
	}
}

// meanZ is the z-score of the mean of dlt: the mean over its standard
// error.
func meanZ(dlt []float64) float64 {
	mean, vr := stat.MeanVariance(dlt, nil) // two-pass: no cancellation
	vr /= float64(len(dlt))
	if !(vr > 0) {
		return 0
	}
	return mean / math.Sqrt(vr)
}
