package ngca

import "math/rand/v2"

// estimator is an Estimator of this package: what Check and the JSON form
// of a Result know of it besides Fit. Each estimator implements it in its
// own file, and registers a zero value there (register), with the name of
// its fits in a constant that its Fit also uses.
type estimator interface {
	Estimator
	// method returns the Result.Method of its fits.
	method() string
	// dim returns its Dim.
	dim() int
	// with returns a copy, a new value, with the source src, workers
	// goroutines and no Progress callback.
	with(src rand.Source, workers int) Estimator
	// equivariant reports whether its estimate turns with any invertible
	// linear map of the data, so that it has no orientation of the
	// columns to be biased by (Check judges its fits by stability alone).
	equivariant() bool
	// newReport returns a zero Report of the type its fits hold.
	newReport() Report
	// rows returns the fewest rows its Fit accepts for d columns, with
	// its Folds (the rule its doc comment states).
	rows(d int) rowNeed
}

// estimators holds a zero value of every estimator of the package, in the
// order their files register them.
var estimators []estimator

// register adds an estimator of the package to estimators and the type
// of its report to those a Result's JSON can hold; each estimator's file
// calls it from an init function.
func register(e estimator) {
	estimators = append(estimators, e)
	addReportType(e.newReport())
}
