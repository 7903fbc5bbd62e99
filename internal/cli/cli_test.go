package cli

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	err := Usagef("-m: %d", 3)
	if !errors.Is(err, ErrUsage) || err.Error() != "-m: 3" {
		t.Errorf("Usagef: %v (is ErrUsage: %v)", err, errors.Is(err, ErrUsage))
	}
	base := errors.New("bad column")
	if err := AsUsage(base); !errors.Is(err, ErrUsage) || err.Error() != "bad column" {
		t.Errorf("AsUsage: %v", err)
	}
	if errors.Is(fmt.Errorf("wrapped: %w", base), ErrUsage) {
		t.Error("a plain error matches ErrUsage")
	}
}

func TestParse(t *testing.T) {
	fs := NewFlagSet("x")
	fs.Int("n", 5, "rows")
	var b strings.Builder
	if err := Parse(fs, []string{"-h"}, "Usage: x\n", &b); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	if got := b.String(); got != "Usage: x\n\nFlags:\n  -n          rows (default 5)\n" {
		t.Errorf("-h wrote %q", got)
	}
	if err := Parse(fs, []string{"-q"}, "", &b); !errors.Is(err, ErrUsage) {
		t.Errorf("unknown flag: %v", err)
	}
	if err := Parse(NewFlagSet("x"), nil, "", &b); err != nil {
		t.Errorf("no flags: %v", err)
	}
}

func TestLists(t *testing.T) {
	if got := SplitList(" a, ,b ,"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("SplitList: %q", got)
	}
	if ds, err := DistList("a,c"); err != nil || len(ds) != 2 {
		t.Errorf("DistList(a,c): %v, %v", ds, err)
	}
	for _, s := range []string{"", " , ", "a,z"} {
		if _, err := DistList(s); !errors.Is(err, ErrUsage) {
			t.Errorf("DistList(%q): %v, want a usage error", s, err)
		}
	}
}
