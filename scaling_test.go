//go:build linux

package ngca

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ngca-go/ngca/ngcatest"
)

var scalingModel = flag.String("scaling.model", "", "run TestScalingModel at these comma-separated n (docs/speed.md#workers)")

// threadTime returns the CPU time of the calling thread: unlike the wall
// clock, it does not count the time the thread waits for a core on a
// loaded machine.
func threadTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return time.Duration(ts.Nano())
}

// listSchedule returns the time that w workers take for tasks of the
// given durations, each taking the next task in index order as it
// becomes free (parallelFor's schedule), without any cost of handing out
// or waiting.
func listSchedule(durs []time.Duration, w int) time.Duration {
	free := make([]time.Duration, w)
	for _, d := range durs {
		free[slices.Index(free, slices.Min(free))] += d
	}
	return slices.Max(free)
}

// TestScalingModel fits each estimator (d = 10, data (a), r = 0) on one
// worker, timing every task of every parallelFor by the CPU time of the
// thread (so that a loaded machine does not lengthen them), and predicts
// the time of the same fit on w workers: the time outside parallelFor
// (serial), plus for each call the list schedule of its tasks on w
// workers. The prediction leaves out the cost of handing out tasks and of
// waking and waiting for workers, and any contention between them for
// memory or caches: it is what the split into tasks allows, an upper bound
// on the speed-up. Each fit is run twice and the second timed.
func TestScalingModel(t *testing.T) {
	if *scalingModel == "" {
		t.Skip("-scaling.model not set")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clockNow = threadTime
	defer func() { clockNow = nil }()
	ws := []int{2, 4, 8, 16}
	for _, f := range strings.Split(*scalingModel, ",") {
		var n int
		if _, err := fmt.Sscan(f, &n); err != nil {
			t.Fatal(err)
		}
		x, _, err := ngcatest.Artificial{N: n, D: 10}.Sample(rand.NewPCG(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		for _, est := range []Estimator{&WFLSNGCA{Dim: 2, Workers: 1}, &LSNGCA{Dim: 2, Workers: 1}, &MIPP{Dim: 2, Workers: 1},
			&RobustWFLSNGCA{Dim: 2, Workers: 1}, &IMAK{Dim: 2, Workers: 1}} {
			if _, err := est.Fit(context.Background(), x); err != nil {
				t.Fatal(err)
			}
			var tasks time.Duration
			pred := make([]time.Duration, len(ws))
			sites := map[uintptr]time.Duration{}
			taskClock = func(site uintptr, durs []time.Duration) {
				for _, d := range durs {
					tasks += d
					sites[site] += d
				}
				for k, w := range ws {
					pred[k] += listSchedule(durs, w)
				}
			}
			start := threadTime()
			res, err := est.Fit(context.Background(), x)
			wall := threadTime() - start
			taskClock = nil
			if err != nil {
				t.Fatal(err)
			}
			serial := wall - tasks
			line := fmt.Sprintf("%s n=%d: one worker %.3f s, serial %.1f %%; predicted time on", res.Method, n, wall.Seconds(), 100*serial.Seconds()/wall.Seconds())
			for k, w := range ws {
				line += fmt.Sprintf(" %d: %.2f,", w, (serial+pred[k]).Seconds()/wall.Seconds())
			}
			t.Log(strings.TrimSuffix(line, ",") + " of one")
			for site, d := range sites {
				file, lineNo := runtime.FuncForPC(site).FileLine(site)
				t.Logf("    %s:%d %.1f %%", file[strings.LastIndex(file, "/")+1:], lineNo, 100*d.Seconds()/wall.Seconds())
			}
		}
	}
}
