// Package progress is the progress bar of the training commands (train,
// chancefit): one line, redrawn at most four times a second.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Bar is a training's progress bar: one line on w, redrawn at most
// four times a second, with the time taken and the time left.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer // nil: silent
	what  string
	n, of int
	start time.Time
	drawn time.Time
}

// New starts a bar of of steps on w (nil: silent), named what.
func New(w io.Writer, what string, of int) *Bar {
	return &Bar{w: w, what: what, of: max(1, of), start: time.Now()}
}

// Add counts k more steps done.
func (b *Bar) Add(k int) {
	if b.w == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n += k
	if now := time.Now(); now.Sub(b.drawn) > 250*time.Millisecond || b.n == b.of {
		b.drawn = now
		el := now.Sub(b.start)
		left := time.Duration(float64(el) * float64(b.of-b.n) / float64(max(1, b.n)))
		const width = 30
		fill := width * b.n / b.of
		fmt.Fprintf(b.w, "\r%s [%-*s] %d/%d, %s, %s left \033[K", b.what, width, strings.Repeat("=", fill), b.n, b.of,
			el.Round(time.Second), left.Round(time.Second))
	}
}

// Done ends the bar.
func (b *Bar) Done() {
	if b.w == nil {
		return
	}
	fmt.Fprintf(b.w, "\r%s: %d in %s\033[K\n", b.what, b.of, time.Since(b.start).Round(time.Second))
}
