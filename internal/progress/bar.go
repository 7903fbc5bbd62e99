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
// concurrent use.
//
// On a terminal the bar is redrawn in place. A Bar whose writer is not a
// terminal (a log file, a pipe) draws no bar: work that ends within
// LogInterval writes nothing, so redirected output of short commands stays
// clean, and longer work writes one plain line per LogInterval and a last
// one when it finishes, so a study run in the background can be followed
// with tail.
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

	logEvery time.Duration // plain-line interval when not enabled; 0 = never
	logged   bool          // a plain line has been written
	now      func() time.Time
}

// LogInterval is the time between two plain progress lines on a writer
// that is not a terminal.
const LogInterval = time.Minute

// New returns a bar for total units of work drawn on w: redrawn in place if
// w is a terminal, else as a plain line per LogInterval.
func New(w io.Writer, label string, total int) *Bar {
	b := NewForced(w, label, total, IsTerminal(w))
	if !b.enabled {
		b.logEvery = LogInterval
	}
	return b
}

// NewForced returns a bar that is redrawn in place if enabled and writes
// nothing otherwise.
func NewForced(w io.Writer, label string, total int, enabled bool) *Bar {
	return &Bar{w: w, label: label, total: float64(max(total, 1)), start: time.Now(), enabled: enabled, width: 30, now: time.Now}
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
	now := b.now()
	switch {
	case b.enabled && now.Sub(b.last) >= 100*time.Millisecond:
		b.last = now
		b.draw(now)
	case !b.enabled && b.logEvery > 0 && now.Sub(b.start) >= b.logEvery && now.Sub(b.last) >= b.logEvery:
		b.last = now
		b.logged = true
		b.logLine(now)
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
	switch {
	case b.enabled:
		b.draw(b.now())
		fmt.Fprintln(b.w)
	case b.logged:
		b.logLine(b.now())
	}
}

func (b *Bar) draw(now time.Time) {
	frac := b.done / b.total
	fill := int(frac * float64(b.width))
	fmt.Fprintf(b.w, "\r\033[K%s [%s%s] %3.0f%%  %s",
		b.label, strings.Repeat("#", fill), strings.Repeat(".", b.width-fill), 100*frac, b.times(now))
}

// logLine writes the state as one plain line, for writers that are not
// terminals.
func (b *Bar) logLine(now time.Time) {
	fmt.Fprintf(b.w, "%s %3.0f%%  %s\n", b.label, 100*b.done/b.total, b.times(now))
}

// times formats the elapsed time and the estimated time left.
func (b *Bar) times(now time.Time) string {
	elapsed := now.Sub(b.start)
	eta := "--"
	if b.done > 0 {
		eta = fmtDuration(time.Duration(float64(elapsed) * (b.total - b.done) / b.done))
	}
	return "elapsed " + fmtDuration(elapsed) + "  ETA " + eta
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
