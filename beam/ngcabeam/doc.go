// Package ngcabeam runs the ngca library's fits and projections on Apache
// Beam, so that one pipeline reads rows that live in many files, or do
// not fit on one machine, and runs locally on Beam's prism runner or on
// Dataflow, Flink or Spark.
//
// Rows travel as blocks (Rows) of a few thousand consecutive rows of one
// source:
//
//   - Read reads files by the ngca command's rules (formats, header,
//     columns, labels, missing values, gzip), each file by itself, and
//     fails the pipeline with the file and line of a bad cell;
//   - Sample draws a uniform sample of k rows by bottom-k hashing, the
//     same rows in the same order however the input is split;
//   - Fit fits any estimator of the library to that sample on one worker
//     (the library's default, ngca.RobustWFLSNGCA, unless told; with
//     ngca.EstimateDim and ngca.Check when asked), or with Full fits
//     WF-LSNGCA, LSNGCA or LSLDG to every row: the widths, ridges and
//     centers chosen on the sample, the least-squares sums formed by every
//     worker and merged by a combine (ngca.Plan, ngca.Sums; Passes);
//   - Project applies a fit to every row, the fit a side input, passing
//     kept columns and labels through.
//
// Every random choice comes from the seed of FitOptions, so that a fit of
// the sample is the same bits on any runner, with any number of workers
// and files; a full fit equals the single-machine fit with the same
// choices to rounding (ε ≤ 1e-10). The library never prints: errors fail
// the pipeline, and Read's notes are Beam counters (FilesOf). See
// docs/distributed.md for the command ngca-beam, the runners' flags and
// measured speeds.
package ngcabeam
