package main

import "github.com/ngca-go/ngca"

// decisionFigure is the robust report's figure of the comparison between
// the two estimates.
func decisionFigure(rep *ngca.RobustReport) float64 { return rep.Distance }
