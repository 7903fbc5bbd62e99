package checkstudy

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/research/internal/repro"
	"github.com/ngca-go/ngca/research/internal/repro/orientation"
)

// Row is one fit and its check.
type Row struct {
	Block, Cell, Signal string
	M, N, D             int
	R                   float64
	Mix                 int
	Seed                int
	// Method is the registry key of the estimator (internal/methods).
	Method string
	// Epsilon is the fit's subspace error (NaN if the fit failed);
	// FitSeconds and CheckSeconds the wall times of the fit and of its
	// check, both on one core.
	Epsilon, FitSeconds, CheckSeconds float64
	// The check's report: the verdict, Spread, failed refits, Separation.
	Doubtful     bool
	Spread       float64
	RefitsFailed int
	Separation   float64
	// The agreements with IMAK and MIPP (NaN where that reference did not
	// run): distance, reference spread, limit.
	IMAK, MIPP ref
	// Reasons are the report's reasons, joined by "; ".
	Reasons string
	// Err is the error of a failed fit or check.
	Err string
}

// ref is one Agreement of a report.
type ref struct{ Distance, Spread, Limit float64 }

var noRef = ref{math.NaN(), math.NaN(), math.NaN()}

// header names the columns of check.csv.
var header = []string{"block", "cell", "signal", "m", "n", "d", "r", "mix", "seed", "method",
	"epsilon", "fit_seconds", "check_seconds", "doubtful", "spread", "refits_failed", "separation",
	"imak_distance", "imak_spread", "imak_limit", "mipp_distance", "mipp_spread", "mipp_limit", "reasons", "error"}

// newRow makes the row of a fit of method to the data set of j, with its
// check's report rep.
func newRow(j job, method string, eps, fitSec, checkSec float64, rep *ngca.CheckReport, err error) Row {
	c := j.cell
	r := Row{Block: c.Block, Cell: c.Name, Signal: c.Signal, M: c.M, N: c.N, D: c.D, R: c.R, Mix: c.Mix, Seed: j.seed,
		Method: method, Epsilon: eps, FitSeconds: fitSec, CheckSeconds: checkSec,
		Spread: math.NaN(), Separation: math.NaN(), IMAK: noRef, MIPP: noRef}
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.Doubtful, r.Spread, r.RefitsFailed, r.Separation = rep.Doubtful, rep.Spread, rep.RefitsFailed, rep.Separation
	r.Reasons = strings.Join(rep.Reasons, "; ")
	for _, a := range rep.Agreements {
		v := ref{a.Distance, a.Spread, a.Limit}
		switch a.Method {
		case "IMAK":
			r.IMAK = v
		case "MIPP":
			r.MIPP = v
		}
	}
	return r
}

func (r Row) record() []string {
	f := repro.FormatFloat
	return []string{r.Block, r.Cell, r.Signal, strconv.Itoa(r.M), strconv.Itoa(r.N), strconv.Itoa(r.D),
		f(r.R), orientation.MixString(r.Mix), strconv.Itoa(r.Seed), r.Method,
		f(r.Epsilon), f(r.FitSeconds), f(r.CheckSeconds), strconv.FormatBool(r.Doubtful), f(r.Spread),
		strconv.Itoa(r.RefitsFailed), f(r.Separation),
		f(r.IMAK.Distance), f(r.IMAK.Spread), f(r.IMAK.Limit), f(r.MIPP.Distance), f(r.MIPP.Spread), f(r.MIPP.Limit),
		r.Reasons, r.Err}
}

// parseRow is the inverse of Row.record.
func parseRow(rec []string) (Row, error) {
	if len(rec) != len(header) {
		return Row{}, fmt.Errorf("%d fields, want %d", len(rec), len(header))
	}
	r := Row{Block: rec[0], Cell: rec[1], Signal: rec[2], Method: rec[9], Reasons: rec[23], Err: rec[24]}
	var errs [20]error
	r.M, errs[0] = strconv.Atoi(rec[3])
	r.N, errs[1] = strconv.Atoi(rec[4])
	r.D, errs[2] = strconv.Atoi(rec[5])
	r.R, errs[3] = repro.ParseFloat(rec[6])
	r.Mix, errs[4] = orientation.ParseMix(rec[7])
	r.Seed, errs[5] = strconv.Atoi(rec[8])
	r.Epsilon, errs[6] = repro.ParseFloat(rec[10])
	r.FitSeconds, errs[7] = repro.ParseFloat(rec[11])
	r.CheckSeconds, errs[8] = repro.ParseFloat(rec[12])
	r.Doubtful, errs[9] = strconv.ParseBool(rec[13])
	r.Spread, errs[10] = repro.ParseFloat(rec[14])
	r.RefitsFailed, errs[11] = strconv.Atoi(rec[15])
	r.Separation, errs[12] = repro.ParseFloat(rec[16])
	r.IMAK.Distance, errs[13] = repro.ParseFloat(rec[17])
	r.IMAK.Spread, errs[14] = repro.ParseFloat(rec[18])
	r.IMAK.Limit, errs[15] = repro.ParseFloat(rec[19])
	r.MIPP.Distance, errs[16] = repro.ParseFloat(rec[20])
	r.MIPP.Spread, errs[17] = repro.ParseFloat(rec[21])
	r.MIPP.Limit, errs[18] = repro.ParseFloat(rec[22])
	return r, errors.Join(errs[:]...)
}

// fitKey names one fit: a data set (cell and seed) and a method.
type fitKey struct {
	cell   string
	seed   int
	method string
}

func (r Row) key() fitKey { return fitKey{r.Cell, r.Seed, r.Method} }

// failed reports a fit or check that returned an error.
func (r Row) failed() bool { return r.Err != "" || math.IsNaN(r.Epsilon) }

// dataSets counts the data sets that rows come from.
func dataSets(rows []Row) int {
	seen := map[fitKey]bool{}
	for _, r := range rows {
		seen[fitKey{r.Cell, r.Seed, ""}] = true
	}
	return len(seen)
}
