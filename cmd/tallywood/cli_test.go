package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"tallywood/sim"
	"tallywood/sim/deal"
)

// runCLIFile runs args with stdout an open file (a real write path, as
// main's os.Stdout).
func runCLIFile(t *testing.T, stdout *os.File, args ...string) (code int, stderr string) {
	t.Helper()
	var errb bytes.Buffer
	code = run(args, stdout, &errb)
	return code, errb.String()
}

// writeShards runs the 4 shards of a small study into dir.
func writeShards(t *testing.T, dir string, n int) []string {
	t.Helper()
	var files []string
	for k := 1; k <= n; k++ {
		f := filepath.Join(dir, fmt.Sprintf("part%d.json", k))
		if code, _, errs := runCLI(t, "sim", "--games", "40", "--mode", "normal", "--policy", "random", "--seed", "3",
			"--shard", fmt.Sprintf("%d/%d", k, n), "--out", f, "--quiet"); code != exitOK {
			t.Fatalf("shard %d: exit %d: %s", k, code, errs)
		}
		files = append(files, f)
	}
	return files
}

// TestStdoutWriteFailure: every command checks its
// writes to stdout; with stdout on /dev/full (where writes only fail) it
// says so and exits 1.
func TestStdoutWriteFailure(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	dir := t.TempDir()
	rulesFile := filepath.Join(dir, "rules.json")
	var ref bytes.Buffer
	if code := run([]string{"rules", "dump"}, &ref, &bytes.Buffer{}); code != exitOK {
		t.Fatal("rules dump failed")
	}
	os.WriteFile(rulesFile, ref.Bytes(), 0o644)
	shards := writeShards(t, dir, 2)
	tests := []struct {
		args []string
		code int
		want string // stderr when not the failed write
	}{
		{[]string{"trace", "--policy", "random"}, exitFailed, ""},
		{[]string{"trace", "--policy", "random", "--format", "jsonl"}, exitFailed, ""},
		{[]string{"rules", "dump"}, exitFailed, ""},
		{[]string{"rules", "check", rulesFile}, exitFailed, ""},
		{[]string{"scenario", "run", "../../testdata/scenarios/fallback-unable-in-both.json"}, exitFailed, ""},
		{[]string{"policies"}, exitFailed, ""},
		{[]string{"sim", "--games", "5", "--policy", "random", "--quiet"}, exitFailed, ""},
		{[]string{"sim", "--games", "5", "--policy", "random", "--quiet", "--format", "json"}, exitFailed, ""},
		{[]string{"merge", shards[0], shards[1]}, exitFailed, ""},
		{[]string{"compare", "--policy", "random", "--b-mode", "hard", "--games", "5", "--quiet"}, exitFailed, ""},
		{[]string{"version"}, exitFailed, ""},
		{[]string{"--version"}, exitFailed, ""},
		{[]string{"completion", "bash"}, exitFailed, ""},
		{[]string{"help"}, exitFailed, ""},
		{[]string{"help", "sim"}, exitFailed, ""},
		{[]string{"sim", "--help"}, exitFailed, ""},
		{[]string{"rules", "check", filepath.Join(dir, "missing.json")}, exitBadArgs, // nothing written: the input error alone
			"tallywood: rules file " + filepath.Join(dir, "missing.json") + ": no such file or directory\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stderr := runCLIFile(t, full, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, stderr)
			}
			name := "tallywood"
			if _, ok := commands[tt.args[0]]; ok {
				name += ": " + tt.args[0]
			}
			want := name + ": the output could not be written: write /dev/full: no space left on device\n"
			if tt.want != "" {
				if stderr != tt.want {
					t.Errorf("stderr %q, want %q", stderr, tt.want)
				}
			} else if stderr != want {
				t.Errorf("stderr %q, want %q", stderr, want)
			}
		})
	}
}

// TestOutDestinations: --out writes through a symlink
// and into a FIFO without replacing them, creates files 0644 minus the
// umask, keeps an existing file's mode, and leaves no temporary file.
func TestOutDestinations(t *testing.T) {
	simArgs := []string{"sim", "--games", "5", "--mode", "normal", "--policy", "random", "--quiet", "--out"}
	listDir := func(dir string) string {
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return strings.Join(names, " ")
	}

	t.Run("symlink", func(t *testing.T) {
		dir := t.TempDir()
		target, link := filepath.Join(dir, "target.json"), filepath.Join(dir, "link.json")
		os.WriteFile(target, []byte("old"), 0o600)
		if err := os.Symlink("target.json", link); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := runCLI(t, append(simArgs, link)...); code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the symlink was replaced: %v, %v", st.Mode(), err)
		}
		data, _ := os.ReadFile(target)
		if _, err := sim.DecodeAs[*sim.Result](data); err != nil {
			t.Errorf("target does not hold the JSON result: %v", err)
		}
		if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
			t.Errorf("target mode %v, want its own 0600 kept", st.Mode().Perm())
		}
		if got := listDir(dir); got != "link.json target.json" {
			t.Errorf("directory holds %s", got)
		}
	})

	t.Run("fifo", func(t *testing.T) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "pipe.csv")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		got := make(chan []byte)
		go func() {
			data, _ := os.ReadFile(fifo) // blocks until the run opens it
			got <- data
		}()
		if code, _, errs := runCLI(t, append(simArgs, fifo)...); code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if data := <-got; !bytes.HasPrefix(data, []byte("mode,policy,politician,games")) {
			t.Errorf("the FIFO's reader got %q, want the CSV", data)
		}
		if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("the FIFO was replaced: %v, %v", st.Mode(), err)
		}
		if got := listDir(dir); got != "pipe.csv" {
			t.Errorf("directory holds %s", got)
		}
	})

	t.Run("dangling symlink", func(t *testing.T) {
		dir := t.TempDir()
		link := filepath.Join(dir, "l.json")
		os.Symlink("nowhere/x.json", link)
		code, _, errs := runCLI(t, append(simArgs, link)...)
		want := `tallywood: sim: --out "` + link + `" is a symlink whose target cannot be used: no such file or directory; see 'tallywood sim --help'` + "\n"
		if code != exitBadArgs || errs != want {
			t.Errorf("exit %d, stderr %q; want 2, %q", code, errs, want)
		}
	})

	for _, tt := range []struct {
		umask int
		want  os.FileMode
	}{{0o022, 0o644}, {0o027, 0o640}, {0o077, 0o600}} {
		t.Run(fmt.Sprintf("new file umask %03o", tt.umask), func(t *testing.T) {
			dir := t.TempDir()
			old := syscall.Umask(tt.umask)
			defer syscall.Umask(old)
			out := filepath.Join(dir, "r.json")
			if code, _, errs := runCLI(t, append(simArgs, out)...); code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if st, _ := os.Stat(out); st.Mode() != tt.want {
				t.Errorf("mode %v, want %v", st.Mode(), tt.want)
			}
		})
	}

	t.Run("stale temporary files", func(t *testing.T) {
		dir := t.TempDir()
		out := filepath.Join(dir, "r.json")
		dead := filepath.Join(dir, ".r.json"+tempMarker+"999999999-0a0b0c")
		reused := filepath.Join(dir, ".r.json"+tempMarker+fmt.Sprint(os.Getpid())+"-0a0b0c") // an earlier process of our PID
		live := filepath.Join(dir, ".r.json"+tempMarker+fmt.Sprint(os.Getppid())+"-0a0b0c")
		os.WriteFile(reused, []byte("debris"), 0o644)
		os.WriteFile(dead, []byte("debris"), 0o644)
		os.WriteFile(live, []byte("a run in progress"), 0o644)
		code, _, errs := runCLI(t, append(simArgs, out)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var want []string
		for _, f := range []string{dead, reused} {
			want = append(want, fmt.Sprintf("tallywood: removed %q, left by a run that was killed while writing %q", f, out))
		}
		want = append(want, "tallywood: wrote "+out)
		got := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("stderr %q, want %q", errs, want)
		}
		if got := listDir(dir); got != filepath.Base(live)+" r.json" {
			t.Errorf("directory holds %s", got)
		}
	})
}

// TestInterruptMessages: after Ctrl-C, stderr names
// the file that now holds a partial result.
func TestInterruptMessages(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	old := baseContext
	baseContext = func() context.Context { return ctx }
	defer func() { baseContext = old }()
	out := filepath.Join(t.TempDir(), "study.json")
	os.WriteFile(out, []byte("a complete result"), 0o644)
	code, _, errs := runCLI(t, "sim", "--games", "1000", "--policy", "random", "--out", out, "--quiet")
	want := fmt.Sprintf("tallywood: sim: interrupted: %q now holds a partial result (0 games, marked interrupted); its previous contents are gone\n", out)
	if code != exitFailed || errs != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errs, want)
	}
	code, _, errs = runCLI(t, "sim", "--games", "1000", "--policy", "random", "--quiet")
	want = "tallywood: sim: interrupted: stdout now holds a partial result (0 games, marked interrupted)\n"
	if code != exitFailed || errs != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, errs, want)
	}
	// Every command words it alike, with what its result counts.
	for _, tt := range []struct {
		args []string
		what string
	}{
		{[]string{"sim", "--seats", "2", "--policy", "random", "--games", "100"}, "0 deals"},
		{[]string{"compare", "--policy", "random", "--b-mode", "hard", "--games", "100"}, "0 paired games"},
		{[]string{"sweep", "--set", "difficulties.hard.bonus_divisor=1,2", "--mode", "hard", "--policy", "random", "--games", "100"}, "0 seeds"},
		{[]string{"compare", "--seats", "2", "--policy", "random", "--b-set", "track.max=14", "--games", "100"}, "0 deals"},
		{[]string{"curve", "--skills", "0,0.5", "--games", "100"}, "0 seeds"},
	} {
		os.WriteFile(out, []byte("a complete result"), 0o644)
		code, _, errs := runCLI(t, append(tt.args, "--format", "json", "--out", out, "--quiet")...)
		want := fmt.Sprintf("tallywood: %s: interrupted: %q now holds a partial result (%s, marked interrupted); its previous contents are gone\n", tt.args[0], out, tt.what)
		if code != exitFailed || errs != want {
			t.Errorf("%v: exit %d, stderr %q; want 1, %q", tt.args, code, errs, want)
		}
	}
}

// TestMergeSeatsCoverage: a merge of some shards of a study of several
// players says how much of it they hold as a solo merge does.
func TestMergeSeatsCoverage(t *testing.T) {
	shard := filepath.Join(t.TempDir(), "t.json")
	if code, _, errs := runCLI(t, "sim", "--seats", "2", "--policy", "random", "--games", "20", "--shard", "1/3", "--format", "json", "--out", shard, "--quiet"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, _, errs := runCLI(t, "merge", "--format", "json", shard)
	want := "tallywood: merge: 1 of 3 shards: 7 of the study's 20 deals (35.0%); the result is marked \"complete\": false\n"
	if code != exitOK || errs != want {
		t.Errorf("exit %d, stderr %q; want 0, %q", code, errs, want)
	}
}

// TestMergeInterruptedShard: every kind of merge names the interrupted
// shard, then says where the partial result now is, in the same words.
func TestMergeInterruptedShard(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		what string
	}{
		{"sim", []string{"sim", "--mode", "normal", "--policy", "random", "--games", "20"}, "10 games"},
		{"table", []string{"sim", "--seats", "2", "--policy", "random", "--games", "20"}, "10 deals"},
		{"compare", []string{"compare", "--mode", "normal", "--policy", "random", "--b-mode", "hard", "--games", "20"}, "10 paired games"},
		{"sweep", []string{"sweep", "--set", "difficulties.hard.bonus_divisor=1,2", "--mode", "hard", "--policy", "random", "--games", "20"}, "10 seeds"},
		{"curve", []string{"curve", "--skills", "0,0.5", "--games", "20"}, "20 seeds"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			whole, cut := filepath.Join(dir, tt.name+"-1.json"), filepath.Join(dir, tt.name+"-2.json")
			if code, _, errs := runCLI(t, append(tt.args, "--shard", "1/2", "--format", "json", "--out", whole, "--quiet")...); code != exitOK {
				t.Fatalf("shard 1/2: exit %d: %s", code, errs)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			old := baseContext
			baseContext = func() context.Context { return ctx }
			runCLI(t, append(tt.args, "--shard", "2/2", "--format", "json", "--out", cut, "--quiet")...)
			baseContext = old
			code, _, errs := runCLI(t, "merge", "--format", "json", whole, cut)
			want := "tallywood: merge: " + cut + " holds an interrupted run: the merged result is partial (marked interrupted)\n" +
				"tallywood: merge: interrupted: stdout now holds a partial result (" + tt.what + ", marked interrupted)\n"
			if code != exitFailed || errs != want {
				t.Errorf("exit %d, stderr\n%s\nwant 1 and\n%s", code, errs, want)
			}
		})
	}
}

// TestSecondInterruptQuits, outside a search: the first Ctrl-C cancels the run, the second exits at once and
// removes the temporary output file being written.
func TestSecondInterruptQuits(t *testing.T) {
	sigs, exited := fakeSignals(t)
	var stderr syncBuffer
	ctx, release := interruptible("sim", &stderr)
	defer release()
	c := <-sigs
	var fl files
	o, err := fl.open("--out", filepath.Join(t.TempDir(), "r.json"), nil, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	f, tmp, err := o.createTemp() // as if the result were being written
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	c <- os.Interrupt
	<-ctx.Done()
	c <- os.Interrupt
	if code := <-exited; code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("temporary file %s left behind", tmp)
	}
	want := "\ntallywood: sim: interrupted: finishing the games in play, then writing the partial result (Ctrl-C again to quit at once)\n" +
		"tallywood: sim: quit at once, without writing the partial result\n"
	if got := stderr.String(); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
}

// fakeSignals stands in for the process's signals and exit until the test
// ends: interruptible hands the channel it listens on to sigs, and exit
// sends its code to exited and ends the goroutine that called it.
func fakeSignals(t *testing.T) (sigs <-chan chan<- os.Signal, exited <-chan int) {
	s, e := make(chan chan<- os.Signal, 1), make(chan int, 1)
	oldNotify, oldStop, oldExit := notifySignals, stopSignals, exit
	notifySignals = func(c chan<- os.Signal) { s <- c }
	stopSignals = func(chan<- os.Signal) {}
	exit = func(code int) { e <- code; runtime.Goexit() }
	t.Cleanup(func() {
		notifySignals, stopSignals, exit = oldNotify, oldStop, oldExit
		pending.Lock()
		pending.quitting = false
		pending.Unlock()
	})
	return s, e
}

// syncBuffer is a bytes.Buffer safe to write from the signal goroutine.
type syncBuffer struct {
	mu  chan struct{}
	buf bytes.Buffer
}

func (b *syncBuffer) lock() {
	if b.mu == nil {
		b.mu = make(chan struct{}, 1)
	}
	b.mu <- struct{}{}
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.lock()
	defer func() { <-b.mu }()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.lock()
	defer func() { <-b.mu }()
	return b.buf.String()
}

func TestWorkersCapped(t *testing.T) {
	code, out, errs := runCLI(t, "sim", "--games", "1", "--workers", "100000", "--mode", "normal", "--policy", "random", "--quiet", "--format", "csv")
	want := fmt.Sprintf("tallywood: sim: --workers 100000 capped at %d (4 per CPU, %d CPUs): more only cost memory\n", 4*runtime.NumCPU(), runtime.NumCPU())
	if code != exitOK || errs != want || !strings.HasPrefix(out, "mode,") {
		t.Errorf("exit %d, stderr %q, stdout %q; want 0, %q and the CSV", code, errs, out, want)
	}
}

// TestMerge covers merge's defaults and partial studies.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	shards := writeShards(t, dir, 4)

	code, out, errs := runCLI(t, "merge", shards[2])
	if code != exitOK || !strings.HasPrefix(out, "rules ") || !strings.Contains(out, "| MODE ") {
		t.Errorf("exit %d, stdout %q: want a table by default", code, out)
	}
	want := "tallywood: merge: 1 of 4 shards: 10 of the study's 40 games (25.0%); the result is marked \"complete\": false\n"
	if errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	_, out, _ = runCLI(t, "merge", "--format", "json", shards[2], shards[0])
	var r struct {
		Complete bool
		Shard    string
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Complete || r.Shard != "1+3/4" {
		t.Errorf("2 of 4 shards: complete %t, shard %q (err %v); want false, 1+3/4", r.Complete, r.Shard, err)
	}
	code, out, errs = runCLI(t, append([]string{"merge", "--format", "json"}, shards...)...)
	if err := json.Unmarshal([]byte(out), &r); code != exitOK || errs != "" || err != nil || !r.Complete {
		t.Errorf("every shard: exit %d, stderr %q, complete %t (err %v)", code, errs, r.Complete, err)
	}

	// A shard of another version merges only when allowed.
	data, _ := os.ReadFile(shards[1])
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, bytes.Replace(data, []byte(`"tallywood_version": "`), []byte(`"tallywood_version": "v0.0.1 `), 1), 0o644)
	code, out, errs = runCLI(t, "merge", "--allow-mixed-versions", "--format", "json", shards[0], other)
	var v struct {
		TallywoodVersion string `json:"tallywood_version"`
	}
	if err := json.Unmarshal([]byte(out), &v); code != exitOK || err != nil || v.TallywoodVersion != "mixed" {
		t.Errorf("--allow-mixed-versions: exit %d, stderr %q, version %q", code, errs, v.TallywoodVersion)
	}

	// An interrupted shard makes an interrupted result.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	old := baseContext
	baseContext = func() context.Context { return ctx }
	cut := filepath.Join(dir, "cut.json")
	runCLI(t, "sim", "--games", "40", "--mode", "normal", "--policy", "random", "--seed", "3", "--shard", "2/4", "--out", cut, "--quiet")
	baseContext = old
	code, _, errs = runCLI(t, "merge", shards[0], cut)
	want = "tallywood: merge: " + cut + " holds an interrupted run: the merged result is partial (marked interrupted)\n" +
		"tallywood: merge: 2 of 4 shards: 10 of the study's 40 games (25.0%); the result is marked \"complete\": false\n" +
		"tallywood: merge: interrupted: stdout now holds a partial result (10 games, marked interrupted)\n"
	if code != exitFailed || errs != want {
		t.Errorf("exit %d, stderr\n%s\nwant 1 and\n%s", code, errs, want)
	}
}

// TestFormatFromOut: --out's extension chooses the format.
func TestFormatFromOut(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ name, prefix string }{
		{"r.json", "{\n  \"format\": \"tallywood-sim/1\""}, {"r.CSV", "mode,policy,"}, {"r.txt", "rules "}, {"r", "rules "},
	} {
		out := filepath.Join(dir, tt.name)
		if code, _, errs := runCLI(t, "sim", "--games", "3", "--mode", "normal", "--policy", "random", "--quiet", "--out", out); code != exitOK {
			t.Fatalf("%s: exit %d: %s", tt.name, code, errs)
		}
		if data, _ := os.ReadFile(out); !strings.HasPrefix(string(data), tt.prefix) {
			t.Errorf("--out %s holds %.40q, want it to start with %q", tt.name, data, tt.prefix)
		}
	}
}

// TestListFlags: lists for --mode and --politician, names
// ignoring case.
func TestListFlags(t *testing.T) {
	code, out, errs := runCLI(t, "sim", "--games", "3", "--mode", "normal,Hard", "--politician", "Moderate,populist",
		"--policy", "Random", "--format", "csv", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var cells []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		cells = append(cells, strings.Join(strings.Split(line, ",")[:3], "/"))
	}
	want := "normal/random/moderate normal/random/populist hard/random/moderate hard/random/populist"
	if got := strings.Join(cells, " "); got != want {
		t.Errorf("cells %s, want %s", got, want)
	}
}

// placeholderless matches a help line whose flag shows a Go type instead
// of a placeholder (FILE, N, SPEC...), or a switch shown with [=true|false].
var placeholderless = regexp.MustCompile(`(?m)^\s+(-\w, )?--[\w-]+( (string|int|uint|float|int64|uint64|duration)\b|\[=)`)

func TestHelp(t *testing.T) {
	code, out, errs := runCLI(t)
	if code != exitBadArgs || out != "" || !strings.HasPrefix(errs, "usage: tallywood COMMAND") {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q; want 2 and usage on stderr", code, out, errs)
	}
	code, out, _ = runCLI(t, "help")
	if code != exitOK || !strings.HasPrefix(out, "usage: tallywood COMMAND") {
		t.Errorf("help: exit %d, stdout %q", code, out)
	}
	for _, name := range commandNames() {
		t.Run(name, func(t *testing.T) {
			code, direct, errs := runCLI(t, name, "--help")
			if code != exitOK || errs != "" || !strings.Contains(direct, "usage") {
				t.Fatalf("%s --help: exit %d, stderr %q, stdout %q", name, code, errs, direct)
			}
			if code, viaHelp, _ := runCLI(t, "help", name); code != exitOK || viaHelp != direct {
				t.Errorf("help %s differs from %s --help:\n%s", name, name, viaHelp)
			}
			if m := placeholderless.FindString(direct); m != "" {
				t.Errorf("help line %q lacks a placeholder", m)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	code, out, errs := runCLI(t, "version")
	if code != exitOK || errs != "" || !strings.HasPrefix(out, "tallywood "+deal.Version()+"\n") {
		t.Errorf("version: exit %d, stderr %q, stdout %q", code, errs, out)
	}
	if _, flag, _ := runCLI(t, "--version"); flag != out {
		t.Errorf("--version %q differs from version %q", flag, out)
	}
	_, res, _ := runCLI(t, "sim", "--games", "2", "--mode", "normal", "--policy", "random", "--format", "json", "--quiet")
	if r, err := sim.DecodeAs[*sim.Result]([]byte(res)); err != nil || r.TallywoodVersion != deal.Version() {
		t.Errorf("the result does not record the version %q (err %v)", deal.Version(), err)
	}
}

// TestCompletion runs the bash script's completion function, and checks
// the zsh and fish scripts' syntax where those shells are installed.
func TestCompletion(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "tallywood.bash")
	_, out, _ := runCLI(t, "completion", "bash")
	os.WriteFile(script, []byte(out), 0o644)
	for _, tt := range []struct {
		words string
		want  string
	}{
		{"tallywood si", "sim"},
		{"tallywood sim --wi", "--wide"},
		{"tallywood merge --al", "--allow-mixed-versions"},
		{"tallywood rules ch", "check"},
		{"tallywood help tr", "trace"},
		{"tallywood completion f", "fish"},
		{"tallywood scenario run -", "--game --mode --politician --quiet --seed --help"},
		{"tallywood scenario se", "setup"},
	} {
		words := strings.Fields(tt.words)
		cmd := exec.Command("bash", "-c", fmt.Sprintf(`source %q; COMP_WORDS=(%s); COMP_CWORD=%d; _tallywood; echo "${COMPREPLY[*]}"`,
			script, tt.words, len(words)-1))
		got, err := cmd.Output()
		if err != nil || strings.TrimSpace(string(got)) != tt.want {
			t.Errorf("%q completes to %q (err %v), want %q", tt.words, strings.TrimSpace(string(got)), err, tt.want)
		}
	}
	for _, shell := range []string{"zsh", "fish"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("no %s: its script is not checked", shell)
			continue
		}
		_, out, _ := runCLI(t, "completion", shell)
		f := filepath.Join(dir, "tallywood."+shell)
		os.WriteFile(f, []byte(out), 0o644)
		if msg, err := exec.Command(shell, "-n", f).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v: %s", shell, err, msg)
		}
	}
}

// TestTableWidth: the default table fits 100 columns, explains
// FALLBACKS/GAME under it, and --wide has the rest.
func TestTableWidth(t *testing.T) {
	_, out, _ := runCLI(t, "sim", "--games", "30", "--quiet")
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("line of %d columns: %s", n, line)
		}
	}
	if !strings.Contains(out, "\nFALLBACKS/GAME: per game, Opposition actions moved to its other District / done in neither (I-10)\n") {
		t.Errorf("no legend under the table:\n%s", out)
	}
	_, wide, _ := runCLI(t, "sim", "--games", "30", "--quiet", "--wide")
	for _, col := range []string{"GAMES", "W / D / L", "VOTES YOU : OPP", "MARGIN P5 P25 P50 P75 P95", "GAMES/S"} {
		if strings.Contains(out, "| "+col+" ") || !strings.Contains(wide, col) {
			t.Errorf("column %q: want it with --wide only", col)
		}
	}
}

// TestETAModel: the ETA expects each cell to run at the speed
// measured for its policy, not at the run's average.
func TestETAModel(t *testing.T) {
	m := newETAModel([]string{"slow", "fast", "slow", "fast"}, []int64{100, 100, 100, 100})
	m.observe(0, 0)
	m.observe(50, 10e9) // 5 games/s in the first slow cell
	// 50 slow games left at 5/s, a fast cell of unknown speed at the
	// average 5/s, 100 slow at 5/s, 100 fast at 5/s.
	if got := m.remaining(50, 10e9); got != 70 {
		t.Errorf("remaining at 50 games = %g s, want 70", got)
	}
	m.observe(100, 20e9) // the fast cell starts after 20 s
	m.observe(150, 20.5e9)
	// 50 fast games at 100/s, 100 slow at 5/s, 100 fast at 100/s.
	if got := m.remaining(150, 20.5e9); got != 21.5 {
		t.Errorf("remaining at 150 games = %g s, want 21.5", got)
	}
	fresh := newETAModel([]string{"a"}, []int64{10})
	if got := fresh.remaining(0, 0); got != -1 {
		t.Errorf("remaining before any game = %g, want -1 (unknown)", got)
	}
	// Compare's ETA stayed at 0:03 for the three minutes of
	// its slow cell, the cells being one policy and so one key. Three
	// cells of 100 games, the first two of one key: the first at 100
	// games/s, the second at 1 game/s.
	c := newETAModel([]string{"greedy", "greedy", "skilled"}, []int64{100, 100, 100})
	c.observe(100, 1e9)
	c.observe(150, 51e9)
	// 50 games left at the slow cell's own 1/s, and a cell of an unknown
	// key at the slowest speed measured, 1/s: 150 s (the key's average,
	// 150 games in 51 s, said 17 s; the run's average 34 s more).
	if got := c.remaining(150, 51e9); got != 150 {
		t.Errorf("remaining in the slow cell = %g s, want 150", got)
	}
	// Cells of different sizes (compare's mcts cells play fewer games).
	d := newETAModel([]string{"a", "b"}, []int64{10, 1000})
	d.observe(5, 1e9)
	if got := d.remaining(5, 1e9); got != 201 {
		t.Errorf("remaining with cells of 10 and 1000 games = %g s, want 201", got)
	}
	for _, tt := range []struct {
		s    float64
		want string
	}{{-1, "--:--"}, {75, "1:15"}, {3725, "1:02:05"}, {1e12, "11574074 days"}} {
		if got := fmtSeconds(tt.s); got != tt.want {
			t.Errorf("fmtSeconds(%g) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// TestOneLine: no value can split an error.
func TestOneLine(t *testing.T) {
	if got, want := oneLine("a\nb\tc\x00d é"), `a\nb\tc\x00d é`; got != want {
		t.Errorf("oneLine = %q, want %q", got, want)
	}
}

// TestREADMEOutputsIgnored: every file the README's commands
// write into the clone (--out FILE, > FILE) is listed in .gitignore, so
// running them leaves the clone clean; and no two kinds of command write
// one file.
func TestREADMEOutputsIgnored(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ignore, err := os.ReadFile("../../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, line := range strings.Split(string(ignore), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, strings.TrimPrefix(line, "/"))
		}
	}
	written := regexp.MustCompile(`(?:--out|>)\s+([^\s|;&]+)`)
	found := 0
	writer := map[string]string{} // file → the command that writes it
	for i, block := range strings.Split(string(readme), "```") {
		if i%2 == 0 || !strings.HasPrefix(block, "sh\n") {
			continue
		}
		for _, at := range written.FindAllStringSubmatchIndex(block, -1) {
			path := block[at[2]:at[3]]
			if filepath.IsAbs(path) || strings.HasPrefix(path, "$") {
				continue // outside the clone
			}
			found++
			// mine.json was written as a rules file, then as a
			// scenario, so a later --b-rules mine.json read a scenario.
			// (An .html file is a report whoever writes it.)
			line := block[strings.LastIndex(block[:at[0]], "\n")+1:]
			cmd, _, _ := strings.Cut(strings.TrimPrefix(line, "go run ./cmd/tallywood "), " ")
			if prev, ok := writer[path]; ok && prev != cmd && filepath.Ext(path) == ".json" {
				t.Errorf("the README writes %s with %s and again with %s: one file, two kinds", path, prev, cmd)
			}
			writer[path] = cmd
			ignored := false
			for _, p := range patterns {
				if ok, _ := filepath.Match(p, path); ok {
					ignored = true
				}
			}
			if !ignored {
				t.Errorf("the README writes %s, which .gitignore does not list", path)
			}
		}
	}
	if found == 0 {
		t.Error("found no file the README writes: is the pattern stale?")
	}
}

// TestInputFileBounds, for scenario and save files:
// a file beyond its bound is refused, naming it and the bound.
func TestInputFileBounds(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), 1<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"scenario", "run", "-q", big}, "tallywood: scenario: " + big + ": larger than 1 MiB, the most this file can be\n"},
		{[]string{"play", "--load", big}, "tallywood: play: " + big + ": larger than 1 MiB, the most this file can be\n"},
	} {
		code, _, errs := runCLI(t, tt.args...)
		if code != exitBadArgs || errs != tt.want {
			t.Errorf("%s: exit %d, stderr %q; want 2, %q", tt.args[0], code, errs, tt.want)
		}
	}
}

// TestRegisterRefusesADuplicate: a subcommand registers once; a second
// panics at init rather than replacing the first.
func TestRegisterRefusesADuplicate(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("sim registered twice without a panic")
		}
	}()
	register(command{name: "sim"})
}
