package benchmark

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/research/internal/repro"
)

// runKey names one method on one run of a study.
type runKey struct {
	dataset string
	n, d    int
	run     int
	method  string
}

func (r Record) key() runKey { return runKey{r.Dataset, r.N, r.D, r.Run, r.Method} }

// resumed reads the rows of runs.csv in c.Out and returns those the
// resumed study keeps: every row but those of this study whose
// fingerprint is not the current code's (fps), which it runs again and
// reports on c.Log, and repeats of a row (the first is kept). A missing
// file is an empty study; a file without the columns that identify a
// row, or a row that does not parse, is an error naming it.
func (c *Config) resumed(fps map[string]string) ([]Record, error) {
	path := filepath.Join(c.Out, "runs.csv")
	rows, err := ReadRecords(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	stale := map[string]map[string]int{} // method → old fingerprint → rows
	kept, _ := repro.Finished(rows, Record.key, func(r Record) bool {
		if c.inStudy(r) && r.Fingerprint != fps[r.Method] {
			if stale[r.Method] == nil {
				stale[r.Method] = map[string]int{}
			}
			stale[r.Method][r.Fingerprint]++
			return false
		}
		return true
	})
	if c.Log != nil {
		for _, m := range c.Methods {
			if len(stale[m.Key]) == 0 {
				continue
			}
			var olds []string
			total := 0
			for fp, k := range stale[m.Key] {
				total += k
				if fp == "" {
					fp = "none"
				}
				olds = append(olds, fp)
			}
			sort.Strings(olds)
			fmt.Fprintf(c.Log, "resume: %s: %d rows of %s made by other code, seed or standardisation (fingerprint %s; now %s) are run again\n",
				path, total, m.Key, strings.Join(olds, ", "), fps[m.Key])
		}
	}
	return kept, nil
}

// recordParser returns the parser of the records of a runs.csv with the
// given header: the inverse of Record.csv, by column name, so that a file
// of an earlier version of the study resumes. A column it lacks leaves
// its field empty (NaN, 0 or ""), so a row without a fingerprint or n is
// never this study's current row and is run again.
func recordParser(header []string) (func([]string) (Record, error), error) {
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, need := range []string{"dataset", "d", "run", "method", "error_rate", "failed"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("no %q column in the header %q: not a runs.csv of the benchmark study", need, strings.Join(header, ","))
		}
	}
	return func(rec []string) (Record, error) {
		if len(rec) != len(header) {
			return Record{}, fmt.Errorf("%d fields, want %d", len(rec), len(header))
		}
		field := func(name string) string {
			if i, ok := col[name]; ok {
				return rec[i]
			}
			return ""
		}
		var errs []error
		integer := func(name string) int {
			s := field(name)
			if s == "" {
				return 0
			}
			v, err := strconv.Atoi(s)
			errs = append(errs, err)
			return v
		}
		float := func(name string) float64 {
			v, err := repro.ParseFloat(field(name))
			errs = append(errs, err)
			return v
		}
		r := Record{Dataset: field("dataset"), Method: field("method"), Reason: field("reason"), Path: field("path"),
			Fingerprint: field("fingerprint"), Platform: field("platform")}
		r.N, r.D, r.Run = integer("n"), integer("d"), integer("run")
		r.ErrorRate, r.Epsilon = float("error_rate"), float("epsilon")
		r.Seconds, r.SVMSeconds = float("seconds"), float("svm_seconds")
		var err error
		r.Failed, err = strconv.ParseBool(field("failed"))
		errs = append(errs, err)
		if r.Failed {
			r.ErrorRate, r.Epsilon = math.NaN(), math.NaN()
		}
		return r, errors.Join(errs...)
	}, nil
}

// ReadRecords reads the rows of a runs.csv of the study, of any version
// (see recordParser); an empty file has none.
func ReadRecords(path string) ([]Record, error) {
	recs, err := repro.ReadCSV(path)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, nil
	}
	parse, err := recordParser(recs[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var rows []Record
	for i, rec := range recs[1:] {
		r, err := parse(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+2, err)
		}
		rows = append(rows, r)
	}
	return rows, nil
}
