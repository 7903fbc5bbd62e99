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
