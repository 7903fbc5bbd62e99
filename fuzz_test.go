package ngca_test

import (
	"context"
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
)

// The fuzz targets of the estimators: every Fit on a small matrix decoded
// from the fuzz input must return either an error wrapping one of the
// package's sentinels or a result that keeps the Result contract. Their
// seed corpora are committed in testdata/fuzz/<target>/ and replayed by
// every go test; docs/reliability.md says how to run the fuzzers.

// fuzzCase is a data set and small settings decoded from fuzz input.
type fuzzCase struct {
	x     mat.Matrix
	d     int
	dim   int
	cfg   [4]byte // settings, decoded by each target
	same  bool    // refit with more workers and compare
	scale int     // if not 0, refit the data times 2^scale and compare
}

// Columns of fuzz data are free, or made from others: a copy (scaled and
// shifted), a linear combination, a constant, or rounded to integers.
const (
	colCopy = 4 + iota
	colCombination
	colConstant
	colInteger
)

// fuzzSpecials are the values a cell can take besides ordinary ones.
var fuzzSpecials = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, 1e308, -1e308,
	1e-308, math.SmallestNonzeroFloat64, 0, math.Copysign(0, -1), 1, 1 + 0x1p-52,
}

// decodeFuzz decodes a fuzz input as
//
//	n, d, dim, cfg[4], mode[d], scale[d], cells (2 bytes each, row-major)
//
// with n ≤ 64 rows and d ≤ 6 columns (n or d zero gives an empty matrix)
// and Dim in −7…7. A cell's bytes (a, b) give b-th special value if a is
// 0xFF and (a·256 + b as an int16)/4096 otherwise; cells beyond the input
// are drawn from a source seeded by the input: two Gaussian-mixture
// columns then Gaussian ones. A column's mode (low 3 bits) makes it free
// (0-3) or one of the derived kinds above, and its scale byte s ≥ 128
// multiplies it by 2^(17(s−192)), which reaches beyond both ends of the
// float64 range.
func decodeFuzz(data []byte) fuzzCase {
	at := func(i int) byte {
		if i < len(data) {
			return data[i]
		}
		return 0
	}
	n, d := int(at(0))%65, int(at(1))%7
	fc := fuzzCase{d: d, dim: int(int8(at(2))) % 8}
	for k := range fc.cfg {
		fc.cfg[k] = at(3 + k)
	}
	fc.same = fc.cfg[3]&0x80 != 0
	if fc.cfg[0]&0x80 != 0 {
		fc.scale = []int{-900, -300, 300, 900}[fc.cfg[0]>>5&3]
	}
	if n == 0 || d == 0 {
		fc.x = &mat.Dense{}
		return fc
	}
	h := fnv.New64a()
	h.Write(data)
	rng := rand.New(rand.NewPCG(h.Sum64(), 1))
	x := mat.NewDense(n, d, nil)
	pos := 7 + 2*d
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			var v float64
			switch {
			case pos+1 < len(data) && data[pos] == 0xFF:
				v = fuzzSpecials[int(data[pos+1])%len(fuzzSpecials)]
			case pos+1 < len(data):
				v = float64(int16(uint16(data[pos])<<8|uint16(data[pos+1]))) / 4096
			default:
				v = rng.NormFloat64()
				if j < 2 {
					v += float64(3 - 6*rng.IntN(2))
				}
			}
			pos += 2
			x.Set(i, j, v)
		}
	}
	for j := 0; j < d; j++ {
		mode := at(7 + j)
		for i := 0; i < n; i++ {
			v := x.At(i, j)
			switch {
			case mode&7 == colCopy && j > 0:
				v = -2.5*x.At(i, int(mode>>3)%j) + 3
			case mode&7 == colCombination && j > 1:
				v = x.At(i, j-1) + 2*x.At(i, j-2)
			case mode&7 == colConstant:
				v = 7
			case mode&7 == colInteger:
				v = math.Round(v)
			}
			if s := at(7 + d + j); s >= 128 {
				v = math.Ldexp(v, 17*(int(s)-192))
			}
			x.Set(i, j, v)
		}
	}
	fc.x = x
	return fc
}

// Small grids, so that one fit takes milliseconds.
var (
	fuzzWidths = []float64{1e-3, 0.1, 0.3, 1, 3, 10, 100, 1e6}
	fuzzRidges = []float64{1e-12, 1e-5, 1e-3, 0.1, 1, 10, 1e3, 1e8}
)

// kernelSettings decodes the settings the kernel estimators share: 2 to 5
// folds, 1 to 8 centers, two widths and two ridges.
func (fc fuzzCase) kernelSettings() (folds, centers int, widths, ridges []float64) {
	c := fc.cfg
	folds = 2 + int(c[0])%4
	centers = 1 + int(c[0]>>2)%8
	widths = []float64{fuzzWidths[c[1]%8], fuzzWidths[c[1]>>3%8]}
	ridges = []float64{fuzzRidges[c[2]%8], fuzzRidges[c[2]>>3%8]}
	return folds, centers, widths, ridges
}

// sentinels are the package's documented errors.
var sentinels = []error{ngca.ErrShape, ngca.ErrDim, ngca.ErrSamples, ngca.ErrNonFinite,
	ngca.ErrConstant, ngca.ErrParam, ngca.ErrSingular}

// checkFitError fails unless err wraps one of the sentinels.
func checkFitError(t *testing.T, err error) {
	t.Helper()
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error %v matches no documented sentinel", err)
}

// fuzzFit fits est (built by newEst for a worker count) to the fuzz case
// and checks the outcome: a sentinel error and no result, or a d×Dim basis
// with orthonormal columns and finite eigenvalues and means. With fc.same
// it fits again on three workers and wants the same basis. With fc.scale
// it fits the data times 2^scale, which standardises to the same numbers,
// and wants the same eigenvalues and basis (but for entries near the
// subnormal range, which carry fewer bits), unless the scaled data leave
// the normal range of float64.
func fuzzFit(t *testing.T, fc fuzzCase, newEst func(workers int) ngca.Estimator) {
	res, err := newEst(1).Fit(context.Background(), fc.x)
	if err != nil {
		if res != nil {
			t.Fatalf("result and error %v", err)
		}
		checkFitError(t, err)
		return
	}
	if res == nil {
		t.Fatal("nil result without an error")
	}
	checkFuzzResult(t, res, fc.d, fc.dim)
	if y := scaledData(fc.x, fc.scale); y != nil {
		again, err := newEst(1).Fit(context.Background(), y)
		if err != nil {
			t.Fatalf("data times 2^%d: %v after a fit to the data", fc.scale, err)
		}
		if !sameToSubnormal(again.Basis, res.Basis) || !slices.Equal(again.Eigenvalues, res.Eigenvalues) {
			t.Fatalf("data times 2^%d give another basis:\n%v\nwant\n%v", fc.scale, mat.Formatted(again.Basis), mat.Formatted(res.Basis))
		}
	}
	if fc.same {
		again, err := newEst(3).Fit(context.Background(), fc.x)
		if err != nil {
			t.Fatalf("Workers = 3: %v after a fit on one worker", err)
		}
		if !mat.Equal(again.Basis, res.Basis) {
			t.Fatalf("Workers = 3 gives another basis:\n%v\nwant\n%v", mat.Formatted(again.Basis), mat.Formatted(res.Basis))
		}
	}
}

// scaledData returns x times 2^k, or nil if k is 0 or a value of x or of
// the result is outside the normal range of float64, where the scaling
// would round.
func scaledData(x mat.Matrix, k int) *mat.Dense {
	if k == 0 {
		return nil
	}
	y := mat.DenseCopyOf(x)
	data := y.RawMatrix().Data
	for i, v := range data {
		s := math.Ldexp(v, k)
		if a := math.Min(math.Abs(v), math.Abs(s)); v != 0 && !(a >= 0x1p-1022) || math.IsInf(s, 0) {
			return nil
		}
		data[i] = s
	}
	return y
}

// sameToSubnormal reports whether a and b are equal but for entries that
// differ by less than 2⁻¹⁰⁴⁰: entries near the subnormal range, computed
// with fewer bits.
func sameToSubnormal(a, b *mat.Dense) bool {
	ar, ac := a.Dims()
	if br, bc := b.Dims(); ar != br || ac != bc {
		return false
	}
	ad, bd := a.RawMatrix().Data, b.RawMatrix().Data
	for i := range ad {
		if ad[i] != bd[i] && !(math.Abs(ad[i]-bd[i]) < 0x1p-1040) {
			return false
		}
	}
	return true
}

// checkFuzzResult checks the Result contract on a fit to d columns.
func checkFuzzResult(t *testing.T, res *ngca.Result, d, dim int) {
	t.Helper()
	if r, c := res.Basis.Dims(); r != d || c != dim {
		t.Fatalf("basis is %d×%d, want %d×%d", r, c, d, dim)
	}
	for _, v := range res.Basis.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("basis holds %v:\n%v", v, mat.Formatted(res.Basis))
		}
	}
	var g mat.Dense
	g.Mul(res.Basis.T(), res.Basis)
	if !mat.EqualApprox(&g, eye(dim), 1e-8) {
		t.Fatalf("BᵀB is not I:\n%v", mat.Formatted(&g))
	}
	for _, j := range res.Dependent {
		if row := res.Basis.RawRowView(j); slices.ContainsFunc(row, func(v float64) bool { return v != 0 }) {
			t.Fatalf("basis row %d of a dependent column is %v", j, row)
		}
	}
	if res.Eigenvalues != nil && len(res.Eigenvalues) != d-len(res.Dependent) {
		t.Fatalf("%d eigenvalues for %d columns, %d dependent", len(res.Eigenvalues), d, len(res.Dependent))
	}
	for _, v := range res.Eigenvalues {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("eigenvalues %v", res.Eigenvalues)
		}
	}
	if len(res.Mean) != d {
		t.Fatalf("%d means for %d columns", len(res.Mean), d)
	}
	for _, v := range res.Mean {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("means %v", res.Mean)
		}
	}
}

func FuzzWFLSNGCA(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		folds, centers, widths, ridges := fc.kernelSettings()
		fuzzFit(t, fc, func(workers int) ngca.Estimator {
			return &ngca.WFLSNGCA{Dim: fc.dim, Folds: folds, NumCenters: centers, Widths: widths, Ridges: ridges,
				VRidges: ridges[:1+int(fc.cfg[3])%2], Workers: workers}
		})
	})
}

func FuzzRobustWFLSNGCA(f *testing.F) {
	nullZ := []float64{0, -1, 1, 10}
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		folds, centers, widths, ridges := fc.kernelSettings()
		c := fc.cfg[3]
		fuzzFit(t, fc, func(workers int) ngca.Estimator {
			w := &ngca.RobustWFLSNGCA{Dim: fc.dim, Folds: folds, NumCenters: centers, Widths: widths, Ridges: ridges, Workers: workers}
			if err := ngca.SetRobustPath(w, []string{"adaptive", "axes", "equivariant"}[c%3]); err != nil {
				t.Fatal(err)
			}
			if err := ngca.SetRobustNullZ(w, nullZ[c>>4%4]); err != nil {
				t.Fatal(err)
			}
			return w
		})
	})
}

func FuzzLSNGCA(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		folds, centers, widths, ridges := fc.kernelSettings()
		fuzzFit(t, fc, func(workers int) ngca.Estimator {
			return &ngca.LSNGCA{Dim: fc.dim, Folds: folds, NumCenters: centers, Widths: widths, Ridges: ridges, Workers: workers}
		})
	})
}

func FuzzMIPP(f *testing.F) {
	thresholds := []float64{0, 0.01, 1, 100}
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		c := fc.cfg
		fams := []probe.FamilySpec{{Kind: familyKinds[c[1]%4], L: 1 + int(c[2])%8}}
		if c[1]&0x10 != 0 {
			fams = append(fams, probe.FamilySpec{Kind: familyKinds[c[1]>>2%4], Params: []float64{0.5, 2}})
		}
		fuzzFit(t, fc, func(workers int) ngca.Estimator {
			return withFamilies(&ngca.MIPP{Dim: fc.dim, Iterations: 1 + int(c[0])%5, Threshold: thresholds[c[3]%4], Workers: workers}, fams)
		})
	})
}

// FuzzLSLDG fits LSLDG, which has no Dim: on success the chosen scores
// and the coefficients (in standardised units: the gradient in the
// caller's units of data near 1e-308 may overflow) must be finite.
func FuzzLSLDG(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		fc := decodeFuzz(data)
		folds, centers, widths, ridges := fc.kernelSettings()
		m, err := (&ngca.LSLDG{Folds: folds, NumCenters: centers, Widths: widths, Ridges: ridges, Workers: 1}).Fit(context.Background(), fc.x)
		if err != nil {
			if m != nil {
				t.Fatalf("model and error %v", err)
			}
			checkFitError(t, err)
			return
		}
		scores := ngca.ChosenScores(m)
		if len(scores) != fc.d || len(m.Mean()) != fc.d {
			t.Fatalf("%d coordinates and %d means for %d columns", len(scores), len(m.Mean()), fc.d)
		}
		for _, s := range scores {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				t.Fatalf("chosen score %v", s)
			}
		}
		for _, v := range m.Theta().RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("coefficient %v", v)
			}
		}
	})
}
