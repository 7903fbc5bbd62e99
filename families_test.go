package ngca_test

import (
	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
)

// familyKinds are the kinds of MIPP's index functions, in the order of the
// paper's families.
var familyKinds = []string{"gauss-pow3", "tanh", "sin", "cos"}

// withFamilies returns e (a *ngca.MIPP or *ngca.SNGCA) with the families
// fams, panicking on a family of an unknown kind.
func withFamilies[E *ngca.MIPP | *ngca.SNGCA](e E, fams []probe.FamilySpec) E {
	if err := ngca.SetFamilies(e, fams); err != nil {
		panic(err)
	}
	return e
}

// familyCounts returns what a MIPP fit kept of each family.
func familyCounts(res *ngca.Result) []probe.FamilyCount {
	d, ok := ngca.MIPPDetails(res.Report)
	if !ok {
		panic("not a MIPP fit")
	}
	return d.Families
}
