package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"tallywood/sim/policy"
)

func TestParseEntries(t *testing.T) {
	lv := mustParse(t, "skilled").String()
	es, err := parseEntries([]string{"greedy", "400xmcts:iters=400", "skilled", "casual", "3000x" + lv}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.label()+" "+strconv.FormatInt(e.games, 10))
	}
	want := []string{"`greedy` = **casual** 1000", "`mcts:iters=400` 400", "`" + lv + "` = **skilled** 3000"}
	if lv == "mcts:iters=400" {
		want = []string{"`greedy` = **casual** 1000", "`mcts:iters=400` = **skilled** 3000"}
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// make ladder: the levels -levels appends name the counted searches
	// again without a number, which must not raise them to the default.
	es, err = parseEntries([]string{"greedy", "learned", "2000xmcts:iters=100", "1000xmcts:iters=400", "2000xmcts:iters=100,prior=16", "500xmcts:iters=400,prior=16",
		"casual", "skilled", "expert", "master"}, 10000)
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, e := range es {
		got = append(got, e.spec.String()+" "+strconv.FormatInt(e.games, 10))
	}
	if want := "greedy 10000; learned 10000; mcts:iters=100 2000; mcts:iters=400 1000; mcts:iters=100,prior=16 2000; mcts:iters=400,prior=16 500"; strings.Join(got, "; ") != want {
		t.Errorf("with -levels: got %q, want %q", strings.Join(got, "; "), want)
	}
	for _, bad := range []string{"0xgreedy", "nope"} {
		if _, err := parseEntries([]string{bad}, 10); err == nil {
			t.Errorf("parseEntries(%q) accepted", bad)
		}
	}
	if _, err := parseEntries(nil, 10); err == nil || err.Error() != "no policies: give specs or -levels" {
		t.Errorf("no arguments: %v", err)
	}
}

func mustParse(t *testing.T, s string) policy.Spec {
	t.Helper()
	sp, err := policy.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func TestReplaceTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.md")
	doc := "intro\n" + beginMarker + "old table\n" + endMarker + "after\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := replaceTable(path, []byte("| new |\n")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := "intro\n" + beginMarker + "| new |\n" + endMarker + "after\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := os.WriteFile(path, []byte("no markers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := replaceTable(path, []byte("x")); err == nil || !strings.Contains(err.Error(), "no \"<!-- ladder:begin -->\"") {
		t.Errorf("no markers: %v", err)
	}
}

// TestReplaceTableRefuses checks that -update reads its file as every
// tool reads one (kit.ReadFileMax): a FIFO, which would wait for a writer,
// a device and a file past maxDocBytes are refused by name, and left as
// they were (issue 41).
func TestReplaceTableRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	huge := beginMarker + endMarker + strings.Repeat("x", maxDocBytes)
	if err := os.WriteFile(big, []byte(huge), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, want string }{
		{fifo, fifo + " is a FIFO (named pipe), not a regular file"},
		{"/dev/zero", "/dev/zero is a device, not a regular file"},
		{big, big + ": larger than 4 MiB, the most this file can be"},
	} {
		done := make(chan error, 1)
		go func() { done <- replaceTable(tt.path, []byte("| new |\n")) }()
		select {
		case err := <-done:
			if err == nil || err.Error() != tt.want {
				t.Errorf("%s: got %v, want %s", tt.path, err, tt.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still reading after 10 s", tt.path)
		}
	}
	if got, _ := os.ReadFile(big); string(got) != huge {
		t.Errorf("%s was changed", big)
	}
}

func TestThousandsAndSigned(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want string
	}{{9.26, "9.3"}, {105976.4, "105,976"}, {5297, "5,297"}, {100, "100"}} {
		if got := thousands(tt.x); got != tt.want {
			t.Errorf("thousands(%v) = %q, want %q", tt.x, got, tt.want)
		}
	}
	if got := signed(-8.88); got != "−8.9" {
		t.Errorf("signed(-8.88) = %q", got)
	}
}
