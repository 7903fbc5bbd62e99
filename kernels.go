package ngca

import (
	"context"
	"slices"

	"github.com/ngca-go/ngca/internal/asm"
	"gonum.org/v1/gonum/mat"
)

// This file holds the Gaussian-derivative basis shared by every least-squares
// estimator of the package. For output coordinate j, width σ and centers
// c_1, …, c_b,
//
//	k_k(x)      = exp(−‖x − c_k‖² / (2σ²))
//	ψ_kj(x)     = (c_kj − x_j)·k_k(x)                          (= σ²·∂_j k_k)
//	∂_j ψ_kj(x) = ((c_kj − x_j)²/σ² − 1)·k_k(x)
//	∂_m ψ_kj(x) = ((c_kj − x_j)(c_km − x_m)/σ² − δ_jm)·k_k(x)
//
// The factor σ² relative to the paper's "derivative of the Gaussian kernel"
// (Shiino et al., ACML 2017, §4.1) follows the authors' code: the ridge
// penalises these coefficients, so the scaling changes which (σ, λ) cross-
// validation selects. The kernel values k_k do not depend on j, so one
// kernel matrix per width serves all d coordinates.

// sqDistT returns the b×n row-major matrix of squared distances
// ‖z_{order[p]} − c_k‖² between the centers c_k (rows of c) and the rows of z
// taken in the given order (column p of the result is row order[p] of z).
func sqDistT(ctx context.Context, workers int, z, c *mat.Dense, order []int) ([]float64, error) {
	b, _ := c.Dims()
	d2 := make([]float64, b*len(order))
	return d2, sqDistTo(ctx, workers, d2, z, c, order)
}

// sqDistTo is sqDistT writing into d2 (b×len(order)).
func sqDistTo(ctx context.Context, workers int, d2 []float64, z, c *mat.Dense, order []int) error {
	n := len(order)
	b, _ := c.Dims()
	return parallelFor(ctx, workers, b, func(_, k int) error {
		ck := c.RawRowView(k)
		out := d2[k*n : (k+1)*n]
		for p, i := range order {
			var s float64
			for m, v := range z.RawRowView(i) {
				dv := ck[m] - v
				s += dv * dv
			}
			out[p] = s
		}
		return nil
	}, nil)
}

// kernelT sets kt[k·n+p] = exp(−d2[k·n+p]/(2σ²)) (asm.GaussRow) for all
// b×n entries, in parallel over the centers.
func kernelT(ctx context.Context, workers int, kt, d2 []float64, b int, sigma float64) error {
	n := len(d2) / b
	c := -1 / (2 * sigma * sigma)
	return parallelFor(ctx, workers, b, func(_, k int) error {
		asm.GaussRow(kt[k*n:(k+1)*n], d2[k*n:(k+1)*n], c)
		return nil
	}, nil)
}

// kernelNoSelf is kernelT with every zero distance, a center's own data
// row, given kernel value zero. Without that, a narrow kernel is a spike at
// a data row, where ψ_kj = 0 but ∂_jψ_kj = −1; the training objective then
// drives θ_k to about 1/(nλ), while held-out points never see the spike, so
// cross-validation cannot reject it.
func kernelNoSelf(ctx context.Context, workers int, kt, d2 []float64, b int, sigma float64) error {
	if err := kernelT(ctx, workers, kt, d2, b, sigma); err != nil {
		return err
	}
	for i, v := range d2 {
		if v == 0 {
			kt[i] = 0
		}
	}
	return nil
}

// derivModel is a fitted set of per-coordinate models in the
// Gaussian-derivative basis,
//
//	f_j(x) = Σ_k θ_kj ψ_kj(x),   j = 1, …, d,
//
// each with its own width σ_j. LSLDG's g (∇log p) and WF-LSNGCA's v are
// both of this form.
type derivModel struct {
	centers *mat.Dense // b×d
	theta   *mat.Dense // b×d, column j = θ_j
	widths  []float64  // σ_j
	groups  [][]int    // coordinates sharing a width, in order of first use
	thetaT  []float64  // d×b copy of theta, row j = θ_j
}

func newDerivModel(centers, theta *mat.Dense, widths []float64) *derivModel {
	b, d := theta.Dims()
	m := &derivModel{centers: centers, theta: theta, widths: widths, thetaT: make([]float64, d*b)}
	for k := 0; k < b; k++ {
		for j := 0; j < d; j++ {
			m.thetaT[j*b+k] = theta.At(k, j)
		}
	}
	for j, s := range widths {
		g := slices.IndexFunc(m.groups, func(g []int) bool { return widths[g[0]] == s })
		if g < 0 {
			m.groups = append(m.groups, []int{j})
		} else {
			m.groups[g] = append(m.groups[g], j)
		}
	}
	return m
}

// evalScratch is per-goroutine workspace for evaluating a model at a point:
// for every center c_k, diff holds c_k − x, d2 holds ‖c_k − x‖² and q holds
// (c_k − x)ᵀx; kv holds the kernel values at one width.
type evalScratch struct {
	diff, d2, q, kv []float64
}

func (m *derivModel) newScratch() *evalScratch {
	b, d := m.centers.Dims()
	return &evalScratch{diff: make([]float64, b*d), d2: make([]float64, b), q: make([]float64, b), kv: make([]float64, b)}
}

// geometry sets s.diff, s.d2 and s.q at the point x.
func (m *derivModel) geometry(s *evalScratch, x []float64) {
	b, d := m.centers.Dims()
	for k := 0; k < b; k++ {
		ck, dk := m.centers.RawRowView(k), s.diff[k*d:(k+1)*d]
		var d2, q float64
		for l, v := range x {
			dv := ck[l] - v
			dk[l] = dv
			d2 += dv * dv
			q += dv * v
		}
		s.d2[k], s.q[k] = d2, q
	}
}

// combine computes, from the geometry in s at the point x, f_j(x) into
// vals[j] and, if slopes is not nil, the directional derivative along x,
//
//	∇f_j(x)ᵀx = Σ_k θ_kj k_k(x) [ (c_kj − x_j)(c_k − x)ᵀx / σ_j² − x_j ],
//
// into slopes[j]. This is O(b·d) per point: no d×d Jacobian is formed.
func (m *derivModel) combine(s *evalScratch, x, vals, slopes []float64) {
	b, d := m.centers.Dims()
	for _, g := range m.groups {
		sigma := m.widths[g[0]]
		c, inv := -1/(2*sigma*sigma), 1/(sigma*sigma)
		for k, v := range s.d2 {
			s.kv[k] = asm.Gauss(c * v)
		}
		for _, j := range g {
			var f, sl float64
			th := m.thetaT[j*b : (j+1)*b]
			for k, t := range th {
				w := t * s.kv[k]
				dkj := s.diff[k*d+j]
				f += w * dkj
				if slopes != nil {
					sl += w * (dkj*s.q[k]*inv - x[j])
				}
			}
			vals[j] = f
			if slopes != nil {
				slopes[j] = sl
			}
		}
	}
}

// evalRow evaluates the model at the point x (see combine).
func (m *derivModel) evalRow(s *evalScratch, x, vals, slopes []float64) {
	m.geometry(s, x)
	m.combine(s, x, vals, slopes)
}

// eval evaluates the model at every row of z (n×d): vals (n×d) receives
// f_j(z_i) and, if slopes is not nil, slopes (n×d) receives ∇f_j(z_i)ᵀz_i.
func (m *derivModel) eval(ctx context.Context, workers int, z, vals, slopes *mat.Dense) error {
	return evalRows(ctx, workers, m, z, vals, slopes)
}

// rowModel is a model evaluated point by point with per-goroutine scratch.
type rowModel interface {
	newScratch() *evalScratch
	evalRow(s *evalScratch, x, vals, slopes []float64)
}

// evalRows evaluates m at every row of z in parallel chunks of rows; vals
// and slopes (nil: not wanted) receive row i's outputs in their row i.
func evalRows(ctx context.Context, workers int, m rowModel, z, vals, slopes *mat.Dense) error {
	n, _ := z.Dims()
	const chunk = 64
	scratch := make([]*evalScratch, max(1, workers))
	return parallelFor(ctx, workers, (n+chunk-1)/chunk, func(w, c int) error {
		if scratch[w] == nil {
			scratch[w] = m.newScratch()
		}
		for i := c * chunk; i < min(n, (c+1)*chunk); i++ {
			var sl []float64
			if slopes != nil {
				sl = slopes.RawRowView(i)
			}
			m.evalRow(scratch[w], z.RawRowView(i), vals.RawRowView(i), sl)
		}
		return nil
	}, nil)
}

// stageModel is a fitted stage: a derivModel whose kernels may see
// only some of the coordinates, plus an optional linear part.
type stageModel struct {
	kern *derivModel
	// inKernel, if not nil, marks the columns the kernels' distances use.
	inKernel []bool
	// lin, if not nil, is d×(d+1): f_j has the linear part
	// Σ_m lin[j][m]·x_m + lin[j][d].
	lin []float64
}

func (m *stageModel) newScratch() *evalScratch { return m.kern.newScratch() }

// evalRow evaluates the model at x as derivModel.evalRow does, with the
// kernels' distances over the kernel columns and the linear part added.
func (m *stageModel) evalRow(s *evalScratch, x, vals, slopes []float64) {
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

// jacobianTo sets dst (d×d) to the Jacobian of the model at x,
//
//	dst[j][m] = ∂_m f_j(x) = Σ_k θ_kj k_k(x) ((c_kj − x_j)(c_km − x_m)/σ_j² − δ_jm).
func (m *derivModel) jacobianTo(dst *mat.Dense, x []float64) {
	b, d := m.centers.Dims()
	for j := 0; j < d; j++ {
		sigma := m.widths[j]
		c, inv := -1/(2*sigma*sigma), 1/(sigma*sigma)
		row := dst.RawRowView(j)
		clear(row)
		for k := 0; k < b; k++ {
			ck := m.centers.RawRowView(k)
			var d2 float64
			for l, v := range x {
				dv := ck[l] - v
				d2 += dv * dv
			}
			w := m.thetaT[j*b+k] * asm.Gauss(c*d2)
			dj := ck[j] - x[j]
			for l := range row {
				row[l] += w * dj * (ck[l] - x[l]) * inv
			}
			row[j] -= w
		}
	}
}

// meanJacobian returns (1/n) Σᵢ J(zᵢ), the mean over the rows of z of the
// model's Jacobian (jacobianTo), summed in the order of the rows. The
// Jacobians are formed in parallel, in groups of rows that bound the
// memory, and added on the calling goroutine, so the result does not
// depend on the workers.
func (m *derivModel) meanJacobian(ctx context.Context, workers int, z *mat.Dense) (*mat.Dense, error) {
	n, d := z.Dims()
	const chunk, group = 64, 1 << 14
	jacs := make([]*mat.Dense, min(n, group))
	for i := range jacs {
		jacs[i] = mat.NewDense(d, d, nil)
	}
	mean := mat.NewDense(d, d, nil)
	for g0 := 0; g0 < n; g0 += group {
		rows := min(group, n-g0)
		err := parallelFor(ctx, workers, (rows+chunk-1)/chunk, func(_, c int) error {
			for i := c * chunk; i < min(rows, (c+1)*chunk); i++ {
				m.jacobianTo(jacs[i], z.RawRowView(g0+i))
			}
			return nil
		}, nil)
		if err != nil {
			return nil, err
		}
		for _, j := range jacs[:rows] {
			mean.Add(mean, j)
		}
	}
	mean.Scale(1/float64(n), mean)
	return mean, nil
}

// kernelFunc fills kt (b×n) with the kernel values at width sigma for the
// squared distances d2.
type kernelFunc func(ctx context.Context, workers int, kt, d2 []float64, b int, sigma float64) error
