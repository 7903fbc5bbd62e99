package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/fitfile"
)

// jsonKeys returns the JSON names of the fields of the struct type t, in
// order.
func jsonKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}

// TestFitFileFields checks that the fields "ngca-beam fit" writes
// (fitfile.Fields) are fields of "ngca fit -json" (fitFields), with the
// same JSON names, types and options, in the same order, and that the
// fields of -check are the same.
func TestFitFileFields(t *testing.T) {
	ours, theirs := reflect.TypeOf(fitFields{}), reflect.TypeOf(fitfile.Fields{})
	next := 0
	for i := 0; i < theirs.NumField(); i++ {
		f := theirs.Field(i)
		for next < ours.NumField() && ours.Field(next).Name != f.Name {
			next++
		}
		if next == ours.NumField() {
			t.Errorf("fitfile.Fields.%s is not a field of fitFields after the fields before it (fitFields: %v)", f.Name, jsonKeys(ours))
			return
		}
		o := ours.Field(next)
		same := o.Type == f.Type || o.Type.Kind() == reflect.Struct && f.Type.Kind() == reflect.Struct &&
			reflect.DeepEqual(jsonKeys(o.Type), jsonKeys(f.Type))
		if o.Tag != f.Tag || !same {
			t.Errorf("fitfile.Fields.%s is %v %q, fitFields.%s %v %q", f.Name, f.Type, f.Tag, o.Name, o.Type, o.Tag)
		}
	}
	if a, b := jsonKeys(reflect.TypeOf(checkFields{})), jsonKeys(reflect.TypeOf(fitfile.CheckFields{})); !reflect.DeepEqual(a, b) {
		t.Errorf("checkFields %v, fitfile.CheckFields %v", a, b)
	}
}
