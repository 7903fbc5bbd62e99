// Package dimstudy runs the study behind docs/dim.md: how often
// ngca.EstimateDim finds the true dimension m of the non-Gaussian index
// space, and its type-I error on Gaussian data, by m, sample size and
// setting (aligned, turned, ill-conditioned). Its data sets are
// synth.DimData and synth.Wide.
package dimstudy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/atomicfile"
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// Setting is how the data's noise and subspace lie.
type Setting struct {
	Name   string
	R      float64
	Rotate bool
}

// DefaultSettings are aligned, turned and ill-conditioned data.
func DefaultSettings() []Setting {
	return []Setting{{"aligned r=0", 0, false}, {"turned r=0", 0, true}, {"aligned r=1", 1, false}, {"turned r=1", 1, true}}
}

// Config describes the study. Zero values mean the defaults noted.
type Config struct {
	Ns       []int     // sample sizes; nil: 500, 2000, 10000
	Seeds    []int     // data sets per cell for each of Ns; nil: 20 each
	Ms       []int     // true dimensions; nil: 0, 1, 2, 3
	Settings []Setting // nil: DefaultSettings()
	D        int       // columns; 0: 10
	Seed     uint64
	Workers  int // data sets at once, one core each; 0: GOMAXPROCS
	Out      string
	Progress io.Writer // if not nil, receives a progress bar
}

// Row is one data set's answer.
type Row struct {
	N, M    int
	Setting string
	Seed    int
	Found   int
	Seconds float64
	PValues string // p-values of the tests, k = 0, 1, …, separated by spaces
	Err     string
}

var header = []string{"n", "m", "setting", "seed", "found", "seconds", "pvalues", "error"}

func (r Row) record() []string {
	return []string{strconv.Itoa(r.N), strconv.Itoa(r.M), r.Setting, strconv.Itoa(r.Seed), strconv.Itoa(r.Found),
		strconv.FormatFloat(r.Seconds, 'f', 3, 64), r.PValues, r.Err}
}

type job struct {
	n, m, seed int
	set        Setting
}

func (c *Config) defaults() error {
	if c.Ns == nil {
		c.Ns = []int{500, 2000, 10000}
	}
	if c.Seeds == nil {
		c.Seeds = make([]int, len(c.Ns))
		for i := range c.Seeds {
			c.Seeds[i] = 20
		}
	}
	if c.Ms == nil {
		c.Ms = []int{0, 1, 2, 3}
	}
	if c.Settings == nil {
		c.Settings = DefaultSettings()
	}
	if c.D == 0 {
		c.D = 10
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if len(c.Seeds) != len(c.Ns) {
		return fmt.Errorf("dimstudy: %d seed counts for %d sample sizes", len(c.Seeds), len(c.Ns))
	}
	return nil
}

// Run executes the study and writes dim.csv (one row per data set,
// appended as they finish) and dim.md into c.Out. On cancellation both are
// written from the finished data sets.
func Run(ctx context.Context, c Config) error {
	if err := c.defaults(); err != nil {
		return err
	}
	var jobs []job
	var weights []float64
	for i, n := range c.Ns {
		for _, set := range c.Settings {
			for _, m := range c.Ms {
				for s := 0; s < c.Seeds[i]; s++ {
					jobs = append(jobs, job{n, m, s, set})
					weights = append(weights, float64(n)*float64(m+1))
				}
			}
		}
	}
	return runStudy(ctx, study[Row]{out: c.Out, name: "dim", label: "dim study", workers: c.Workers, progress: c.Progress,
		weights: weights, header: header, record: Row.record, markdown: c.markdown,
		do: func(ctx context.Context, i int) ([]Row, error) { return c.runJob(ctx, jobs[i]) }})
}

// study is what runStudy needs of a study: where and under what name to
// write its name.csv and name.md, its jobs' costs and how to run them,
// and how to write its rows and summarise them.
type study[R any] struct {
	out, name, label string
	workers          int
	progress         io.Writer
	weights          []float64
	header           []string
	record           func(R) []string
	markdown         func([]R) string
	do               func(ctx context.Context, i int) ([]R, error)
}

// runStudy runs the jobs of st, appending their rows to name.csv as they
// finish, then writes name.md; on cancellation both are written from the
// finished jobs.
func runStudy[R any](ctx context.Context, st study[R]) error {
	if err := os.MkdirAll(st.out, 0o755); err != nil {
		return err
	}
	rows, runErr := repro.RunLogged(ctx,
		repro.Jobs{N: len(st.weights), Workers: st.workers, Weights: st.weights, Progress: st.progress, Label: st.label},
		repro.Table[R]{Path: filepath.Join(st.out, st.name+".csv"), Header: st.header, Record: st.record}, st.do)
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	md := st.markdown(rows)
	if err := atomicfile.Write(filepath.Join(st.out, st.name+".md"), 0o666, func(w io.Writer) error {
		_, err := io.WriteString(w, md)
		return err
	}); err != nil {
		return err
	}
	return runErr
}

// runJob draws one data set and estimates its dimension with the defaults
// (one worker).
func (c *Config) runJob(ctx context.Context, j job) ([]Row, error) {
	row := Row{N: j.n, M: j.m, Setting: j.set.Name, Seed: j.seed, Found: -1}
	x, _, err := synth.DimData{M: j.m, N: j.n, D: c.D, R: j.set.R, Rotate: j.set.Rotate}.Sample(
		rand.NewPCG(c.Seed, repro.Key("dim-data", j.n, j.m, j.set.Name, j.seed, c.D)))
	if err != nil {
		return nil, err
	}
	start := time.Now()
	rep, err := ngca.EstimateDim(ctx, x, ngca.DimOptions{Workers: 1, Src: rand.NewPCG(c.Seed, repro.Key("dim-test", j.n, j.m, j.set.Name, j.seed, c.D))})
	row.Seconds = time.Since(start).Seconds()
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		row.Err = err.Error()
		return []Row{row}, nil
	}
	row.Found = rep.Dim
	var ps []string
	for _, t := range rep.Tests {
		ps = append(ps, strconv.FormatFloat(t.PValue, 'g', 4, 64))
	}
	row.PValues = strings.Join(ps, " ")
	return []Row{row}, nil
}

// markdown summarises the rows: per n a confusion table (true m × found
// m, all settings), the rate of right answers per m and setting, the
// type-I error on Gaussian data and the median time.
func (c *Config) markdown(rows []Row) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Dimension test study\n\nngca.EstimateDim with its defaults (α = 0.05, B = 39), d = %d, one core per data set.\n", c.D)
	for _, n := range c.Ns {
		var nr []Row
		for _, r := range rows {
			if r.N == n {
				nr = append(nr, r)
			}
		}
		if len(nr) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## n = %d\n\nTrue m (rows) × found m (columns), all settings pooled (%d data sets):\n\n", n, len(nr))
		c.confusion(&b, nr)
		b.WriteString("\nRight answers per setting (data sets right / data sets):\n\n| m |")
		for _, s := range c.Settings {
			fmt.Fprintf(&b, " %s |", s.Name)
		}
		b.WriteString(" all |\n|---|" + strings.Repeat("---|", len(c.Settings)+1) + "\n")
		for _, m := range c.Ms {
			fmt.Fprintf(&b, "| %d |", m)
			for _, s := range c.Settings {
				fmt.Fprintf(&b, " %s |", rate(nr, func(r Row) bool { return r.M == m && r.Setting == s.Name }))
			}
			fmt.Fprintf(&b, " %s |\n", rate(nr, func(r Row) bool { return r.M == m }))
		}
		fmt.Fprintf(&b, "\nType-I error on Gaussian data (m = 0 answered > 0): %s.\n", typeI(nr))
		fmt.Fprintf(&b, "\nMedian seconds per data set, by m: %s.\n", medianTimes(nr, c.Ms))
	}
	return b.String()
}

func (c *Config) confusion(b *strings.Builder, rows []Row) {
	maxFound := 0
	for _, r := range rows {
		maxFound = max(maxFound, r.Found)
	}
	b.WriteString("| m \\ found |")
	for f := 0; f <= maxFound; f++ {
		fmt.Fprintf(b, " %d |", f)
	}
	b.WriteString(" error |\n|---|" + strings.Repeat("---|", maxFound+2) + "\n")
	for _, m := range c.Ms {
		fmt.Fprintf(b, "| %d |", m)
		counts := map[int]int{}
		for _, r := range rows {
			if r.M == m {
				counts[r.Found]++
			}
		}
		for f := 0; f <= maxFound; f++ {
			fmt.Fprintf(b, " %d |", counts[f])
		}
		fmt.Fprintf(b, " %d |\n", counts[-1])
	}
}

// rate formats right/total for the rows that match keep.
func rate(rows []Row, keep func(Row) bool) string {
	right, total := 0, 0
	for _, r := range rows {
		if keep(r) {
			total++
			if r.Found == r.M {
				right++
			}
		}
	}
	if total == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%.0f %%)", right, total, 100*float64(right)/float64(total))
}

func typeI(rows []Row) string {
	wrong, total := 0, 0
	for _, r := range rows {
		if r.M == 0 && r.Err == "" {
			total++
			if r.Found > 0 {
				wrong++
			}
		}
	}
	if total == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d = %.3f", wrong, total, float64(wrong)/float64(total))
}

func medianTimes(rows []Row, ms []int) string {
	var parts []string
	for _, m := range ms {
		var v []float64
		for _, r := range rows {
			if r.M == m {
				v = append(v, r.Seconds)
			}
		}
		if len(v) > 0 {
			parts = append(parts, fmt.Sprintf("m = %d: %.2f s", m, repro.Median(v)))
		}
	}
	return strings.Join(parts, ", ")
}
