package artificial

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/ngca-go/ngca/ngcatest"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// fitKey names one fit of a study: a data set and a method label.
type fitKey struct {
	job    job
	method string
}

// resumed reads the rows of errors.csv in c.Out that this study would
// produce (a data set of its grid and one of its methods) and returns
// them with the set of fits they hold. A missing file is an empty study;
// a row that does not parse is an error naming its line.
func (c *Config) resumed() ([]Row, map[fitKey]bool, error) {
	rows, err := repro.ReadRows(filepath.Join(c.Out, "errors.csv"), parseRow)
	if err != nil {
		return nil, nil, err
	}
	jobs, labels := map[job]bool{}, map[string]bool{}
	for _, j := range c.jobs() {
		jobs[j] = true
	}
	for _, m := range c.Methods {
		labels[m.Label] = true
	}
	var kept []Row
	done := map[fitKey]bool{}
	for _, row := range rows {
		k := fitKey{job{row.Dist, row.R, row.Run, row.Rotated}, row.Method}
		if jobs[k.job] && labels[row.Method] && !done[k] {
			kept = append(kept, row)
			done[k] = true
		}
	}
	return kept, done, nil
}

// parseRow is the inverse of Row.record.
func parseRow(rec []string) (Row, error) {
	if len(rec) != len(rowHeader) {
		return Row{}, fmt.Errorf("%d fields, want %d", len(rec), len(rowHeader))
	}
	dist, err := ngcatest.ParseDistribution(rec[0])
	if err != nil {
		return Row{}, err
	}
	row := Row{Dist: dist, Method: rec[4], Err: rec[8]}
	var errs [6]error
	row.R, errs[0] = strconv.ParseFloat(rec[1], 64)
	row.Run, errs[1] = strconv.Atoi(rec[2])
	row.Rotated, errs[2] = strconv.ParseBool(rec[3])
	row.Epsilon, errs[3] = parseFloatOrNaN(rec[5])
	row.Seconds, errs[4] = strconv.ParseFloat(rec[6], 64)
	row.Cond, errs[5] = parseFloatOrNaN(rec[7])
	return row, errors.Join(errs[:]...)
}

func parseFloatOrNaN(s string) (float64, error) {
	if s == "" {
		return math.NaN(), nil
	}
	return strconv.ParseFloat(s, 64)
}
