package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// defaultPolicies is sim's --policy default: the strongest policy that
// runs 10,000 games in under ~30 s on a 2-core machine (greedy, about
// 5,000 games/s; mcts runs about 40), plus random. compare and trace
// default to the first of them.
const (
	defaultPolicies = "greedy,random"
	defaultPolicy   = "greedy"
)

// baseContext is the context commands run under; tests replace it to
// interrupt a run.
var baseContext = context.Background

// splitPolicies splits a --policy list at commas. A policy's own
// parameters are also separated by commas ("mcts:iters=400,rollout=greedy"),
// so a piece that is key=value without a name (no ':' before the '=')
// continues the previous spec.
func splitPolicies(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		eq := strings.Index(p, "=")
		colon := strings.Index(p, ":")
		if len(out) > 0 && eq >= 0 && (colon < 0 || colon > eq) {
			out[len(out)-1] += "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}

func parsePolicies(s string) ([]policy.Spec, error) {
	var specs []policy.Spec
	for _, p := range splitPolicies(s) {
		spec, err := policy.Parse(p)
		if err != nil {
			return nil, err
		}
		specs = append(specs, spec)
	}
	return specs, nil
}

// loadRules reads a rules file; "" and "default" are the reference set.
func loadRules(path string) (*engine.Rules, error) {
	if path == "" || path == "default" {
		return engine.Reference(), nil
	}
	return engine.LoadFile(path)
}

// parseModes reads normal, hard or both.
func parseModes(s string) ([]engine.Mode, error) {
	if s == "both" {
		return []engine.Mode{engine.Normal, engine.Hard}, nil
	}
	m, err := engine.ParseMode(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not normal, hard or both", s)
	}
	return []engine.Mode{m}, nil
}

// parsePolitician reads ID, random or (when all is allowed) all, and
// returns the politician indexes of the cells.
func parsePolitician(r *engine.Rules, s string, allowAll bool) ([]int, error) {
	switch {
	case s == "random":
		return []int{sim.RandomPoliticianIndex}, nil
	case s == "all" && allowAll:
		out := make([]int, len(r.Politicians))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	if i := r.PoliticianIndex(s); i >= 0 {
		return []int{i}, nil
	}
	ids := make([]string, len(r.Politicians))
	for i, p := range r.Politicians {
		ids[i] = p.ID
	}
	extra := "random"
	if allowAll {
		extra = "random, all"
	}
	return nil, fmt.Errorf("%q is not a politician (%s, %s)", s, strings.Join(ids, ", "), extra)
}

// checkOut verifies before a run that --out can be written: its directory
// exists.
func checkOut(path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return fmt.Errorf("directory %q does not exist", dir)
	}
	return nil
}

// writeOut writes data to path atomically (a temporary file in the same
// directory, renamed over path), or to stdout when path is empty.
func writeOut(path string, stdout io.Writer, data []byte) error {
	if path == "" {
		_, err := stdout.Write(data)
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// isTerminal reports whether v (a reader or writer) is a character device
// (a terminal), by the file's mode: no dependency needed.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress draws a progress bar with rate and ETA on w until stopped.
type progress struct {
	done  atomic.Int64
	total int64
	w     io.Writer
	quit  chan struct{}
	ended chan struct{}
}

// startProgress starts a progress bar when w is a terminal and quiet is
// false; otherwise it only counts.
func startProgress(w io.Writer, total int64, quiet bool) *progress {
	p := &progress{total: total, w: w, quit: make(chan struct{}), ended: make(chan struct{})}
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
				fmt.Fprint(w, "\r"+progressLine(p.done.Load(), p.total, time.Since(start)))
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

// progressLine renders one state of the bar.
func progressLine(done, total int64, elapsed time.Duration) string {
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
	eta := "--:--"
	if rate > 0 {
		// Capped at 99:59:59 so that a huge --games cannot overflow a Duration.
		left := min(float64(total-done)/rate, 359999)
		eta = fmtDuration(time.Duration(left * float64(time.Second)))
	}
	return fmt.Sprintf("[%s] %3.0f%% %d/%d games  %.0f games/s  ETA %s\033[K", bar, 100*frac, done, total, rate, eta)
}

func fmtDuration(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// newTable returns an ASCII table whose first textCols columns are left
// aligned and the others right aligned.
func newTable(w io.Writer, header []string, textCols int) *tablewriter.Table {
	align := make([]tw.Align, len(header))
	for i := range align {
		align[i] = tw.AlignRight
		if i < textCols {
			align[i] = tw.AlignLeft
		}
	}
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	)
	t.Header(header)
	return t
}

// pct writes a rate in percent: one decimal, or two below 1 % so that the
// upper bound of a rare event's interval does not print as 0.0 %.
func pct(x float64) string {
	if x > 0 && x < 0.01 {
		return fmt.Sprintf("%.2f%%", 100*x)
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

func signed(x float64) string { return fmt.Sprintf("%+.2f", x) }

// shortHash is the first 12 hex digits of a rules hash.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
