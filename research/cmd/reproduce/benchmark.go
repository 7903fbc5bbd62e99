package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/ngca-go/ngca/internal/cli"
	"github.com/ngca-go/ngca/research/internal/repro/benchmark"
)

func init() {
	registerStudy(&command{
		name:    "benchmark",
		summary: "the benchmark study: Table 2 of the paper (LIBSVM data sets, needs LIBSVM)",
		usage: `Usage: go run ./cmd/reproduce benchmark [flags]

Reproduces the benchmark experiment of Shiino et al. (ACML 2017, §4.3,
Table 2), following the protocol of the authors' code (see the datasets
README): every run draws from a LIBSVM data set (vehicle, svmguide3,
svmguide1, shuttle, ijcnn1; SUSY is not available) n training and n test
points, disjoint and balanced, standardises the features, appends d − m
columns of standard Gaussian noise, reduces the points to m dimensions by
PCA, MIPP, IMAK, SNGCA, LSNGCA, WF-LSNGCA and its robust variant (the ngca
command's default estimator) fitted on the training points (or not at
all), and measures the test error of LIBSVM's RBF C-SVC (C = 1,
γ = 1/number of features) and the error ε of each subspace against the
span of the m real features (the first m coordinates). IMAK, SNGCA and the
robust variant are not in the paper's Table 2 (its Table 1 lists the
first two). ijcnn1 keeps all 22 features, as in the paper; its first ten
are a one-hot code, so its covariance is singular and the estimators fit
in the span of the data.

The features are standardised with statistics over the whole data set, which
reproduces the published error rates of no reduction and PCA; the datasets
README words it as statistics over the run's training and test points
(-standardise split), which does not.

LIBSVM is loaded at run time: install it first, e.g.
  sudo apt-get install libsvm-dev

The data sets are read from the folder -data, by default data/libsvm under
the current directory (in the repository it is git-ignored: the data sets
are not part of it). Download them from the LIBSVM data sets page,
  https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/
into it: vehicle.scale, svmguide3, svmguide1 and svmguide1.t, shuttle.trn
(the page's shuttle.scale, renamed: the same rows, scaled) and ijcnn1
(ijcnn1.bz2, decompressed). Only the files of the chosen -datasets are
needed; a missing one is an error that names it and the folder searched.

It writes into -out:
  runs.csv    one row per method and run, appended as soon as the run is
              done: dataset, n, d, run, method, error_rate, epsilon,
              seconds (reduction), svm_seconds, failed, reason, path (the
              robust variant's estimate), fingerprint (of the method's
              code), platform (processor, Go, runs at once)
  table2.md   the page, rewritten from runs.csv after every run: per d,
              mean (std) of the error rate and of ε per data set and
              method, the best and those not significantly worse (t-test,
              5%) in bold, as in the paper, and how many runs each row has
              so far; the default against WF-LSNGCA on the data sets of
              n = 2000; the seconds per reduction and the platform
and prints the page. Runs execute in parallel (-workers, one core per
run); results are bit-reproducible from -seed whatever -workers and the
order in which runs finish. Ctrl-C (or SIGTERM) stops cleanly and writes
both files from the finished runs; a kill loses only the runs going.

-resume continues from -out's runs.csv: it keeps its rows and makes only
the runs they lack. A row whose method's fingerprint (a hash of the
method's results on two tiny fixed data sets, with the seed and the
standardisation) differs from the current code's is made again, and the
command says so on stderr; rows of other data sets, d, methods or runs
stay in the file and out of the table. The whole table, in the
background, surviving interruptions (run it again to continue):
  nohup go run ./cmd/reproduce benchmark -resume -out docs/table2 -data DIR > table2.log 2>&1 &

Examples:
  go run ./cmd/reproduce benchmark -resume -out docs/table2
  go run ./cmd/reproduce benchmark -runs 5 -d 50 -workers 2 -out quick
  go run ./cmd/reproduce benchmark -datasets vehicle,svmguide3 -methods none,pca,wflsngca
  go run ./cmd/reproduce benchmark -datasets vehicle,svmguide3 -methods none,pca,wflsngca,imak -resume
`,
		run: runBenchmark,
	})
}

func runBenchmark(ctx context.Context, e *env, args []string) error {
	c := studies["benchmark"]
	fs := cli.NewFlagSet(c.name)
	data := fs.String("data", benchmark.DefaultDataDir, "folder of the LIBSVM data files (see above)")
	out := fs.String("out", filepath.Join("results", "benchmark"), "output directory")
	runs := fs.Int("runs", 50, "runs per data set and d")
	sets := fs.String("datasets", "vehicle,svmguide3,svmguide1,shuttle,ijcnn1", "data sets")
	dims := fs.String("d", "50,100", "total dimensions d (m features + d − m noise columns)")
	ms := fs.String("methods", benchmark.MethodKeys(), "methods (none = no reduction)")
	n := fs.Int("n", 0, "training (and test) size, even; 0 = the protocol's (200 or 2000)")
	std := fs.String("standardise", "dataset", "statistics that standardise the features: dataset (all rows of the data set; reproduces the published rates) or split (the run's training and test rows)")
	seed := fs.Uint64("seed", 1, "random seed")
	workers := fs.Int("workers", 0, "runs at once (0 = all CPUs)")
	resume := fs.Bool("resume", false, "keep the rows of -out's runs.csv and make only the runs they lack (continue an interrupted study, add methods or runs); rows whose method's fingerprint is not the current code's (or -seed's, -standardise's) are made again")
	hardware := fs.String("hardware", "", "the processor named with the seconds in runs.csv and table2.md (default: /proc/cpuinfo's model name)")
	if err := cli.Parse(fs, args, c.usage, e.stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	cfg := benchmark.Config{Data: *data, Out: *out, Runs: *runs, N: *n, Seed: *seed, Workers: *workers, Resume: *resume,
		Hardware: *hardware, Progress: e.stderr, Log: e.stderr}
	for _, s := range cli.SplitList(*sets) {
		ds, err := benchmark.Lookup(s)
		if err != nil {
			return cli.Usagef("-datasets: %v", err)
		}
		if ds.Missing != "" {
			return cli.Usagef("-datasets: %s is %s; the table lists it as such", ds.Name, ds.Missing)
		}
		cfg.Datasets = append(cfg.Datasets, ds.Name)
	}
	for _, s := range cli.SplitList(*dims) {
		d, err := strconv.Atoi(s)
		if err != nil || d < 2 {
			return cli.Usagef("-d: %q is not an integer ≥ 2", s)
		}
		cfg.Dims = append(cfg.Dims, d)
	}
	var err error
	if cfg.Methods, err = benchmark.ParseMethods(*ms); err != nil {
		return cli.Usagef("-methods: %v", err)
	}
	if cfg.Standardise, err = benchmark.ParseStandardisation(*std); err != nil {
		return cli.Usagef("-standardise: %v", err)
	}
	switch {
	case len(cfg.Datasets) == 0:
		return cli.Usagef("-datasets is empty")
	case len(cfg.Dims) == 0:
		return cli.Usagef("-d is empty")
	case *runs < 1:
		return cli.Usagef("-runs must be at least 1")
	case *workers < 0:
		return cli.Usagef("-workers must not be negative")
	case *n < 0 || *n%2 != 0:
		return cli.Usagef("-n must be even (0 = the protocol's)")
	}
	for _, name := range cfg.Datasets {
		ds, _ := benchmark.Lookup(name)
		for _, d := range cfg.Dims {
			if d <= ds.M {
				return cli.Usagef("-d %d: must exceed %s's m = %d", d, ds.Name, ds.M)
			}
		}
	}

	res, err := cfg.Run(ctx)
	if err != nil {
		if res != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			return fmt.Errorf("interrupted: %d of %d runs finished; wrote %s and %s from them: %w",
				res.Finished, res.Jobs, filepath.Join(*out, "runs.csv"), filepath.Join(*out, "table2.md"), err)
		}
		return err
	}
	fmt.Fprint(e.stdout, res.Table)
	fmt.Fprintf(e.stdout, "\nwrote %s and %s\n", filepath.Join(*out, "runs.csv"), filepath.Join(*out, "table2.md"))
	return nil
}
