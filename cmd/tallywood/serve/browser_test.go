package serve

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var screenshots = flag.String("screenshots", "", "write the play page's screenshots at 1280 and 390 px into `DIR` (make playtest-screenshots: docs)")

// findChromium returns the path of Debian's chromium. Outside CI the
// browser test skips without it; in CI (CI=true) its absence fails.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found: CI must install it (.ci/run installs Debian's chromium package)")
	}
	t.Skip("chromium not found: install Debian's chromium package (apt-get install chromium) to run the browser test")
	return ""
}

// browser starts a headless Chromium that reaches nothing but this
// machine (no network here; root needs --no-sandbox) and collects what
// its console says.
func browser(t *testing.T) (context.Context, func() []string) {
	exe := findChromium(t)
	alloc, cancel := chromedp.NewExecAllocator(t.Context(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 900),
	)...)
	t.Cleanup(cancel)
	var mu sync.Mutex
	var problems []string
	listen := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				problems = append(problems, fmt.Sprintf("console %s: %s", ev.Entry.Level, ev.Entry.Text))
			}
		}
	}
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(listen))
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), problems...)
	}
}

// tab is one tester's browser tab on their game.
type tab struct {
	t   *testing.T
	ctx context.Context
}

// pageState is what the game page shows, read in the browser.
type pageState struct {
	N       string   `json:"n"`
	Over    string   `json:"over"`
	Title   string   `json:"title"`
	Options []string `json:"options"`
	Steps   int      `json:"steps"`
	Shown   int      `json:"shown"`
	Scroll  float64  `json:"scroll"`
	Tally   bool     `json:"tally"`
}

const readState = `(() => {
	const l = document.querySelector('.layout');
	const d = document.querySelector('#decision h2');
	return {
		n: l ? l.dataset.n : '', over: l ? l.dataset.over : '', title: d ? d.textContent : '',
		options: [...document.querySelectorAll('form.options button')].map(b => b.value),
		steps: document.querySelectorAll('.steps > .step').length,
		shown: [...document.querySelectorAll('.steps > .step')].filter(s => !s.hidden).length,
		scroll: document.documentElement.scrollWidth,
		tally: !!document.querySelector('.tally table'),
	};
})()`

func (b tab) state() pageState {
	b.t.Helper()
	st, err := chromedp.Run(b.ctx, chromedp.Evaluate[pageState](readState))
	if err != nil {
		b.t.Fatal(err)
	}
	return st
}

// pick makes decision i of the page: by a click on option k, or by its
// key when byKey; and waits for the page to show the next decision.
func (b tab) pick(st pageState, k int, byKey bool) pageState {
	b.t.Helper()
	var act chromedp.Action[chromedp.Void]
	if byKey && k < 9 {
		act = chromedp.KeyEvent(fmt.Sprint(k + 1))
	} else {
		act = chromedp.Click(chromedp.CSS(fmt.Sprintf(`form.options li:nth-child(%d) button`, k+1)))
	}
	if err := chromedp.Do(b.ctx, act); err != nil {
		b.t.Fatalf("decision %s, option %d: %v", st.N, k+1, err)
	}
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](fmt.Sprintf(`document.querySelector('.layout') && document.querySelector('.layout').dataset.n !== %q && !document.querySelector('main').hasAttribute('aria-busy')`, st.N))); err != nil {
		b.t.Fatalf("decision %s: the page did not move on: %v", st.N, err)
	}
	return b.state()
}

// TestBrowser drives the game in headless Chromium as a tester does: a
// whole game played by clicking and by keys, a reload in the middle of a
// turn that resumes it, two testers playing at once in two tabs, the page
// at 1280 and 390 pixels wide (no sideways scrolling; screenshots for the
// docs with -screenshots DIR), and no console error (the content
// security policy refusing anything would log one).
func TestBrowser(t *testing.T) {
	ctx, problems := browser(t)
	ts := newTestServer(t)
	if _, err := ts.store.db.Exec("UPDATE plans SET chance = 1"); err != nil {
		t.Fatal(err)
	}
	ana, bo := ts.invite("ana"), ts.invite("bo")
	rng := rand.New(rand.NewPCG(11, 12))

	// ana starts game 1 from her page.
	a := tab{t, ctx}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.http.URL+"/t/"+ana),
		chromedp.Click(chromedp.CSS(`form button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.options`))); err != nil {
		t.Fatal(err)
	}
	st := a.state()
	if st.N != "0" || len(st.Options) == 0 {
		t.Fatalf("a new game shows %+v", st)
	}
	// A few decisions, then a reload within the turn: the page comes back
	// at the same decision with the same options.
	for range 3 {
		st = a.pick(st, rng.IntN(len(st.Options)), false)
	}
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`form.options`))); err != nil {
		t.Fatal(err)
	}
	if again := a.state(); again.N != st.N || again.Title != st.Title || strings.Join(again.Options, " ") != strings.Join(st.Options, " ") {
		t.Fatalf("after a reload: decision %s %q, before it %s %q", again.N, again.Title, st.N, st.Title)
	}

	// bo plays in a second tab, turn and turn about with ana.
	bctx, cancel := chromedp.NewContext(ctx)
	defer cancel()
	b := tab{t, bctx}
	if err := chromedp.Do(bctx, chromedp.Navigate(ts.http.URL+"/t/"+bo),
		chromedp.Click(chromedp.CSS(`form button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.options`))); err != nil {
		t.Fatal(err)
	}
	bst := b.state()
	for range 15 {
		st = a.pick(st, rng.IntN(len(st.Options)), false)
		bst = b.pick(bst, rng.IntN(len(bst.Options)), true)
	}
	cancel()

	// After an Opposition's turn its steps come one at a time: screenshots.
	for st.Steps < 3 && st.Over != "true" {
		st = a.pick(st, rng.IntN(len(st.Options)), false)
	}
	if st.Shown != 1 {
		t.Errorf("after a change the page shows %d of %d steps at once, want the first", st.Shown, st.Steps)
	}
	for _, width := range []int64{1280, 390} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		if s := a.state(); s.Scroll > float64(width) {
			t.Errorf("at %d px the page is %.0f px wide: it scrolls sideways", width, s.Scroll)
		}
		if *screenshots != "" {
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(*screenshots, fmt.Sprintf("playtest-%d.png", width)), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.KeyEvent("a")); err != nil {
		t.Fatal(err)
	}
	if s := a.state(); s.Shown != s.Steps {
		t.Errorf("a (all steps) shows %d of %d", s.Shown, s.Steps)
	}

	// The rest of ana's game, by clicks and keys, to its Final Tally.
	for i := 0; st.Over != "true"; i++ {
		st = a.pick(st, rng.IntN(len(st.Options)), i%3 == 0)
	}
	if !st.Tally {
		t.Fatal("the finished game shows no Final Tally")
	}
	for _, tok := range []string{ana, bo} {
		tr, _, _ := ts.srv.tester(tok)
		games, _ := ts.store.Games(tr.ID)
		if len(games) != 1 || games[0].Decisions == 0 {
			t.Fatalf("%s: games %+v", tr.Name, games)
		}
	}
	if p := problems(); len(p) > 0 {
		t.Fatalf("the browser logged:\n%s", strings.Join(p, "\n"))
	}
}
