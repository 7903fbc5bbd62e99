package main

import (
	"encoding/json"
	"io"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/audit"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/fitfile"
	"github.com/ngca-go/ngca/internal/methods"
)

// fitFields are the command's own fields of "ngca fit -json"
// (fitfile.Fields, which "ngca-beam fit" writes too). The file is the
// library's JSON of the Result (ngca.Result.MarshalJSON: ngca_result,
// label, basis, eigenvalues, mean, timings, report) with these fields
// added after "label" and checkFields at the end, so that json.Unmarshal
// into an ngca.Result loads it and there is one schema and one way of
// writing numbers (a non-finite number is the string "NaN", "+Inf" or
// "-Inf").
type fitFields = fitfile.Fields

// checkFields are the fields of -check, after the library's.
type checkFields = fitfile.CheckFields

// settingsJSON holds the settings the fit used, defaults resolved, as its
// Report gives them (internal/fitfile, which "ngca-beam fit" writes too).
type settingsJSON = fitfile.Settings

// fitSettings returns the settings of the fit whose report is rep.
func fitSettings(rep ngca.Report) settingsJSON { return fitfile.SettingsOf(fitDetails, rep) }

// fitJSON returns the JSON object (compact) that "ngca fit -json" writes
// for a fit res of the estimator m to the table t read from file name,
// with the report chk of -check or the error checkErr that stopped it.
func fitJSON(a *fitArgs, m methods.Method, t *dataio.Table, info loaded, res *ngca.Result, chk *ngca.CheckReport, checkErr error) ([]byte, error) {
	lib, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	n, d := t.X.Dims()
	ff := fitFields{Method: m.Key, Input: info.name, Format: t.Format.String(), N: n, D: d, Dim: a.dim,
		Columns: t.Names, ColumnNumbers: t.Fields, LabelColumn: t.LabelName, Seed: a.seed, Settings: fitSettings(res.Report)}
	ff.InputFlags = a.input
	if info.dropMode {
		ff.RowsDropped = &info.dropped
	}
	ff.LeftOut, ff.ZeroBased = info.audit.leftOut, t.ZeroBased
	if info.outliers != "" {
		ff.OutliersDropped = &info.audit.outlierRows
		sa := &setAsideJSON{Mode: info.outliers, Lines: info.audit.farLines, Codes: info.audit.codes}
		if info.audit.screen != nil {
			sa.Screen = audit.NewScreenJSON(info.audit.screen.Screen)
		}
		ff.SetAside = sa
	}
	if info.sample > 0 {
		ff.Sample, ff.RowsRead = info.sample, &info.rows
	}
	own, err := json.Marshal(ff)
	if err != nil {
		return nil, err
	}
	var c checkFields
	if chk != nil {
		if c.Check, err = json.Marshal(chk); err != nil {
			return nil, err
		}
	} else if checkErr != nil {
		c.CheckError = checkErr.Error()
	}
	tail, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	return mergeObjects(lib, "label", own, tail)
}

// mergeObjects returns the JSON object base with the fields of the object
// after inserted after base's field key (or first, if base has none) and
// those of the object tail at the end (fitfile.Merge).
func mergeObjects(base []byte, key string, after, tail []byte) ([]byte, error) {
	return fitfile.Merge(base, key, after, tail)
}

// writeJSON writes v as indented JSON in which an array or object that
// holds no non-empty array or object is written on one line
// (fitfile.Write).
func writeJSON(w io.Writer, v any) error { return fitfile.Write(w, v) }
