//go:build unix

package exectest

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/policy"
)

// A game played with a fake player, and the processes a test starts and
// then expects gone: package exec's tests of how it stops its programs,
// and tallywood's of a second Ctrl-C.

// PlayOne plays one solo game (the reference rules, seed 3) with the
// player spec names and returns the player, open: its program runs on
// for a next game, as in a study between games, until it is closed.
func PlayOne(t testing.TB, spec string) policy.Policy {
	t.Helper()
	sp, err := policy.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.New(engine.Reference(), 3, engine.Config{Opposition: opposition.Solo{}})
	if err != nil {
		t.Fatal(err)
	}
	p := sp.New()
	p.Reset(3)
	if err := policy.Play(g, p, nil); err != nil {
		policy.Close(p)
		t.Fatal(err)
	}
	return p
}

// PlayForking plays one game (PlayOne) with the player fork, whose
// program starts a child in its process group, and leaves the program
// running; the player is closed when the test ends. It returns the
// process ids of the children, each running, for a test of what stops
// them.
func PlayForking(t testing.TB) (children []int) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pids")
	p := PlayOne(t, Spec("fork", pidFile, ""))
	t.Cleanup(func() { policy.Close(p) })
	children = PIDs(t, pidFile+".child")
	if len(children) == 0 {
		t.Fatal("the program started no child")
	}
	for _, pid := range children {
		if syscall.Kill(pid, 0) != nil {
			t.Fatalf("child %d is gone already", pid)
		}
	}
	return children
}

// PIDs reads the process ids a fake player wrote to file, one a line:
// none when there is no file.
func PIDs(t testing.TB, file string) []int {
	t.Helper()
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pid)
	}
	return out
}

// RequireGone fails unless each of the processes pids is gone within 5
// seconds: a program the harness started must be gone, not a zombie. An
// orphan (the child of a program, or a program whose harness died) is
// reaped by init, which in a container may never happen: with orphans, a
// zombie, which holds nothing but its process id, counts as gone.
func RequireGone(t testing.TB, pids []int, orphans bool) {
	t.Helper()
	for _, pid := range pids {
		deadline := time.Now().Add(5 * time.Second)
		for syscall.Kill(pid, 0) == nil {
			if orphans && procState(pid) == "Z" {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("process %d is still there, state %q", pid, procState(pid))
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// procState is the state letter of a process in /proc, or "".
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2 : i+3]
	}
	return ""
}
