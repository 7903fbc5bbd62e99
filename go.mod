module github.com/ngca-go/ngca

go 1.25

require gonum.org/v1/gonum v0.17.0
