package main

import (
	"context"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ngca-go/ngca/internal/words"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/internal/dataio"
	"github.com/ngca-go/ngca/internal/methods"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	_ "gonum.org/v1/plot/vg/vgeps" // image formats for draw.NewFormattedCanvas
	_ "gonum.org/v1/plot/vg/vgimg"
	_ "gonum.org/v1/plot/vg/vgpdf"
	_ "gonum.org/v1/plot/vg/vgsvg"
)

const plotDoc = `Usage: ngca plot [flags] FILE

Draws the data in FILE (CSV, TSV or LIBSVM, read as by "ngca fit"; "-"
reads standard input) projected on its non-Gaussian subspace, and writes
the picture to -o (default ngca.png): on the left a scatter plot of the
first two components (with a single component, component 1 against the
row number), points coloured by label (the labels of a LIBSVM file, or
-label-col) with a legend; on the right the eigenvalue spectrum, all d
eigenvalues with the M that span the basis highlighted, on a log scale if
they span more than two decades. A gap after the M-th eigenvalue suggests
that M is right.

The basis is fitted to FILE as "ngca fit" would (-method, -dim (or auto) with
default 2, and the other estimator flags), or read with -basis from the
CSV or JSON written by "ngca fit"; -check judges a fitted basis as "ngca fit
-check" does, on stderr (-strict: exit status 2 if doubtful or not
checked). A CSV basis holds no eigenvalues: then only the scatter plot is
drawn, and a note on stderr says so. The data are centred on the training
means of a JSON basis (its columns are taken by name, as by
"ngca transform"), otherwise on their own means. -sample N fits and draws
a random sample of N rows, as in "ngca fit".

The image format follows the extension of -o: .png, .svg, .pdf, .jpg,
.tif or .eps. With more than 20000 rows, the scatter plot shows 20000 of
them, evenly spaced through the file; with more than 12 distinct labels,
the points are not coloured (notes on stderr say so). A line on stderr
reports what was written; standard output stays empty.

Examples:
  ngca plot -o data.png data.csv
  ngca plot -label-col species iris.csv -o iris.png
  ngca plot -method lsngca -dim 3 -o vehicle.png vehicle.scale
  ngca fit -dim 2 -json -o fit.json train.csv
  ngca plot -basis fit.json -o test.png test.csv
`

// Scatter-plot limits.
const (
	maxScatterPoints = 20000
	maxLabelColours  = 12
)

func init() {
	c := &command{name: "plot", summary: "draw the projected data and the eigenvalue spectrum (PNG, SVG, PDF)", brief: plotBrief, run: runPlot}
	groups := []flagGroup{
		{"Input", inputFlagNames(true)},
		{"Basis (else plot fits one, with the estimator flags below)", []string{"basis"}},
	}
	groups = append(append(groups, fitFlagGroups()...), flagGroup{"Output", []string{"o", "title"}})
	c.usage = plotDoc + flagHelp(newPlotFlags(c).fs, groups)
	register(c)
}

// plotFlags are the flags of the plot command.
type plotFlags struct {
	fs    *flag.FlagSet
	in    inputFlags
	fit   fitArgs
	basis string
	out   string
	title string
}

func newPlotFlags(c *command) *plotFlags {
	f := &plotFlags{fs: cli.NewFlagSet(c.name)}
	f.in.register(f.fs, true)
	f.fit.register(f.fs, "dimension `M` of the non-Gaussian subspace, 1 ≤ M < number of data columns")
	f.fs.Lookup("dim").DefValue = "2"
	f.fit.dim = 2
	f.fs.StringVar(&f.basis, "basis", "", "basis `file` to project on: the CSV or JSON written by ngca fit")
	f.fs.StringVar(&f.out, "o", "ngca.png", "image `file`; its extension sets the format")
	f.fs.StringVar(&f.title, "title", "", "`title` of the scatter plot (default: the file name and the estimator)")
	return f
}

func runPlot(ctx context.Context, e *env, args []string) error {
	c := commands["plot"]
	f := newPlotFlags(c)
	pos, err := parseArgs(f.fs, c, e, args)
	if err != nil {
		return err
	}
	path, err := oneFile(pos)
	if err != nil {
		return err
	}
	m, err := f.check()
	if err != nil {
		return err
	}
	format, err := imageFormat(f.out)
	if err != nil {
		return err
	}
	opt, err := f.in.options()
	if err != nil {
		return err
	}
	out, err := createOutFile(f.out, nil)
	if err != nil {
		return err
	}
	defer out.abort()

	var b *basisFile
	fl := f.in.audit()
	if f.basis != "" {
		if b, err = readBasis(f.basis); err != nil {
			return fmt.Errorf("-basis: %w", err)
		}
		b.selectColumns(&opt, setFlags(f.fs), dataio.MissingDrop)
		fl.fixed = true // the basis's columns, all of them
	}
	t, info, err := loadTable(ctx, e, path, opt, fl, f.in.sample, f.fit.seed)
	if err != nil {
		return err
	}
	name := info.name
	pd := &plotData{labels: t.Labels, labelName: t.LabelName}
	var what string
	if b != nil {
		what, err = pd.fromBasis(e, b, t, name)
	} else {
		what, err = pd.fromFit(ctx, e, &f.fit, m, t, name)
	}
	if err != nil {
		return err
	}
	_, pd.dim = pd.z.Dims()
	if pd.title = f.title; pd.title == "" {
		pd.title = fmt.Sprintf("%s: %s", filepath.Base(name), what)
	}
	notes, err := drawPlot(out, format, pd)
	if err != nil {
		return err
	}
	if err := out.commit(); err != nil {
		return err
	}
	for _, n := range notes {
		e.notef("%s", n)
	}
	n, _ := pd.z.Dims()
	summary := fmt.Sprintf("wrote %s: %s of %s projected on %s (%s)", f.out, words.CountNoun(n, "point"), name, what, words.CountNoun(pd.dim, "component"))
	if k := len(pd.groups); k > 1 {
		summary += fmt.Sprintf(", %s", words.CountNoun(k, "label"))
	}
	if pd.eig != nil {
		summary += fmt.Sprintf("; eigenvalues %s", eigenSummary(pd.eig, pd.dim))
	}
	fmt.Fprintln(e.stderr, summary)
	if f.fit.strict && pd.doubtful {
		return errDoubtful
	}
	return nil
}

// check validates the flags that do not depend on the data and returns
// the estimator to fit; with -basis there is none, and the estimator flags
// are errors.
func (f *plotFlags) check() (methods.Method, error) {
	set := setFlags(f.fs)
	if f.basis == "" {
		return f.fit.check(set)
	}
	for _, name := range append(slices.Clone(estimatorFlagNames), methods.SettingNames()...) {
		if set[name] {
			return methods.Method{}, fmt.Errorf("%w: -%s applies when plot fits the data itself, not with -basis", cli.ErrUsage, name)
		}
	}
	return methods.Method{}, nil
}

// fromBasis projects the data of t on the basis b and returns what the
// summary calls the basis.
func (pd *plotData) fromBasis(e *env, b *basisFile, t *dataio.Table, name string) (string, error) {
	var err error
	if pd.z, err = project(e, "plot", b, t, name); err != nil {
		return "", err
	}
	pd.eig = b.eigenvalues
	what := "the basis in " + b.name
	if b.label != "" {
		what = fmt.Sprintf("the %s basis in %s", b.label, b.name)
	}
	if pd.eig == nil {
		why := "a CSV basis; the JSON of ngca fit -json has them"
		if b.label != "" {
			why = "written by an earlier version, which gave the robust variant's equivariant estimate none"
		}
		e.notef("%s holds no eigenvalues (%s); drawing the scatter plot only", b.name, why)
	}
	return what, nil
}

// fromFit fits the estimator m to the data of t, projects them on the
// basis and returns the name of the estimator that ran.
func (pd *plotData) fromFit(ctx context.Context, e *env, a *fitArgs, m methods.Method, t *dataio.Table, name string) (string, error) {
	res, err := a.fitTable(ctx, e, m, t, name)
	if err != nil {
		return "", err
	}
	if w := separationWarning(res, a, m); w != "" && !a.modelNoted {
		fmt.Fprintln(e.stderr, w)
	}
	rep, err := a.checkFit(ctx, e, m, t, name, res)
	if err != nil && ctx.Err() != nil {
		return "", ctx.Err()
	}
	pd.doubtful = a.judge && (rep == nil || rep.Doubtful)
	writeDirections(e, res, t, rep)
	pd.z = &mat.Dense{}
	res.ProjectTo(pd.z, t.X)
	if err := finiteRows(pd.z, name); err != nil {
		return "", err
	}
	pd.eig = res.Eigenvalues
	return res.Method, nil
}

// eigenSummary lists the leading eigenvalues with a bar after the dim-th.
func eigenSummary(eig []float64, dim int) string {
	var parts []string
	for i, v := range eig {
		if i == dim+2 && len(eig) > dim+3 {
			parts = append(parts, "…")
			break
		}
		if i == dim {
			parts = append(parts, "|")
		}
		parts = append(parts, strconv.FormatFloat(v, 'g', 3, 64))
	}
	return strings.Join(parts, " ")
}

// imageFormat returns the image format for the file name of -o.
func imageFormat(path string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	switch ext {
	case "png", "svg", "pdf", "jpg", "jpeg", "tif", "tiff", "eps":
		return ext, nil
	}
	return "", fmt.Errorf("%w: -o %s: unknown image type %q (want .png, .svg, .pdf, .jpg, .tif or .eps)", cli.ErrUsage, path, filepath.Ext(path))
}

// plotData is what plot draws.
type plotData struct {
	z         *mat.Dense // n×dim projected data
	dim       int
	labels    []string // nil without labels
	labelName string
	eig       []float64 // nil without eigenvalues
	title     string
	groups    []labelGroup // filled by drawPlot
	clipped   int          // points drawn at the edge, filled by drawPlot
	doubtful  bool         // -check found the fit doubtful or could not check it
}

// labelGroup is the rows of one label.
type labelGroup struct {
	label string
	rows  []int
}

// palette holds the colours of up to maxLabelColours labels.
var palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0xd6, 0x27, 0x28, 0xff},
	{0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff},
	{0xbc, 0xbd, 0x22, 0xff}, {0x17, 0xbe, 0xcf, 0xff}, {0x39, 0x3b, 0x79, 0xff}, {0x00, 0x00, 0x00, 0xff},
}

// drawPlot draws pd as an image of the given format to w. It returns notes
// for stderr about what it left out.
func drawPlot(w io.Writer, format string, pd *plotData) (notes []string, err error) {
	rows, notes := scatterRows(pd)
	scatter, legend, err := scatterPlot(pd, rows)
	if err != nil {
		return nil, err
	}
	width, height := 6*vg.Inch, 4.8*vg.Inch
	var spectrum *plot.Plot
	if pd.eig != nil {
		if spectrum, err = spectrumPlot(pd.eig, pd.dim); err != nil {
			return nil, err
		}
		width = 11 * vg.Inch
	}
	c, err := draw.NewFormattedCanvas(width, height, format)
	if err != nil {
		return nil, err
	}
	if pd.clipped > 0 {
		notes = append(notes, fmt.Sprintf("%s far outside the rest (more than %d robust standard deviations from the median of a component) %s drawn as triangles at the edge of the scatter plot, so that %s do not squash it",
			words.CountNoun(pd.clipped, "point"), clipSpread, words.Agree(pd.clipped, "is", "are"), words.Agree(pd.clipped, "it", "they")))
	}
	layout(draw.New(c), scatter, legend, spectrum, len(pd.groups) > 1)
	if _, err := c.WriteTo(w); err != nil {
		return nil, err
	}
	return notes, nil
}

// scatterRows picks the rows the scatter plot shows (at most
// maxScatterPoints, evenly spaced) and sets pd.groups to them by label,
// in one group if the labels are too many to colour; notes say what was
// left out.
func scatterRows(pd *plotData) (rows []int, notes []string) {
	n, _ := pd.z.Dims()
	rows = make([]int, 0, min(n, maxScatterPoints))
	if n > maxScatterPoints {
		for k := 0; k < maxScatterPoints; k++ {
			rows = append(rows, int(int64(k)*int64(n)/maxScatterPoints))
		}
		notes = append(notes, fmt.Sprintf("the scatter plot shows %d of the %d points, evenly spaced through the file", maxScatterPoints, n))
	} else {
		for i := 0; i < n; i++ {
			rows = append(rows, i)
		}
	}
	pd.groups = groupRows(pd.labels, rows)
	if len(pd.groups) > maxLabelColours {
		notes = append(notes, fmt.Sprintf("%d distinct labels are too many to colour (at most %d); the points are drawn in one colour", len(pd.groups), maxLabelColours))
		pd.groups = []labelGroup{{rows: rows}}
	}
	return rows, notes
}

// scatterPlot draws the rows of pd.z in the first two components (or the
// first against the row number when Dim is 1), coloured by pd.groups, and
// returns the plot and the legend of the labels.
func scatterPlot(pd *plotData, rows []int) (*plot.Plot, *plot.Legend, error) {
	scatter := plot.New()
	scatter.Title.Text = pd.title
	scatter.X.Label.Text, scatter.Y.Label.Text = "component 1", "component 2"
	if pd.dim == 1 {
		scatter.X.Label.Text, scatter.Y.Label.Text = "row", "component 1"
	}
	radius := vg.Points(2.2)
	switch {
	case len(rows) > 10000:
		radius = vg.Points(0.8)
	case len(rows) > 2000:
		radius = vg.Points(1.4)
	}
	legend, colour := labelLegend(pd, len(rows))
	xys := make(plotter.XYs, len(rows))
	for k, i := range rows {
		if pd.dim == 1 {
			xys[k].X, xys[k].Y = float64(i+1), pd.z.At(i, 0)
		} else {
			xys[k].X, xys[k].Y = pd.z.At(i, 0), pd.z.At(i, 1)
		}
	}
	clipped := make([]bool, len(rows))
	clip := func(get func(k int) *float64, axis *plot.Axis) {
		vals := make([]float64, len(rows))
		for k := range rows {
			vals[k] = *get(k)
		}
		lo, hi, ok := clipRange(vals)
		if !ok {
			return
		}
		axis.Min, axis.Max = lo, hi
		for k := range rows {
			v := get(k)
			if *v < lo || *v > hi {
				*v = math.Max(lo, math.Min(hi, *v))
				clipped[k] = true
			}
		}
	}
	if pd.dim > 1 {
		clip(func(k int) *float64 { return &xys[k].X }, &scatter.X)
	}
	clip(func(k int) *float64 { return &xys[k].Y }, &scatter.Y)
	for _, c := range clipped {
		if c {
			pd.clipped++
		}
	}
	// One scatter in the order of the file, so that no label is drawn over
	// all the others.
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, nil, fmt.Errorf("scatter plot: %w", err)
	}
	s.GlyphStyleFunc = func(k int) draw.GlyphStyle {
		if clipped[k] {
			return draw.GlyphStyle{Color: colour[rows[k]], Radius: 1.6 * radius, Shape: draw.TriangleGlyph{}}
		}
		return draw.GlyphStyle{Color: colour[rows[k]], Radius: radius, Shape: draw.CircleGlyph{}}
	}
	scatter.Add(s)
	scatter.Add(plotter.NewGrid())
	return scatter, legend, nil
}

// clipSpread is how many robust standard deviations (IQR/1.349) from the
// median a point of the scatter plot may lie before it is clipped.
const clipSpread = 8

// clipRange returns the axis range of the scatter plot for the values v:
// the median ± clipSpread robust standard deviations, or ok false when
// every value lies within it (or the values have no spread) and the
// plot's own range is right.
func clipRange(v []float64) (lo, hi float64, ok bool) {
	w := slices.Clone(v)
	slices.Sort(w)
	q := func(p float64) float64 { return stat.Quantile(p, stat.LinInterp, w, nil) }
	med, sd := q(0.5), (q(0.75)-q(0.25))/1.349
	if !(sd > 0) {
		return 0, 0, false
	}
	lo, hi = med-clipSpread*sd, med+clipSpread*sd
	if w[0] >= lo && w[len(w)-1] <= hi {
		return 0, 0, false
	}
	// The range of the points kept, with a margin of 5 %.
	kept := w[sort.SearchFloat64s(w, lo):sort.Search(len(w), func(i int) bool { return w[i] > hi })]
	margin := 0.05 * (kept[len(kept)-1] - kept[0])
	return max(lo, kept[0]-margin), min(hi, kept[len(kept)-1]+margin), true
}

// labelLegend returns the legend of pd.groups and the colour of every row
// in them.
func labelLegend(pd *plotData, rows int) (*plot.Legend, map[int]color.Color) {
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.YOffs = -0.35 * vg.Inch // below the title
	switch {
	case pd.labelName != "":
		legend.Add(pd.labelName)
	case len(pd.groups) > 1:
		legend.Add("label")
	}
	colour := make(map[int]color.Color, rows)
	for g, grp := range pd.groups {
		for _, i := range grp.rows {
			colour[i] = palette[g%len(palette)]
		}
		thumb := &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: palette[g%len(palette)], Radius: vg.Points(3), Shape: draw.CircleGlyph{}}}
		legend.Add(grp.label, thumb)
	}
	return &legend, colour
}

// layout draws the scatter plot on the left 6 inches of dc, with the
// legend in a strip at its right edge (where it hides no points) if
// withLegend, and the spectrum, if not nil, on the right.
func layout(dc draw.Canvas, scatter *plot.Plot, legend *plot.Legend, spectrum *plot.Plot, withLegend bool) {
	left, right := dc, dc
	left.Max.X = dc.Min.X + 6*vg.Inch
	right.Min.X = left.Max.X
	if withLegend {
		strip := left
		strip.Min.X = left.Max.X - legend.Rectangle(left).Size().X - 0.15*vg.Inch
		left.Max.X = strip.Min.X
		legend.Draw(strip)
	}
	scatter.Draw(left)
	if spectrum != nil {
		spectrum.Draw(right)
	}
}

// groupRows splits rows by label, in label order (numeric if every label is
// a number); without labels, one group holds every row.
func groupRows(labels []string, rows []int) []labelGroup {
	if labels == nil {
		return []labelGroup{{rows: rows}}
	}
	index := map[string]int{}
	var groups []labelGroup
	for _, i := range rows {
		k, ok := index[labels[i]]
		if !ok {
			k = len(groups)
			index[labels[i]] = k
			groups = append(groups, labelGroup{label: labels[i]})
		}
		groups[k].rows = append(groups[k].rows, i)
	}
	numeric := true
	val := make(map[string]float64, len(groups))
	for _, g := range groups {
		v, err := strconv.ParseFloat(g.label, 64)
		numeric = numeric && err == nil
		val[g.label] = v
	}
	sort.SliceStable(groups, func(a, b int) bool {
		if numeric {
			return val[groups[a].label] < val[groups[b].label]
		}
		return groups[a].label < groups[b].label
	})
	return groups
}

// spectrumPlot plots the eigenvalues, the first dim highlighted.
func spectrumPlot(eig []float64, dim int) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "eigenvalues"
	p.X.Label.Text = "index"
	p.Y.Label.Text = "eigenvalue"
	lo, hi := slices.Min(eig), slices.Max(eig)
	if lo > 0 && hi/lo > 100 {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Label.Text = "eigenvalue (log scale)"
	}
	all := make(plotter.XYs, len(eig))
	for i, v := range eig {
		all[i].X, all[i].Y = float64(i+1), v
	}
	line, err := plotter.NewLine(all)
	if err != nil {
		return nil, fmt.Errorf("eigenvalue plot: %w", err)
	}
	line.Color = color.Gray{0xb0}
	p.Add(line)
	k := min(dim, len(eig))
	for _, part := range []struct {
		xys   plotter.XYs
		col   color.Color
		label string
	}{
		{all[:k], color.RGBA{0xd6, 0x27, 0x28, 0xff}, fmt.Sprintf("first %d: the basis", k)},
		{all[k:], color.Gray{0x60}, "the others"},
	} {
		if len(part.xys) == 0 {
			continue
		}
		s, err := plotter.NewScatter(part.xys)
		if err != nil {
			return nil, fmt.Errorf("eigenvalue plot: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: part.col, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		p.Add(s)
		p.Legend.Add(part.label, s)
	}
	p.Legend.Top = true
	if len(eig) <= 25 {
		var ticks []plot.Tick
		for i := range eig {
			label := ""
			if len(eig) <= 12 || i%2 == 0 {
				label = strconv.Itoa(i + 1)
			}
			ticks = append(ticks, plot.Tick{Value: float64(i + 1), Label: label})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
	}
	p.X.Min, p.X.Max = 0.5, float64(len(eig))+0.5
	p.Add(plotter.NewGrid())
	return p, nil
}
