package ngcatest_test

import (
	"testing"

	"github.com/ngca-go/ngca/internal/doccheck"
)

// TestDocComments checks that the doc comments of the package name only
// types, fields, methods and functions that exist (see
// internal/doccheck for the names it checks).
func TestDocComments(t *testing.T) { doccheck.Test(t, ".") }
