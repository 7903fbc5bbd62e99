// Package libsvmtest holds the policy shared by the tests that need LIBSVM
// or the full LIBSVM benchmark data sets: skip where they are missing, fail
// where the environment says they must be there (NGCA_REQUIRE_LIBSVM=1, as
// .ci/run sets it, or, for the data sets, CI=true).
package libsvmtest

import (
	"os"
	"path/filepath"
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

// DataEnv names the environment variable that gives the folder of the
// full LIBSVM benchmark data sets (vehicle.scale, svmguide1, ...) to the
// tests that read them. Tests never look for the data sets anywhere else.
const DataEnv = "NGCA_DATA"

// DataDir returns the folder named by the environment variable NGCA_DATA.
// A relative path is taken from the root of the module (the nearest
// folder above the test's working directory that holds go.mod), since
// go test runs every package's tests in the package's folder.
//
// If NGCA_DATA is unset or empty, DataDir skips t, or fails it under CI
// (CI=true or NGCA_REQUIRE_LIBSVM=1). If it names no folder, DataDir fails
// t: a folder given explicitly must be there.
func DataDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(DataEnv)
	if dir == "" {
		const msg = "the full LIBSVM data sets are not available: set " + DataEnv + " to their folder"
		if ci() {
			t.Fatalf("%s (required under CI: CI=true or NGCA_REQUIRE_LIBSVM=1)", msg)
		}
		t.Skipf("skipped: %s", msg)
	}
	if !filepath.IsAbs(dir) {
		root, err := moduleRoot()
		if err != nil {
			t.Fatalf("%s=%s is relative, but the module root was not found: %v", DataEnv, dir, err)
		}
		dir = filepath.Join(root, dir)
	}
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		t.Fatalf("%s names no folder: %v", DataEnv, err)
	case !fi.IsDir():
		t.Fatalf("%s names %s, which is not a folder", DataEnv, dir)
	}
	return dir
}

// ci reports whether the tests run under CI, where missing test data is
// an error.
func ci() bool {
	return os.Getenv("CI") == "true" || os.Getenv("NGCA_REQUIRE_LIBSVM") == "1"
}

// moduleRoot returns the nearest folder above the working directory that
// holds go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
