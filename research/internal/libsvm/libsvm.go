// Package libsvm trains and applies support vector classifiers with LIBSVM
// (Chang and Lin, ACM TIST 2011), the C library the paper's benchmark
// experiments used. It is used by the reproduction studies of the ngca
// command, never by the ngca library, which stays free of cgo.
//
// The library is loaded when first needed, at run time, with dlopen
// ("libsvm.so.3", then "libsvm.so"), so that this package, the ngca
// command and their tests build on machines without LIBSVM: there
// Available reports why it cannot be used and Train returns that error.
// On Debian and Ubuntu, "apt-get install libsvm-dev" (or just the run-time
// library, libsvm3) provides it. Without cgo (CGO_ENABLED=0) the package
// compiles but LIBSVM is never available.
//
// Only LIBSVM 3.x is accepted (its libsvm_version symbol in [300, 400)),
// whose structures this package declares itself; when LIBSVM's header is
// installed at build time, the build also checks those declarations against
// it.
//
// LIBSVM prints progress messages on standard output while it trains; this
// package silences them once, when it loads the library.
//
// Separate models can be trained and used from several goroutines at once.
package libsvm

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ErrUnavailable reports that LIBSVM cannot be loaded; the error returned
// by Available and Train wraps it with the reason.
var ErrUnavailable = errors.New("libsvm: LIBSVM is not available")

// InstallHint tells a user how to get LIBSVM.
const InstallHint = "install it with \"sudo apt-get install libsvm-dev\" (Debian/Ubuntu; the run-time library alone is libsvm3)"

// Params configures the training of a C-SVC (C-support vector
// classification) with the RBF kernel
//
//	K(u, v) = exp(−γ‖u − v‖²).
//
// The zero value gives the defaults of LIBSVM's svm-train and of its MATLAB
// interface, which the paper used.
type Params struct {
	// C is the cost of a margin violation, > 0; 0 means 1.
	C float64
	// Gamma is the kernel's γ, > 0; 0 means 1/(number of features).
	Gamma float64
	// CacheSize is the kernel cache in MB, > 0; 0 means 100.
	CacheSize float64
	// Eps is the tolerance of the stopping criterion, > 0; 0 means 1e-3.
	Eps float64
	// NoShrinking switches off the shrinking heuristics, which are on by
	// default (svm-train's -h 1).
	NoShrinking bool
}

// withDefaults returns p with zero fields replaced by their defaults for d
// features, or an error for a negative or non-finite field.
func (p Params) withDefaults(d int) (Params, error) {
	for _, f := range []struct {
		name string
		v    *float64
		def  float64
	}{{"C", &p.C, 1}, {"Gamma", &p.Gamma, 1 / float64(d)}, {"CacheSize", &p.CacheSize, 100}, {"Eps", &p.Eps, 1e-3}} {
		if *f.v < 0 || math.IsNaN(*f.v) || math.IsInf(*f.v, 0) {
			return p, fmt.Errorf("libsvm: %s = %v, want a finite value ≥ 0 (0 means the default)", f.name, *f.v)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	return p, nil
}

// checkData checks the training data: a non-empty n×d matrix with finite
// values and n integer class labels.
func checkData(x mat.Matrix, y []float64) (n, d int, err error) {
	if x == nil {
		return 0, 0, errors.New("libsvm: nil training data")
	}
	n, d = x.Dims()
	if n == 0 || d == 0 {
		return n, d, fmt.Errorf("libsvm: empty training data (%d×%d)", n, d)
	}
	if len(y) != n {
		return n, d, fmt.Errorf("libsvm: %d labels for %d rows", len(y), n)
	}
	for i, v := range y {
		if v != math.Trunc(v) || math.Abs(v) > math.MaxInt32 {
			return n, d, fmt.Errorf("libsvm: label %v of row %d is not an integer class label", v, i)
		}
	}
	if err := checkFinite(x); err != nil {
		return n, d, err
	}
	return n, d, nil
}

func checkFinite(x mat.Matrix) error {
	n, d := x.Dims()
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("libsvm: non-finite value %v at row %d, column %d", v, i, j)
			}
		}
	}
	return nil
}
