package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
	"tallywood/sim"
)

// forgeSave writes a save file of a two-player table game whose lineup is
// lineup, with the check recomputed as anyone can.
func forgeSave(t *testing.T, path, lineup string) {
	t.Helper()
	r := engine.Reference()
	pols := sim.SeatsPoliticians(sim.GameSeed(5, 0), 2, len(r.Politicians))
	rec := play.Record{Format: play.RecordFormat, RulesHash: r.Hash, RulesVersion: r.Version, Seed: 5,
		Politician: r.Politicians[pols[1]].ID, Seats: 2, Seat: 2, Lineup: []string{lineup}}
	if err := os.WriteFile(path, rec.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadRunsNothing: a save file from someone else starts no program and
// no search beyond the skill levels without --trust-lineup, on trace
// --load and play --load, and says why (issue 22).
func TestLoadRunsNothing(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	execSave := filepath.Join(dir, "exec.json")
	forgeSave(t, execSave, `exec:sh -c "touch `+marker+`"`)
	searchSave := filepath.Join(dir, "search.json")
	forgeSave(t, searchSave, "mcts:iters=100000")
	levelSave := filepath.Join(dir, "level.json")
	forgeSave(t, levelSave, "expert")
	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"trace exec", []string{"trace", "--load", execSave}, exitBadArgs,
			`lineup[0] "exec:sh -c \"touch ` + marker + `\"" starts a program; a save file runs that only when the command line says so: if you trust the file, add --trust-lineup`},
		{"play exec", []string{"play", "--load", execSave}, exitBadArgs, `starts a program`},
		{"trace search", []string{"trace", "--load", searchSave}, exitBadArgs,
			`lineup[0] "mcts:iters=100000" sets parameters beyond the defaults and the skill levels (a search of any size)`},
		{"play search", []string{"play", "--load", searchSave}, exitBadArgs, `a search of any size`},
		{"trace level", []string{"trace", "--load", levelSave}, exitOK, ""},
		{"trust without load", []string{"trace", "--trust-lineup"}, exitBadArgs, "--trust-lineup only matters with --load"},
		// Trusted, the program runs (and fails: sh is no protocol player).
		{"trace exec trusted", []string{"trace", "--load", execSave, "--trust-lineup"}, exitBadArgs, "exec"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			code, _, stderr := runPlayWith(t, "q\n", tt.args[1:]...)
			if tt.args[0] == "trace" {
				code, _, stderr = runCLI(t, tt.args...)
			}
			if code != tt.code || !strings.Contains(stderr, tt.err) {
				t.Errorf("exit %d, stderr %q\nwant exit %d, stderr with %q", code, stderr, tt.code, tt.err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
			_, err := os.Stat(marker)
			if ran := err == nil; ran != strings.HasSuffix(tt.name, "trusted") {
				t.Errorf("the save's program ran: %v", ran)
			}
		})
	}
}

// TestSaveFollowsOutRules: play's s writes as --out does: a symlink's
// target is written and the link stays, a file keeps its mode, a FIFO is
// written into, a device is never replaced (issue 22: s replaced them all
// and made a 0600 file 0644).
func TestSaveFollowsOutRules(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	_, out, _ := runPlayWith(t, "1\ns "+link+"\ns "+fifo+"\ns /dev/full\ns "+dir+"\nq\n", "--seed", "5")
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v", err)
	}
	st, err := os.Stat(target)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600: %v", st.Mode(), err)
	}
	if rec, err := play.ReadRecord(target); err != nil || len(rec.Decisions) != 1 {
		t.Errorf("the link's target does not hold the save: %v", err)
	}
	select {
	case b := <-got:
		if _, err := play.ParseRecord(b); err != nil {
			t.Errorf("the FIFO got %q: %v", b, err)
		}
	case <-time.After(10 * time.Second):
		t.Error("nothing written into the FIFO")
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
	if st, err := os.Lstat("/dev/full"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/full was replaced: %v", err)
	}
	for _, want := range []string{"Could not save: write /dev/full: no space left on device", "Could not save: save file \"" + dir + "\" is a directory"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
