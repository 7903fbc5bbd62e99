package main

import (
	"bytes"
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ngca-go/ngca/internal/methods"
)

// checkPNG decodes the PNG file path and checks its size in pixels.
func checkPNG(t *testing.T, path string, width, height int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Errorf("%s is %d×%d pixels, want %d×%d", path, b.Dx(), b.Dy(), width, height)
	}
}

func TestPlot(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	basisCSV, basisJSON := fitFiles(t, dir, files)
	oneCol := writeFile(t, dir, "b1.csv", "1\n0\n0\n0\n0\n")
	// A JSON basis of the robust variant, and one written before fit wrote
	// labels (its method key names the estimator).
	rob := methods.MustLookup("robust")
	robustJSON := filepath.Join(dir, "robust.json")
	ngcaRun(t, "", "fit", "-method", rob.Key, "-dim", "2", "-label-col", "class", "-json", "-o", robustJSON, files["csv"]).mustSucceed(t)
	oldJSON := writeFile(t, dir, "old.json", strings.Replace(readText(t, robustJSON), `"label": "`+rob.Label+`",`, "", 1))
	def := methods.MustLookup(defaultMethod).Label
	for _, tc := range []struct {
		args          []string
		out           string
		width, height int // of a PNG
		stderr        []string
	}{
		// Fits the default estimator itself; scatter and spectrum side by side (11 × 4.8 in at 96 dpi).
		{[]string{"-label-col", "class", files["csv"]}, "fit.png", 1056, 461,
			[]string{"wrote ", "fit.png: 400 points of " + files["csv"] + " projected on " + def + " (2 components), 4 labels; eigenvalues "}},
		{[]string{files["libsvm"], "-method", "mipp", "-dim", "1"}, "mipp.png", 1056, 461,
			[]string{"projected on MIPP (1 component), 4 labels"}},
		// Every message names the estimator that ran.
		{[]string{files["libsvm"], "-method", "robust"}, "robust.png", 1056, 461,
			[]string{"projected on " + rob.Label + " (2 components)"}},
		{[]string{"-basis", basisJSON, files["csv"]}, "json.png", 1056, 461,
			[]string{"projected on the " + def + " basis in " + basisJSON + " (2 components), 4 labels; eigenvalues"}},
		{[]string{"-basis", robustJSON, files["csv"]}, "rjson.png", 1056, 461,
			[]string{"projected on the " + rob.Label + " basis in " + robustJSON}},
		{[]string{"-basis", oldJSON, files["csv"]}, "old.png", 1056, 461,
			[]string{"projected on the " + rob.Label + " basis in " + oldJSON}},
		// A CSV basis has no eigenvalues: the scatter plot alone (6 in wide).
		{[]string{"-basis", basisCSV, files["tsv"]}, "csv.png", 576, 461,
			[]string{"note: " + basisCSV + " holds no eigenvalues (a CSV basis; the JSON of ngca fit -json has them); drawing the scatter plot only", "400 points of " + files["tsv"] + " projected on the basis in " + basisCSV + " (2 components)\n"}},
		{[]string{"-basis", oneCol, files["tsv"]}, "one.png", 576, 461, []string{"(1 component)"}},
		{[]string{"-basis", basisJSON, files["csv"]}, "plot.svg", 0, 0, []string{"wrote "}},
		{[]string{"-basis", basisJSON, files["csv"]}, "plot.pdf", 0, 0, []string{"wrote "}},
	} {
		out := filepath.Join(dir, tc.out)
		args := append([]string{"plot", "-o", out}, tc.args...)
		r := ngcaRun(t, "", args...).mustSucceed(t, args...)
		if r.stdout != "" {
			t.Errorf("ngca %q: stdout %q, want nothing", args, r.stdout)
		}
		for _, s := range tc.stderr {
			if !strings.Contains(r.stderr, s) {
				t.Errorf("ngca %q: stderr\n%s\nwant it to contain\n%s", args, r.stderr, s)
			}
		}
		switch filepath.Ext(tc.out) {
		case ".png":
			checkPNG(t, out, tc.width, tc.height)
		case ".svg":
			if b := readText(t, out); !strings.Contains(b[:min(200, len(b))], "<svg") {
				t.Errorf("%s is not an SVG file: %q", out, b[:min(100, len(b))])
			}
		case ".pdf":
			if b := readText(t, out); !strings.HasPrefix(b, "%PDF-") {
				t.Errorf("%s is not a PDF file: %q", out, b[:min(20, len(b))])
			}
		}
	}
}

// TestPlotLarge checks the subsampling of more than 20000 points and the
// fallback for more than 12 labels.
func TestPlotLarge(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	b.WriteString("a,b,c,label\n")
	for i := 0; i < 20003; i++ {
		fmt.Fprintf(&b, "%d,%d,%d,L%d\n", i%7, i%11, i%13, i%20)
	}
	data := writeFile(t, dir, "big.csv", b.String())
	basis := writeFile(t, dir, "b.csv", "1,0\n0,1\n0,0\n")
	out := filepath.Join(dir, "big.png")
	r := ngcaRun(t, "", "plot", "-basis", basis, "-label-col", "label", "-o", out, data).mustSucceed(t)
	for _, want := range []string{
		"note: the scatter plot shows 20000 of the 20003 points, evenly spaced through the file\n",
		"note: 20 distinct labels are too many to colour (at most 12); the points are drawn in one colour\n",
		"wrote " + out + ": 20003 points of " + data,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr\n%s\nwant it to contain\n%s", r.stderr, want)
		}
	}
	checkPNG(t, out, 576, 461)
}

func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	files := dataFiles(t, dir)
	basisCSV, _ := fitFiles(t, dir, files)
	twoCols := writeFile(t, dir, "two.csv", "a,b\n1,2\n3,5\n4,4\n")
	for _, tc := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"-o", filepath.Join(dir, "x.gif"), files["tsv"]}, `ngca plot: -o ` + filepath.Join(dir, "x.gif") + `: unknown image type ".gif" (want .png, .svg, .pdf, .jpg, .tif or .eps)`, true},
		{[]string{"-o", filepath.Join(dir, "x"), files["tsv"]}, `unknown image type ""`, true},
		{[]string{"-basis", basisCSV, "-dim", "3", files["tsv"]}, "ngca plot: -dim applies when plot fits the data itself, not with -basis", true},
		{[]string{"-basis", basisCSV, "-method", "mipp", files["tsv"]}, "ngca plot: -method applies when plot fits the data itself, not with -basis", true},
		{[]string{"-method", "mipp", "-folds", "3", files["tsv"]}, "ngca plot: -folds does not apply to -method mipp", true},
		{[]string{"-o", filepath.Join(dir, "p.png"), twoCols}, "ngca plot: -dim 2 is out of range: " + twoCols + " has 2 data columns, so -dim must be between 1 and 1\n", false},
		{[]string{"-o", filepath.Join(dir, "p.png"), "testdata/nonnumeric.csv"}, `ngca plot: testdata/nonnumeric.csv:7: column 3 ("x3"): "abc" is not a number`, false},
		{[]string{"-o", filepath.Join(dir, "p.png"), "-basis", basisCSV, twoCols}, twoCols + ` lacks the columns "x1", "x2", "x3", "x4", "x5" of the fit`, false},
		{[]string{}, "ngca plot: missing input FILE", true},
	} {
		args := append([]string{"plot"}, tc.args...)
		r := ngcaRun(t, "", args...)
		if r.code != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("ngca %q: exit %d, stderr\n%s\nwant exit 1 and\n%s", args, r.code, r.stderr, tc.want)
		}
		if got := strings.Contains(r.stderr, `Run "ngca help plot" for the flags and examples.`); got != tc.usage {
			t.Errorf("ngca %q: usage printed: %v, want %v", args, got, tc.usage)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "p.png")); err == nil {
		t.Errorf("a failed plot left an image behind")
	}
}

// TestPlotClipsOutliers: a few rows far outside the rest, kept with
// -outliers keep, are drawn at the edge of the scatter plot, and a note
// counts them; without them, or by default, which leaves them out, no note.
func TestPlotClipsOutliers(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 3))
	var b strings.Builder
	b.WriteString("a,b,c\n")
	for i := 0; i < 300; i++ {
		a := rng.NormFloat64()
		if i == 17 || i == 200 {
			a = 1e4 // a data-entry error
		}
		fmt.Fprintf(&b, "%v,%v,%v\n", a, rng.NormFloat64(), rng.NormFloat64())
	}
	data := writeFile(t, dir, "gross.csv", b.String())
	basis := writeFile(t, dir, "b.csv", "column,c1,c2\na,1,0\nb,0,1\nc,0,0\n")
	r := ngcaRun(t, "", "plot", "-basis", basis, "-o", filepath.Join(dir, "d.png"), data).mustSucceed(t)
	if strings.Contains(r.stderr, "triangles") || !strings.Contains(r.stderr, "line 19") || !strings.Contains(r.stderr, "left out") {
		t.Errorf("by default: stderr %q, want the 2 rows left out, no note on clipping", r.stderr)
	}
	r = ngcaRun(t, "", "plot", "-basis", basis, "-outliers", "keep", "-o", filepath.Join(dir, "p.png"), data).mustSucceed(t)
	if !strings.Contains(r.stderr, "note: 2 points far outside the rest (more than 8 robust standard deviations from the median of a component) are drawn as triangles at the edge") {
		t.Errorf("stderr %q, want a note on 2 clipped points", r.stderr)
	}
	clean := writeFile(t, dir, "clean.csv", strings.ReplaceAll(b.String(), "10000,", "0.5,"))
	r = ngcaRun(t, "", "plot", "-basis", basis, "-o", filepath.Join(dir, "q.png"), clean).mustSucceed(t)
	if strings.Contains(r.stderr, "triangles") {
		t.Errorf("clean data: stderr %q, want no note on clipping", r.stderr)
	}
}
