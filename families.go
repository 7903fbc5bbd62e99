package ngca

import (
	"fmt"
	"math"

	"github.com/ngca-go/ngca/internal/asm"
	"github.com/ngca-go/ngca/internal/probe"
)

// defaultFamilySize is the number of functions of a family whose L is 0.
const defaultFamilySize = 1000

// familyKind is the form s of the index functions h(y) = s(wᵀy) of a MIPP
// family, each with one scalar parameter p.
type familyKind int

var familyKinds = [...]struct {
	name   string
	lo, hi float64
}{
	familyGaussPow3: {"gauss-pow3", 0.5, 5},
	familyTanh:      {"tanh", 0.05, 5},
	familySin:       {"sin", 0.05, 4},
	familyCos:       {"cos", 0.05, 4},
}

// String returns the kind's name: "gauss-pow3", "tanh", "sin" or "cos".
func (k familyKind) String() string {
	if k < 0 || int(k) >= len(familyKinds) {
		return fmt.Sprintf("familyKind(%d)", int(k))
	}
	return familyKinds[k].name
}

// family is a family of MIPP index functions h(y) = s_p(wᵀy) of one kind,
// one function per parameter p. The parameters are either listed in Params
// or spaced evenly over [Min, Max], endpoints included:
//
//	p_k = Min + (Max − Min)·k/(L − 1),   k = 0, …, L−1.
//
// The zero value of every field but Kind gives the paper's family of that
// kind: L = 1000 parameters over the kind's default range.
type family struct {
	// Kind is the form of the index functions.
	Kind familyKind
	// Params, if not empty, lists the parameters explicitly, each positive
	// and finite; Min, Max and L must then be zero.
	Params []float64
	// Min and Max bound the parameter range, 0 < Min ≤ Max < ∞; both zero
	// mean the kind's default range (see familyKind).
	Min, Max float64
	// L is the number of index functions, at least 1 (L = 1 uses Min
	// alone); 0 means 1000.
	L int
}

// defaultFamilies returns the four families of the paper's §4.1, in the
// order MIPP uses when none are set: familyGaussPow3 with σ² ∈ [0.5, 5],
// familyTanh with a ∈ [0.05, 5], familySin and familyCos with
// b ∈ [0.05, 4], 1000 functions each.
func defaultFamilies() []family {
	fs := make([]family, len(familyKinds))
	for k, fk := range familyKinds {
		fs[k] = family{Kind: familyKind(k), Min: fk.lo, Max: fk.hi, L: defaultFamilySize}
	}
	return fs
}

// params checks the family and returns its parameters.
func (f family) params(i int) ([]float64, error) {
	if f.Kind < 0 || int(f.Kind) >= len(familyKinds) {
		return nil, fmt.Errorf("%w: families[%d]: unknown kind %d", ErrParam, i, int(f.Kind))
	}
	if len(f.Params) > 0 {
		if f.Min != 0 || f.Max != 0 || f.L != 0 {
			return nil, fmt.Errorf("%w: families[%d]: set either Params or Min, Max and L, not both", ErrParam, i)
		}
		for k, p := range f.Params {
			if !(p > 0) || math.IsInf(p, 1) {
				return nil, fmt.Errorf("%w: families[%d].Params[%d] = %v, need a positive finite value", ErrParam, i, k, p)
			}
		}
		return append([]float64(nil), f.Params...), nil
	}
	lo, hi, l := f.Min, f.Max, f.L
	if lo == 0 && hi == 0 {
		lo, hi = familyKinds[f.Kind].lo, familyKinds[f.Kind].hi
	}
	switch {
	case l < 0:
		return nil, fmt.Errorf("%w: families[%d].L = %d", ErrParam, i, f.L)
	case l == 0:
		l = defaultFamilySize
	}
	if !(lo > 0 && lo <= hi) || math.IsInf(hi, 1) {
		return nil, fmt.Errorf("%w: families[%d]: range [%v, %v], need 0 < Min ≤ Max < ∞ (or both zero)", ErrParam, i, f.Min, f.Max)
	}
	p := make([]float64, l)
	for k := range p {
		p[k] = lo + (hi-lo)*float64(k)/float64(max(1, l-1))
	}
	if l > 1 {
		p[l-1] = hi
	}
	return p, nil
}

// indexFn is one index function: its family (index into the families),
// kind and parameter.
type indexFn struct {
	family int
	kind   familyKind
	p      float64
}

// indexFunctions lists the index functions of the families in order.
func indexFunctions(fams []mippFamily) []indexFn {
	var fns []indexFn
	for i, f := range fams {
		for _, p := range f.params {
			fns = append(fns, indexFn{i, f.kind, p})
		}
	}
	return fns
}

// mippFamily is a checked family: its kind and its parameters.
type mippFamily struct {
	kind   familyKind
	params []float64
}

// laneValues sets s[i] = s_p(z[i]) and ds[i] = s′_p(z[i]) for the index
// functions of the given kind with parameters p, lane by lane, and adds the
// lane sums of ds to sum.
func laneValues(kind familyKind, p *[asm.Lanes]float64, z, s, ds []float64, sum *[asm.Lanes]float64) {
	var part [asm.Lanes]float64
	switch kind {
	case familyGaussPow3:
		var ip [asm.Lanes]float64
		for l, v := range p {
			ip[l] = 1 / v
		}
		asm.GaussLanes(z, &ip, s, ds, &part)
	case familyTanh:
		asm.TanhLanes(z, p, s, ds, &part)
	case familySin, familyCos:
		q0 := uint64(kind - familySin) // cos x = sin(x + π/2), −sin x = cos(x + π/2)
		if asm.SincosLanes(z, p, q0, s, ds, &part) {
			asm.SincosLanesStd(z, p, q0, s, ds, &part)
		}
	}
	for l, v := range part {
		sum[l] += v
	}
}

// indexValues sets s[i] = s_p(z[i]) and ds[i] = s′_p(z[i]) and returns
// Σᵢ ds[i]. It runs the lane kernels with p in every lane on the first
// 4⌊n/4⌋ values and on the rest padded with zeros.
func indexValues(kind familyKind, p float64, z, s, ds []float64) float64 {
	s, ds = s[:len(z)], ds[:len(z)]
	pl := [asm.Lanes]float64{p, p, p, p}
	var sum [asm.Lanes]float64
	m := len(z) - len(z)%asm.Lanes
	laneValues(kind, &pl, z[:m], s[:m], ds[:m], &sum)
	total := (sum[0] + sum[1]) + (sum[2] + sum[3])
	if m == len(z) {
		return total
	}
	var zt, st, dst, tail [asm.Lanes]float64
	copy(zt[:], z[m:])
	laneValues(kind, &pl, zt[:], st[:], dst[:], &tail)
	copy(s[m:], st[:])
	copy(ds[m:], dst[:])
	for _, v := range dst[:len(z)-m] {
		total += v
	}
	return total
}

const (
	// familyGaussPow3 is s(z) = z³·exp(−z²/(2p)), p = σ² (default range
	// [0.5, 5] for σ², as in the authors' script; the paper's §4.1 writes
	// the range for σ).
	familyGaussPow3 familyKind = iota
	// familyTanh is s(z) = tanh(p·z) (default range [0.05, 5]).
	familyTanh
	// familySin is s(z) = sin(p·z) (default range [0.05, 4]).
	familySin
	// familyCos is s(z) = cos(p·z) (default range [0.05, 4]).
	familyCos
)

// familiesFrom returns the families of fams (nil for none), or an error
// wrapping ErrParam for an unknown kind.
func familiesFrom(fams []probe.FamilySpec) ([]family, error) {
	var fs []family
	for i, f := range fams {
		kind := familyKind(-1)
		for k, fk := range familyKinds {
			if fk.name == f.Kind {
				kind = familyKind(k)
			}
		}
		if kind < 0 {
			return nil, fmt.Errorf("%w: families[%d]: unknown kind %q (want gauss-pow3, tanh, sin or cos)", ErrParam, i, f.Kind)
		}
		fs = append(fs, family{Kind: kind, Params: f.Params, Min: f.Min, Max: f.Max, L: f.L})
	}
	return fs, nil
}
