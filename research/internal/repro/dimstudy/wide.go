package dimstudy

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/probe"
	"github.com/ngca-go/ngca/internal/synth"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// WideConfig describes the wide study. Zero values mean the defaults noted.
type WideConfig struct {
	Ds       []int     // columns; nil: 20, 40, 60
	Rows     []float64 // rows as multiples of d²; nil: 1 and 2
	Ns       []int     // if not nil, rows as counts (instead of Rows)
	Ms       []float64 // true dimensions as fractions of d (rounded, at least 1 if positive) or, ≥ 1, counts; nil: 0, 1, 2, ¼, ½
	Families []string  // nil: DefaultWideFamilies
	Seeds    int       // data sets per cell; 0: 3
	Seed     uint64
	Workers  int // data sets at once, one core each; 0: GOMAXPROCS
	Out      string
	Progress io.Writer // if not nil, receives a progress bar
}

// WideRow is one data set's answer.
type WideRow struct {
	D, N, M  int
	Family   string
	Setting  string // "aligned" or "turned"
	Seed     int
	Found    int
	FewRows  bool
	RestP    float64 // p-value of the test of the directions left
	Tests    string  // "k:p" of each test, by k, separated by spaces
	Seconds  float64 // wall time on one core
	Replicas int     // replicates run in all (tests and the remainder's)
	Err      string
}

// DefaultWideFamilies are the signal families the wide study runs by
// default: synth.WideFamilies but mixed3.
var DefaultWideFamilies = []string{"uniform", "exponential", "bimodal", "t5", "mixed", "asymmetric"}

var wideHeader = []string{"d", "n", "m", "family", "setting", "seed", "found", "few_rows", "rest_p", "tests", "replicates", "seconds", "error"}

func (r WideRow) record() []string {
	return []string{strconv.Itoa(r.D), strconv.Itoa(r.N), strconv.Itoa(r.M), r.Family, r.Setting, strconv.Itoa(r.Seed), strconv.Itoa(r.Found),
		strconv.FormatBool(r.FewRows), repro.FormatFloat(r.RestP), r.Tests, strconv.Itoa(r.Replicas), strconv.FormatFloat(r.Seconds, 'f', 3, 64), r.Err}
}

type wideJob struct {
	d, n, m, seed int
	family        string
	turned        bool
}

func (c *WideConfig) defaults() error {
	if c.Ds == nil {
		c.Ds = []int{20, 40, 60}
	}
	if c.Rows == nil {
		c.Rows = []float64{1, 2}
	}
	if c.Ms == nil {
		c.Ms = []float64{0, 1, 2, 0.25, 0.5}
	}
	if c.Families == nil {
		c.Families = DefaultWideFamilies
	}
	if c.Seeds == 0 {
		c.Seeds = 3
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	for _, f := range c.Families {
		if !slices.Contains(synth.WideFamilies, f) {
			return fmt.Errorf("dimstudy: unknown family %q (want one of %s)", f, strings.Join(synth.WideFamilies, ", "))
		}
	}
	return nil
}

// sizes returns the row counts of d columns: c.Ns, or c.Rows times d².
func (c *WideConfig) sizes(d int) []int {
	if c.Ns != nil {
		return c.Ns
	}
	var ns []int
	for _, mult := range c.Rows {
		ns = append(ns, int(math.Round(mult*float64(d*d))))
	}
	return ns
}

// wideMs returns the distinct true dimensions of c.Ms for d columns,
// ascending.
func (c *WideConfig) wideMs(d int) []int {
	var ms []int
	for _, f := range c.Ms {
		m := int(f)
		if f > 0 && f < 1 {
			m = max(1, int(math.Round(f*float64(d))))
		}
		if m < d && !slices.Contains(ms, m) {
			ms = append(ms, m)
		}
	}
	slices.Sort(ms)
	return ms
}

// RunWide executes the wide study and writes wide.csv (one row per data
// set, appended as they finish) and wide.md into c.Out. On cancellation
// both are written from the finished data sets.
func RunWide(ctx context.Context, c WideConfig) error {
	if err := c.defaults(); err != nil {
		return err
	}
	var jobs []wideJob
	var weights []float64
	for _, d := range c.Ds {
		for _, n := range c.sizes(d) {
			for _, turned := range []bool{false, true} {
				for _, m := range c.wideMs(d) {
					fams := c.Families
					if m == 0 {
						fams = []string{"gaussian"}
					}
					for _, f := range fams {
						for s := 0; s < c.Seeds; s++ {
							jobs = append(jobs, wideJob{d: d, n: n, m: m, seed: s, family: f, turned: turned})
							weights = append(weights, float64(n)*float64(d*d)*math.Log2(float64(m+2)))
						}
					}
				}
			}
		}
	}
	return runStudy(ctx, study[WideRow]{out: c.Out, name: "wide", label: "wide dim study", workers: c.Workers, progress: c.Progress,
		weights: weights, header: wideHeader, record: WideRow.record, markdown: c.markdown,
		do: func(ctx context.Context, i int) ([]WideRow, error) { return c.runJob(ctx, jobs[i]) }})
}

func setting(turned bool) string {
	if turned {
		return "turned"
	}
	return "aligned"
}

// runJob draws one data set and estimates its dimension with the defaults
// (one worker).
func (c *WideConfig) runJob(ctx context.Context, j wideJob) ([]WideRow, error) {
	row := WideRow{D: j.d, N: j.n, M: j.m, Family: j.family, Setting: setting(j.turned), Seed: j.seed, Found: -1, RestP: math.NaN()}
	x, _, err := synth.Wide{N: j.n, D: j.d, M: j.m, Family: j.family, Turned: j.turned}.Sample(
		rand.NewPCG(c.Seed, repro.Key("dim-wide-data", j.d, j.n, j.m, j.family, row.Setting, j.seed)))
	if err != nil {
		return nil, err
	}
	rec := probe.NewRecorder()
	start := time.Now()
	rep, err := ngca.EstimateDim(probe.WithRecorder(ctx, rec), x, ngca.DimOptions{Workers: 1,
		Src: rand.NewPCG(c.Seed, repro.Key("dim-wide-test", j.d, j.n, j.m, j.family, row.Setting, j.seed))})
	row.Seconds = time.Since(start).Seconds()
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		row.Err = err.Error()
		return []WideRow{row}, nil
	}
	row.Found, row.FewRows, row.RestP = rep.Dim, rep.FewRows, rep.Remainder.PValue
	var ts []string
	for _, t := range rep.Tests {
		ts = append(ts, strconv.Itoa(t.K)+":"+strconv.FormatFloat(t.PValue, 'g', 3, 64))
		row.Replicas += t.Replicates
	}
	set, _ := rec.DimOf(rep)
	row.Replicas += set.Bootstrap
	row.Tests = strings.Join(ts, " ")
	return []WideRow{row}, nil
}

// markdown summarises the rows: per d and n, the data sets answered right
// per family and setting (rows) and true m (columns), the answers of the
// wrong ones, the type-I error on Gaussian data and the times.
func (c *WideConfig) markdown(rows []WideRow) string {
	var b strings.Builder
	b.WriteString("# Wide dimension study\n\nngca.EstimateDim with its defaults (α = 0.05, B = 39), one core per data set. " +
		"A cell is right/data sets, followed by the wrong answers in brackets; `+` marks an answer whose test of the directions left rejected.\n")
	for _, d := range c.Ds {
		for _, n := range c.sizes(d) {
			var sub []WideRow
			for _, r := range rows {
				if r.D == d && r.N == n {
					sub = append(sub, r)
				}
			}
			if len(sub) == 0 {
				continue
			}
			ms := c.wideMs(d)
			fmt.Fprintf(&b, "\n## d = %d, n = %d (%.3g·d²)\n\n| family | setting |", d, n, float64(n)/float64(d*d))
			for _, m := range ms {
				fmt.Fprintf(&b, " m = %d |", m)
			}
			b.WriteString("\n|---|---|" + strings.Repeat("---|", len(ms)) + "\n")
			for _, f := range append([]string{"gaussian"}, c.Families...) {
				for _, set := range []string{"aligned", "turned"} {
					fmt.Fprintf(&b, "| %s | %s |", f, set)
					for _, m := range ms {
						fmt.Fprintf(&b, " %s |", cell(sub, func(r WideRow) bool { return r.Family == f && r.Setting == set && r.M == m }))
					}
					b.WriteString("\n")
				}
			}
			var secs []float64
			for _, r := range sub {
				secs = append(secs, r.Seconds)
			}
			right, total := 0, 0
			for _, r := range sub {
				if r.M > 0 {
					total++
					if r.Found == r.M {
						right++
					}
				}
			}
			fmt.Fprintf(&b, "\nRight for m > 0: %d of %d; type-I error (Gaussian data answered > 0): %s; median %.2f s, longest %.1f s per data set.\n",
				right, total, wideTypeI(sub), repro.Median(secs), slices.Max(secs))
		}
	}
	return b.String()
}

// cell formats the rows that match keep: right/total and the wrong
// answers.
func cell(rows []WideRow, keep func(WideRow) bool) string {
	right, total := 0, 0
	var wrong []string
	for _, r := range rows {
		if !keep(r) {
			continue
		}
		total++
		switch {
		case r.Err != "":
			wrong = append(wrong, "error")
		case r.Found == r.M:
			right++
		default:
			s := strconv.Itoa(r.Found)
			if r.RestP <= 0.05 {
				s += "+"
			}
			wrong = append(wrong, s)
		}
	}
	if total == 0 {
		return ""
	}
	s := fmt.Sprintf("%d/%d", right, total)
	if len(wrong) > 0 {
		s += " (" + strings.Join(wrong, ", ") + ")"
	}
	return s
}

func wideTypeI(rows []WideRow) string {
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
	return fmt.Sprintf("%d/%d", wrong, total)
}
