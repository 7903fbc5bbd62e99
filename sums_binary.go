package ngca

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The binary forms of a Plan and of Sums: encoding/gob of the wire
// structs below, whose Version is sumsFormat.
const sumsFormat = 1

type planWire struct {
	Version        int
	Method         string
	Dim, D, B      int
	Dependent      []int
	Centers        []float64 // B×D
	Widths, Ridges [][]float64
	Folds          int
	CV             []cvWire
	Pass, N        int
	Kept, Exp      []int
	Mean, SD       []float64
	Mu, Unit       []float64
	WhMean, WhW    []float64 // the whitening (LSNGCA)
	Theta, Alpha   []float64 // B×columns kept
	Gram2          [][]float64
	Basis, Eig     []float64 // D×Dim, columns kept
}

type cvWire struct {
	Name           string
	Widths, Ridges []float64
	Width, Ridge   []float64 // per coordinate
	Score          []float64
	Scores         [][]float64 // per coordinate, widths×ridges
}

// MarshalBinary encodes the plan, so that UnmarshalBinary gives back a
// plan whose passes and results are the same bits.
func (p *Plan) MarshalBinary() ([]byte, error) {
	w := planWire{Version: sumsFormat, Method: p.method, Dim: p.dim, D: p.d, Dependent: p.dependent, Folds: p.folds,
		Pass: p.pass, N: p.n, Centers: p.centers.RawMatrix().Data, Gram2: p.gram2, Eig: p.eig}
	w.B, _ = p.centers.Dims()
	for _, ch := range p.choices {
		var ws, rs []float64
		for _, c := range ch {
			ws, rs = append(ws, c.width), append(rs, c.ridge)
		}
		w.Widths, w.Ridges = append(w.Widths, ws), append(w.Ridges, rs)
	}
	for _, s := range p.cv {
		c := cvWire{Name: s.Name, Widths: s.Widths, Ridges: s.Ridges}
		for _, co := range s.Coords {
			c.Width, c.Ridge, c.Score = append(c.Width, co.Width), append(c.Ridge, co.Ridge), append(c.Score, co.Score)
			c.Scores = append(c.Scores, mat.DenseCopyOf(co.Scores).RawMatrix().Data)
		}
		w.CV = append(w.CV, c)
	}
	if p.pass > 0 {
		w.Kept, w.Exp, w.Mean, w.SD, w.Mu, w.Unit = p.scale.kept, p.scale.exp, p.scale.mean, p.scale.sd, p.scale.mu, p.scale.unit
		if p.wh != nil {
			w.WhMean, w.WhW = p.wh.mean, mat.DenseCopyOf(p.wh.w).RawMatrix().Data
		}
	}
	if p.g != nil {
		w.Theta = mat.DenseCopyOf(p.g.theta).RawMatrix().Data
	}
	if p.v != nil {
		w.Alpha = mat.DenseCopyOf(p.v.theta).RawMatrix().Data
	}
	if p.basis != nil {
		w.Basis = p.basis.RawMatrix().Data
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(&w); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// UnmarshalBinary decodes a plan that MarshalBinary encoded. It returns an
// error wrapping ErrParam for data that are not such a plan.
func (p *Plan) UnmarshalBinary(data []byte) error {
	var w planWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return fmt.Errorf("%w: not a plan: %v", ErrParam, err)
	}
	q, err := w.choices()
	if err == nil && q.pass > 0 {
		err = w.passState(&q)
	}
	if err != nil {
		return fmt.Errorf("%w: not a plan: %s", ErrParam, err)
	}
	*p = q
	return nil
}

// badWire says what of a decoded plan is wrong.
type badWire string

func (b badWire) Error() string { return string(b) }

// choices returns the plan that w describes before its first pass: the
// method, columns, centers and each stage's choices and cross-validation,
// checked.
func (w *planWire) choices() (Plan, error) {
	if w.Version != sumsFormat {
		return Plan{}, badWire(fmt.Sprintf("format %d, want %d", w.Version, sumsFormat))
	}
	q := Plan{method: w.Method, dim: w.Dim, d: w.D, dependent: w.Dependent, folds: w.Folds, pass: w.Pass, n: w.N}
	stages := map[string]int{methodWFLSNGCA: 2, methodLSNGCA: 1, methodLSLDG: 1}[w.Method]
	switch {
	case stages == 0:
		return q, badWire(fmt.Sprintf("method %q", w.Method))
	case w.D < 1 || w.B < 1 || len(w.Centers) != w.B*w.D:
		return q, badWire("centers")
	case len(w.Widths) != stages || len(w.Ridges) != stages || len(w.CV) != stages:
		return q, badWire("stages")
	case w.Pass < 0 || w.Pass > q.Passes():
		return q, badWire("pass")
	}
	for i, j := range w.Dependent {
		if j < 0 || j >= w.D || i > 0 && j <= w.Dependent[i-1] {
			return q, badWire("dependent columns")
		}
	}
	dk := q.cols()
	if dk < 1 || w.Method != methodLSLDG && (w.Dim < 1 || w.Dim >= dk) {
		return q, badWire("dimensions")
	}
	q.centers = mat.NewDense(w.B, w.D, slices.Clone(w.Centers))
	for st := range stages {
		ch, cv, err := w.stage(st, dk)
		if err != nil {
			return q, err
		}
		q.choices, q.cv = append(q.choices, ch), append(q.cv, cv)
	}
	return q, nil
}

// stage returns stage st's choices and cross-validation for dk columns.
func (w *planWire) stage(st, dk int) ([]lsChoice, stageCV, error) {
	if len(w.Widths[st]) != dk || len(w.Ridges[st]) != dk {
		return nil, stageCV{}, badWire("choices")
	}
	ch := make([]lsChoice, dk)
	for j := range ch {
		ch[j] = lsChoice{width: w.Widths[st][j], ridge: w.Ridges[st][j]}
	}
	c := w.CV[st]
	W, L := len(c.Widths), len(c.Ridges)
	if len(c.Width) != dk || len(c.Ridge) != dk || len(c.Score) != dk || len(c.Scores) != dk || W == 0 || L == 0 {
		return nil, stageCV{}, badWire("cross-validation")
	}
	s := stageCV{Name: c.Name, Widths: c.Widths, Ridges: c.Ridges, Coords: make([]cvChoice, dk)}
	for j := range s.Coords {
		if len(c.Scores[j]) != W*L {
			return nil, stageCV{}, badWire("cross-validation scores")
		}
		s.Coords[j] = cvChoice{Width: c.Width[j], Ridge: c.Ridge[j], Score: c.Score[j], Scores: mat.NewDense(W, L, c.Scores[j])}
	}
	return ch, s, nil
}

// passState sets on q what the passes done have found: the
// standardisation, LSNGCA's whitening, the stages' models and the basis,
// checked.
func (w *planWire) passState(q *Plan) error {
	d, dk := w.D, q.cols()
	if len(w.Exp) != d || len(w.Mean) != d || len(w.SD) != d || len(w.Mu) != d || len(w.Unit) != d || !slices.Equal(w.Kept, keptOf(d, w.Dependent)) || w.N < 2 {
		return badWire("standardisation")
	}
	q.scale = scaling{kept: w.Kept, mean: w.Mean, sd: w.SD, exp: w.Exp, mu: w.Mu, unit: w.Unit}
	q.cz = q.scale.apply(q.centers)
	if w.Method == methodLSNGCA {
		if len(w.WhMean) != dk || len(w.WhW) != dk*dk {
			return badWire("whitening")
		}
		q.wh = &whitening{mean: w.WhMean, w: mat.NewSymDense(dk, w.WhW)}
		q.cz = q.wh.apply(q.cz)
	}
	if q.pass >= 2 {
		if len(w.Theta) != w.B*dk {
			return badWire("stage 1")
		}
		q.g = newDerivModel(q.cz, mat.NewDense(w.B, dk, w.Theta), q.widths(0))
	}
	if w.Method == methodWFLSNGCA && q.pass == 2 {
		if len(w.Gram2) != dk {
			return badWire("stage 2")
		}
		for _, g := range w.Gram2 {
			if len(g) != w.B*w.B {
				return badWire("stage 2")
			}
		}
		q.gram2 = w.Gram2
	}
	if w.Method == methodWFLSNGCA && q.pass >= 3 {
		if len(w.Alpha) != w.B*dk {
			return badWire("stage 2")
		}
		q.v = newDerivModel(q.cz, mat.NewDense(w.B, dk, w.Alpha), q.widths(1))
	}
	if w.Method != methodLSLDG && q.Done() {
		if len(w.Basis) != d*w.Dim || len(w.Eig) != dk {
			return badWire("basis")
		}
		q.basis, q.eig = mat.NewDense(d, w.Dim, w.Basis), w.Eig
	}
	return nil
}

// keptOf returns the columns of d not in dependent, or nil if none is.
func keptOf(d int, dependent []int) []int {
	if len(dependent) == 0 {
		return nil
	}
	var kept []int
	for j := 0; j < d; j++ {
		if !slices.Contains(dependent, j) {
			kept = append(kept, j)
		}
	}
	return kept
}

type sumsWire struct {
	Version          int
	Method           string
	Pass, D, B, N    int
	MaxAbs, Mean, M2 []float64
	Exp              []int
	Co               []float64
	Acc              [][]float64
}

// MarshalBinary encodes the sums, so that UnmarshalBinary gives back sums
// that Merge and Plan.Next take as these.
func (s *Sums) MarshalBinary() ([]byte, error) {
	w := sumsWire{Version: sumsFormat, Method: s.method, Pass: s.pass, D: s.d, B: s.b, N: s.n,
		MaxAbs: s.maxAbs, Mean: s.mean, M2: s.m2, Exp: s.exp, Co: s.co, Acc: s.acc}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(&w); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// UnmarshalBinary decodes sums that MarshalBinary encoded. Sums so read
// can be merged and passed to Plan.Next, but not added to. It returns an
// error wrapping ErrParam for data that are not such sums.
func (s *Sums) UnmarshalBinary(data []byte) error {
	var w sumsWire
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w); err != nil {
		return fmt.Errorf("%w: not sums of a plan: %v", ErrParam, err)
	}
	if w.Version != sumsFormat {
		return fmt.Errorf("%w: not sums of a plan: format %d, want %d", ErrParam, w.Version, sumsFormat)
	}
	moments := w.MaxAbs != nil
	if w.N < 0 || w.D < 1 || moments && (len(w.MaxAbs) != w.D || len(w.Mean) != w.D || len(w.M2) != w.D || len(w.Exp) != w.D ||
		w.Co != nil && len(w.Co) != w.D*w.D || w.Acc != nil) {
		return fmt.Errorf("%w: not sums of a plan: bad shape", ErrParam)
	}
	acc := make([][]float64, len(w.Acc))
	for i, a := range w.Acc {
		acc[i] = a
		if a == nil {
			acc[i] = []float64{}
		}
	}
	if !moments && acc == nil {
		acc = [][]float64{}
	}
	*s = Sums{method: w.Method, pass: w.Pass, d: w.D, b: w.B, n: w.N, maxAbs: w.MaxAbs, mean: w.Mean, m2: w.M2, exp: w.Exp, co: w.Co}
	if !moments {
		s.acc = acc
	}
	return nil
}
