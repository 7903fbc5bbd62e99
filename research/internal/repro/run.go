// Package repro holds what the reproduction studies of the ngca command
// share: a parallel job runner that keeps finished results when
// interrupted, per-job seeding, summary statistics and a t-test.
package repro

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/ngca-go/ngca/internal/progress"
)

// Run executes jobs 0, …, n−1 on up to workers goroutines. do computes job
// i; done is called on the calling goroutine with each result as soon as
// its job finishes (in completion order), so finished results can be
// saved at once. weights, if not nil, gives each job's expected cost for
// the progress bar (which may be nil).
//
// Results do not depend on workers as long as do(i) depends only on i.
// When ctx is done, no new job starts, running jobs see the cancelled
// context, and Run returns ctx's error after every finished result has been
// passed to done. An error from do or done stops the run the same way and
// is returned.
func Run[R any](ctx context.Context, n, workers int, weights []float64, bar *progress.Bar,
	do func(ctx context.Context, i int) (R, error), done func(i int, r R) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	total := 0.0
	for i := 0; i < n; i++ {
		total += weight(weights, i)
	}
	type outcome struct {
		i   int
		r   R
		err error
	}
	jobs := make(chan int)
	results := make(chan outcome)
	var wg sync.WaitGroup
	for w := 0; w < max(1, min(workers, n)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r, err := do(ctx, i)
				results <- outcome{i, r, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := 0; i < n; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	var first error
	finished := 0.0
	for o := range results {
		if o.err == nil && first == nil {
			if err := done(o.i, o.r); err != nil {
				first = err
				cancel()
			}
		} else if o.err != nil && first == nil && !errors.Is(o.err, context.Canceled) {
			first = o.err
			cancel()
		}
		finished += weight(weights, o.i)
		if bar != nil {
			bar.Set(finished / total * float64(n))
		}
	}
	if first != nil {
		return first
	}
	return ctx.Err()
}

// Table is a study's CSV file of rows: where it goes, its header and how a
// row becomes a record.
type Table[R any] struct {
	Path   string
	Header []string
	Record func(R) []string
	// Kept are rows of an earlier run that the study keeps (a resumed
	// study): they are written first and returned with the new ones.
	Kept []R
	// Saved, if not nil, is called with every row so far (kept ones
	// first) each time a job's rows have been appended to the file, on
	// the goroutine of RunLogged: a study rewrites its report from it, so
	// that the report of a killed study is that of its rows. An error
	// stops the run as one of the file's does.
	Saved func(rows []R) error
}

// Jobs describes a study's jobs for RunLogged: N jobs on Workers
// goroutines, with their expected costs (Weights, nil for equal ones) and
// a progress bar named Label on Progress, if it is not nil.
type Jobs struct {
	N, Workers int
	Weights    []float64
	Progress   io.Writer
	Label      string
}

// RunLogged runs jobs 0, …, j.N−1 as Run does, each giving rows, and
// appends the rows of every finished job to the CSV file t at once, so
// that a kill loses only the jobs still running. The file is replaced at
// the start by one holding the kept rows (see StartLog: a kill then
// leaves the old file whole). It returns every row, the kept ones first
// and then the finished ones in completion order, with Run's error or the
// file's; nil rows if the file could not be started.
func RunLogged[R any](ctx context.Context, j Jobs, t Table[R], do func(ctx context.Context, i int) ([]R, error)) ([]R, error) {
	live, err := StartLog(t.Path, t.Header, records(t.Kept, t.Record))
	if err != nil {
		return nil, err
	}
	var bar *progress.Bar
	if j.Progress != nil {
		bar = progress.New(j.Progress, j.Label, j.N)
	}
	rows := slices.Clone(t.Kept)
	if rows == nil {
		rows = []R{}
	}
	runErr := Run(ctx, j.N, j.Workers, j.Weights, bar, do, func(_ int, rs []R) error {
		rows = append(rows, rs...)
		if err := AppendRows(live, rs, t.Record); err != nil {
			return err
		}
		if t.Saved != nil {
			return t.Saved(rows)
		}
		return nil
	})
	if bar != nil {
		bar.Finish()
	}
	if err := live.Close(); err != nil && runErr == nil {
		runErr = err
	}
	return rows, runErr
}

// Conclude ends a study's run whose outcome is runErr. An error other than
// cancellation is returned as it is; otherwise write saves the results
// (those finished so far when cancelled), and a cancelled run's error says
// how many of the total data sets finished and where the results are.
func Conclude(runErr error, write func() error, finished, total int, out string) error {
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	if err := write(); err != nil {
		return err
	}
	if runErr != nil {
		return fmt.Errorf("interrupted: %d of %d data sets finished, results so far written to %s: %w", finished, total, out, runErr)
	}
	return nil
}

func weight(w []float64, i int) float64 {
	if w == nil {
		return 1
	}
	return w[i]
}

// RoundingZero is the ε below which a committed fit counts as exact: its
// digits are rounding errors (an exact estimate's ε is about 1e-32), which
// a change of summation order moves without changing the fit. Tests that
// refit committed rows treat two values below it as equal.
const RoundingZero = 1e-20

// Key hashes the parts that identify a job (strings, integers, floats) to a
// 64-bit value, for seeding a random source: rand.NewPCG(seed, Key(...)).
// The same parts give the same key on every platform, whatever else the
// study contains, so a run's data do not change when the grid around it
// does.
func Key(parts ...any) uint64 {
	h := fnv.New64a()
	var buf [8]byte
	for _, p := range parts {
		var u uint64
		switch v := p.(type) {
		case string:
			io.WriteString(h, v)
			u = uint64(len(v))
		case int:
			u = uint64(v)
		case uint64:
			u = v
		case float64:
			u = math.Float64bits(v)
		case bool:
			if v {
				u = 1
			}
		default:
			panic("repro.Key: unsupported part type")
		}
		for k := range buf {
			buf[k] = byte(u >> (8 * k))
		}
		h.Write(buf[:])
	}
	return h.Sum64()
}
