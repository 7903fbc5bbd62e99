package repro

import (
	"context"
	"errors"
	"testing"
)

func TestRunAll(t *testing.T) {
	for _, w := range []int{1, 3, 10} {
		got := make([]int, 20)
		err := Run(context.Background(), 20, w, nil, nil,
			func(_ context.Context, i int) (int, error) { return i * i, nil },
			func(i, r int) error { got[i] = r + 1; return nil })
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if v != i*i+1 {
				t.Fatalf("workers %d: job %d result %d", w, i, v)
			}
		}
	}
}

// TestRunCancel cancels after some jobs and checks that every job that
// finished before the cancellation reached done, and that the error is the
// context's.
func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var saved []int
	err := Run(ctx, 1000, 2, nil, nil,
		func(ctx context.Context, i int) (int, error) {
			if i == 10 {
				cancel()
			}
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			return i, nil
		},
		func(i, r int) error { saved = append(saved, i); return nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if len(saved) < 5 || len(saved) > 20 {
		t.Errorf("%d jobs saved, want the ones before the cancellation", len(saved))
	}
}

func TestRunError(t *testing.T) {
	boom := errors.New("boom")
	err := Run(context.Background(), 100, 2, nil, nil,
		func(_ context.Context, i int) (int, error) {
			if i == 3 {
				return 0, boom
			}
			return i, nil
		},
		func(int, int) error { return nil })
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
}

func TestKey(t *testing.T) {
	a, b := Key("a", 0.5, 3, true), Key("a", 0.5, 3, true)
	if a != b || a == Key("a", 0.5, 4, true) || Key("ab", 1) == Key("a", "b", 1) {
		t.Error("Key is not a stable, discriminating hash")
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{1, 2, 3, 4})
	if s.N != 4 || s.Mean != 2.5 || s.Std < 1.29 || s.Std > 1.30 {
		t.Errorf("Summarize = %+v", s)
	}
	if m := Median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("Median of 1..4 = %v, want 2.5", m)
	}
	if m := Median([]float64{5, 1, 3}); m != 3 {
		t.Errorf("Median = %v", m)
	}
}
