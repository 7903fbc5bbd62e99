// Package tuned holds the thresholds that the library's estimators were
// tuned with and that its studies report on, so that the studies describe
// the rule the library applies without the thresholds being part of the
// library's API.
package tuned

// RobustLevel is the level of the robust variant's test of its axes
// estimate (ngca.RobustReport.Level).
const RobustLevel = 0.01

// RobustMaxDistance bounds the Distance of an axes estimate that the
// robust variant's adaptive path returns (ngca.RobustReport.MaxDistance);
// docs/robust.md gives its measured reason.
const RobustMaxDistance = 4

// RobustMissedMargin is the margin, in paired z-scores, by which the
// evidence that the robust variant's equivariant estimate misses structure
// must exceed the evidence that its axes estimate does, for the axes
// estimate beyond the Distance bound to be returned
// (ngca.RobustReport.MissedMargin): the threshold of its null test's
// default.
const RobustMissedMargin = 3
