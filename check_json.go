package ngca

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// MarshalJSON writes the report as a JSON object with every field by its
// Go name, as a Result's report is written (see Result.MarshalJSON):
// numbers with the fewest digits that read back exactly, a non-finite
// number as the string "NaN", "+Inf" or "-Inf", Timings as a list of
// {"Step", "Elapsed"} with Elapsed in nanoseconds. It has a value
// receiver, so that a report held by value or inside a struct, slice or
// map is written the same way (json.Marshal writes a nil *CheckReport as
// null).
func (rep CheckReport) MarshalJSON() ([]byte, error) {
	v, err := encodeValue(reflect.ValueOf(rep))
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads a report written by MarshalJSON, bit for bit.
func (rep *CheckReport) UnmarshalJSON(data []byte) error {
	var out CheckReport
	if err := decodeValue(data, reflect.ValueOf(&out).Elem()); err != nil {
		return fmt.Errorf("check report: %w", err)
	}
	*rep = out
	return nil
}
