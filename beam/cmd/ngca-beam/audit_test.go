package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/beam/ngcabeam"
	"github.com/ngca-go/ngca/internal/audit"
	"github.com/ngca-go/ngca/internal/dataio"
)

// gross is the row of the tests' data that holds a gross value (1e6 in
// column x2).
const gross = 37

// grossData returns the tests' data: n rows of 4 columns, one of them
// with a gross value.
func grossData(t *testing.T, n int) *mat.Dense {
	x := data(t, n, 4)
	x.Set(gross, 1, 1e6)
	return x
}

// oneFile writes the rows of x as one CSV file laid out as shards' files
// (an id column first, a label column last) and returns its path.
func oneFile(t *testing.T, x *mat.Dense) string {
	t.Helper()
	glob := shards(t, x, 1)
	return strings.Replace(glob, "*", "0", 1)
}

// rowRef matches how a note names a row: by its line, or its place.
var rowRef = regexp.MustCompile(`\b(line|row) [0-9]+\b`)

// farNote returns the note of stderr on the rows far from the rest, the
// file's name replaced by NAME and the rows' by ROW ("" if none).
func farNote(stderr, name string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "note: ") && strings.Contains(l, "far from the rest") && !strings.Contains(l, "in all") {
			return rowRef.ReplaceAllString(strings.ReplaceAll(l, name, "NAME"), "ROW")
		}
	}
	return ""
}

// TestFitAudit checks that ngca-beam fit audits the sample as ngca fit
// audits a file: a row with a gross value is left out, with the note of
// ngca fit, and the basis is ngca fit's on the same rows bit for bit;
// with -outliers keep it is fitted.
func TestFitAudit(t *testing.T) {
	const n = 800
	x := grossData(t, n)
	glob := shards(t, x, 3)
	dir := t.TempDir()
	out := filepath.Join(dir, "beam.json")
	code, stderr := runCmd(t, "fit", "-dim", "2", "-method", "wflsngca", "-sample", "1000", "-seed", "3",
		"-drop", "id", "-label-col", "label", "-input", glob, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fields, _ := readFit(t, out)

	// ngca fit on the same rows, in the sample's order (the whole input).
	file := oneFile(t, ngcabeam.SampleMatrix(x, 1000, 3))
	want := filepath.Join(dir, "ngca.json")
	cmd := exec.Command(ngcaBinary(t), "fit", "-dim", "2", "-method", "wflsngca", "-seed", "3", "-drop", "id", "-label-col", "label", "-json", "-o", want, file)
	var ngcaErr bytes.Buffer
	cmd.Stderr = &ngcaErr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ngca fit: %v: %s", err, ngcaErr.String())
	}
	ref, _ := readFit(t, want)

	note, refNote := farNote(stderr, glob), farNote(ngcaErr.String(), file)
	if note == "" || note != refNote {
		t.Errorf("the note on the far row:\nngca-beam: %q\nngca:      %q\nstderr: %s", note, refNote, stderr)
	}
	if !strings.Contains(note, `column 3 ("x2") = 1000000`) {
		t.Errorf("the note does not name the gross value: %q", note)
	}
	for _, key := range []string{"basis", "eigenvalues", "mean", "n", "d", "columns", "column_numbers", "rows_outliers_dropped"} {
		if !bytes.Equal(fields[key], ref[key]) {
			t.Errorf("%q: ngca-beam %s, ngca %s", key, fields[key], ref[key])
		}
	}
	if string(fields["n"]) != strconv.Itoa(n-1) {
		t.Errorf("n = %s, want %d", fields["n"], n-1)
	}
	var aside, refAside audit.SetAsideJSON
	json.Unmarshal(fields["set_aside"], &aside)
	json.Unmarshal(ref["set_aside"], &refAside)
	if aside.Mode != "far" || len(aside.Lines) != 1 || aside.Screen == nil || len(aside.Screen.Center) != 4 {
		t.Errorf("set_aside: %s", fields["set_aside"])
	}
	aside.Lines, refAside.Lines = nil, nil // the places in the sample, the lines of the file
	if a, b := mustJSON(t, aside), mustJSON(t, refAside); a != b {
		t.Errorf("set_aside: ngca-beam %s, ngca %s", fields["set_aside"], ref["set_aside"])
	}

	// -outliers keep fits the gross row.
	keep := filepath.Join(dir, "keep.json")
	code, stderr = runCmd(t, "fit", "-dim", "2", "-method", "wflsngca", "-sample", "1000", "-seed", "3", "-outliers", "keep",
		"-drop", "id", "-label-col", "label", "-input", glob, "-o", keep)
	if code != 0 {
		t.Fatalf("-outliers keep: exit %d: %s", code, stderr)
	}
	kf, _ := readFit(t, keep)
	if string(kf["n"]) != strconv.Itoa(n) || bytes.Equal(kf["basis"], fields["basis"]) {
		t.Errorf("-outliers keep: n %s, basis %s", kf["n"], kf["basis"])
	}
	if !strings.Contains(stderr, "kept with -outliers keep") {
		t.Errorf("-outliers keep: stderr %s", stderr)
	}

	// Without -drop id, the audit leaves the id column out.
	ids := filepath.Join(dir, "ids.json")
	code, stderr = runCmd(t, "fit", "-dim", "2", "-method", "wflsngca", "-sample", "1000", "-seed", "3",
		"-label-col", "label", "-input", glob, "-o", ids)
	if code != 0 {
		t.Fatalf("with the id: exit %d: %s", code, stderr)
	}
	idf, _ := readFit(t, ids)
	// (The sample's rows are hashed with their ids: another order, so
	// other last bits.)
	if !strings.Contains(string(idf["left_out"]), `"column": "id", "number": 1, "reason": "id"`) || string(idf["n"]) != strconv.Itoa(n-1) {
		t.Errorf("with the id: left_out %s, n %s", idf["left_out"], idf["n"])
	}
	if !strings.Contains(stderr, `note: left out column 1 ("id") of `+glob+": a different whole number in every row") {
		t.Errorf("with the id: stderr %s", stderr)
	}
}

// TestFullFitAudit checks that -full leaves the gross row out of the sums
// over every row: the fit equals the single-machine fit of the rows
// without it with the sample's choices, ε ≤ 1e-10.
func TestFullFitAudit(t *testing.T) {
	const n = 1500
	x := grossData(t, n)
	out := filepath.Join(t.TempDir(), "full.json")
	code, stderr := runCmd(t, "fit", "-dim", "2", "-full", "-sample", "700", "-seed", "2",
		"-cols", "2-5", "-input", shards(t, x, 3), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "note: -full: the passes over every row left out 1 row of") {
		t.Errorf("stderr: %s", stderr)
	}
	fields, full := readFit(t, out)
	if string(fields["n"]) != strconv.Itoa(n-1) {
		t.Errorf("n = %s, want %d", fields["n"], n-1)
	}
	// The sample, audited as ngca-beam audits it.
	tab := &dataio.Table{X: ngcabeam.SampleMatrix(x, 700, 2), Fields: []int{2, 3, 4, 5}, Header: true, Names: []string{"x1", "x2", "x3", "x4"}}
	if _, err := audit.Table(quiet{}, tab, "s", audit.Flags{Listed: true, Outliers: audit.OutliersFar}); err != nil {
		t.Fatal(err)
	}
	_, plan, err := (&ngca.WFLSNGCA{Dim: 2, Src: rand.NewPCG(2, 0)}).FitPlan(context.Background(), tab.X)
	if err != nil {
		t.Fatal(err)
	}
	rest := mat.NewDense(n-1, 4, nil)
	for i, k := 0, 0; i < n; i++ {
		if i != gross {
			rest.SetRow(k, x.RawRowView(i))
			k++
		}
	}
	for !plan.Done() {
		s := plan.NewSums()
		if err := s.Add(rest); err != nil {
			t.Fatal(err)
		}
		if plan, err = plan.Next(s); err != nil {
			t.Fatal(err)
		}
	}
	one, err := plan.Result()
	if err != nil {
		t.Fatal(err)
	}
	if e := ngca.SubspaceError(one.Basis, full.Basis); !(e <= 1e-10) {
		t.Errorf("ε = %.3g between ngca-beam fit -full and the single-machine fit of the rows without the gross one, want ≤ 1e-10", e)
	}
	if string(fields["rows_outliers_dropped"]) != "1" {
		t.Errorf("rows_outliers_dropped = %s, want 1", fields["rows_outliers_dropped"])
	}
	if _, ok := fields["set_aside"]; !ok {
		t.Errorf("no set_aside in the fit's JSON")
	}
}

// mustJSON returns v in JSON.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// quiet is an audit.Notes that writes nothing.
type quiet struct{}

func (quiet) Notef(string, ...any)   {}
func (quiet) Warnf(string, ...any)   {}
func (quiet) Detailf(string, ...any) {}
