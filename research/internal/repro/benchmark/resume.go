package benchmark

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/ngca-go/ngca/research/internal/repro"
)

// runKey names one method on one run of a study.
type runKey struct {
	dataset string
	d, run  int
	method  string
}

// resumed reads the records of runs.csv in c.Out that this study would
// produce (a run of its grid, one of its methods) and returns them with
// the set of (run, method) they hold. A missing file is an empty study; a
// record that does not parse is an error naming its line.
func (c *Config) resumed(jobs []job) ([]Record, map[runKey]bool, error) {
	recs, err := repro.ReadRows(filepath.Join(c.Out, "runs.csv"), parseRecord)
	if err != nil {
		return nil, nil, err
	}
	want := map[runKey]bool{}
	for _, j := range jobs {
		for _, m := range c.Methods {
			want[runKey{j.ds.Name, j.d, j.run, m.Key}] = true
		}
	}
	var kept []Record
	done := map[runKey]bool{}
	for _, r := range recs {
		k := runKey{r.Dataset, r.D, r.Run, r.Method}
		if want[k] && !done[k] {
			kept = append(kept, r)
			done[k] = true
		}
	}
	return kept, done, nil
}

// parseRecord is the inverse of Record.csv. A record of a runs.csv
// written before the epsilon column has ε NaN.
func parseRecord(rec []string) (Record, error) {
	if len(rec) != len(csvHeader) && len(rec) != len(csvHeader)-1 {
		return Record{}, fmt.Errorf("%d fields, want %d", len(rec), len(csvHeader))
	}
	r := Record{Dataset: rec[0], Method: rec[3], Reason: rec[8], Epsilon: math.NaN()}
	if len(rec) == len(csvHeader) {
		var err error
		if r.Epsilon, err = strconv.ParseFloat(rec[9], 64); err != nil {
			return Record{}, err
		}
	}
	var errs [6]error
	r.D, errs[0] = strconv.Atoi(rec[1])
	r.Run, errs[1] = strconv.Atoi(rec[2])
	r.ErrorRate, errs[2] = strconv.ParseFloat(rec[4], 64)
	r.Seconds, errs[3] = strconv.ParseFloat(rec[5], 64)
	r.SVMSeconds, errs[4] = strconv.ParseFloat(rec[6], 64)
	r.Failed, errs[5] = strconv.ParseBool(rec[7])
	if r.Failed {
		r.ErrorRate = math.NaN()
	}
	return r, errors.Join(errs[:]...)
}
