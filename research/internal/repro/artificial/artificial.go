// Package artificial reproduces the artificial experiments of Shiino et al.
// (ACML 2017, §4.2): the subspace error of each estimator against the
// condition-number controller r on the four signal distributions (the
// paper's Figure 2), the time per fit against n and d (Figure 3) and the
// condition number of the covariance against r (Figure 4).
package artificial

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/atomicfile"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/progress"
	"github.com/ngca-go/ngca/ngcatest"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// Config describes a study. The zero value of every field but Out means
// the default noted on it.
type Config struct {
	// Dists are the signal distributions; nil means all four.
	Dists []ngcatest.Distribution
	// Rs is the grid of r; nil means DefaultRs().
	Rs []float64
	// Runs is the number of seeded repetitions per (distribution, r); 0
	// means 50.
	Runs int
	// N, D and Dim are the size of each data set and the target dimension;
	// 0 means 2000, 10 and 2.
	N, D, Dim int
	// Seed seeds every data set and estimator.
	Seed uint64
	// Methods are the estimators; nil means methods.All().
	Methods []methods.Method
	// Rotate adds, for every data set, the same data turned by a random
	// orthogonal matrix (with the true subspace turned with it).
	Rotate bool
	// Workers is the number of runs executed at once (each fit is
	// single-threaded); 0 means GOMAXPROCS.
	Workers int
	// Timing configures the timing study of figure 3.
	Timing Timing
	// Out is the directory the results are written to.
	Out string
	// Progress, if not nil, receives progress bars.
	Progress io.Writer
	// Resume keeps the rows of an errors.csv already in Out that belong to
	// this study (a data set of its grid fitted by one of its methods)
	// and fits only the others: it continues an interrupted study, or adds
	// methods or runs to a finished one. The rows kept are trusted as
	// they are; they must come from the same seed, n, d and code.
	Resume bool
}

// Timing configures the timing study: fits of data (a) at r = 0, run one
// at a time with one worker each, timed on the wall clock.
type Timing struct {
	// Skip turns the timing study off.
	Skip bool
	// Ns are the sample sizes at d = 10; nil means 500 … 20000.
	Ns []int
	// Ds are the dimensions at n = 2000; nil means 5 … 100.
	Ds []int
	// Reps is the number of fits per size and method (the median is
	// plotted); 0 means 3.
	Reps int
}

// DefaultRs returns the default grid of r: 0, 0.1, …, 0.8 as in the
// paper's Figure 2, then 1, 1.5 and 2 to show where each method breaks.
func DefaultRs() []float64 {
	return []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1, 1.5, 2}
}

// Row is the outcome of one fit.
type Row struct {
	Dist    ngcatest.Distribution
	R       float64
	Run     int
	Rotated bool
	Method  string // methods.Method.Label
	Epsilon float64
	Seconds float64
	Cond    float64 // condition number of the data's covariance matrix
	Err     string  // non-empty if the fit failed (Epsilon is NaN)
}

// TimingRow is one timed fit of the timing study.
type TimingRow struct {
	Axis    string // "n" or "d"
	N, D    int
	Rep     int
	Method  string
	Seconds float64
}

// job is one data set: a distribution, an r, a run, rotated or not.
type job struct {
	dist    ngcatest.Distribution
	r       float64
	run     int
	rotated bool
}

func (c *Config) defaults() error {
	if c.Dists == nil {
		c.Dists = ngcatest.Distributions()
	}
	if c.Rs == nil {
		c.Rs = DefaultRs()
	}
	if c.Runs == 0 {
		c.Runs = 50
	}
	if c.N == 0 {
		c.N = 2000
	}
	if c.D == 0 {
		c.D = 10
	}
	if c.Dim == 0 {
		c.Dim = 2
	}
	if c.Methods == nil {
		c.Methods = methods.All()
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Timing.Ns == nil {
		c.Timing.Ns = []int{500, 1000, 2000, 5000, 10000, 20000}
	}
	if c.Timing.Ds == nil {
		c.Timing.Ds = []int{5, 10, 20, 50, 100}
	}
	if c.Timing.Reps == 0 {
		c.Timing.Reps = 3
	}
	switch {
	case c.Out == "":
		return errors.New("no output directory")
	case c.Runs < 1 || c.Workers < 1 || c.Timing.Reps < 1:
		return fmt.Errorf("runs, workers and timing repetitions must be positive")
	case c.Dim < 1 || c.Dim >= c.D:
		return fmt.Errorf("need 1 ≤ dim < d, got dim %d, d %d", c.Dim, c.D)
	case len(c.Dists) == 0 || len(c.Rs) == 0 || len(c.Methods) == 0:
		return fmt.Errorf("empty grid")
	}
	for _, r := range c.Rs {
		if !(r >= 0) || math.IsInf(r, 1) {
			return fmt.Errorf("r = %v: need a finite r ≥ 0", r)
		}
	}
	return nil
}

func (c *Config) jobs() []job {
	var js []job
	rot := []bool{false}
	if c.Rotate {
		rot = append(rot, true)
	}
	for _, rotated := range rot {
		for _, dist := range c.Dists {
			for _, r := range c.Rs {
				for run := 0; run < c.Runs; run++ {
					js = append(js, job{dist, r, run, rotated})
				}
			}
		}
	}
	return js
}

// Run executes the study and writes errors.csv, errors.md, figure2.png,
// figure4.png and (unless Timing.Skip) timing.csv and figure3.png into
// c.Out. Every finished row is appended to errors.csv as soon as it exists
// (a kill leaves whole rows); if ctx is cancelled, Run writes all files
// from the finished rows and returns an error wrapping ctx's error that
// says how many runs finished. Each file but the appended errors.csv is
// replaced only once complete.
func Run(ctx context.Context, c Config) error {
	if err := c.defaults(); err != nil {
		return err
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return err
	}
	js := c.jobs()
	var kept []Row
	done := map[fitKey]bool{}
	if c.Resume {
		var err error
		if kept, done, err = c.resumed(); err != nil {
			return err
		}
	}
	rows, runErr := repro.RunLogged(ctx,
		repro.Jobs{N: len(js), Workers: c.Workers, Progress: c.Progress, Label: "artificial"},
		repro.Table[Row]{Path: filepath.Join(c.Out, "errors.csv"), Header: rowHeader, Record: Row.record, Kept: kept},
		func(ctx context.Context, i int) ([]Row, error) { return c.runJob(ctx, js[i], done) })
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	finished := len(rows) / len(c.Methods)

	var timing []TimingRow
	if !c.Timing.Skip && runErr == nil {
		timing, runErr = c.runTiming(ctx)
		if runErr != nil && !errors.Is(runErr, context.Canceled) {
			return runErr
		}
	}
	if err := c.write(rows, timing); err != nil {
		return err
	}
	if runErr != nil {
		return fmt.Errorf("interrupted: %d of %d runs finished, results so far written to %s: %w", finished, len(js), c.Out, runErr)
	}
	return nil
}

// runJob generates one data set and fits every method to it that done
// does not hold.
func (c *Config) runJob(ctx context.Context, j job, done map[fitKey]bool) ([]Row, error) {
	var todo []methods.Method
	for _, m := range c.Methods {
		if !done[fitKey{j, m.Label}] {
			todo = append(todo, m)
		}
	}
	if len(todo) == 0 {
		return nil, nil
	}
	key := repro.Key("artificial", int(j.dist), j.r, j.run, c.N, c.D)
	// The rotated data set is the unrotated one (same seed) turned by a
	// rotation drawn after it.
	x, truth, err := ngcatest.Artificial{Dist: j.dist, N: c.N, D: c.D, R: j.r, Rotate: j.rotated}.Sample(rand.NewPCG(c.Seed, key))
	if err != nil {
		return nil, err
	}
	cond := condition(x)
	rows := make([]Row, 0, len(todo))
	for _, m := range todo {
		src := rand.NewPCG(c.Seed, repro.Key("artificial-fit", int(j.dist), j.r, j.run, c.N, c.D, m.Key))
		start := time.Now()
		res, err := m.New(methods.Settings{Dim: c.Dim, Workers: 1, Src: src}).Fit(ctx, x)
		row := Row{Dist: j.dist, R: j.r, Run: j.run, Rotated: j.rotated, Method: m.Label,
			Seconds: time.Since(start).Seconds(), Cond: cond, Epsilon: math.NaN()}
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			row.Err = err.Error()
		default:
			row.Epsilon = ngca.SubspaceError(truth, res.Basis)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// condition returns the condition number of the sample covariance of x.
func condition(x *mat.Dense) float64 {
	var cov mat.SymDense
	stat.CovarianceMatrix(&cov, x, nil)
	var e mat.EigenSym
	if !e.Factorize(&cov, false) {
		return math.NaN()
	}
	v := e.Values(nil)
	return v[len(v)-1] / v[0]
}

// runTiming times fits of data (a) at r = 0 one at a time.
func (c *Config) runTiming(ctx context.Context) ([]TimingRow, error) {
	type size struct {
		axis string
		n, d int
	}
	var sizes []size
	for _, n := range c.Timing.Ns {
		sizes = append(sizes, size{"n", n, 10})
	}
	for _, d := range c.Timing.Ds {
		sizes = append(sizes, size{"d", 2000, d})
	}
	var bar *progress.Bar
	if c.Progress != nil {
		// Weight by n·d, roughly proportional to the cost of a fit.
		total := 0
		for _, s := range sizes {
			total += s.n * s.d * c.Timing.Reps * len(c.Methods)
		}
		bar = progress.New(c.Progress, "timing", total)
		defer bar.Finish()
	}
	var rows []TimingRow
	for _, s := range sizes {
		x, _, err := ngcatest.Artificial{N: s.n, D: s.d}.Sample(rand.NewPCG(c.Seed, repro.Key("timing", s.n, s.d)))
		if err != nil {
			return rows, err
		}
		for rep := 0; rep < c.Timing.Reps; rep++ {
			for _, m := range c.Methods {
				src := rand.NewPCG(c.Seed, repro.Key("timing-fit", s.n, s.d, rep, m.Key))
				start := time.Now()
				if _, err := m.New(methods.Settings{Dim: c.Dim, Workers: 1, Src: src}).Fit(ctx, x); err != nil {
					return rows, err
				}
				rows = append(rows, TimingRow{Axis: s.axis, N: s.n, D: s.d, Rep: rep, Method: m.Label,
					Seconds: time.Since(start).Seconds()})
				if bar != nil {
					bar.Add(float64(s.n * s.d))
				}
			}
		}
	}
	return rows, nil
}

var rowHeader = []string{"distribution", "r", "run", "rotated", "method", "epsilon", "seconds", "cond", "error"}

func (r Row) record() []string {
	return []string{r.Dist.String(), fmtFloat(r.R), strconv.Itoa(r.Run), strconv.FormatBool(r.Rotated), r.Method,
		fmtFloat(r.Epsilon), strconv.FormatFloat(r.Seconds, 'f', 4, 64), fmtFloat(r.Cond), r.Err}
}

func (t TimingRow) record() []string {
	return []string{t.Axis, strconv.Itoa(t.N), strconv.Itoa(t.D), strconv.Itoa(t.Rep), t.Method,
		strconv.FormatFloat(t.Seconds, 'f', 4, 64)}
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// write writes every output file from the finished rows: errors.csv again,
// sorted, so that it does not depend on the order runs finished in.
func (c *Config) write(rows []Row, timing []TimingRow) error {
	order := map[string]int{}
	for i, m := range c.Methods {
		order[m.Label] = i
	}
	sort.SliceStable(rows, func(a, b int) bool {
		ra, rb := rows[a], rows[b]
		switch {
		case ra.Rotated != rb.Rotated:
			return !ra.Rotated
		case ra.Dist != rb.Dist:
			return ra.Dist < rb.Dist
		case ra.R != rb.R:
			return ra.R < rb.R
		case ra.Run != rb.Run:
			return ra.Run < rb.Run
		}
		return order[ra.Method] < order[rb.Method]
	})
	if err := repro.WriteRows(filepath.Join(c.Out, "errors.csv"), rowHeader, rows, Row.record); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(c.Out, "errors.md"), []byte(c.markdown(rows)), 0o666); err != nil {
		return err
	}
	if err := c.figure2(rows, filepath.Join(c.Out, "figure2.png")); err != nil {
		return err
	}
	if err := c.figure4(rows, filepath.Join(c.Out, "figure4.png")); err != nil {
		return err
	}
	if timing == nil {
		return nil
	}
	header := []string{"axis", "n", "d", "rep", "method", "seconds"}
	if err := repro.WriteRows(filepath.Join(c.Out, "timing.csv"), header, timing, TimingRow.record); err != nil {
		return err
	}
	return c.figure3(timing, filepath.Join(c.Out, "figure3.png"))
}

// cell gathers the ε of one (rotated, distribution, r, method) cell.
type cellKey struct {
	rotated bool
	dist    ngcatest.Distribution
	r       float64
	method  string
}

func cells(rows []Row) (eps map[cellKey][]float64, failed map[cellKey]int) {
	eps, failed = map[cellKey][]float64{}, map[cellKey]int{}
	for _, r := range rows {
		k := cellKey{r.Rotated, r.Dist, r.R, r.Method}
		if r.Err != "" {
			failed[k]++
			continue
		}
		eps[k] = append(eps[k], r.Epsilon)
	}
	return eps, failed
}

// markdown renders the mean ± standard deviation of ε per cell.
func (c *Config) markdown(rows []Row) string {
	eps, failed := cells(rows)
	var b []byte
	b = fmt.Appendf(b, "# Subspace error ε on the paper's artificial data\n\n")
	b = fmt.Appendf(b, "Mean ± standard deviation of ε over the finished runs (n = %d, d = %d, m = %d, up to %d runs per cell, seed %d).\n", c.N, c.D, c.Dim, c.Runs, c.Seed)
	b = fmt.Appendf(b, "A cell marked [k failed] had k fits that returned an error; they are not in the mean.\n")
	rot := []bool{false}
	if c.Rotate {
		rot = append(rot, true)
	}
	for _, rotated := range rot {
		for _, dist := range c.Dists {
			title := fmt.Sprintf("(%v) %s", dist, distName(dist))
			if rotated {
				title += ", turned by a random rotation"
			}
			b = fmt.Appendf(b, "\n## %s\n\n| r | cond |", title)
			for _, m := range c.Methods {
				b = fmt.Appendf(b, " %s |", m.Label)
			}
			b = fmt.Appendf(b, "\n|---|---|")
			for range c.Methods {
				b = fmt.Appendf(b, "---|")
			}
			b = fmt.Appendf(b, "\n")
			for _, r := range c.Rs {
				var conds []float64
				for _, row := range rows {
					if row.Rotated == rotated && row.Dist == dist && row.R == r && row.Method == c.Methods[0].Label {
						conds = append(conds, row.Cond)
					}
				}
				if len(conds) == 0 {
					continue
				}
				b = fmt.Appendf(b, "| %g | %.3g |", r, repro.Median(conds))
				for _, m := range c.Methods {
					k := cellKey{rotated, dist, r, m.Label}
					s := repro.Summarize(eps[k])
					cell := "–"
					if s.N > 0 {
						cell = fmt.Sprintf("%.2e ± %.1e", s.Mean, s.Std)
					}
					if f := failed[k]; f > 0 {
						cell += fmt.Sprintf(" [%d failed]", f)
					}
					b = fmt.Appendf(b, " %s |", cell)
				}
				b = fmt.Appendf(b, "\n")
			}
		}
	}
	return string(b)
}

func distName(d ngcatest.Distribution) string {
	return [...]string{"independent Gaussian mixture", "dependent super-Gaussian", "dependent sub-Gaussian", "dependent super- and sub-Gaussian"}[d]
}
