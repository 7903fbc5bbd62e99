package ngca

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// taskClock, if not nil, receives the duration of every task, by the
// clock clockNow, of each outermost parallelFor that runs on one worker,
// with the program counter of its call: the input of the scaling model
// (TestScalingModel, which sets both while it fits on one goroutine).
// clockDepth is the nesting of parallelFor calls while it is set.
var (
	taskClock  func(site uintptr, durs []time.Duration)
	clockNow   func() time.Duration
	clockDepth int
)

// parallelFor runs task(w, i) for i = 0, …, n−1 on up to workers goroutines,
// the calling one included. w identifies the goroutine running the task
// (0 ≤ w < workers; 0 is the calling goroutine) so that a task can use
// per-worker scratch space. Each goroutine takes the next task index from
// a shared counter, so tasks start in index order and no goroutine hands
// them out. done, if not nil, is called on the calling goroutine once per
// task that succeeds: between its own tasks and before parallelFor
// returns.
//
// Tasks must write only their own outputs; results are then bit-identical
// for any number of workers. Once a task fails or ctx is done no new task
// starts; parallelFor waits for the running ones and returns the error of
// the failed task with the lowest index, or the context's error.
func parallelFor(ctx context.Context, workers, n int, task func(w, i int) error, done func()) error {
	workers = max(1, min(workers, n))
	if workers == 1 {
		return serialFor(ctx, n, task, done)
	}

	var (
		next, succeeded atomic.Int64
		stop            atomic.Bool
		mu              sync.Mutex
		firstErr        error
		errIdx          = n
		ctxDone         = ctx.Done()
		reported        int64
	)
	report := func() {
		if done == nil {
			return
		}
		for s := succeeded.Load(); reported < s; reported++ {
			done()
		}
	}
	run := func(w int) {
		for !stop.Load() {
			select {
			case <-ctxDone:
				stop.Store(true)
				return
			default:
			}
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			if err := task(w, i); err != nil {
				mu.Lock()
				if i < errIdx {
					firstErr, errIdx = err, i
				}
				mu.Unlock()
				stop.Store(true)
				return
			}
			succeeded.Add(1)
			if w == 0 {
				report()
			}
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(w)
		}()
	}
	run(0)
	wg.Wait()
	report()
	if firstErr != nil {
		return firstErr
	}
	return checkContext(ctx)
}

// serialFor is parallelFor on one worker, the calling goroutine: the
// tasks in index order, timed for the scaling model when taskClock is set.
func serialFor(ctx context.Context, n int, task func(w, i int) error, done func()) error {
	var durs []time.Duration
	if taskClock != nil {
		if clockDepth == 0 {
			durs = make([]time.Duration, n)
			site, _, _, _ := runtime.Caller(2) // parallelFor's caller
			defer func() { taskClock(site, durs) }()
		}
		clockDepth++
		defer func() { clockDepth-- }()
	}
	for i := 0; i < n; i++ {
		if err := checkContext(ctx); err != nil {
			return err
		}
		var start time.Duration
		if durs != nil {
			start = clockNow()
		}
		if err := task(0, i); err != nil {
			return err
		}
		if durs != nil {
			durs[i] = clockNow() - start
		}
		if done != nil {
			done()
		}
	}
	return checkContext(ctx)
}

// checkContext returns a wrapped context error if ctx is done.
func checkContext(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ngca: fit stopped: %w", err)
	}
	return nil
}
