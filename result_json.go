package ngca

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"
)

// ResultFormat is the version of the JSON format of a Result, written as
// "ngca_result". UnmarshalJSON reads this version and files without the
// field (the command's JSON before the field existed, which has no
// report).
const ResultFormat = 1

// resultJSON is the JSON form of a Result. The command's "ngca fit -json"
// writes the same fields and more of its own (the registry key, the input,
// the settings in readable form), which UnmarshalJSON ignores; "ngca
// transform -basis" and "ngca plot -basis" read files written by
// MarshalJSON.
type resultJSON struct {
	Format      int              `json:"ngca_result"`
	Label       string           `json:"label"`
	Basis       [][]jsonNumber   `json:"basis"`
	Eigenvalues []jsonNumber     `json:"eigenvalues"`
	Mean        []jsonNumber     `json:"mean"`
	Timings     timingsObject    `json:"timings"`
	Report      *json.RawMessage `json:"report,omitempty"`
}

// MarshalJSON writes the result as a JSON object:
//
//	{"ngca_result": 1, "label": Method, "basis": [d rows of Dim numbers],
//	 "eigenvalues": [...] or null, "mean": [...],
//	 "timings": {step: seconds, ...},
//	 "report": {"type": "LSReport", "value": {field: value, ...}}}
//
// Numbers are written with the fewest digits that read back to the same
// float64; inside the report a non-finite number is the string "NaN",
// "+Inf" or "-Inf" and a matrix is a list of rows, so that UnmarshalJSON
// gives back Basis, Eigenvalues, Mean, Method and Report bit for bit
// (Timings to the nanosecond).
func (r *Result) MarshalJSON() ([]byte, error) {
	if r.Basis == nil {
		return nil, fmt.Errorf("%w: result has no basis", ErrShape)
	}
	j := resultJSON{Format: ResultFormat, Label: r.Method, Basis: numberRows(r.Basis),
		Mean: numbers(r.Mean), Timings: timingsObject(r.Timings)}
	if r.Eigenvalues != nil {
		j.Eigenvalues = numbers(r.Eigenvalues)
	}
	if r.Report != nil {
		v, err := encodeReport(r.Report)
		if err != nil {
			return nil, err
		}
		raw := json.RawMessage(v)
		j.Report = &raw
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a result written by MarshalJSON or by "ngca fit
// -json". It returns an error wrapping ErrParam for a newer format version
// or an unknown report type, and ErrShape for a basis whose rows differ in
// length or do not match the mean.
func (r *Result) UnmarshalJSON(data []byte) error {
	var j resultJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if j.Format > ResultFormat {
		return fmt.Errorf("%w: result format %d is newer than this library's %d", ErrParam, j.Format, ResultFormat)
	}
	d := len(j.Basis)
	if d == 0 || len(j.Basis[0]) == 0 {
		return fmt.Errorf("%w: result has no basis", ErrShape)
	}
	b := mat.NewDense(d, len(j.Basis[0]), nil)
	for i, row := range j.Basis {
		if len(row) != len(j.Basis[0]) {
			return fmt.Errorf("%w: basis row %d has %d values, row 0 has %d", ErrShape, i, len(row), len(j.Basis[0]))
		}
		for k, v := range row {
			b.Set(i, k, float64(v))
		}
	}
	if len(j.Mean) != d {
		return fmt.Errorf("%w: mean has %d values for a basis of %d rows", ErrShape, len(j.Mean), d)
	}
	out := Result{Method: j.Label, Basis: b, Mean: floats(j.Mean), Timings: []Timing(j.Timings)}
	if j.Eigenvalues != nil {
		out.Eigenvalues = floats(j.Eigenvalues)
	}
	if j.Report != nil && !bytes.Equal(bytes.TrimSpace(*j.Report), []byte("null")) {
		rep, err := decodeReport(*j.Report)
		if err != nil {
			return err
		}
		out.Report = rep
	}
	*r = out
	return nil
}

// jsonNumber is a float64 that JSON carries exactly, or as null when it is
// not finite (the command's convention for its own fields).
type jsonNumber float64

func (f jsonNumber) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

func (f *jsonNumber) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = jsonNumber(math.NaN())
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("%w: %s is not a number", ErrParam, b)
	}
	*f = jsonNumber(v)
	return nil
}

func numbers(v []float64) []jsonNumber {
	out := make([]jsonNumber, len(v))
	for i, x := range v {
		out[i] = jsonNumber(x)
	}
	return out
}

func floats(v []jsonNumber) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func numberRows(m mat.Matrix) [][]jsonNumber {
	r, c := m.Dims()
	out := make([][]jsonNumber, r)
	for i := range out {
		out[i] = make([]jsonNumber, c)
		for k := range out[i] {
			out[i][k] = jsonNumber(m.At(i, k))
		}
	}
	return out
}

// timingsObject is the Timings as an object from step to seconds, in the
// order of the fit.
type timingsObject []Timing

func (ts timingsObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(t.Step)
		b.Write(k)
		b.WriteByte(':')
		b.Write(strconv.AppendFloat(nil, t.Elapsed.Seconds(), 'g', -1, 64))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (ts *timingsObject) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		*ts = nil
		return nil
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("%w: timings are not an object", ErrParam)
	}
	var out []Timing
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		var sec float64
		if err := dec.Decode(&sec); err != nil {
			return err
		}
		out = append(out, Timing{Step: k.(string), Elapsed: time.Duration(math.Round(sec * 1e9))})
	}
	*ts = out
	return nil
}
