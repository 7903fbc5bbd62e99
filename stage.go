package ngca

import (
	"context"
	"fmt"

	"github.com/ngca-go/ngca/internal/probe"
	"gonum.org/v1/gonum/mat"
)

// fitStage runs the stage in five steps: the data in fold order
// (newStageData), the cross-validation of every (width, ridge) pair of
// every coordinate (sweep), the report of the choices (stageReport), the
// null test, if the stage has one (nullTest), and the refit of every
// coordinate on all n rows (refitStage). Results do not depend on the
// number of workers.
func fitStage(ctx context.Context, st lsStage, p *plan) (*stageModel, stageCV, error) {
	p.progress.begin(st.name)
	kx, kc := st.x, st.centers
	if st.kernelCols != nil {
		kx, kc = columns(st.x, st.kernelCols), columns(st.centers, st.kernelCols)
	}
	sd, err := newStageData(ctx, p.workers, st.x, st.a, st.centers, kx, kc, st.part)
	if err != nil {
		return nil, stageCV{}, err
	}
	ss := newStageSweep(&st, sd, p.workers)
	choices, err := sweep(ctx, p, ss)
	if err != nil {
		return nil, stageCV{}, err
	}
	cv, chosen, err := stageReport(st.name, st.widths, st.ridges, choices)
	if err != nil {
		return nil, stageCV{}, err
	}
	zeroed, err := ss.nullTest(ctx, p.workers, choices)
	if err != nil {
		return nil, stageCV{}, err
	}
	theta, lin, err := refitStage(ctx, p.workers, st.name, sd, ss.best, choices, st.ridges, ss.linearBest(), zeroed)
	if err != nil {
		return nil, stageCV{}, err
	}
	m := &stageModel{kern: newDerivModel(st.centers, theta, chosen)}
	if st.kernelCols != nil {
		m.inKernel = ss.inKernel
	}
	if st.linX == nil {
		m.lin = lin
	}
	return m, cv, nil
}

// stageReport returns the stageCV of the choices and every coordinate's
// chosen width, or an ErrSingular error naming a coordinate for which every
// candidate failed.
func stageReport(name string, widths, ridges []float64, choices []choice) (stageCV, []float64, error) {
	W, L := len(widths), len(ridges)
	cv := stageCV{Name: name, Widths: widths, Ridges: ridges, Coords: make([]cvChoice, len(choices))}
	chosen := make([]float64, len(choices))
	for j, c := range choices {
		if c.w < 0 {
			return stageCV{}, nil, fmt.Errorf("%w: stage %q, coordinate %d: every (width, ridge) candidate failed", ErrSingular, name, j)
		}
		chosen[j] = widths[c.w]
		cv.Coords[j] = cvChoice{Width: widths[c.w], Ridge: ridges[c.l], Score: c.best, Scores: mat.NewDense(W, L, c.scores)}
	}
	return cv, chosen, nil
}

// refitStage solves every coordinate's problem on all n rows with its chosen
// ridge and returns θ̂ (b×d, column j for coordinate j) and, with the
// linear part (lb not nil), its coefficients (d×q, row j for coordinate
// j). A coordinate whose zeroed entry is set (zeroed may be nil) gets θ̂_j = 0
// and, with the linear part, the null model's.
func refitStage(ctx context.Context, workers int, name string, sd *stageData, best *bestSums, choices []choice, ridges []float64,
	lb *linearBest, zeroed []bool) (*mat.Dense, []float64, error) {
	theta := mat.NewDense(sd.b, sd.d, nil)
	var lin []float64
	q := 0
	if lb != nil {
		q = lb.q
		lin = make([]float64, sd.d*q)
	}
	scorers := make([]*cvScorer, max(1, workers))
	err := parallelFor(ctx, workers, sd.d, func(wk, j int) error {
		if scorers[wk] == nil {
			scorers[wk] = newCVScorer(sd.b, 1, q)
		}
		sc, ridge := scorers[wk], ridges[choices[j].l]
		null := zeroed != nil && zeroed[j]
		var ls *linSums
		if lb != nil {
			ls = &linSums{q: q, cTot: lb.c[j], lTot: lb.lTot, rTot: lb.r[j]}
		}
		th, a, ok := sc.refit(best.g[j], best.h[j], ls, sd.n, ridge)
		if ok && ls != nil && null {
			if a0 := sc.nullRefit(ls, sd.n); a0 != nil {
				a = a0
			}
		}
		if !ok {
			return fmt.Errorf("%w: stage %q, coordinate %d: refit with λ = %g failed", ErrSingular, name, j, ridge)
		}
		if null {
			clear(th)
		}
		theta.SetCol(j, th)
		if lin != nil {
			copy(lin[j*q:(j+1)*q], a)
		}
		return nil
	}, nil)
	return theta, lin, err
}

// wfStages returns the two stages of Algorithm 1 on the standardised data
// with the given centers. It draws stage 1's partition from pr.rng, and
// stage 2's too if newPart is set; otherwise stage 2 uses stage 1's, and
// with it the fold Gram matrices and reductions that stage 1 keeps for it
// (fitStage). The robust variant's axes estimate calls it too, with one
// partition, and keeps only the widths its stage 2 uses (robust_axes.go).
func (pr *prepared) wfStages(centers *mat.Dense, newPart bool) (s1, s2 lsStage) {
	s1 = lsStage{name: "lsldg", x: pr.z, centers: centers, widths: pr.widths, ridges: pr.ridges,
		part: newPartition(pr.rng, pr.n, pr.folds)}
	s2 = lsStage{name: "v", x: pr.z, centers: centers, widths: pr.vWidths, ridges: pr.vRidges, part: s1.part}
	if newPart {
		s2.part = newPartition(pr.rng, pr.n, pr.folds)
	} else {
		s1.keep = &foldStore{}
		s2.reuse = s1.keep
	}
	return s1, s2
}

// stageFitter fits one least-squares stage.
type stageFitter func(ctx context.Context, st lsStage) (rowModel, stageCV, error)

// twoStages runs the two stages of Algorithm 1 on the standardised data
// pr.z: fit1 estimates g ≈ ∇log p from s1; with aᵢⱼ = ∇g_j(xᵢ)ᵀxᵢ, fit2
// estimates v from s2 (whose a it sets). It returns v̂(xᵢ) (n×d) and the
// stages' cross-validation reports.
func twoStages(ctx context.Context, pr *prepared, s1, s2 lsStage, fit1, fit2 stageFitter, sw *stopwatch) (*mat.Dense, []stageCV, error) {
	g, cv1, err := fit1(ctx, s1)
	if err != nil {
		return nil, nil, err
	}
	a := mat.NewDense(pr.n, pr.d, nil)
	if err := evalRows(ctx, pr.workers, g, pr.z, mat.NewDense(pr.n, pr.d, nil), a); err != nil {
		return nil, nil, err
	}
	sw.lap("lsldg")
	s2.a = a
	v, cv2, err := fit2(ctx, s2)
	if err != nil {
		return nil, nil, err
	}
	vals := mat.NewDense(pr.n, pr.d, nil)
	if err := evalRows(ctx, pr.workers, v, pr.z, vals, nil); err != nil {
		return nil, nil, err
	}
	sw.lap("v")
	return vals, []stageCV{cv1, cv2}, nil
}

// stageDetails returns the name and grid of widths of every stage of cv,
// for the studies (internal/probe).
func stageDetails(cv []stageCV) []probe.StageDetail {
	var out []probe.StageDetail
	for _, st := range cv {
		out = append(out, probe.StageDetail{Name: st.Name, Widths: st.Widths})
	}
	return out
}

// record records the fit's stages in ctx's probe.Recorder, if it carries
// one.
func (r *LSReport) record(ctx context.Context) { probe.RecordStages(ctx, r, stageDetails(r.cv)) }
