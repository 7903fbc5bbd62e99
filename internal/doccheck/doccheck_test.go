package doccheck

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFixture checks the names of testdata/fixture's comments: those it
// declares pass, those it does not are found, and the rest is left alone.
func TestFixture(t *testing.T) {
	problems, err := Check(filepath.Join("testdata", "fixture"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Name+": "+p.Why)
	}
	want := []string{
		"Thing.Weight: Thing has no field or method Weight",
		"Thing.Shrink: Thing has no field or method Shrink",
		"fixture.Old: package fixture declares no Old",
		"fixture.Thing.Weight: fixture.Thing has no field or method Weight",
		"cli.Nothing: package cli declares no Nothing",
		"Old(: no function, type or method of that name",
		"shrinkAll(: no function, type or method of that name",
		"Thing.Color: Thing has no field or method Color",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%q\nwant\n%q", got, want)
	}
	if len(problems) > 0 && (problems[0].Pos.Line != 1 || filepath.Base(problems[0].Pos.Filename) != "fixture.go") {
		t.Errorf("first problem at %v, want fixture.go:1", problems[0].Pos)
	}
}

// TestDocComments checks the doc comments of the module's internal
// packages.
func TestDocComments(t *testing.T) {
	dirs, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		dir := filepath.Join("..", d.Name())
		if go1, _ := filepath.Glob(filepath.Join(dir, "*.go")); len(go1) == 0 {
			continue
		}
		problems, err := Check(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("%v", p)
		}
	}
}
