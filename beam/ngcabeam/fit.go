package ngcabeam

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/fitfile"
	"github.com/ngca-go/ngca/internal/methods"
	"github.com/ngca-go/ngca/internal/probe"
)

// DefaultSample is the size of the sample Fit draws when FitOptions.Sample
// is 0: on the paper's data a sample of 10⁵ rows finds the subspace to
// ε ≈ 10⁻⁵ (docs/big-files.md).
const DefaultSample = 100000

// The sources of a fit with seed S are those of "ngca fit -seed S": the
// estimator's rand.NewPCG(S, seedStream) (and EstimateDim's), the
// check's rand.NewPCG(S, checkStream).
const (
	seedStream  = 0
	checkStream = 1
)

// FitOptions configure Fit. The zero value, with Dim set, fits the
// library's default estimator (RobustWFLSNGCA) to a sample of
// DefaultSample rows drawn with seed 0.
type FitOptions struct {
	// Method is the estimator, as "ngca fit -method" takes it: wflsngca,
	// lsngca, mipp, imak, sngca or wflsngca-robust (or robust), or its
	// label; "" means wflsngca-robust, or wflsngca with Full. With Full it
	// must be wflsngca, lsngca or lsldg (LSLDG: Fitted.Model).
	Method string
	// Dim is the dimension of the non-Gaussian subspace; 0 means the one
	// ngca.EstimateDim finds in the sample.
	Dim int
	// Sample is the number of rows of the sample; 0 means DefaultSample.
	Sample int
	// Seed is the seed of the sample's hashes, of the estimator's source
	// rand.NewPCG(Seed, 0), of EstimateDim's (the same) and of Check's
	// rand.NewPCG(Seed, 1), as "ngca fit -seed" sets them.
	Seed uint64
	// Full fits every row rather than the sample: the widths and ridges
	// are those cross-validation chose on the sample (with its centers),
	// and the least-squares sums over all the rows are formed by every
	// worker and merged (ngca.Plan), in Plan.Passes passes over the rows.
	Full bool
	// Check judges the fit with ngca.Check on the sample (Fitted.Check).
	Check bool
	// Workers is the number of goroutines of the one worker that fits the
	// sample; 0 means all its CPUs.
	Workers int
	// The estimator's settings, as the flags of "ngca fit" (0 or nil: the
	// library's defaults); those that do not apply to Method are ignored.
	Centers, Folds                   int
	Widths, Ridges, VWidths, VRidges []float64
	Iterations                       int
	Threshold                        float64
	// Audit applies the audit of "ngca fit" to the sample before it is
	// fitted (see Audited): Outliers is its -outliers (far, drop, or
	// keep; "" keeps every row) and Listed says that "-cols" listed the
	// columns (none is then left out as an index or an id). FitInput
	// names the columns by Read's Input; Fit numbers them from 1.
	Audit    bool
	Outliers string
	Listed   bool
}

// Fitted is a fit, as Fit returns it.
type Fitted struct {
	// Method is the key of the estimator that ran ("lsldg" for LSLDG),
	// and Dim the dimension, given or (DimAuto) estimated.
	Method  string
	Dim     int
	DimAuto bool
	// Result is the JSON of the ngca.Result (ngca.Result.MarshalJSON);
	// empty for LSLDG.
	Result []byte
	// Settings is the JSON of the settings the fit used, defaults
	// resolved, as "ngca fit -json" writes them under "settings": also
	// those that only the fit's details hold (MIPP's evaluations and
	// threshold, SNGCA's iterations), which Result does not carry.
	Settings []byte
	// Plan, with Full, is the ngca.Plan after its last pass
	// (MarshalBinary).
	Plan []byte
	// Check is the JSON of the ngca.CheckReport with FitOptions.Check, or
	// CheckError says why the check could not be made.
	Check      []byte
	CheckError string
	// Rows is the number of rows fitted (the sample's, or with Full all of
	// them), Of the number of rows of the input, Sample the size of the
	// sample.
	Rows, Of, Sample int
	Full             bool
	Seed             uint64
	// Audit, with FitOptions.Audit, is what the audit of the sample left
	// out: the JSON of Audited (DecodeAudit).
	Audit []byte
}

// Decode returns the fit's ngca.Result.
func (f Fitted) Decode() (*ngca.Result, error) {
	if len(f.Result) == 0 {
		return nil, errors.New("ngcabeam: a fit without a Result (an LSLDG fit: use Model)")
	}
	var r ngca.Result
	if err := json.Unmarshal(f.Result, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Model returns the LSLDG model of a fit of Method lsldg.
func (f Fitted) Model() (*ngca.LSLDGModel, error) {
	var p ngca.Plan
	if err := p.UnmarshalBinary(f.Plan); err != nil {
		return nil, err
	}
	return p.Model()
}

// Fit returns a singleton PCollection of the Fitted: the fit of an
// estimator of the library to a PCollection of Rows. The rows' sample
// (Sample, k = FitOptions.Sample) is fitted on one worker, after
// ngca.EstimateDim if Dim is 0, and judged by ngca.Check on the sample if
// asked; the fit is the same bits whatever the split of the input, the
// number of workers and the runner, since the sample is. With Full, the
// fit on the sample gives an ngca.Plan, whose passes then run over every
// row (Passes); the result equals the estimator's fit to all the rows with
// the sample's centers and choices to rounding (merges in another order
// give other last bits). A fit that fails (too few rows, a constant
// column, a singular problem) fails the pipeline with the library's
// error.
func Fit(s beam.Scope, rows beam.PCollection, opt FitOptions) beam.PCollection {
	return fit(s, rows, beam.Create(s.Scope("ngcabeam.Fit"), Input{}), opt)
}

// FitInput is Fit of the rows that Read returns with their input (its
// singleton PCollection of the Input), which the audit of
// FitOptions.Audit names the columns and the files by.
func FitInput(s beam.Scope, rows, input beam.PCollection, opt FitOptions) beam.PCollection {
	return fit(s, rows, input, opt)
}

func fit(s beam.Scope, rows, input beam.PCollection, opt FitOptions) beam.PCollection {
	s = s.Scope("ngcabeam.Fit")
	k := opt.Sample
	if k == 0 {
		k = DefaultSample
	}
	sample := Sample(s, rows, k, opt.Seed)
	if !opt.Full {
		return beam.ParDo(s, &fitFn{Opt: opt}, sample, beam.SideInput{Input: input})
	}
	first := beam.ParDo(s, &fitFn{Opt: opt}, sample, beam.SideInput{Input: input})
	plan := beam.ParDo(s, planOf, first)
	done := passes(s, rows, plan, beam.ParDo(s, auditOf, first), passesOf(opt.Method))
	return beam.ParDo(s, &finishFn{Opt: opt}, done, beam.SideInput{Input: first}, beam.SideInput{Input: sample})
}

// passesOf returns the passes of a full fit of the method.
func passesOf(method string) int {
	switch fullMethod(method) {
	case "lsngca":
		return 3
	case "lsldg":
		return 2
	}
	return 4
}

// fullMethod returns the key of a full fit's method, "" if it has none.
func fullMethod(method string) string {
	switch strings.ToLower(strings.TrimSpace(method)) {
	case "", "wflsngca", "wf-lsngca":
		return "wflsngca"
	case "lsngca":
		return "lsngca"
	case "lsldg":
		return "lsldg"
	}
	return ""
}

// CheckFitOptions returns an error for options that Fit cannot run: an
// unknown method, a Full fit of an estimator other than WF-LSNGCA, LSNGCA
// or LSLDG, or a negative size.
func CheckFitOptions(opt FitOptions) error {
	switch {
	case opt.Sample < 0:
		return fmt.Errorf("ngcabeam: a sample of %d rows", opt.Sample)
	case opt.Dim < 0:
		return fmt.Errorf("ngcabeam: Dim = %d", opt.Dim)
	case opt.Full && fullMethod(opt.Method) == "":
		return fmt.Errorf("ngcabeam: a full-data fit takes wflsngca, lsngca or lsldg, not %q", opt.Method)
	case opt.Full:
		return nil
	}
	_, err := methods.Lookup(or(opt.Method, "wflsngca-robust"))
	return err
}

// settings returns the estimator settings of opt with dimension dim.
func (opt FitOptions) settings(dim int) methods.Settings {
	return methods.Settings{Dim: dim, Workers: opt.Workers, Src: rand.NewPCG(opt.Seed, seedStream),
		Centers: opt.Centers, Folds: opt.Folds, Widths: opt.Widths, Ridges: opt.Ridges, VWidths: opt.VWidths, VRidges: opt.VRidges,
		Iterations: opt.Iterations, Threshold: opt.Threshold}
}

// fitFn fits the sample: the whole fit, or with Full the fit that makes
// the plan (Fitted.Plan, before its passes).
type fitFn struct {
	Opt FitOptions
}

func (f *fitFn) ProcessElement(ctx context.Context, s Sampled, in Input) (Fitted, error) {
	opt := f.Opt
	if err := CheckFitOptions(opt); err != nil {
		return Fitted{}, err
	}
	x := s.Rows.Matrix()
	out := Fitted{Dim: opt.Dim, Rows: s.Rows.Len(), Of: s.Of, Sample: s.Rows.Len(), Full: opt.Full, Seed: opt.Seed}
	beam.NewCounter(counterNS, "fit.sample").Inc(ctx, int64(out.Rows))
	beam.NewCounter(counterNS, "fit.of").Inc(ctx, int64(out.Of))
	if opt.Audit && out.Rows > 0 {
		var err error
		if x, out.Audit, err = auditSample(ctx, x, in, out.Rows == out.Of, opt); err != nil {
			return out, err
		}
		out.Rows, _ = x.Dims()
	}
	what := fmt.Sprintf("the sample of %d of the %d rows", out.Rows, out.Of)
	if out.Rows == out.Of {
		what = fmt.Sprintf("the %d rows", out.Rows)
	}
	if opt.Full && fullMethod(opt.Method) == "lsldg" {
		out.Method = "lsldg"
		l := &ngca.LSLDG{NumCenters: opt.Centers, Widths: opt.Widths, Ridges: opt.Ridges, Folds: opt.Folds,
			Src: rand.NewPCG(opt.Seed, seedStream), Workers: opt.Workers}
		_, plan, err := l.FitPlan(ctx, x)
		if err != nil {
			return out, fmt.Errorf("LSLDG on %s: %w", what, err)
		}
		out.Plan, err = plan.MarshalBinary()
		return out, err
	}
	if out.Dim == 0 {
		rep, err := ngca.EstimateDim(ctx, x, ngca.DimOptions{Src: rand.NewPCG(opt.Seed, seedStream), Workers: opt.Workers})
		if err != nil {
			return out, fmt.Errorf("the dimension test on %s: %w", what, err)
		}
		if rep.Dim == 0 {
			return out, fmt.Errorf("the dimension test found no non-Gaussian direction in %s: there is nothing to fit (set the dimension to fit anyway)", what)
		}
		out.Dim, out.DimAuto = rep.Dim, true
	}
	key := or(opt.Method, "wflsngca-robust")
	if opt.Full {
		key = fullMethod(opt.Method)
	}
	m, err := methods.Lookup(key)
	if err != nil {
		return out, err
	}
	out.Method = m.Key
	est := m.New(opt.settings(out.Dim))
	rec := probe.NewRecorder()
	ctx = probe.WithRecorder(ctx, rec)
	var res *ngca.Result
	if opt.Full {
		var plan *ngca.Plan
		res, plan, err = est.(interface {
			FitPlan(context.Context, mat.Matrix) (*ngca.Result, *ngca.Plan, error)
		}).FitPlan(ctx, x)
		if err == nil {
			out.Plan, err = plan.MarshalBinary()
		}
	} else {
		res, err = est.Fit(ctx, x)
	}
	if err != nil {
		return out, fmt.Errorf("%s on %s: %w", m.Label, what, err)
	}
	if out.Result, err = json.Marshal(res); err != nil {
		return out, err
	}
	if out.Settings, err = json.Marshal(fitfile.SettingsOf(rec, res.Report)); err != nil {
		return out, err
	}
	if opt.Check && !opt.Full {
		out.Check, out.CheckError = check(ctx, m, opt, out.Dim, x, res)
	}
	return out, nil
}

// check judges res, a fit of m to x or to rows x is a sample of, with
// ngca.Check on x.
func check(ctx context.Context, m methods.Method, opt FitOptions, dim int, x mat.Matrix, res *ngca.Result) ([]byte, string) {
	rep, err := ngca.Check(ctx, m.New(opt.settings(dim)), x, res, ngca.CheckOptions{Src: rand.NewPCG(opt.Seed, checkStream), Workers: opt.Workers})
	if err != nil {
		return nil, err.Error()
	}
	b, err := json.Marshal(rep)
	if err != nil {
		return nil, err.Error()
	}
	return b, ""
}

// planOf returns the plan of a fit.
func planOf(f Fitted) []byte { return f.Plan }

// finishFn makes the Fitted of a full fit from its plan after the passes.
type finishFn struct {
	Opt FitOptions
}

func (f *finishFn) ProcessElement(ctx context.Context, done []byte, first Fitted, s Sampled) (Fitted, error) {
	var p ngca.Plan
	if err := p.UnmarshalBinary(done); err != nil {
		return Fitted{}, err
	}
	out := first
	out.Plan, out.Rows, out.Check = done, p.Rows(), nil
	if a, err := first.DecodeAudit(); err != nil {
		return out, err
	} else if a != nil && a.OutliersDropped != nil {
		// The rows of the passes that the rule set aside.
		k := out.Of - out.Rows
		a.OutliersDropped = &k
		if out.Audit, err = json.Marshal(a); err != nil {
			return out, err
		}
	}
	if out.Method == "lsldg" {
		out.Result = nil
		return out, nil
	}
	res, err := p.Result()
	if err != nil {
		return out, err
	}
	if out.Result, err = json.Marshal(res); err != nil {
		return out, err
	}
	if f.Opt.Check {
		m, err := methods.Lookup(out.Method)
		if err != nil {
			return out, err
		}
		x := s.Rows.Matrix()
		if len(first.Audit) > 0 {
			rule, err := newRowRule(first.Audit, s.Rows.Cols)
			if err != nil {
				return out, err
			}
			x = rule.apply(x) // the sample's rows that the audit's rule keeps
		}
		out.Check, out.CheckError = check(ctx, m, f.Opt, out.Dim, x, res)
	}
	return out, nil
}

// Passes runs the passes of an ngca.Plan over a PCollection of Rows: plan
// is a singleton PCollection of the plan's MarshalBinary, before its first
// pass, and n its number of passes (Plan.Passes); Passes returns the
// singleton PCollection of the plan after them. Each pass sends the plan
// to the workers as a side input; every worker adds the rows of a bundle
// to the pass's ngca.Sums and emits them, and a combine merges them, from
// which the plan takes its next step (Plan.Next). A row with a missing
// value fails the pipeline.
func Passes(s beam.Scope, rows, plan beam.PCollection, n int) beam.PCollection {
	return passes(s, rows, plan, beam.Create(s.Scope("ngcabeam.Passes"), []byte(nil)), n)
}

// passes is Passes, each row first taken through the rule of the audit
// (a singleton PCollection of Fitted.Audit; empty: every row as it is).
func passes(s beam.Scope, rows, plan, rule beam.PCollection, n int) beam.PCollection {
	s = s.Scope("ngcabeam.Passes")
	for i := 0; i < n; i++ {
		ps := s.Scope(fmt.Sprintf("pass%d", i+1))
		sums := beam.ParDo(ps, &sumFn{}, rows, beam.SideInput{Input: plan}, beam.SideInput{Input: rule})
		total := beam.Combine(ps, &mergeFn{}, sums)
		plan = beam.ParDo(ps, nextPass, total, beam.SideInput{Input: plan})
	}
	return plan
}

// sumFn adds the rows of a bundle to the sums of the plan's next pass.
type sumFn struct {
	key     [32]byte
	plan    *ngca.Plan
	sums    *ngca.Sums
	ruleKey [32]byte
	rule    *rowRule
	ruled   bool
	aside   beam.Counter
}

func (f *sumFn) Setup() { f.aside = beam.NewCounter(counterNS, cAside) }

// rowsOf returns the rows of x (0 for nil).
func rowsOf(x *mat.Dense) int {
	if x == nil {
		return 0
	}
	n, _ := x.Dims()
	return n
}

func (f *sumFn) ProcessElement(ctx context.Context, r Rows, plan, rule []byte, emit func([]byte)) error {
	if f.sums == nil {
		if k := sha256.Sum256(plan); f.plan == nil || k != f.key {
			var p ngca.Plan
			if err := p.UnmarshalBinary(plan); err != nil {
				return err
			}
			f.plan, f.key = &p, k
		}
		if f.plan.Done() {
			return fmt.Errorf("ngcabeam: a pass of a plan whose %d passes are done", f.plan.Passes())
		}
		f.sums = f.plan.NewSums()
	}
	if err := r.check(); err != nil {
		return err
	}
	for i, m := range r.Missing {
		if m {
			return fmt.Errorf("%s has a missing value: a fit takes complete rows (read with Missing error or drop)", r.where(i))
		}
	}
	x := r.Matrix()
	if len(rule) > 0 {
		if k := auditKey(rule); !f.ruled || k != f.ruleKey {
			var err error
			if f.rule, err = newRowRule(rule, r.Cols); err != nil {
				return err
			}
			f.ruleKey, f.ruled = k, true
		}
		kept := f.rule.apply(x)
		if k := r.Len() - rowsOf(kept); k > 0 && f.plan.Pass() == 0 {
			f.aside.Inc(ctx, int64(k))
		}
		if x = kept; x == nil {
			return nil
		}
	}
	if err := f.sums.Add(x); err != nil {
		return fmt.Errorf("rows of %s: %w", r.Source, err)
	}
	return nil
}

func (f *sumFn) FinishBundle(_, _ []byte, emit func([]byte)) error {
	if f.sums == nil {
		return nil
	}
	b, err := f.sums.MarshalBinary()
	f.sums = nil
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// mergeFn merges the sums of a pass.
type mergeFn struct{}

func (mergeFn) MergeAccumulators(a, b []byte) ([]byte, error) {
	switch {
	case len(a) == 0:
		return b, nil
	case len(b) == 0:
		return a, nil
	}
	var x, y ngca.Sums
	if err := x.UnmarshalBinary(a); err != nil {
		return nil, err
	}
	if err := y.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	if err := x.Merge(&y); err != nil {
		return nil, err
	}
	return x.MarshalBinary()
}

// nextPass returns the plan after the pass whose sums are total.
func nextPass(total, plan []byte) ([]byte, error) {
	var p ngca.Plan
	if err := p.UnmarshalBinary(plan); err != nil {
		return nil, err
	}
	var s ngca.Sums
	if err := s.UnmarshalBinary(total); err != nil {
		return nil, err
	}
	q, err := p.Next(&s)
	if err != nil {
		return nil, fmt.Errorf("%s, pass %d of %d: %w", p.Method(), p.Pass()+1, p.Passes(), err)
	}
	return q.MarshalBinary()
}

func init() {
	beam.RegisterType(reflect.TypeOf(Fitted{}))
	beam.RegisterType(reflect.TypeOf(FitOptions{}))
	register.DoFn3x2[context.Context, Sampled, Input, Fitted, error](&fitFn{})
	register.DoFn4x2[context.Context, []byte, Fitted, Sampled, Fitted, error](&finishFn{})
	register.DoFn5x1[context.Context, Rows, []byte, []byte, func([]byte), error](&sumFn{})
	register.Function1x1(auditOf)
	register.Combiner1[[]byte](&mergeFn{})
	register.Function1x1(planOf)
	register.Function2x2(nextPass)
	register.Emitter1[[]byte]()
}
