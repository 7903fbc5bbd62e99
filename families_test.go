package ngca_test

import (
	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/studyhook"
)

// familyKinds are the kinds of MIPP's index functions, in the order of the
// paper's families.
var familyKinds = []string{"gauss-pow3", "tanh", "sin", "cos"}

// withFamilies returns e (a *ngca.MIPP or *ngca.SNGCA) with the families
// fams, panicking on a family of an unknown kind.
func withFamilies[E *ngca.MIPP | *ngca.SNGCA](e E, fams []studyhook.Family) E {
	if err := studyhook.SetFamilies(e, fams); err != nil {
		panic(err)
	}
	return e
}

// familyCounts returns what a MIPP fit kept of each family.
func familyCounts(res *ngca.Result) []studyhook.FamilyCount {
	d, ok := studyhook.MIPPDetails(res.Report)
	if !ok {
		panic("not a MIPP fit")
	}
	return d.Families
}
