// Package progress draws progress bars with an estimated time to completion
// on a terminal. It is used by the ngca command, never by the library.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// Bar is a progress bar for a known amount of work. Its methods are safe for
// concurrent use. A Bar whose writer is not a terminal draws nothing, so
// redirected output stays clean.
type Bar struct {
	mu      sync.Mutex
	w       io.Writer
	label   string
	total   float64
	done    float64
	start   time.Time
	last    time.Time
	enabled bool
	width   int
}

// New returns a bar for total units of work drawn on w, which is enabled
// only if w is a terminal.
func New(w io.Writer, label string, total int) *Bar {
	return NewForced(w, label, total, IsTerminal(w))
}

// NewForced is New with drawing switched on or off explicitly.
func NewForced(w io.Writer, label string, total int, enabled bool) *Bar {
	return &Bar{w: w, label: label, total: float64(max(total, 1)), start: time.Now(), enabled: enabled, width: 30}
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Set records that done units (possibly fractional) are finished and
// redraws the bar at most ten times a second.
func (b *Bar) Set(done float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = min(done, b.total)
	if now := time.Now(); b.enabled && now.Sub(b.last) >= 100*time.Millisecond {
		b.last = now
		b.draw(now)
	}
}

// Add records n more finished units.
func (b *Bar) Add(n float64) {
	b.mu.Lock()
	done := b.done + n
	b.mu.Unlock()
	b.Set(done)
}

// Done reports the finished units.
func (b *Bar) Done() float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.done
}

// Finish draws the final state and ends the line.
func (b *Bar) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.enabled {
		b.draw(time.Now())
		fmt.Fprintln(b.w)
	}
}

func (b *Bar) draw(now time.Time) {
	frac := b.done / b.total
	fill := int(frac * float64(b.width))
	elapsed := now.Sub(b.start)
	eta := "--"
	if b.done > 0 {
		eta = fmtDuration(time.Duration(float64(elapsed) * (b.total - b.done) / b.done))
	}
	fmt.Fprintf(b.w, "\r\033[K%s [%s%s] %3.0f%%  elapsed %s  ETA %s",
		b.label, strings.Repeat("#", fill), strings.Repeat(".", b.width-fill), 100*frac, fmtDuration(elapsed), eta)
}

func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.0fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}
