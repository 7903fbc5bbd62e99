//go:build !cgo

package libsvm

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// errNoCgo is the reason LIBSVM is unavailable in a build without cgo.
var errNoCgo = fmt.Errorf("%w (this program was built without cgo, which loading LIBSVM needs): rebuild it with CGO_ENABLED=1 and a C compiler, and %s", ErrUnavailable, InstallHint)

// Available returns nil if LIBSVM can be used, or else an error wrapping
// ErrUnavailable that says why. Without cgo it always fails.
func Available() error { return errNoCgo }

// Version returns LIBSVM's version number and the name it was loaded
// under, or an error if it is not available.
func Version() (int, string, error) { return 0, "", errNoCgo }

func headerChecked() bool { return false }

// Model is a trained classifier.
type Model struct{}

// Train trains a C-SVC with the RBF kernel; without cgo it always fails.
func Train(x mat.Matrix, y []float64, p Params) (*Model, error) { return nil, errNoCgo }

// Predict returns the predicted class of every row of x.
func (m *Model) Predict(x mat.Matrix) ([]float64, error) { return nil, errNoCgo }

// NumSV returns the number of support vectors.
func (m *Model) NumSV() int { return 0 }

// Close frees the model's memory.
func (m *Model) Close() {}
