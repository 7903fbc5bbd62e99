// Package benchmark reproduces Table 2 of Shiino, Sasaki, Niu and Sugiyama
// (ACML 2017, §4.3): LIBSVM benchmark data sets with appended Gaussian
// noise columns are reduced to their original dimension by PCA, MIPP,
// LSNGCA and WF-LSNGCA (or not at all) and classified by LIBSVM's RBF
// C-SVC; the table gives the mean and standard deviation of the test
// misclassification rate. The protocol is that of the authors' code (see
// Dataset, Draw and Config.Run, and docs/fidelity.md),
// except that the features are standardised over the whole data set rather
// than over each run's points, which alone reproduces the published rates
// (see OverDataset).
//
// It needs LIBSVM at run time (see package libsvm); it is used by the ngca
// command, never by the library.
package benchmark

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
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/ngca-go/ngca"
	"github.com/ngca-go/ngca/internal/atomicfile"
	"github.com/ngca-go/ngca/research/internal/libsvm"
	"github.com/ngca-go/ngca/research/internal/repro"
)

// Config configures the study. Its zero value (with Out set) runs the
// paper's study on the LIBSVM files in DefaultDataDir.
type Config struct {
	// Data is the folder of the LIBSVM files; "" means DefaultDataDir.
	// Run reports the files missing from it as a *MissingDataError.
	Data string
	// Out is the directory the results are written to (created if
	// needed).
	Out string
	// Datasets names the data sets to run; nil means DefaultDatasets().
	// Table rows follow the paper's order whatever this order is.
	Datasets []string
	// Dims lists the total dimensions d; nil means 50 and 100.
	Dims []int
	// Runs is the number of runs per data set and d; 0 means 50.
	Runs int
	// N overrides every data set's n (training and test sizes); 0 means
	// the protocol's.
	N int
	// Methods lists the methods; nil means Methods().
	Methods []Method
	// Standardise says how the columns are standardised; the zero value,
	// OverDataset, reproduces the published numbers.
	Standardise Standardisation
	// Seed seeds every random draw.
	Seed uint64
	// Workers is the number of runs at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, if not nil, gets a progress bar (drawn only on a terminal).
	Progress io.Writer
	// Log, if not nil, gets a line for each decision of a resumed study
	// (rows run again because the code changed).
	Log io.Writer
	// Hardware names the processor in the report and in runs.csv; ""
	// means /proc/cpuinfo's model name (see Platform).
	Hardware string
	// Resume keeps the rows of a runs.csv already in Out and runs only
	// the runs of this study that it lacks: it continues an interrupted
	// study, or adds methods or runs to a finished one. A row of this
	// study whose fingerprint (see fingerprint.go) is not the current
	// code's, or whose n is not this study's, is run again (Log says so);
	// rows of other data sets, d, methods or runs stay in the file
	// without entering the table.
	Resume bool
}

// Record is the outcome of one method on one run.
type Record struct {
	Dataset string
	// N is the number of training (and test) rows, D the dimension.
	N, D, Run int
	// Method is the method's Key.
	Method string
	// ErrorRate is the test misclassification rate; NaN if Failed.
	ErrorRate float64
	// Epsilon is the error ε (ngca.SubspaceError) of the method's
	// subspace against the span of the real features, the first m
	// columns (Draw appends the noise after them); NaN without a
	// reduction or if Failed.
	Epsilon float64
	// Seconds is the time of the reduction (fit and projections), and
	// SVMSeconds that of LIBSVM's training and prediction.
	Seconds, SVMSeconds float64
	// Failed reports that the method returned an error (Reason) on this
	// run.
	Failed bool
	Reason string
	// Path is the estimate the robust variant returned ("axes" or
	// "equivariant"); empty for the other methods.
	Path string
	// Fingerprint is the method's fingerprint when the run was made (see
	// fingerprint.go), Platform what it ran on (see Platform).
	Fingerprint, Platform string
}

// Result is what a study produced.
type Result struct {
	// Records holds every row of runs.csv, sorted (data set in the
	// paper's order, n, d, run, method in the paper's order): this
	// study's and, when resumed, those of other runs kept in the file.
	Records []Record
	// Jobs is the number of runs (data set, d, run) of the study,
	// Finished the number with a row for every method.
	Jobs, Finished int
	// Table is the Markdown of table2.md.
	Table string
}

// job is one run: a draw of one data set at one d, and the methods to
// apply to it.
type job struct {
	ds      Dataset
	n       int
	d       int
	run     int
	methods []Method
}

// defaults fills in the zero fields and checks the configuration.
func (c *Config) defaults() error {
	if c.Data == "" {
		c.Data = DefaultDataDir
	}
	if c.Datasets == nil {
		c.Datasets = DefaultDatasets()
	}
	c.Datasets = slices.Clone(c.Datasets)
	if c.Dims == nil {
		c.Dims = []int{50, 100}
	}
	if c.Runs == 0 {
		c.Runs = 50
	}
	if c.Methods == nil {
		c.Methods = Methods()
	}
	switch {
	case c.Runs < 0:
		return fmt.Errorf("runs = %d, want at least 1", c.Runs)
	case c.N < 0 || c.N%2 != 0:
		return fmt.Errorf("n = %d, want an even number ≥ 2 (or 0 for the protocol's)", c.N)
	case c.Workers < 0:
		return fmt.Errorf("workers = %d, want 0 (all CPUs) or more", c.Workers)
	case len(c.Datasets) == 0:
		return errors.New("no data set given")
	case len(c.Dims) == 0:
		return errors.New("no d given")
	case len(c.Methods) == 0:
		return errors.New("no method given")
	case c.Out == "":
		return errors.New("no output directory given")
	case c.Standardise != OverDataset && c.Standardise != OverSplit:
		return fmt.Errorf("unknown standardisation %v", c.Standardise)
	}
	for i, name := range c.Datasets {
		ds, err := Lookup(name)
		if err != nil {
			return err
		}
		c.Datasets[i] = ds.Name
		if ds.Missing != "" {
			return fmt.Errorf("%s is %s; it is listed in the table as such", ds.Name, ds.Missing)
		}
		for _, d := range c.Dims {
			if d <= ds.M {
				return fmt.Errorf("d = %d must exceed %s's m = %d (d − m noise columns are appended)", d, ds.Name, ds.M)
			}
		}
	}
	return nil
}

// selected returns the chosen data sets in the paper's order.
func (c *Config) selected() []Dataset {
	var out []Dataset
	for _, ds := range Datasets {
		for _, name := range c.Datasets {
			if ds.Name == name {
				out = append(out, ds)
				break
			}
		}
	}
	return out
}

// n returns the training (and test) size for ds.
func (c *Config) n(ds Dataset) int {
	if c.N > 0 {
		return c.N
	}
	return ds.N
}

// Run runs the study and writes into Out:
//
//   - runs.csv: one row per method and run, appended as each run finishes
//     (so that an interrupted or killed study keeps them), then rewritten
//     sorted at the end;
//   - table2.md: the table, rewritten from the rows after each run, so
//     that it always says how many runs each row has so far (see
//     markdown).
//
// Every run draws its data with Draw from its own seed, derived from Seed
// and (data set, n, d, run), and every method its own randomness from
// that and the method, so results are bit-identical for any Workers and
// any order in which runs finish, and do not change when data sets, d or
// methods are added or removed. On each run every method is fitted on the
// training rows and reduces them to m dimensions; LIBSVM (RBF C-SVC,
// C = 1, γ = 1/number of features) is trained on the reduced training rows
// and the error rate measured on the reduced test rows. A method that
// fails on a run is recorded as failed, not an error of the study.
//
// When ctx is cancelled, Run stops starting runs, writes the files from
// the finished ones and returns them with an error wrapping ctx's error.
func (c Config) Run(ctx context.Context) (*Result, error) {
	if err := c.defaults(); err != nil {
		return nil, err
	}
	sets := c.selected()
	data, err := c.load(sets)
	if err != nil {
		return nil, err
	}
	// The fingerprints take a few seconds; an interruption then still
	// writes the files.
	fps, err := c.fingerprints(context.WithoutCancel(ctx))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, err
	}
	removeTemporary(c.Out)
	var kept []Record
	if c.Resume {
		if kept, err = c.resumed(fps); err != nil {
			return nil, err
		}
	}
	jobs, weights := c.jobs(sets, kept)
	platform := Platform(c.Hardware, c.workers())
	res := &Result{Jobs: c.Runs * len(sets) * len(c.Dims)}
	rows, runErr := repro.RunLogged(ctx,
		repro.Jobs{N: len(jobs), Workers: c.workers(), Weights: weights, Progress: c.Progress, Label: "benchmark"},
		repro.Table[Record]{Path: filepath.Join(c.Out, "runs.csv"), Header: csvHeader, Record: Record.csv, Kept: kept,
			Saved: func(rows []Record) error { return c.writeTable(rows) }},
		func(ctx context.Context, i int) ([]Record, error) {
			recs, err := c.runJob(ctx, jobs[i], data[jobs[i].ds.Name], fps)
			for k := range recs {
				recs[k].Platform = platform
			}
			return recs, err
		})
	if rows == nil && runErr != nil && !errors.Is(runErr, context.Canceled) && !errors.Is(runErr, context.DeadlineExceeded) {
		return nil, runErr
	}
	res.Records = rows
	res.Finished = c.finished(rows)
	if runErr != nil && !errors.Is(runErr, context.Canceled) && !errors.Is(runErr, context.DeadlineExceeded) {
		return res, runErr
	}
	if err := c.write(res); err != nil {
		return res, err
	}
	if runErr != nil {
		return res, fmt.Errorf("interrupted: %d of %d runs finished, results so far written to %s: %w", res.Finished, res.Jobs, c.Out, runErr)
	}
	return res, nil
}

// load checks that the study can run (its files, LIBSVM, enough rows of
// each class) and reads the data sets.
func (c Config) load(sets []Dataset) (map[string]*Data, error) {
	if err := missingFiles(c.Data, sets...); err != nil {
		return nil, err
	}
	if err := libsvm.Available(); err != nil {
		return nil, err
	}
	data := make(map[string]*Data, len(sets))
	for _, ds := range sets {
		x, err := ds.Load(c.Data)
		if err != nil {
			return nil, err
		}
		pos, neg := x.Count()
		if n := c.n(ds); pos < n || neg < n {
			return nil, fmt.Errorf("%s has %d positive and %d negative rows, but n = %d needs %d of each (n/2 for training, n/2 for testing)", ds.Name, pos, neg, n, n)
		}
		data[ds.Name] = x
	}
	return data, nil
}

// jobs lists the runs with methods still to apply (all of them unless
// resumed) in run-major order, so that an interrupted study has about as
// many runs in every row, and their expected costs.
func (c Config) jobs(sets []Dataset, kept []Record) ([]job, []float64) {
	done := map[runKey]bool{}
	for _, r := range kept {
		done[r.key()] = true
	}
	var jobs []job
	var weights []float64
	for run := 1; run <= c.Runs; run++ {
		for _, ds := range sets {
			for _, d := range c.Dims {
				j := job{ds: ds, n: c.n(ds), d: d, run: run}
				for _, m := range c.Methods {
					if !done[runKey{ds.Name, j.n, d, run, m.Key}] {
						j.methods = append(j.methods, m)
					}
				}
				if len(j.methods) > 0 {
					jobs = append(jobs, j)
					weights = append(weights, c.weight(j))
				}
			}
		}
	}
	return jobs, weights
}

// inStudy reports whether r is a row of this study: a run of its grid,
// one of its methods.
func (c *Config) inStudy(r Record) bool {
	ds, err := Lookup(r.Dataset)
	if err != nil || r.Run < 1 || r.Run > c.Runs || r.N != c.n(ds) ||
		!slices.Contains(c.Datasets, ds.Name) || !slices.Contains(c.Dims, r.D) {
		return false
	}
	return slices.ContainsFunc(c.Methods, func(m Method) bool { return m.Key == r.Method })
}

// finished returns the number of runs of the study with a row for every
// method.
func (c *Config) finished(rows []Record) int {
	type run struct {
		dataset string
		d, run  int
	}
	count := map[run]int{}
	seen := map[runKey]bool{}
	for _, r := range rows {
		if c.inStudy(r) && !seen[r.key()] {
			seen[r.key()] = true
			count[run{r.Dataset, r.D, r.Run}]++
		}
	}
	n := 0
	for _, k := range count {
		if k == len(c.Methods) {
			n++
		}
	}
	return n
}

// write sorts the records and writes runs.csv and table2.md from them.
func (c Config) write(res *Result) error {
	c.sort(res.Records)
	if err := repro.WriteRows(filepath.Join(c.Out, "runs.csv"), csvHeader, res.Records, Record.csv); err != nil {
		return err
	}
	res.Table = c.markdown(res.Records)
	return atomicfile.WriteFile(filepath.Join(c.Out, "table2.md"), []byte(res.Table), 0o666)
}

// removeTemporary removes the temporary files that a killed run of the
// study may have left in out while it replaced runs.csv or table2.md
// (see package atomicfile), which it does after every run.
func removeTemporary(out string) {
	for _, name := range []string{"runs.csv", "table2.md"} {
		tmp, _ := filepath.Glob(filepath.Join(out, "."+name+".*.tmp"))
		for _, f := range tmp {
			os.Remove(f)
		}
	}
}

// writeTable writes table2.md from the rows so far.
func (c Config) writeTable(rows []Record) error {
	return atomicfile.WriteFile(filepath.Join(c.Out, "table2.md"), []byte(c.markdown(rows)), 0o666)
}

func (c *Config) workers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// weight is a run's expected cost for the progress bar. The NGCA fits
// dominate it, and with b = 100 centers whatever n much of their work does
// not grow with n: measured, a run costs about d·(n + 2000) (at d = 50,
// 10 s for n = 200 and 19 s for n = 2000; twice as much at d = 100),
// counted here per method to apply.
func (c *Config) weight(j job) float64 {
	return float64(j.d) * float64(j.n+2000) * float64(len(j.methods))
}

// runJob draws one run's data and applies the job's methods to it.
func (c *Config) runJob(ctx context.Context, j job, data *Data, fps map[string]string) ([]Record, error) {
	split, err := Draw(data, j.n, j.d, c.Standardise, rand.NewPCG(c.Seed, repro.Key("benchmark-data", j.ds.Name, j.n, j.d, j.run)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", j.ds.Name, err)
	}
	var recs []Record
	for _, m := range j.methods {
		rec, _, err := c.apply(ctx, m, split, j.ds.M, rand.NewPCG(c.Seed, repro.Key("benchmark-fit", j.ds.Name, j.n, j.d, j.run, m.Key)))
		if err != nil {
			return nil, err
		}
		rec.Dataset, rec.N, rec.D, rec.Run, rec.Fingerprint = j.ds.Name, j.n, j.d, j.run, fps[m.Key]
		recs = append(recs, rec)
	}
	return recs, nil
}

// apply applies the method m to one run's data, reducing it to dim
// dimensions with randomness from src, and classifies the test rows. It
// returns the record's results and the reduction (nil without one or if
// the method failed); the error is ctx's, if it was cancelled.
func (c *Config) apply(ctx context.Context, m Method, split *Split, dim int, src rand.Source) (Record, *reduction, error) {
	if err := ctx.Err(); err != nil {
		return Record{}, nil, err
	}
	rec := Record{Method: m.Key, ErrorRate: math.NaN(), Epsilon: math.NaN()}
	train, test := split.Train, split.Test
	var red *reduction
	var err error
	if m.reduce != nil {
		start := time.Now()
		red, err = m.reduce(ctx, split.Train, split.Test, dim, src)
		rec.Seconds = time.Since(start).Seconds()
		if err == nil {
			train, test, rec.Path = red.train, red.test, red.path
			rec.Epsilon = realFeatureError(red.basis, dim)
		}
	}
	if err == nil {
		start := time.Now()
		rec.ErrorRate, err = classify(train, split.YTrain, test, split.YTest)
		rec.SVMSeconds = time.Since(start).Seconds()
	}
	if err != nil {
		if ctx.Err() != nil {
			return Record{}, nil, ctx.Err()
		}
		rec.Failed, rec.Reason, rec.ErrorRate, rec.Epsilon, rec.Path, red = true, err.Error(), math.NaN(), math.NaN(), "", nil
	}
	return rec, red, nil
}

// realFeatureError returns ε between span(basis) (d×m) and the span of
// the first m coordinate axes, where the protocol puts the real features.
func realFeatureError(basis *mat.Dense, m int) float64 {
	d, _ := basis.Dims()
	truth := mat.NewDense(d, m, nil)
	for k := 0; k < m; k++ {
		truth.Set(k, k, 1)
	}
	return ngca.SubspaceError(truth, basis)
}

// classify trains LIBSVM with its defaults (C = 1, γ = 1/number of
// columns) and returns the misclassification rate on the test rows.
func classify(train *mat.Dense, yTrain []float64, test *mat.Dense, yTest []float64) (float64, error) {
	model, err := libsvm.Train(train, yTrain, libsvm.Params{})
	if err != nil {
		return math.NaN(), err
	}
	defer model.Close()
	pred, err := model.Predict(test)
	if err != nil {
		return math.NaN(), err
	}
	wrong := 0
	for i, p := range pred {
		if p != yTest[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(yTest)), nil
}

// sort orders records by data set (the paper's order), n, d, run and
// method (the paper's order).
func (c *Config) sort(recs []Record) {
	dsRank, mRank := map[string]int{}, map[string]int{}
	for i, ds := range Datasets {
		dsRank[ds.Name] = i
	}
	for i, m := range Methods() {
		mRank[m.Key] = i
	}
	slices.SortStableFunc(recs, func(a, b Record) int {
		for _, cmp := range []int{dsRank[a.Dataset] - dsRank[b.Dataset], a.N - b.N, a.D - b.D, a.Run - b.Run, mRank[a.Method] - mRank[b.Method]} {
			if cmp != 0 {
				return cmp
			}
		}
		return 0
	})
}

// Refit makes again the runs of the records (with c's Data, Seed and
// Standardise) and returns what it gets, in the same order. Made by the
// same code, their results (all but Seconds, SVMSeconds and Platform)
// are those of the records to the last bit: the tests of committed
// rows compare them.
func (c Config) Refit(ctx context.Context, recs []Record) ([]Record, error) {
	if c.Data == "" {
		c.Data = DefaultDataDir
	}
	if err := libsvm.Available(); err != nil {
		return nil, err
	}
	data := map[string]*Data{}
	var out []Record
	for _, r := range recs {
		ds, err := Lookup(r.Dataset)
		if err != nil {
			return nil, err
		}
		if data[ds.Name] == nil {
			if data[ds.Name], err = ds.Load(c.Data); err != nil {
				return nil, err
			}
		}
		ms, err := ParseMethods(r.Method)
		if err != nil {
			return nil, err
		}
		fp, err := c.fingerprint(ctx, ms[0])
		if err != nil {
			return nil, err
		}
		got, err := c.runJob(ctx, job{ds: ds, n: r.N, d: r.D, run: r.Run, methods: ms}, data[ds.Name], map[string]string{ms[0].Key: fp})
		if err != nil {
			return nil, err
		}
		out = append(out, got[0])
	}
	return out, nil
}
