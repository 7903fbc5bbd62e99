module github.com/ngca-go/ngca

go 1.25.0

require (
	golang.org/x/term v0.45.0
	gonum.org/v1/gonum v0.17.0
)

require golang.org/x/sys v0.47.0 // indirect
