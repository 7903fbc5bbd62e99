package ngca_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ngca-go/ngca"
)

// FuzzCheck fits LSNGCA (small settings, see kernelSettings) to fuzz data
// (see decodeFuzz) and checks the fit with 2 to 5 refits on a share of the
// rows from 0 (the default) to 0.9: Check must
// return an error wrapping one of the package's sentinels, or a report
// whose figures keep their contract (one ε in [0, 1] per refit, Spread not
// NaN, one or two agreements, with IMAK and MIPP; the rows of the refit
// without the farthest rows distinct and in range, RowsDecide exactly
// when that refit moves beyond FarRowsLimit; Doubtful exactly when
// Spread > SpreadLimit, the last reference disagrees or a few rows decide),
// the same for three workers as for one.
func FuzzCheck(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		folds, centers, widths, ridges := fc.kernelSettings()
		est := &ngca.LSNGCA{Dim: fc.dim, Folds: folds, NumCenters: centers, Widths: widths, Ridges: ridges, Workers: 1}
		res, err := est.Fit(context.Background(), fc.x)
		if err != nil {
			return
		}
		opts := ngca.CheckOptions{Refits: 2 + int(fc.cfg[0])%4, Share: float64(fc.cfg[2]%10) / 10, Src: rand.NewPCG(uint64(fc.cfg[1]), 1), Workers: 1}
		rep, err := ngca.Check(context.Background(), est, fc.x, res, opts)
		if err != nil {
			if rep != nil {
				t.Fatalf("report and error %v", err)
			}
			checkFitError(t, err)
			return
		}
		n, _ := fc.x.Dims()
		if q := opts.Share; q > 0 && rep.RefitRows != int(q*float64(n)) || rep.RefitRows < 2 || rep.RefitRows >= n {
			t.Fatalf("%d rows per refit of %d at share %g", rep.RefitRows, n, q)
		}
		if len(rep.Refits) != opts.Refits || len(rep.Agreements) == 0 || len(rep.Agreements) > 2 || rep.Method != res.Method {
			t.Fatalf("report %+v for %d refits", rep, opts.Refits)
		}
		for _, e := range rep.Refits {
			if !(e >= 0 && e <= 1+1e-12) {
				t.Fatalf("refit ε %v outside [0, 1]", e)
			}
		}
		seen := map[int]bool{}
		for _, i := range rep.FarRows {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("rows %v left out of a refit of %d rows", rep.FarRows, n)
			}
			seen[i] = true
		}
		if rep.RowsDecide != (rep.FarRows != nil && rep.FarRowsMove > rep.FarRowsLimit) {
			t.Fatalf("RowsDecide %v with ε %v, limit %v, rows %v", rep.RowsDecide, rep.FarRowsMove, rep.FarRowsLimit, rep.FarRows)
		}
		if math.IsNaN(rep.Spread) || rep.Doubtful != (rep.Spread > rep.SpreadLimit || !rep.Agreements[len(rep.Agreements)-1].Agrees || rep.RowsDecide) {
			t.Fatalf("verdict %v with spread %v and agreements %+v", rep.Doubtful, rep.Spread, rep.Agreements)
		}
		if fc.same {
			opts.Workers, opts.Src = 3, rand.NewPCG(uint64(fc.cfg[1]), 1)
			again, err := ngca.Check(context.Background(), est, fc.x, res, opts)
			if err != nil {
				t.Fatalf("Workers = 3: %v", err)
			}
			if again.Doubtful != rep.Doubtful || again.Spread != rep.Spread || again.FarRowsMove != rep.FarRowsMove {
				t.Fatalf("Workers = 3: doubtful %v spread %v, one worker %v %v", again.Doubtful, again.Spread, rep.Doubtful, rep.Spread)
			}
		}
	})
}
