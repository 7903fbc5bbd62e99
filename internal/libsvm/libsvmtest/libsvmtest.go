// Package libsvmtest holds the policy shared by the tests that need LIBSVM:
// skip where it is missing, fail where the environment says it must be
// there (NGCA_REQUIRE_LIBSVM=1, as .ci/run sets it).
package libsvmtest

import (
	"os"
	"testing"
)

// Require does nothing if missing is nil. Otherwise it skips t, or fails
// it when NGCA_REQUIRE_LIBSVM=1. Callers pass libsvm.Available() or the
// error of looking up LIBSVM's command-line tools; it takes the error
// rather than calling libsvm itself so that package libsvm's own tests
// can use it.
func Require(t testing.TB, missing error) {
	t.Helper()
	if missing == nil {
		return
	}
	if os.Getenv("NGCA_REQUIRE_LIBSVM") == "1" {
		t.Fatalf("NGCA_REQUIRE_LIBSVM=1 but %v", missing)
	}
	t.Skipf("skipped: %v", missing)
}
