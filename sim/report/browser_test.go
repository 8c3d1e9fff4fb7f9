package report

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"tallywood/engine"
	"tallywood/sim"
)

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

// browserOptions start a headless Chromium that reaches nothing: this
// machine has no network, and the background services would flood the
// log with refused connections. Running as root needs --no-sandbox.
func browserOptions(exe, profile string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1280, 900),
	)
}

// browserFigure is what the page shows of one figure, read in the browser.
type browserFigure struct {
	ID      string       `json:"id"`
	Src     string       `json:"src"`
	Title   string       `json:"title"`
	Summary string       `json:"summary"`
	Width   float64      `json:"w"`
	Height  float64      `json:"h"`
	Cells   []parsedCell `json:"cells"`
}

type browserPage struct {
	Figures     []browserFigure `json:"figs"`
	ScrollWidth float64         `json:"scrollWidth"`
}

const readPage = `(() => ({
	figs: [...document.querySelectorAll('figure')].map(f => {
		const svg = f.querySelector('svg');
		const r = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
		const title = svg && svg.querySelector('title');
		return {
			id: f.id,
			src: f.closest('section').dataset.src,
			title: title ? title.textContent : '',
			summary: f.querySelector('summary').textContent,
			w: r.width, h: r.height,
			cells: [...f.querySelectorAll('td')].map(td => ({Text: td.textContent, V: td.dataset.v || '', JSON: td.dataset.json || ''})),
		};
	}),
	scrollWidth: document.documentElement.scrollWidth,
}))()`

// browserTable is where a figure's Numbers table lies, its details open.
type browserTable struct {
	ID          string  `json:"id"`
	FigLeft     float64 `json:"figLeft"`
	FigRight    float64 `json:"figRight"`
	BoxLeft     float64 `json:"boxLeft"`
	BoxRight    float64 `json:"boxRight"`
	BoxWidth    float64 `json:"boxWidth"`
	ScrollWidth float64 `json:"scrollWidth"`
	TableWidth  float64 `json:"tableWidth"`
	OverflowX   string  `json:"overflowX"`
}

// readTables opens every figure's details and measures its table and the
// box around it against the figure's column.
const readTables = `(() => [...document.querySelectorAll('figure')].map(f => {
	f.querySelector('details').open = true;
	const table = f.querySelector('table'), box = table.parentElement;
	const fr = f.getBoundingClientRect(), br = box.getBoundingClientRect();
	return {
		id: f.id, figLeft: fr.left, figRight: fr.right, boxLeft: br.left, boxRight: br.right,
		boxWidth: box.clientWidth, scrollWidth: box.scrollWidth, tableWidth: table.getBoundingClientRect().width,
		overflowX: getComputedStyle(box).overflowX,
	};
}))()`

// TestBrowser opens a real report (a sim, a compare and a sweep result) in
// headless Chromium at a desktop and a phone width: it must load with no
// console message and no request beyond the file itself, show every plot
// at a non-zero size with its title, fit the width without scrolling
// sideways, keep each table inside its column (scrolling there when
// wider), and show in its tables the numbers of the JSON. Screenshots
// of both widths are left in the test's temporary directory.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test is skipped in -short mode")
	}
	exe := findChromium(t)
	start := time.Now()
	simData, cmpData, sweepData := simJSON(t, 300, 11), compareJSON(t, 400, 5, fivePoints), sweepJSON(t, 300, 5, 0.15)
	docs := map[string]any{"0": decodeGeneric(t, simData), "1": decodeGeneric(t, cmpData), "2": decodeGeneric(t, sweepData)}
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, render(t, testMeta, simData, cmpData, sweepData), 0o644); err != nil {
		t.Fatal(err)
	}
	pageURL := (&url.URL{Scheme: "file", Path: file}).String()

	generated := time.Since(start)
	alloc, cancel := chromedp.NewExecAllocator(t.Context(), browserOptions(exe, filepath.Join(dir, "profile"))...)
	defer cancel()
	var mu sync.Mutex
	var problems []string
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			problems = append(problems, fmt.Sprintf("console.%s called", ev.Type))
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError || ev.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, fmt.Sprintf("console %s: %s", ev.Entry.Level, ev.Entry.Text))
			}
		case *network.EventRequestWillBeSent:
			if ev.Request.URL != pageURL {
				problems = append(problems, "request for "+ev.Request.URL)
			}
		}
	}))
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	defer cancelTimeout()
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL)); err != nil {
		t.Fatalf("loading %s: %v", pageURL, err)
	}

	for _, width := range []int64{1280, 390} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		pg, err := chromedp.Run(ctx, chromedp.Evaluate[browserPage](readPage))
		if err != nil {
			t.Fatalf("reading the page at %d px: %v", width, err)
		}
		if pg.ScrollWidth > float64(width) {
			t.Errorf("at %d px the page is %g px wide: it scrolls sideways", width, pg.ScrollWidth)
		}
		// sim: win rate, fallbacks, two per cell; compare: four; sweep:
		// one per cell (where each meets the target is in its own plot).
		if want := 2 + 2*4 + 4 + 2; len(pg.Figures) != want {
			t.Errorf("at %d px: %d figures, want %d", width, len(pg.Figures), want)
		}
		for _, f := range pg.Figures {
			if !(f.Width > 0 && f.Height > 0) || f.Width > float64(width) {
				t.Errorf("at %d px: %s: plot is %g × %g px", width, f.ID, f.Width, f.Height)
			}
			if f.Title == "" || f.Summary != "Numbers: "+f.Title {
				t.Errorf("%s: SVG title %q, table summary %q", f.ID, f.Title, f.Summary)
			}
			if len(f.Cells) == 0 {
				t.Errorf("%s: empty table", f.ID)
			}
			for _, c := range f.Cells {
				if err := checkCellJSON(docs[f.Src], c); err != nil {
					t.Errorf("%s: %v", f.ID, err)
				}
			}
		}
		// A Numbers table wider than its column was cut at the
		// column's edge; it must stay inside the column and scroll there.
		tables, err := chromedp.Run(ctx, chromedp.Evaluate[[]browserTable](readTables))
		if err != nil {
			t.Fatalf("reading the tables at %d px: %v", width, err)
		}
		wider := 0
		for _, tb := range tables {
			if tb.BoxLeft < tb.FigLeft-0.5 || tb.BoxRight > tb.FigRight+0.5 {
				t.Errorf("at %d px: %s: the table's box [%g, %g] leaves its column [%g, %g]", width, tb.ID, tb.BoxLeft, tb.BoxRight, tb.FigLeft, tb.FigRight)
			}
			if tb.TableWidth > tb.BoxWidth+0.5 {
				wider++
				if tb.OverflowX != "auto" && tb.OverflowX != "scroll" || tb.ScrollWidth <= tb.BoxWidth {
					t.Errorf("at %d px: %s: a table %g px wide in a box of %g does not scroll (overflow-x %s)", width, tb.ID, tb.TableWidth, tb.BoxWidth, tb.OverflowX)
				}
			}
		}
		if width == 390 && wider == 0 {
			t.Errorf("at %d px no table is wider than its column: the check checks nothing", width)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot at %d px: %v", width, err)
		}
		shot := filepath.Join(dir, fmt.Sprintf("report-%d.png", width))
		if err := os.WriteFile(shot, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot at %d px: %s", width, shot)
	}
	mu.Lock()
	for _, p := range problems {
		t.Error(p)
	}
	mu.Unlock()
	t.Logf("browser test took %v: %v to play the games and write the report, %v in Chromium",
		time.Since(start).Round(time.Millisecond), generated.Round(time.Millisecond), (time.Since(start) - generated).Round(time.Millisecond))
}

// TestBrowserCompareReadsAlone opens a comparison's page alone, a change
// only Hard reads played on both difficulties, and reads its text as a
// colleague would: it must say what B changes from A, answer each cell
// in a sentence, say why the Normal cells were not played and how to
// read the intervals, and give a command without a placeholder.
func TestBrowserCompareReadsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test is skipped in -short mode")
	}
	exe := findChromium(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "compare.html")
	if err := os.WriteFile(file, render(t, testMeta, hardOnlyCompareJSON(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	alloc, cancel := chromedp.NewExecAllocator(t.Context(), browserOptions(exe, filepath.Join(dir, "profile"))...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, time.Minute)
	defer cancelTimeout()
	if err := chromedp.Do(ctx, chromedp.Navigate((&url.URL{Scheme: "file", Path: file}).String())); err != nil {
		t.Fatal(err)
	}
	page, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		t.Fatal(err)
	}
	checkReadsAlone(t, page)
}

// checkReadsAlone checks the words of a comparison's page or text that
// let it be read without its command line (hardOnlyCompareJSON's).
func checkReadsAlone(t *testing.T, page string) {
	t.Helper()
	for _, want := range []string{
		"B differs from A in:",
		"difficulties.hard.bonus_divisor: 2 → 3",
		"divisor 3 against reference at Hard for a casual player: the player's margin is 1.1 votes higher",
		"Not played: Normal, casual: its game reads none of the changes",
		"How to read this:",
		"tallywood compare --games 200 --seed 15030 --mode normal,hard --policy greedy",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q:\n%s", want, page)
		}
	}
	for _, placeholder := range []string{"RULES.json", "B-RULES", "A-RULES"} {
		if strings.Contains(page, placeholder) {
			t.Errorf("the page's command names the placeholder %s", placeholder)
		}
	}
}

// hardOnlyCompareJSON compares Hard's bonus divisor at 3 with the
// reference rules on both difficulties for greedy: the Normal cell cannot
// read the change and is not played.
func hardOnlyCompareJSON(t testing.TB) []byte {
	t.Helper()
	ref := engine.Reference()
	b, err := ref.With(engine.Assignment{Path: "difficulties.hard.bonus_divisor", Value: "3"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.CompareConfig{RunConfig: sim.RunConfig{Seed: 15030},
		A: sim.CompareArm{Name: "reference", Rules: ref}, B: sim.CompareArm{Name: "divisor 3", Rules: b}}
	for _, m := range []engine.Mode{engine.Normal, engine.Hard} {
		c := sim.CellSpec{Mode: m, Policy: mustSpec(t, "greedy"), Politician: sim.RandomPoliticianIndex}
		cfg.Cells = append(cfg.Cells, sim.ComparePair{A: c, B: c, Games: 200})
	}
	r, err := sim.Compare(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != 1 || len(r.Skipped) != 1 {
		t.Fatalf("%d cells played, %d not; want Hard played, Normal not", len(r.Cells), len(r.Skipped))
	}
	return sim.Encode(r)
}
