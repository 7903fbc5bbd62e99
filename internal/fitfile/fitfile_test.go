package fitfile

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/doccheck"
)

// TestSelect checks how a data file is read the way a fit read its own.
func TestSelect(t *testing.T) {
	var opt dataio.Options
	Columns{Names: []string{"b", "a"}, LabelColumn: "y", Flags: InputFlags{Missing: "drop"}}.Select(&opt, map[string]bool{}, dataio.MissingKeep)
	if opt.LabelIfPresent != "y" || len(opt.Names) != 2 || opt.Missing != dataio.MissingKeep {
		t.Errorf("by name: %+v", opt)
	}
	opt = dataio.Options{LabelCol: "x"}
	Columns{Numbers: []int{2, 4}, Flags: InputFlags{LabelCol: "5", Missing: "drop"}, LIBSVM: true, ZeroBased: true}.Select(&opt, map[string]bool{"label-col": true, "missing": true}, dataio.MissingKeep)
	if opt.LabelCol != "x" || opt.Cols != "2,4" || opt.Base != dataio.BaseZero || opt.Missing != dataio.MissingError {
		t.Errorf("by number, flags set: %+v", opt)
	}
	opt = dataio.Options{}
	Columns{Numbers: []int{1, 2, 3}, Flags: InputFlags{LabelCol: "5"}}.Select(&opt, map[string]bool{}, dataio.MissingDrop)
	if opt.LabelCol != "5" || opt.Cols != "" {
		t.Errorf("the first columns: %+v", opt)
	}
}

// TestWrite checks the file's layout: fields merged after "label", rows
// of numbers on one line.
func TestWrite(t *testing.T) {
	obj, err := Merge([]byte(`{"ngca_result":1,"label":"X","basis":[[1,2],[3,4]]}`), "label", []byte(`{"method":"x"}`), []byte(`{"check_error":"e"}`))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, json.RawMessage(obj)); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"ngca_result\": 1,\n  \"label\": \"X\",\n  \"method\": \"x\",\n  \"basis\": [\n    [1, 2],\n    [3, 4]\n  ],\n  \"check_error\": \"e\"\n}\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if _, err := Merge([]byte(`{"a":1}`), "a", []byte(`{"a":2}`), []byte(`{}`)); err == nil {
		t.Error("a field written twice: no error")
	}
}

// TestDocComments checks that the doc comments of the package name only
// types, fields, methods and functions that exist.
func TestDocComments(t *testing.T) { doccheck.Test(t, ".") }
