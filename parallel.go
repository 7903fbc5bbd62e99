package ngca

import (
	"context"
	"sync"
)

// parallelFor runs task(w, i) for i = 0, …, n−1 on up to workers goroutines.
// w identifies the goroutine running the task (0 ≤ w < workers) so that a
// task can use per-worker scratch space. done, if not nil, is called on the
// calling goroutine after each task that succeeds.
//
// Tasks must write only their own outputs; results are then bit-identical
// for any number of workers. Once a task fails or ctx is done no new task
// starts; parallelFor waits for the running ones and returns the error of
// the failed task with the lowest index, or the context's error.
func parallelFor(ctx context.Context, workers, n int, task func(w, i int) error, done func()) error {
	workers = max(1, min(workers, n))
	if workers == 1 {
		for i := 0; i < n; i++ {
			if err := checkContext(ctx); err != nil {
				return err
			}
			if err := task(0, i); err != nil {
				return err
			}
			if done != nil {
				done()
			}
		}
		return checkContext(ctx)
	}

	type outcome struct {
		i   int
		err error
	}
	jobs := make(chan int)
	finished := make(chan outcome, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				finished <- outcome{i, task(w, i)}
			}
		}()
	}

	var (
		firstErr error
		errIdx   = n
		next     int
		running  int
		stop     bool
		ctxDone  = ctx.Done()
	)
	for running > 0 || (!stop && next < n) {
		var send chan int
		if !stop && next < n {
			send = jobs
		}
		select {
		case send <- next:
			next++
			running++
		case o := <-finished:
			running--
			switch {
			case o.err != nil:
				if o.i < errIdx {
					firstErr, errIdx = o.err, o.i
				}
				stop = true
			case done != nil:
				done()
			}
		case <-ctxDone:
			ctxDone = nil
			stop = true
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return checkContext(ctx)
}
