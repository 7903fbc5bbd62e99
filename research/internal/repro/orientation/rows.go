package orientation

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ngca-go/ngca/research/internal/repro"
)

// Row is one fit: a method on one data set of a cell.
type Row struct {
	Block, Cell, Signal string
	M, N, D             int
	R                   float64
	Mix                 int
	Seed                int
	// Method is the registry key of the estimator (internal/methods).
	Method string
	// Epsilon is the subspace error of the fit (NaN if it failed),
	// Seconds its wall time and Separation Result.Separation.
	Epsilon, Seconds, Separation float64
	// Robust reports a fit of the robust variant: the fields below hold
	// its RobustReport (the estimate returned, the p-value of the test of
	// the axes estimate and its Distance from the equivariant estimate,
	// the evidence that each candidate misses structure the other holds,
	// whether the equivariant frame was refined, and ε of each candidate,
	// NaN for one that did not run).
	Robust                      bool
	Path                        string
	P, Distance                 float64
	MissedAxes, MissedEquivar   float64
	Refined                     bool
	EpsilonAxes, EpsilonEquivar float64
	// Err is the error of a failed fit.
	Err string
}

// header names the columns of orientation.csv.
var header = []string{"block", "cell", "signal", "m", "n", "d", "r", "mix", "seed", "method",
	"epsilon", "seconds", "separation", "path", "p", "refined", "epsilon_axes", "epsilon_equivariant", "distance",
	"missed_axes", "missed_equivariant", "error"}

// record writes r as a record of orientation.csv: floats as the fewest
// digits that read back exactly, the robust columns empty for other
// methods.
func (r Row) record() []string {
	rec := []string{r.Block, r.Cell, r.Signal, strconv.Itoa(r.M), strconv.Itoa(r.N), strconv.Itoa(r.D),
		repro.FormatFloat(r.R), MixString(r.Mix), strconv.Itoa(r.Seed), r.Method,
		repro.FormatFloat(r.Epsilon), repro.FormatFloat(r.Seconds), repro.FormatFloat(r.Separation),
		"", "", "", "", "", "", "", "", r.Err}
	if r.Robust {
		rec[13], rec[14], rec[15] = r.Path, repro.FormatFloat(r.P), strconv.FormatBool(r.Refined)
		rec[16], rec[17] = repro.FormatFloat(r.EpsilonAxes), repro.FormatFloat(r.EpsilonEquivar)
		rec[18] = repro.FormatFloat(r.Distance)
		rec[19], rec[20] = repro.FormatFloat(r.MissedAxes), repro.FormatFloat(r.MissedEquivar)
	}
	return rec
}

// parseRow is the inverse of Row.record. It also reads the records of
// files written before the missed_axes and missed_equivariant columns
// existed (two fields fewer), with those figures NaN.
func parseRow(rec []string) (Row, error) {
	if len(rec) == len(header)-2 {
		rec = slices.Concat(rec[:19], []string{"", ""}, rec[19:])
	}
	if len(rec) != len(header) {
		return Row{}, fmt.Errorf("%d fields, want %d", len(rec), len(header))
	}
	r := Row{Block: rec[0], Cell: rec[1], Signal: rec[2], Method: rec[9], Path: rec[13], Robust: rec[13] != "", Err: rec[21]}
	var errs [16]error
	r.M, errs[0] = strconv.Atoi(rec[3])
	r.N, errs[1] = strconv.Atoi(rec[4])
	r.D, errs[2] = strconv.Atoi(rec[5])
	r.R, errs[3] = strconv.ParseFloat(rec[6], 64)
	r.Mix, errs[4] = ParseMix(rec[7])
	r.Seed, errs[5] = strconv.Atoi(rec[8])
	r.Epsilon, errs[6] = repro.ParseFloat(rec[10])
	r.Seconds, errs[7] = repro.ParseFloat(rec[11])
	r.Separation, errs[8] = repro.ParseFloat(rec[12])
	r.P, errs[9] = repro.ParseFloat(rec[14])
	r.EpsilonAxes, errs[10] = repro.ParseFloat(rec[16])
	r.EpsilonEquivar, errs[11] = repro.ParseFloat(rec[17])
	r.Distance, errs[13] = repro.ParseFloat(rec[18])
	r.MissedAxes, errs[14] = repro.ParseFloat(rec[19])
	r.MissedEquivar, errs[15] = repro.ParseFloat(rec[20])
	if r.Robust {
		r.Refined, errs[12] = strconv.ParseBool(rec[15])
	}
	return r, errors.Join(errs[:]...)
}

// fitKey names one fit: a data set (cell and seed) and a method.
type fitKey struct {
	cell   string
	seed   int
	method string
}

func (r Row) key() fitKey { return fitKey{r.Cell, r.Seed, r.Method} }

// failed reports a fit that returned an error (or no ε).
func (r Row) failed() bool { return r.Err != "" || math.IsNaN(r.Epsilon) }
