package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runWithin runs the command line args, failing the test if it has not
// returned within 20 seconds (a FIFO opened for reading waits for a
// writer for ever).
func runWithin(t *testing.T, args ...string) (code int, stderr string) {
	t.Helper()
	type ran struct {
		code   int
		stderr string
	}
	done := make(chan ran, 1)
	go func() {
		var r ran
		if args[0] == "play" {
			r.code, _, r.stderr = runPlayWith(t, "", args[1:]...)
		} else {
			r.code, _, r.stderr = runCLI(t, args...)
		}
		done <- r
	}()
	select {
	case r := <-done:
		return r.code, r.stderr
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still running after 20s", strings.Join(args, " "))
	}
	return 0, ""
}

// TestInputsRefuseFIFOs: every file a command reads is read by one
// reader, which refuses what is not a regular file; a FIFO named as any
// input is refused at once, naming it, where it used to wait for a
// writer for ever.
func TestInputsRefuseFIFOs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tune := []string{"tune", "--target", "normal:casual=0.3", "--vary", "difficulties.hard.bonus_divisor", "--budget", "300", "--confirm-games", "10"}
	for _, args := range [][]string{
		{"sim", "--games", "1", "--rules", fifo},
		{"compare", "--games", "1", "--b-rules", fifo},
		{"rules", "check", fifo},
		{"rules", "diff", "reference", fifo},
		{"sensitivity", "--list", "--rules", fifo},
		append(tune, "--rules", fifo),
		{"merge", fifo},
		{"report", fifo},
		{"trace", "--load", fifo},
		{"play", "--load", fifo},
		{"scenario", "run", fifo},
		{"sim", "--games", "1", "--policy", "learned:weights=" + fifo},
	} {
		code, stderr := runWithin(t, args...)
		if code != exitBadArgs || !strings.Contains(stderr, fifo+" is a FIFO (named pipe), not a regular file") {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
}
