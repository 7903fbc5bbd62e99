package ngca

import (
	"context"
)

// fitRobustStage runs the stage as fitStage does, with the null test
// between the choice of (σ_j, λ_j) and the refit.
func fitRobustStage(ctx context.Context, st robustStage, p *plan) (*robustModel, stageCV, error) {
	p.progress.begin(st.name)
	kx, kc := st.x, st.centers
	if st.kernelCols != nil {
		kx, kc = columns(st.x, st.kernelCols), columns(st.centers, st.kernelCols)
	}
	sd, err := newStageData(ctx, p.workers, st.x, st.a, st.centers, kx, kc, st.part)
	if err != nil {
		return nil, stageCV{}, err
	}
	rs := newRobustSweep(&st, sd, p.workers)
	choices, err := sweep(ctx, p, sd, st.widths, len(st.ridges), kernelNoSelf, rs.cellOf)
	if err != nil {
		return nil, stageCV{}, err
	}
	cv, chosen, err := stageReport(st.name, st.widths, st.ridges, choices)
	if err != nil {
		return nil, stageCV{}, err
	}
	zeroed, err := rs.nullTest(ctx, p.workers, choices)
	if err != nil {
		return nil, stageCV{}, err
	}
	var lb *linearBest
	if rs.lf != nil {
		lb = &linearBest{q: rs.lf.q, lTot: rs.lf.lTot, c: rs.bestC, r: rs.bestR}
	}
	theta, lin, err := refitStage(ctx, p.workers, st.name, sd, rs.best, choices, st.ridges, lb, zeroed)
	if err != nil {
		return nil, stageCV{}, err
	}
	m := &robustModel{kern: newDerivModel(st.centers, theta, chosen)}
	if st.kernelCols != nil {
		m.inKernel = rs.inKernel
	}
	if st.linX == nil {
		m.lin = lin
	}
	return m, cv, nil
}

// robustModel is a fitted robust stage: a derivModel whose kernels may see
// only some of the coordinates, plus an optional linear part.
type robustModel struct {
	kern *derivModel
	// inKernel, if not nil, marks the columns the kernels' distances use.
	inKernel []bool
	// lin, if not nil, is d×(d+1): f_j has the linear part
	// Σ_m lin[j][m]·x_m + lin[j][d].
	lin []float64
}

func (m *robustModel) newScratch() *evalScratch { return m.kern.newScratch() }

// evalRow evaluates the model at x as derivModel.evalRow does, with the
// kernels' distances over the kernel columns and the linear part added.
func (m *robustModel) evalRow(s *evalScratch, x, vals, slopes []float64) {
	m.kern.geometry(s, x)
	b, d := m.kern.centers.Dims()
	if m.inKernel != nil {
		for k := 0; k < b; k++ {
			dk := s.diff[k*d : (k+1)*d]
			var d2, q float64
			for l, v := range x {
				if m.inKernel[l] {
					d2 += dk[l] * dk[l]
					q += dk[l] * v
				}
			}
			s.d2[k], s.q[k] = d2, q
		}
	}
	m.kern.combine(s, x, vals, slopes)
	if m.lin == nil {
		return
	}
	for j := 0; j < d; j++ {
		lj := m.lin[j*(d+1) : (j+1)*(d+1)]
		var lx float64
		for l, v := range x {
			lx += lj[l] * v
		}
		vals[j] += lx + lj[d]
		if slopes != nil {
			slopes[j] += lx
		}
	}
}
