package ngca_test

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
)

// TestProjectToPanics checks the misuses on which ProjectTo panics, as its
// doc comment states: a Result with no basis, data of the wrong width, a
// destination of the wrong shape; a fitting call does not.
func TestProjectToPanics(t *testing.T) {
	basis := mat.NewDense(3, 1, []float64{1, 0, 0})
	good := &ngca.Result{Basis: basis, Mean: []float64{1, 2, 3}}
	x := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	for _, tc := range []struct {
		desc string
		r    *ngca.Result
		dst  *mat.Dense
		x    mat.Matrix
	}{
		{"zero Result", &ngca.Result{}, &mat.Dense{}, x},
		{"no Basis", &ngca.Result{Mean: []float64{0, 0, 0}}, &mat.Dense{}, x},
		{"x too narrow", good, &mat.Dense{}, mat.NewDense(2, 2, nil)},
		{"Mean too short", &ngca.Result{Basis: basis, Mean: []float64{0}}, &mat.Dense{}, x},
		{"dst of the wrong shape", good, mat.NewDense(3, 1, nil), x},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: ProjectTo did not panic", tc.desc)
				}
			}()
			tc.r.ProjectTo(tc.dst, tc.x)
		}()
	}
	var z mat.Dense
	good.ProjectTo(&z, x)
	if r, c := z.Dims(); r != 2 || c != 1 || z.At(0, 0) != 0 || z.At(1, 0) != 3 {
		t.Errorf("ProjectTo = %v", mat.Formatted(&z))
	}
}
