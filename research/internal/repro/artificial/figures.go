package artificial

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/ngca-go/ngca/internal/atomicfile"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// bandXY is a line of means with asymmetric error bars, for YErrorBars.
type bandXY struct {
	plotter.XYs
	lo, hi []float64
}

func (b bandXY) YError(i int) (float64, float64) { return b.lo[i], b.hi[i] }

// figure2 draws ε (mean ± std, log axis) against r: one panel per
// distribution, one line per method, a second row for rotated data.
func (c *Config) figure2(rows []Row, path string) error {
	eps, _ := cells(rows)
	rot := []bool{false}
	if c.Rotate {
		rot = append(rot, true)
	}
	// One y range for all panels: ε is at most 1; the floor keeps the
	// lower ends of the error bars on the log axis.
	lo := math.Inf(1)
	for _, v := range eps {
		if s := repro.Summarize(v); s.N > 0 && s.Mean > 0 {
			lo = math.Min(lo, s.Mean)
		}
	}
	if math.IsInf(lo, 1) {
		lo = 1e-6
	}
	floor := math.Pow(10, math.Floor(math.Log10(lo))-1)

	grid := make([][]*plot.Plot, len(rot))
	for i, rotated := range rot {
		grid[i] = make([]*plot.Plot, len(c.Dists))
		for j, dist := range c.Dists {
			p := plot.New()
			p.Title.Text = fmt.Sprintf("(%v) %s", dist, distName(dist))
			if rotated {
				p.Title.Text += ", rotated"
			}
			p.X.Label.Text = "r"
			p.Y.Label.Text = "subspace error ε"
			p.Y.Scale = plot.LogScale{}
			p.Y.Tick.Marker = logTicks{}
			p.Y.Min, p.Y.Max = floor, 2
			p.Legend.Top, p.Legend.Left = false, false // bottom right: empty in every panel
			for k, m := range c.Methods {
				var b bandXY
				for _, r := range c.Rs {
					s := repro.Summarize(eps[cellKey{rotated, dist, r, m.Label}])
					if s.N == 0 {
						continue
					}
					mean := math.Max(s.Mean, floor)
					b.XYs = append(b.XYs, plotter.XY{X: r, Y: mean})
					b.lo = append(b.lo, math.Min(s.Std, mean-floor))
					b.hi = append(b.hi, math.Min(s.Std, 1.99-mean))
				}
				if len(b.XYs) == 0 {
					continue
				}
				if err := addLine(p, m.Label, k, b.XYs); err != nil {
					return err
				}
				eb, err := plotter.NewYErrorBars(b)
				if err != nil {
					return err
				}
				eb.LineStyle.Color = plotutil.Color(k)
				p.Add(eb)
			}
			grid[i][j] = p
		}
	}
	return savePanels(grid, path, 5*vg.Inch, 4*vg.Inch)
}

// figure3 draws the median time per fit against n (d = 10) and against d
// (n = 2000) on log axes, one line per method.
func (c *Config) figure3(timing []TimingRow, path string) error {
	panels := []*plot.Plot{plot.New(), plot.New()}
	for i, axis := range []string{"n", "d"} {
		p := panels[i]
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = logTicks{}, logTicks{}
		p.Y.Label.Text = "seconds per fit (one core)"
		p.Legend.Top, p.Legend.Left = true, true
		if axis == "n" {
			p.Title.Text, p.X.Label.Text = "time against sample size (d = 10)", "n"
		} else {
			p.Title.Text, p.X.Label.Text = "time against dimension (n = 2000)", "d"
		}
		for k, m := range c.Methods {
			bySize := map[int][]float64{}
			for _, t := range timing {
				if t.Axis == axis && t.Method == m.Label {
					size := t.N
					if axis == "d" {
						size = t.D
					}
					bySize[size] = append(bySize[size], t.Seconds)
				}
			}
			var xys plotter.XYs
			for size, secs := range bySize {
				xys = append(xys, plotter.XY{X: float64(size), Y: math.Max(repro.Median(secs), 1e-4)})
			}
			sort.Slice(xys, func(a, b int) bool { return xys[a].X < xys[b].X })
			if len(xys) == 0 {
				continue
			}
			if err := addLine(p, m.Label, k, xys); err != nil {
				return err
			}
		}
	}
	return savePanels([][]*plot.Plot{panels}, path, 5.5*vg.Inch, 4.5*vg.Inch)
}

// figure4 draws the median condition number of the covariance against r,
// one line per distribution (unrotated data).
func (c *Config) figure4(rows []Row, path string) error {
	p := plot.New()
	p.Title.Text = "condition number of the covariance matrix"
	p.X.Label.Text = "r"
	p.Y.Label.Text = "condition number"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{}
	p.Legend.Top, p.Legend.Left = true, true
	for k, dist := range c.Dists {
		var xys plotter.XYs
		for _, r := range c.Rs {
			var conds []float64
			for _, row := range rows {
				if !row.Rotated && row.Dist == dist && row.R == r && row.Method == c.Methods[0].Label {
					conds = append(conds, row.Cond)
				}
			}
			if len(conds) > 0 {
				xys = append(xys, plotter.XY{X: r, Y: repro.Median(conds)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		if err := addLine(p, fmt.Sprintf("(%v) %s", dist, distName(dist)), k, xys); err != nil {
			return err
		}
	}
	return savePanels([][]*plot.Plot{{p}}, path, 6*vg.Inch, 4.5*vg.Inch)
}

// logTicks marks a log axis like plot.LogTicks, labelling the ticks with
// at most three significant digits (hiding rounding residue such as
// 9.999999999999999e-05) and, on axes spanning less than two decades, also
// labelling 2× and 5× each power of ten.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(min, max)
	short := max/min < 100
	for i := range ticks {
		v := ticks[i].Value
		lead := v / math.Pow(10, math.Floor(math.Log10(v)+1e-9))
		if ticks[i].Label != "" || short && (math.Abs(lead-2) < 1e-6 || math.Abs(lead-5) < 1e-6) {
			ticks[i].Label = tickLabel(v)
		}
	}
	return ticks
}

// tickLabel prints v to three significant digits, as a plain decimal from
// 0.001 to 10⁶ and in exponent form outside.
func tickLabel(v float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	if r >= 1e-3 && r < 1e6 {
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(r, 'e', -1, 64)
}

// addLine adds a line with point markers in the k-th colour and shape.
func addLine(p *plot.Plot, label string, k int, xys plotter.XYs) error {
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	l.Color = plotutil.Color(k)
	s.Color = plotutil.Color(k)
	s.Shape = plotutil.Shape(k)
	p.Add(l, s)
	p.Legend.Add(label, l, s)
	return nil
}

// savePanels draws a grid of plots (rows of panels, nil for an empty slot)
// of the given panel size into a PNG file.
func savePanels(grid [][]*plot.Plot, path string, w, h vg.Length) error {
	rows, cols := len(grid), 0
	for _, r := range grid {
		cols = max(cols, len(r))
	}
	img := vgimg.NewWith(vgimg.UseWH(w*vg.Length(cols), h*vg.Length(rows)), vgimg.UseDPI(96))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(grid, tiles, dc)
	for i := range grid {
		for j, p := range grid[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	return atomicfile.Write(path, 0o666, func(w io.Writer) error {
		_, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w)
		return err
	})
}
