package ngcatest_test

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

func checkOrthonormal(t *testing.T, b *mat.Dense, d, m int) {
	t.Helper()
	if r, c := b.Dims(); r != d || c != m {
		t.Fatalf("basis is %d×%d, want %d×%d", r, c, d, m)
	}
	var g mat.Dense
	g.Mul(b.T(), b)
	if !mat.EqualApprox(&g, eye(m), 1e-12) {
		t.Errorf("BᵀB = %v, want I", mat.Formatted(&g))
	}
}

func eye(m int) *mat.Dense {
	e := mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		e.Set(i, i, 1)
	}
	return e
}
