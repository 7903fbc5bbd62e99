package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestBarDisabledWritesNothing(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, "x", 10) // a buffer is not a terminal
	b.Set(5)
	b.Finish()
	if buf.Len() != 0 {
		t.Errorf("disabled bar wrote %q", buf.String())
	}
}

func TestBarDraws(t *testing.T) {
	var buf bytes.Buffer
	b := NewForced(&buf, "fits", 4, true)
	b.Add(1)
	time.Sleep(110 * time.Millisecond)
	b.Add(1)
	b.Finish()
	out := buf.String()
	if !strings.Contains(out, "fits [") || !strings.Contains(out, " 50%") || !strings.HasSuffix(out, "\n") {
		t.Errorf("unexpected bar output %q", out)
	}
	if b.Done() != 2 {
		t.Errorf("Done() = %v, want 2", b.Done())
	}
}

// TestBarLogsWhenNotTerminal checks the plain lines written to a writer that
// is not a terminal: none for work shorter than LogInterval, then at most
// one per interval and a last one at Finish.
func TestBarLogsWhenNotTerminal(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := New(&buf, "study", 4)
	b.start = clock
	b.now = func() time.Time { return clock }

	clock = clock.Add(LogInterval / 2)
	b.Set(1)
	if buf.Len() != 0 {
		t.Fatalf("wrote %q before LogInterval", buf.String())
	}
	clock = clock.Add(LogInterval / 2)
	b.Set(2) // one interval elapsed: a line
	clock = clock.Add(LogInterval / 2)
	b.Set(3) // half an interval after the last line: none
	clock = clock.Add(LogInterval / 2)
	b.Finish()
	want := "study  50%  elapsed 1m00s  ETA 1m00s\nstudy  75%  elapsed 2m00s  ETA 40s\n"
	if got := buf.String(); got != want {
		t.Errorf("log lines:\n got %q\nwant %q", got, want)
	}
}
