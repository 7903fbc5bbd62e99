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
