package ngca_test

import (
	"testing"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/methods"
)

// TestCommandRegistry checks that the command's registry
// (internal/methods) lists every estimator of the package, each under
// the Result.Method of its fits, and nothing else.
func TestCommandRegistry(t *testing.T) {
	names := ngca.RegisteredMethods()
	for _, name := range names {
		if m, err := methods.Lookup(name); err != nil || m.Label != name {
			t.Errorf("%s: the command's registry has %q, %v", name, m.Label, err)
		}
	}
	if len(methods.All()) != len(names) {
		t.Errorf("the command's registry has %d estimators, the package %d", len(methods.All()), len(names))
	}
}
