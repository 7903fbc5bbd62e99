package numtest_test

import (
	"testing"

	"github.com/ngca-go/ngca/internal/doccheck"
)

// TestDocComments checks that the doc comments of the package name only
// types, fields, methods and functions that exist.
func TestDocComments(t *testing.T) { doccheck.Test(t, ".") }
