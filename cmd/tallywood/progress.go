package main

import (
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"
)

// progress draws a progress bar with rate and ETA on w until stopped.
type progress struct {
	done  atomic.Int64
	total int64
	eta   etaModel
	w     io.Writer
	quit  chan struct{}
	ended chan struct{}
}

// startProgress starts a progress bar of total games in one cell (or
// cells of one speed) when w is a terminal and quiet is false; otherwise
// it only counts.
func startProgress(w io.Writer, total int64, quiet bool) *progress {
	return startCellProgress(w, []string{""}, []int64{total}, quiet)
}

// startCellProgress starts a progress bar of a run whose cells play
// games[k] games each, one cell after the other. keys name what decides a
// cell's speed (its policies): a cell not started yet is expected to play
// as fast as the cells of its key measured so far.
func startCellProgress(w io.Writer, keys []string, games []int64, quiet bool) *progress {
	p := &progress{eta: newETAModel(keys, games), w: w, quit: make(chan struct{}), ended: make(chan struct{})}
	for _, n := range games {
		p.total += n
	}
	if quiet || !isTerminal(w) {
		close(p.ended)
		return p
	}
	start := time.Now()
	go func() {
		defer close(p.ended)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.quit:
				fmt.Fprint(w, "\r\033[K")
				return
			case <-t.C:
				done, at := p.done.Load(), time.Since(start)
				p.eta.observe(done, at)
				fmt.Fprint(w, "\r"+progressLine(done, p.total, at, p.eta.remaining(done, at)))
			}
		}
	}()
	return p
}

func (p *progress) stop() {
	select {
	case <-p.ended:
	default:
		close(p.quit)
		<-p.ended
	}
}

// etaModel estimates the time a run has left from the speed measured in
// each cell: cells differ a hundredfold in speed (random against mcts, or
// a compare arm whose rules make games long), so one overall rate
// misleads as soon as the run moves to a faster or slower cell (an ETA of
// 0:03 for the three minutes of a slow cell).
// The cell running is expected to go on at its own speed; a cell not
// started at the speed of its key's cells, else at the slowest speed
// measured so far (an ETA that falls beats one that stalls).
type etaModel struct {
	keys   []string
	ends   []int64         // the games done when each cell is over
	starts []time.Duration // when each cell reached so far started
}

func newETAModel(keys []string, games []int64) etaModel {
	m := etaModel{keys: keys, ends: make([]int64, len(games)), starts: []time.Duration{0}}
	var sum int64
	for k, n := range games {
		sum += n
		m.ends[k] = sum
	}
	return m
}

// cell is the cell game done+1 belongs to.
func (m *etaModel) cell(done int64) int {
	for k, end := range m.ends {
		if done < end {
			return k
		}
	}
	return len(m.ends) - 1
}

// games is the number of games of cell k.
func (m *etaModel) games(k int) int64 {
	if k == 0 {
		return m.ends[0]
	}
	return m.ends[k] - m.ends[k-1]
}

// observe records that done games were played after at: the cells that
// started since the last observation started now.
func (m *etaModel) observe(done int64, at time.Duration) {
	for len(m.starts) <= m.cell(done) {
		m.starts = append(m.starts, at)
	}
}

// remaining is the estimated seconds left after done games at at, or -1
// when nothing measured yet allows a guess.
func (m *etaModel) remaining(done int64, at time.Duration) float64 {
	cur := m.cell(done)
	games := map[string]float64{} // per key, of the cells measured
	secs := map[string]float64{}
	slowest := 0.0 // games per second; 0: none measured
	measure := func(key string, n float64, d time.Duration) {
		if n <= 0 || d <= 0 {
			return
		}
		games[key] += n
		secs[key] += d.Seconds()
		if r := n / d.Seconds(); slowest == 0 || r < slowest {
			slowest = r
		}
	}
	for k := 0; k < cur && k+1 < len(m.starts); k++ {
		measure(m.keys[k], float64(m.games(k)), m.starts[k+1]-m.starts[k])
	}
	inCur := done - (m.ends[cur] - m.games(cur))
	curRate := 0.0
	if cur < len(m.starts) && inCur > 0 {
		d := at - m.starts[cur]
		measure(m.keys[cur], float64(inCur), d)
		curRate = float64(inCur) / d.Seconds()
	}
	left := 0.0
	for k := cur; k < len(m.keys); k++ {
		n := float64(m.games(k))
		rate := slowest
		switch {
		case k == cur && curRate > 0:
			n -= float64(inCur)
			rate = curRate
		case secs[m.keys[k]] > 0:
			rate = games[m.keys[k]] / secs[m.keys[k]]
		}
		if rate <= 0 {
			return -1
		}
		left += n / rate
	}
	return left
}

// progressLine renders one state of the bar; eta is in seconds, negative
// when unknown.
func progressLine(done, total int64, elapsed time.Duration, eta float64) string {
	const width = 30
	frac := 0.0
	if total > 0 {
		frac = min(1, float64(done)/float64(total))
	}
	fill := int(frac * width)
	bar := strings.Repeat("=", fill) + strings.Repeat(" ", width-fill)
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	return fmt.Sprintf("[%s] %3.0f%% %d/%d games  %.0f games/s  ETA %s\033[K", bar, 100*frac, done, total, rate, fmtSeconds(eta))
}

// fmtSeconds writes a duration as m:ss or h:mm:ss, in days beyond 100
// hours; it works on float seconds, so no duration is too long to print.
func fmtSeconds(secs float64) string {
	switch {
	case secs < 0:
		return "--:--"
	case secs >= 100*3600:
		return fmt.Sprintf("%.0f days", secs/86400)
	}
	s := int(secs + 0.5)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
