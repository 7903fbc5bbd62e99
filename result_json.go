package ngca

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
)

// resultFormat is the version of the JSON format of a Result, written as
// "ngca_result": 1. UnmarshalJSON reads this version and files without the
// field (the command's JSON before the field existed, which has no
// report).
const resultFormat = 1

// orthonormalTol bounds every entry of BᵀB − I of a basis that MarshalJSON
// writes and UnmarshalJSON reads. Every estimator's basis is orthonormal to
// rounding (about d·ε), whatever the scales of the data's columns.
const orthonormalTol = 1e-6

// resultJSON is the JSON form of a Result as UnmarshalJSON reads it. The
// command's "ngca fit -json" writes the same fields and more of its own
// (the registry key, the input, the settings), which UnmarshalJSON
// ignores; "ngca transform -basis" and "ngca plot -basis" read files
// written by MarshalJSON.
type resultJSON struct {
	Format      int             `json:"ngca_result"`
	Label       string          `json:"label"`
	Basis       json.RawMessage `json:"basis"`
	Eigenvalues json.RawMessage `json:"eigenvalues"`
	Mean        json.RawMessage `json:"mean"`
	Dependent   []int           `json:"dependent"`
	Timings     json.RawMessage `json:"timings"`
	Report      json.RawMessage `json:"report"`
}

// MarshalJSON writes the result as a JSON object, in this order:
//
//	{"ngca_result": 1, "label": Method,
//	 "basis": [d rows of Dim numbers], "eigenvalues": [d values] or null,
//	 "mean": [d numbers], "dependent": [column indices] (only if any),
//	 "timings": {step: seconds, ...},
//	 "report": {"type": "LSReport", "value": {field: value, ...}}}
//
// "report" is left out when Report is nil. Numbers are written with the
// fewest digits that read back to the same float64, and a duration in
// seconds with as many decimals as it has (at most 9), so that
// UnmarshalJSON gives back Basis, Eigenvalues, Mean, Method and Report bit
// for bit and Timings to the nanosecond. A non-finite number in
// Eigenvalues or the report is written as the string "NaN", "+Inf" or
// "-Inf"; a matrix of the report is a list of rows. A report's fields
// appear under their Go names.
//
// MarshalJSON has a value receiver, so a Result is written in full held by
// value, by pointer, or inside a struct, slice or map. The zero Result is
// written as null, which UnmarshalJSON reads as no change, so that a
// struct with an unset Result field round-trips. Otherwise MarshalJSON
// writes only what UnmarshalJSON reads: it returns an error wrapping
// ErrShape when Basis is nil or empty, has more columns than rows, holds
// a non-finite number (then wrapping ErrNonFinite too) or has columns
// that are not orthonormal (an entry of BᵀB − I beyond 1e-6 in
// magnitude), when Mean is not of length d or not finite, when Dependent
// is not an ascending list of distinct columns whose rows of Basis are
// exactly zero, or when Eigenvalues is neither nil nor of length d − len(Dependent);
// and an error wrapping
// ErrParam for a report type without a JSON form.
func (r Result) MarshalJSON() ([]byte, error) {
	if r.Method == "" && r.Basis == nil && r.Mean == nil && r.Eigenvalues == nil && r.Dependent == nil && r.Timings == nil && r.Report == nil {
		return []byte("null"), nil
	}
	if err := checkResult(r.Basis, r.Mean, r.Eigenvalues, r.Dependent); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`{"ngca_result":`)
	b.WriteString(strconv.Itoa(resultFormat))
	b.WriteString(`,"label":`)
	label, err := json.Marshal(r.Method)
	if err != nil {
		return nil, err
	}
	b.Write(label)
	b.WriteString(`,"basis":[`)
	d, m := r.Basis.Dims()
	for i := 0; i < d; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for k := 0; k < m; k++ {
			if k > 0 {
				b.WriteByte(',')
			}
			writeFloat(&b, r.Basis.At(i, k))
		}
		b.WriteByte(']')
	}
	b.WriteString(`],"eigenvalues":`)
	writeFloats(&b, r.Eigenvalues)
	b.WriteString(`,"mean":`)
	writeFloats(&b, r.Mean)
	if r.Dependent != nil {
		dep, err := json.Marshal(r.Dependent)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"dependent":`)
		b.Write(dep)
	}
	b.WriteString(`,"timings":{`)
	for i, t := range r.Timings {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(t.Step)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(durationSeconds(t.Elapsed))
	}
	b.WriteByte('}')
	if r.Report != nil {
		v, err := encodeReport(r.Report)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"report":`)
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a result written by MarshalJSON or by "ngca fit
// -json" (whose own fields it ignores), including files of earlier
// versions: without "ngca_result" or "report", with "eigenvalues" [] for
// none, or null for a non-finite eigenvalue. The JSON null leaves r
// unchanged.
//
// The result read satisfies Result's contract: Basis is d×m with
// 1 ≤ m ≤ d, finite and orthonormal (every entry of BᵀB − I within 1e-6),
// Mean holds d finite numbers, Dependent lists distinct columns in
// ascending order whose rows of Basis are zero, and Eigenvalues is nil
// (for "eigenvalues" absent, null or []) or holds d − len(Dependent)
// values. An eigenvalue may be NaN or ±Inf
// (written "NaN", "+Inf", "-Inf"): Eigenvalues is a diagnostic that
// MarshalJSON writes as it is, although no estimator returns a non-finite
// one.
//
// UnmarshalJSON returns an error wrapping ErrShape when the basis, mean or
// eigenvalues break these rules or are not lists of numbers (wrapping
// ErrNonFinite too for a non-finite number in Basis or Mean), and an
// error wrapping ErrParam when data is not a JSON object, its format
// version is newer than 1 (the "ngca_result" it writes), its report has an unknown type or a
// field that does not fit the report's type, or its timings are not an
// object of step to seconds. On error r is unchanged.
func (r *Result) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil
	}
	var j resultJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return fmt.Errorf("%w: a result's JSON is an object of known fields: %w", ErrParam, err)
	}
	if j.Format > resultFormat || j.Format < 0 {
		return fmt.Errorf("%w: result format %d, this library reads up to %d", ErrParam, j.Format, resultFormat)
	}
	b, err := readBasis(j.Basis)
	if err != nil {
		return err
	}
	d, _ := b.Dims()
	out := Result{Method: j.Label, Basis: b}
	if out.Mean, err = readVector("mean", j.Mean, false); err != nil {
		return err
	}
	if out.Mean == nil {
		return fmt.Errorf("%w: result has no mean (the basis has %d rows)", ErrShape, d)
	}
	if out.Eigenvalues, err = readVector("eigenvalues", j.Eigenvalues, true); err != nil {
		return err
	}
	if len(out.Eigenvalues) == 0 {
		out.Eigenvalues = nil
	}
	if len(j.Dependent) > 0 {
		out.Dependent = j.Dependent
	}
	if err := checkResult(out.Basis, out.Mean, out.Eigenvalues, out.Dependent); err != nil {
		return err
	}
	if out.Timings, err = readTimings(j.Timings); err != nil {
		return err
	}
	if !isNull(j.Report) {
		if out.Report, err = decodeReport(j.Report); err != nil {
			return err
		}
	}
	*r = out
	return nil
}

// checkResult checks what Result's contract says of the basis b, the mean,
// the eigenvalues eig and the dependent columns dep (see MarshalJSON).
func checkResult(b *mat.Dense, mean, eig []float64, dep []int) error {
	if b == nil || b.IsEmpty() {
		return fmt.Errorf("%w: result has no basis", ErrShape)
	}
	d, m := b.Dims()
	if m > d {
		return fmt.Errorf("%w: basis is %d×%d; a basis of a subspace of dimension d has at most d columns", ErrShape, d, m)
	}
	for i := 0; i < d; i++ {
		for k := 0; k < m; k++ {
			if v := b.At(i, k); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: basis[%d][%d] is %v: %w", ErrShape, i, k, v, ErrNonFinite)
			}
		}
	}
	var g mat.Dense
	g.Mul(b.T(), b)
	for i := 0; i < m; i++ {
		for k := 0; k < m; k++ {
			want := 0.0
			if i == k {
				want = 1
			}
			if dev := g.At(i, k) - want; !(math.Abs(dev) <= orthonormalTol) {
				return fmt.Errorf("%w: basis columns are not orthonormal: (BᵀB)[%d][%d] = %v", ErrShape, i, k, g.At(i, k))
			}
		}
	}
	if len(mean) != d {
		return fmt.Errorf("%w: mean has %d values for a basis of %d rows", ErrShape, len(mean), d)
	}
	for i, v := range mean {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: mean[%d] is %v: %w", ErrShape, i, v, ErrNonFinite)
		}
	}
	for i, j := range dep {
		switch {
		case j < 0 || j >= d:
			return fmt.Errorf("%w: dependent column %d of a basis of %d rows", ErrShape, j, d)
		case i > 0 && j <= dep[i-1]:
			return fmt.Errorf("%w: dependent columns %v are not distinct and ascending", ErrShape, dep)
		}
		for k := 0; k < m; k++ {
			if b.At(j, k) != 0 {
				return fmt.Errorf("%w: basis row %d of the dependent column is not zero", ErrShape, j)
			}
		}
	}
	if eig != nil && len(eig) != d-len(dep) {
		return fmt.Errorf("%w: %d eigenvalues for a basis of %d rows with %d dependent columns", ErrShape, len(eig), d, len(dep))
	}
	return nil
}

// readBasis reads the JSON list of rows of a basis.
func readBasis(raw json.RawMessage) (*mat.Dense, error) {
	if isNull(raw) {
		return nil, fmt.Errorf("%w: result has no basis", ErrShape)
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, fmt.Errorf("%w: basis is not a list of rows", ErrShape)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: result has no basis", ErrShape)
	}
	var b *mat.Dense
	for i, rr := range rows {
		var row []json.RawMessage
		if err := json.Unmarshal(rr, &row); err != nil || row == nil {
			return nil, fmt.Errorf("%w: basis row %d is not a list of numbers", ErrShape, i)
		}
		if b == nil {
			if len(row) == 0 {
				return nil, fmt.Errorf("%w: basis rows are empty", ErrShape)
			}
			b = mat.NewDense(len(rows), len(row), nil)
		}
		if _, m := b.Dims(); len(row) != m {
			return nil, fmt.Errorf("%w: basis row %d has %d values, row 0 has %d", ErrShape, i, len(row), m)
		}
		for k, e := range row {
			v, err := readNumber(e)
			if err != nil {
				return nil, fmt.Errorf("%w: basis[%d][%d]: %w", ErrShape, i, k, err)
			}
			b.Set(i, k, v)
		}
	}
	return b, nil
}

// readVector reads a JSON list of numbers; absent or null gives nil. A
// non-finite value is an error unless nonFinite.
func readVector(name string, raw json.RawMessage, nonFinite bool) ([]float64, error) {
	if isNull(raw) {
		return nil, nil
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, fmt.Errorf("%w: %s is not a list of numbers", ErrShape, name)
	}
	out := make([]float64, len(elems))
	for i, e := range elems {
		v, err := readNumber(e)
		if err != nil {
			return nil, fmt.Errorf("%w: %s[%d]: %w", ErrShape, name, i, err)
		}
		if !nonFinite && (math.IsNaN(v) || math.IsInf(v, 0)) {
			return nil, fmt.Errorf("%w: %s[%d] is %v: %w", ErrShape, name, i, v, ErrNonFinite)
		}
		out[i] = v
	}
	return out, nil
}

// errNotNumber is what readNumber returns for a value that is not a number.
var errNotNumber = errors.New("not a number")

// readNumber reads a JSON number, "NaN", "+Inf" or "-Inf", or null (NaN,
// as versions before the strings wrote a non-finite number). A number
// beyond the range of float64 is an error wrapping ErrNonFinite.
func readNumber(raw json.RawMessage) (float64, error) {
	if isNull(raw) {
		return math.NaN(), nil
	}
	if len(raw) > 0 && raw[0] == '"' {
		x, err := decodeFloat(raw)
		if err != nil {
			return 0, fmt.Errorf("%s is %w", raw, errNotNumber)
		}
		return x, nil
	}
	x, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && !math.IsInf(x, 0) {
			return x, nil // underflow: the nearest float64, 0 or subnormal
		}
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s is beyond the range of float64: %w", raw, ErrNonFinite)
		}
		return 0, fmt.Errorf("%s is %w", raw, errNotNumber)
	}
	return x, nil
}

// isNull reports whether raw is absent or the JSON null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// writeFloat writes x as encodeFloat does.
func writeFloat(b *bytes.Buffer, x float64) {
	switch v := encodeFloat(x).(type) {
	case string:
		b.WriteString(strconv.Quote(v))
	case json.Number:
		b.WriteString(string(v))
	}
}

// writeFloats writes v as a JSON list, or null for nil.
func writeFloats(b *bytes.Buffer, v []float64) {
	if v == nil {
		b.WriteString("null")
		return
	}
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		writeFloat(b, x)
	}
	b.WriteByte(']')
}

// durationSeconds writes d in seconds as an exact decimal: the integer
// part, then up to nine decimals without trailing zeros.
func durationSeconds(d time.Duration) string {
	neg := d < 0
	u := uint64(d)
	if neg {
		u = -u
	}
	s := strconv.FormatUint(u/1e9, 10)
	if frac := u % 1e9; frac != 0 {
		f := fmt.Sprintf("%09d", frac)
		for f[len(f)-1] == '0' {
			f = f[:len(f)-1]
		}
		s += "." + f
	}
	if neg {
		s = "-" + s
	}
	return s
}

// readTimings reads the timings object of step to seconds, in order;
// absent or null gives nil.
func readTimings(raw json.RawMessage) ([]Timing, error) {
	if isNull(raw) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%w: timings are not an object of step to seconds", ErrParam)
	}
	var out []Timing
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: timings: %w", ErrParam, err)
		}
		var sec json.Number
		if err := dec.Decode(&sec); err != nil {
			return nil, fmt.Errorf("%w: timing %q is not a number of seconds", ErrParam, k)
		}
		d, ok := parseSeconds(string(sec))
		if !ok {
			return nil, fmt.Errorf("%w: timing %q = %s seconds is beyond the range of time.Duration", ErrParam, k, sec)
		}
		out = append(out, Timing{Step: k.(string), Elapsed: d})
	}
	return out, nil
}

// parseSeconds returns the JSON number s of seconds as a Duration rounded
// to the nearest nanosecond (halves away from zero), or false if it is out
// of range. A decimal without exponent, as MarshalJSON writes, is read
// exactly; one with an exponent (as earlier versions wrote) through a
// float64, which is exact to the nanosecond below about 100 days.
func parseSeconds(s string) (time.Duration, bool) {
	if strings.ContainsAny(s, "eE") {
		x, err := strconv.ParseFloat(s, 64)
		ns := math.Round(x * 1e9)
		if err != nil || !(math.Abs(ns) < 1<<63) {
			return 0, false
		}
		return time.Duration(ns), true
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > 10 {
		return 0, false
	}
	var ns uint64
	if whole != "" {
		sec, err := strconv.ParseUint(whole, 10, 64)
		if err != nil {
			return 0, false
		}
		ns = sec * 1e9 // < 10¹⁹ < 2⁶⁴
	}
	digits := (frac + "000000000")[:9]
	f, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, false
	}
	ns += f
	if len(frac) > 9 && frac[9] >= '5' {
		ns++
	}
	if neg {
		if ns > 1<<63 {
			return 0, false
		}
		return time.Duration(-ns), true
	}
	if ns > math.MaxInt64 {
		return 0, false
	}
	return time.Duration(ns), true
}
