package ngcabeam

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/audit"
)

// Project returns the coordinates of every row of a PCollection of Rows
// in the basis of a fit, fit a singleton PCollection of Fitted (Fit's, or
// one made from a fit's JSON file: Fitted{Result: its bytes}), sent to the
// workers as a side input: a PCollection of Rows whose Values are the
// coordinates (x − μ)·B (Cols = the basis's columns, μ the fit's Mean),
// and whose Source, Block, Lines, Keep, Labels and Missing are the
// input's, but for the rows that the fit's JSON rule sets aside (its
// "set_aside", unless fitted with -outliers keep), marked Missing as
// "ngca transform" gives them empty coordinates. The coordinates are
// computed by ngca.Result.ProjectTo over
// each block, as "ngca transform" computes them over its chunks of 4096
// rows, so that blocks of Read's give the same bits. A row marked
// Missing has NaN coordinates. A row whose coordinates overflow float64
// fails the pipeline, naming its line.
func Project(s beam.Scope, fit, rows beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("ngcabeam.Project"), &projectFn{}, rows, beam.SideInput{Input: fit})
}

// projectFn projects blocks of rows.
type projectFn struct {
	fit   []byte
	res   *ngca.Result
	aside *audit.SetAside // the fit's rule for the rows it sets aside, nil if none
}

// setAsideOf returns the rule for the rows that a fit's JSON (that of
// "ngca fit -json" or "ngca-beam fit") records, for a basis of d rows:
// nil when it records none or was fitted with -outliers keep.
func setAsideOf(data []byte, d int) (*audit.SetAside, error) {
	var j struct {
		SetAside      *audit.SetAsideJSON `json:"set_aside"`
		ColumnNumbers []int               `json:"column_numbers"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, err
	}
	sa, err := audit.ReadSetAside(j.SetAside, j.ColumnNumbers, d)
	if err != nil || sa == nil || sa.Mode() == "keep" {
		return nil, err
	}
	return sa, nil
}

func (f *projectFn) ProcessElement(r Rows, fit Fitted, emit func(Rows)) error {
	if f.res == nil || string(f.fit) != string(fit.Result) {
		res, err := fit.Decode()
		if err != nil {
			return err
		}
		d, _ := res.Basis.Dims()
		aside, err := setAsideOf(fit.Result, d)
		if err != nil {
			return err
		}
		f.res, f.fit, f.aside = res, fit.Result, aside
	}
	if err := r.check(); err != nil {
		return err
	}
	d, m := f.res.Basis.Dims()
	if r.Cols != d {
		return fmt.Errorf("%s has %d data columns but the basis has %d rows (one per data column)", r.Source, r.Cols, d)
	}
	n := r.Len()
	out := r
	out.Cols, out.Values = m, nil
	if n == 0 {
		emit(out)
		return nil
	}
	x := mat.NewDense(n, d, append([]float64(nil), r.Values...))
	if f.aside != nil {
		// A row the fit's rule sets aside gets empty coordinates, as
		// "ngca transform" gives it.
		copied := false // out.Missing is r's until a row is marked
		for i := 0; i < n; i++ {
			if (r.Missing == nil || !r.Missing[i]) && f.aside.Far(x.RawRowView(i)) {
				if !copied {
					out.Missing = make([]bool, n)
					copy(out.Missing, r.Missing)
					copied = true
				}
				out.Missing[i] = true
			}
		}
	}
	for i, miss := range out.Missing {
		if miss {
			clear(x.RawRowView(i)) // projected, then marked NaN
		}
	}
	var z mat.Dense
	f.res.ProjectTo(&z, x)
	out.Values = make([]float64, 0, n*m)
	for i := 0; i < n; i++ {
		row := z.RawRowView(i)
		if out.Missing != nil && out.Missing[i] {
			for range row {
				out.Values = append(out.Values, math.NaN())
			}
			continue
		}
		for _, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s: its coordinates overflow float64 (its values, less the means, times the basis pass ±1.8e308); scale the data down", r.where(i))
			}
		}
		out.Values = append(out.Values, row...)
	}
	emit(out)
	return nil
}

// FromJSON returns a Fitted holding a fit's JSON: ngca.Result's, or the
// file "ngca fit -json" and "ngca-beam fit" write, for Project. It returns
// the error of ngca.Result's UnmarshalJSON for anything else.
func FromJSON(data []byte) (Fitted, error) {
	var r ngca.Result
	if err := json.Unmarshal(data, &r); err != nil {
		return Fitted{}, err
	}
	return Fitted{Result: data}, nil
}

func init() {
	register.DoFn3x1[Rows, Fitted, func(Rows), error](&projectFn{})
}
