package main

import (
	"strings"
	"testing"
)

func TestCheckStudyFlags(t *testing.T) {
	checkCLI(t, []cliCase{
		{[]string{"-h"}, 0, "calibration of ngca.Check", "stdout"},
		{[]string{"check", "-h"}, 0, "-turned-seeds", "stdout"},
		{[]string{"check", "-blocks", "x"}, 1, `unknown block "x" (want some of mix, m, n, d, d30, d50)`, "stderr"},
		{[]string{"check", "-h"}, 0, "d50: n=2000 and 10000, d=50", "stdout"},
		{[]string{"check", "-methods", "svm"}, 1, `unknown method "svm"`, "stderr"},
		{[]string{"check", "-seeds", "a"}, 1, `-seeds: "a" is not a seed`, "stderr"},
		{[]string{"check", "-paper-seeds", "-1"}, 1, "must not be negative", "stderr"},
		{[]string{"check", "-sngca-every", "0"}, 1, "-sngca-every must be at least 1", "stderr"},
		{[]string{"check", "-workers", "-1"}, 1, "-workers must not be negative", "stderr"},
		{[]string{"check", "-report-only", "-resume"}, 1, "-report-only fits nothing", "stderr"},
		{[]string{"check", "extra"}, 1, "unexpected argument", "stderr"},
	})
	cells, err := studyCells([]string{"d", "d50"}, []string{"a"})
	if err != nil || len(cells) != 8+6 || cells[0].D != 30 || cells[8].Block != "d50" {
		t.Errorf("studyCells(d, d50; a): %d cells, %v", len(cells), err)
	}
	for args, want := range map[string]string{
		"-out x -resume -paper-seeds 5": "go run ./cmd/reproduce check -out x -paper-seeds 5",
		"-report-only -out y":           "go run ./cmd/reproduce check -out y",
		"--resume=true -turned-seeds 2": "go run ./cmd/reproduce check -turned-seeds 2",
	} {
		if got := studyCommand("check", strings.Fields(args)); got != want {
			t.Errorf("studyCommand(%q) = %q, want %q", args, got, want)
		}
	}
}
