package ngca

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fixture is testdata/fixture.json; see testdata/README.md.
type fixture struct {
	XRow1    []float64   `json:"X_row1"`
	XRow2    []float64   `json:"X_row2"`
	Theta    [][]float64 `json:"lsldg_theta_rows1to3"`
	G        [][]float64 `json:"lsldg_g_rows1to3"`
	Jacobian [][]float64 `json:"lsldg_jacobian_at_row1"`
	Alpha    [][]float64 `json:"wf_stage2_alpha_rows1to3"`
	V        [][]float64 `json:"wf_v_rows1to3"`
	WFEig    []float64   `json:"wf_eigenvalues_desc"`
	WFProj   [][]float64 `json:"wf_projector_BBt_m2"`
	LSG      [][]float64 `json:"lsngca_g_whitened_rows1to3"`
	LSEig    []float64   `json:"lsngca_eigenvalues_desc"`
	LSProj   [][]float64 `json:"lsngca_projector_BBt_m2"`
}

// fixtureData builds the recipe's input: n = 200, d = 4,
// x[i,j] = sin(0.9i + 1.7j) + 0.3cos(0.21ij) + 0.05j((i mod 7) − 3) for
// 1-based i, j, each column standardised (n−1), and its first 20 rows as
// centers.
func fixtureData() (x, centers *mat.Dense) {
	const n, d = 200, 4
	x = mat.NewDense(n, d, nil)
	for i := 1; i <= n; i++ {
		for j := 1; j <= d; j++ {
			fi, fj := float64(i), float64(j)
			x.Set(i-1, j-1, math.Sin(0.9*fi+1.7*fj)+0.3*math.Cos(0.21*fi*fj)+0.05*fj*float64(i%7-3))
		}
	}
	s, err := newScaling(x)
	if err != nil {
		panic(err)
	}
	x = s.apply(x)
	return x, mat.DenseCopyOf(x.Slice(0, 20, 0, d))
}

func loadFixture(t *testing.T) fixture {
	t.Helper()
	raw, err := os.ReadFile("testdata/fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

const fixtureTol = 1e-8

// near reports whether got and want agree to tol, relative to max(1, |want|).
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func checkRows(t *testing.T, name string, got mat.Matrix, want [][]float64) {
	t.Helper()
	for i, row := range want {
		for j, w := range row {
			if g := got.At(i, j); !near(g, w, fixtureTol) {
				t.Errorf("%s[%d][%d] = %.12g, want %.12g", name, i, j, g, w)
			}
		}
	}
}

func checkVec(t *testing.T, name string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s has %d values, want %d", name, len(got), len(want))
	}
	for i := range want {
		if !near(got[i], want[i], fixtureTol) {
			t.Errorf("%s[%d] = %.12g, want %.12g", name, i, got[i], want[i])
		}
	}
}

func projector(b mat.Matrix) *mat.Dense {
	var p mat.Dense
	p.Mul(b, b.T())
	return &p
}

func TestFixtureInput(t *testing.T) {
	f := loadFixture(t)
	x, _ := fixtureData()
	checkVec(t, "X row 1", x.RawRowView(0), f.XRow1)
	checkVec(t, "X row 2", x.RawRowView(1), f.XRow2)
}

func TestFixtureLSLDG(t *testing.T) {
	f := loadFixture(t)
	x, c := fixtureData()
	m, err := (&LSLDG{Centers: c, Widths: []float64{1}, Ridges: []float64{0.01}}).Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, "theta", m.Theta(), f.Theta)
	var g mat.Dense
	m.GradientTo(&g, x.Slice(0, 3, 0, 4))
	checkRows(t, "g", &g, f.G)
	var jac mat.Dense
	m.JacobianTo(&jac, x.RawRowView(0))
	checkRows(t, "Jacobian", &jac, f.Jacobian)
}

func TestFixtureWFLSNGCA(t *testing.T) {
	f := loadFixture(t)
	x, c := fixtureData()
	est := &WFLSNGCA{Dim: 2, Centers: c, Widths: []float64{1}, Ridges: []float64{0.01},
		VWidths: []float64{0.7}, VRidges: []float64{0.001}, newPartition: true}

	// The stages, through the code path Fit runs.
	pr, err := prepare(context.Background(), x, est.config(), est.Dim, true)
	if err != nil {
		t.Fatal(err)
	}
	var models []*derivModel
	fit := func(ctx context.Context, st lsStage) (rowModel, stageCV, error) {
		m, cv, err := fitStage(ctx, st, &pr.plan)
		if err != nil {
			return nil, cv, err
		}
		models = append(models, m.kern)
		return m, cv, err
	}
	s1, s2 := pr.wfStages(pr.centersFrom(pr.z, nil), est.newPartition)
	v, _, err := twoStages(context.Background(), pr, s1, s2, fit, fit, newStopwatch())
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, "stage-1 theta", models[0].theta, f.Theta)
	checkRows(t, "alpha", models[1].theta, f.Alpha)
	checkRows(t, "v", v, f.V)

	res, err := est.Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	checkVec(t, "eigenvalues", res.Eigenvalues, f.WFEig)
	checkRows(t, "projector", projector(res.Basis), f.WFProj)
}

func TestFixtureLSNGCA(t *testing.T) {
	f := loadFixture(t)
	x, c := fixtureData()
	est := &LSNGCA{Dim: 2, Centers: c, Widths: []float64{1}, Ridges: []float64{0.01}}

	pr, err := prepare(context.Background(), x, est.config(), est.Dim, true)
	if err != nil {
		t.Fatal(err)
	}
	st, err := fitLS(context.Background(), pr, newStopwatch())
	if err != nil {
		t.Fatal(err)
	}
	g := mat.NewDense(3, 4, nil)
	if err := st.g.eval(context.Background(), 1, mat.DenseCopyOf(st.y.Slice(0, 3, 0, 4)), g, nil); err != nil {
		t.Fatal(err)
	}
	checkRows(t, "whitened g", g, f.LSG)

	res, err := est.Fit(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	checkVec(t, "eigenvalues", res.Eigenvalues, f.LSEig)
	checkRows(t, "projector", projector(res.Basis), f.LSProj)
}
