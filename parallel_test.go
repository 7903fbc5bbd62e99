package ngca

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// TestParallelFor checks that every task runs once on a worker index in
// range, that done is called once per task, that the error of the failed
// task with the lowest index is returned, and that a cancelled context
// stops the tasks.
func TestParallelFor(t *testing.T) {
	ctx := context.Background()
	for _, workers := range []int{1, 2, 3, 8} {
		for _, n := range []int{0, 1, 5, 100} {
			runs := make([]atomic.Int32, n)
			dones := 0
			err := parallelFor(ctx, workers, n, func(w, i int) error {
				if w < 0 || w >= max(1, min(workers, n)) {
					return fmt.Errorf("worker %d", w)
				}
				runs[i].Add(1)
				return nil
			}, func() { dones++ })
			if err != nil {
				t.Fatalf("workers=%d n=%d: %v", workers, n, err)
			}
			for i := range runs {
				if runs[i].Load() != 1 {
					t.Fatalf("workers=%d n=%d: task %d ran %d times", workers, n, i, runs[i].Load())
				}
			}
			if dones != n {
				t.Fatalf("workers=%d n=%d: done called %d times", workers, n, dones)
			}
		}

		err := parallelFor(ctx, workers, 50, func(_, i int) error {
			switch i {
			case 3:
				time.Sleep(10 * time.Millisecond)
				return fmt.Errorf("task %d", i)
			case 7:
				return fmt.Errorf("task %d", i)
			}
			return nil
		}, nil)
		if err == nil || err.Error() != "task 3" {
			t.Fatalf("workers=%d: error %v, want task 3", workers, err)
		}

		cctx, cancel := context.WithCancel(ctx)
		// Once cancel has returned, each worker starts at most the one
		// task it had already taken (counting the tasks that start while
		// cancel runs would time the scheduler, not parallelFor).
		var ran, late atomic.Int32
		var cancelled atomic.Bool
		err = parallelFor(cctx, workers, 1000, func(_, i int) error {
			if cancelled.Load() {
				late.Add(1)
			}
			if ran.Add(1) == 10 {
				cancel()
				cancelled.Store(true)
			}
			return nil
		}, nil)
		if !errors.Is(err, context.Canceled) || late.Load() > int32(workers) || ran.Load() == 1000 {
			t.Fatalf("workers=%d: after cancelling, error %v, %d tasks ran, %d started after cancel returned", workers, err, ran.Load(), late.Load())
		}
	}
}
