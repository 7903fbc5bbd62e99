package ngca

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// reportTypes are the Report types that a Result's JSON can hold, by the
// name written as the report's "type": those of the package's estimators,
// which register adds (addReportType).
var reportTypes = map[string]reflect.Type{}

// addReportType makes the type of r, a pointer to a struct, one that a
// Result's JSON can hold.
func addReportType(r Report) {
	t := reflect.TypeOf(r).Elem()
	reportTypes[t.Name()] = t
}

var denseType = reflect.TypeOf((*mat.Dense)(nil))

// encodeReport writes r as {"type": name, "value": fields}: every exported
// field of the report struct by its Go name, float64 with the fewest digits
// that read back exactly (non-finite as "NaN", "+Inf", "-Inf"), integers,
// strings, booleans, slices (nil as null), structs and *mat.Dense (a list
// of rows) recursively.
func encodeReport(r Report) ([]byte, error) {
	v := reflect.ValueOf(r)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, fmt.Errorf("%w: report %T", ErrParam, r)
	}
	name := v.Elem().Type().Name()
	if reportTypes[name] != v.Elem().Type() {
		return nil, fmt.Errorf("%w: report type %T has no JSON form", ErrParam, r)
	}
	val, err := encodeValue(v.Elem())
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"type": name, "value": val})
}

func encodeValue(v reflect.Value) (any, error) {
	switch {
	case v.Type() == denseType:
		if v.IsNil() {
			return nil, nil
		}
		m := v.Interface().(*mat.Dense)
		r, c := m.Dims()
		rows := make([][]any, r)
		for i := range rows {
			rows[i] = make([]any, c)
			for k := range rows[i] {
				rows[i][k] = encodeFloat(m.At(i, k))
			}
		}
		return rows, nil
	}
	switch v.Kind() {
	case reflect.Float64:
		return encodeFloat(v.Float()), nil
	case reflect.Int, reflect.Int64, reflect.Int32:
		return v.Int(), nil
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.String:
		return v.String(), nil
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		out := make([]any, v.Len())
		for i := range out {
			e, err := encodeValue(v.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	case reflect.Struct:
		out := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				e, err := encodeValue(v.Field(i))
				if err != nil {
					return nil, err
				}
				out[f.Name] = e
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: report field of type %v has no JSON form", ErrParam, v.Type())
}

// encodeFloat returns x as a JSON number with the fewest digits that read
// back exactly, or a string for a non-finite x.
func encodeFloat(x float64) any {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "+Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	}
	return json.Number(strconv.FormatFloat(x, 'g', -1, 64))
}

// decodeReport reads what encodeReport wrote.
func decodeReport(data []byte) (Report, error) {
	var j struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, err
	}
	t, ok := reportTypes[j.Type]
	if !ok {
		return nil, fmt.Errorf("%w: unknown report type %q", ErrParam, j.Type)
	}
	p := reflect.New(t)
	if err := decodeValue(j.Value, p.Elem()); err != nil {
		return nil, fmt.Errorf("%s: %w", j.Type, err)
	}
	return p.Interface().(Report), nil
}

func decodeValue(data json.RawMessage, v reflect.Value) error {
	if string(data) == "null" {
		v.SetZero()
		return nil
	}
	if v.Type() == denseType {
		var rows [][]json.RawMessage
		if err := json.Unmarshal(data, &rows); err != nil {
			return err
		}
		if len(rows) == 0 || len(rows[0]) == 0 {
			return fmt.Errorf("%w: empty matrix", ErrShape)
		}
		m := mat.NewDense(len(rows), len(rows[0]), nil)
		for i, row := range rows {
			if len(row) != len(rows[0]) {
				return fmt.Errorf("%w: matrix rows of %d and %d values", ErrShape, len(rows[0]), len(row))
			}
			for k, e := range row {
				x, err := decodeFloat(e)
				if err != nil {
					return err
				}
				m.Set(i, k, x)
			}
		}
		v.Set(reflect.ValueOf(m))
		return nil
	}
	switch v.Kind() {
	case reflect.Float64:
		x, err := decodeFloat(data)
		v.SetFloat(x)
		return err
	case reflect.Int, reflect.Int64, reflect.Int32:
		var n int64
		if err := json.Unmarshal(data, &n); err != nil {
			return err
		}
		v.SetInt(n)
		return nil
	case reflect.Bool, reflect.String:
		return json.Unmarshal(data, v.Addr().Interface())
	case reflect.Slice:
		var elems []json.RawMessage
		if err := json.Unmarshal(data, &elems); err != nil {
			return err
		}
		s := reflect.MakeSlice(v.Type(), len(elems), len(elems))
		for i, e := range elems {
			if err := decodeValue(e, s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case reflect.Struct:
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(data, &fields); err != nil {
			return err
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if e, ok := fields[f.Name]; ok && f.IsExported() {
				if err := decodeValue(e, v.Field(i)); err != nil {
					return fmt.Errorf("%s: %w", f.Name, err)
				}
			}
		}
		return nil
	}
	return fmt.Errorf("%w: report field of type %v has no JSON form", ErrParam, v.Type())
}

// decodeFloat reads a number or "NaN", "+Inf", "-Inf".
func decodeFloat(data json.RawMessage) (float64, error) {
	var s string
	if json.Unmarshal(data, &s) == nil {
		switch s {
		case "NaN":
			return math.NaN(), nil
		case "+Inf":
			return math.Inf(1), nil
		case "-Inf":
			return math.Inf(-1), nil
		}
		return 0, fmt.Errorf("%w: %q is not a number", ErrParam, s)
	}
	x, err := strconv.ParseFloat(string(data), 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %s is not a number", ErrParam, data)
	}
	return x, nil
}
