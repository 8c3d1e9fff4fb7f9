package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim/deal"
)

func TestScenarioCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pass := "../../testdata/scenarios/fallback-unable-in-both.json"
	failing := write("fail.json", `{"name": "wrong on purpose", "description": "I-10",
		"setup": {"next_solo_cards": ["S-02"]}, "run": ["opposition_turn"],
		"expect": {"opposition.polling.Red": 5, "opposition.money": 0}}`)
	malformed := write("bad.json", `{"name": "bad", "description": "d", "run": ["opposition_turn"], "expect": {"opposition.money": 0}, "seeed": 3}`)
	tests := []struct {
		name string
		args []string
		code int
		out  []string // substrings of stdout
		err  string   // substring of stderr
	}{
		{"pass", []string{"scenario", "run", pass}, exitOK, []string{"Opposition: Assistant of column 1 → Red", "PASS Unable in both", "1 passed, 0 failed"}, ""},
		{"fail", []string{"scenario", "run", pass, failing}, exitFailed, []string{"FAIL wrong on purpose", "opposition.polling.Red: want 5, got 3", "1 passed, 1 failed"}, ""},
		{"quiet", []string{"scenario", "run", "-q", failing}, exitFailed, []string{"FAIL wrong on purpose"}, ""},
		{"malformed", []string{"scenario", "run", malformed, failing}, exitBadArgs, []string{"0 passed, 1 failed, 1 malformed"}, `unknown field "seeed"`},
		{"missing file", []string{"scenario", "run", filepath.Join(dir, "none.json")}, exitBadArgs, nil, "none.json"},
		{"no files", []string{"scenario", "run"}, exitBadArgs, nil, "run needs at least one FILE"},
		{"no subcommand", []string{"scenario"}, exitBadArgs, nil, "usage"},
		{"bad flag", []string{"scenario", "--frobnicate", "run", pass}, exitBadArgs, nil, "frobnicate"},
		{"help", []string{"scenario", "--help"}, exitOK, []string{"tallywood scenario run", "tallywood scenario setup"}, ""},
		// Game 0 of master seed 3, as trace --seed 3 deals it (not
		// engine seed 3).
		{"setup", []string{"scenario", "setup", "--seed", "3", "--mode", "hard"}, exitOK,
			[]string{fmt.Sprintf(`"seed": %d`, deal.GameSeed(3, 0)), `"difficulty": "hard"`, `"initiative": ["opposition", "you"]`, `"piles.celebrity_faces"`}, ""},
		{"setup game", []string{"scenario", "setup", "--seed", "3", "--game", "7"}, exitOK,
			[]string{fmt.Sprintf(`"seed": %d`, deal.GameSeed(3, 7)), `"difficulty": "normal"`}, ""},
		{"setup default", []string{"scenario", "setup"}, exitOK, []string{fmt.Sprintf(`"seed": %d`, deal.GameSeed(1, 0))}, ""},
		{"setup bad game", []string{"scenario", "setup", "--game", "-2"}, exitBadArgs, nil, `tallywood: scenario: --game "-2": not a whole number ≥ 0`},
		{"setup bad mode", []string{"scenario", "setup", "--mode", "easy"}, exitBadArgs, nil, `tallywood: scenario: --mode "easy" is not normal or hard`},
		{"run with game", []string{"scenario", "run", "--game", "2", pass}, exitBadArgs, nil, "tallywood: scenario: --game: only for scenario setup"},
		{"setup bad seed", []string{"scenario", "setup", "--seed", "-1"}, exitBadArgs, nil, `tallywood: scenario: --seed "-1": not a whole number ≥ 0`},
		{"setup with a file", []string{"scenario", "setup", pass}, exitBadArgs, nil, `tallywood: scenario: setup takes no FILE ("../../testdata/scenarios/fallback-unable-in-both.json")`},
		{"setup quiet", []string{"scenario", "setup", "-q"}, exitBadArgs, nil, "tallywood: scenario: --quiet: only for scenario run"},
		{"run with seed", []string{"scenario", "run", "--seed", "2", pass}, exitBadArgs, nil, "tallywood: scenario: --seed: only for scenario setup"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(tc.args, &out, &errb); code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errb.String())
			}
			for _, s := range tc.out {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			if !strings.Contains(errb.String(), tc.err) {
				t.Errorf("stderr %q lacks %q", errb.String(), tc.err)
			}
			if tc.name == "quiet" && strings.Contains(out.String(), "Assistant of column") {
				t.Error("--quiet printed a trace")
			}
		})
	}
}

// TestScenarioSetupRuns checks that what scenario setup prints passes as a
// scenario file.
func TestScenarioSetupRuns(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"scenario", "setup", "--seed", "12"}, &out, &errb); code != exitOK {
		t.Fatalf("setup: exit %d: %s", code, errb.String())
	}
	p := filepath.Join(t.TempDir(), "skeleton.json")
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"scenario", "run", "-q", p}, &out, &errb); code != exitOK {
		t.Errorf("run: exit %d\n%s%s", code, out.String(), errb.String())
	}
}

// TestOneSeedConvention checks that scenario setup, trace and play deal
// the same game for the same --seed and --game, with the same Politician
// (scenario setup --seed 3 dealt engine seed 3, trace and play game 0 of
// master seed 3; then trace dealt red-favourite, setup magnate and play
// moderate: issue 42).
func TestOneSeedConvention(t *testing.T) {
	r := engine.Reference()
	for _, game := range []string{"0", "5"} {
		var setup, trace, errb bytes.Buffer
		if code := run([]string{"scenario", "setup", "--seed", "3", "--game", game}, &setup, &errb); code != exitOK {
			t.Fatalf("setup: exit %d: %s", code, errb.String())
		}
		if code := run([]string{"trace", "--seed", "3", "--game", game}, &trace, &errb); code != exitOK {
			t.Fatalf("trace: exit %d: %s", code, errb.String())
		}
		var g uint64
		fmt.Sscan(game, &g)
		seed := deal.GameSeed(3, g)
		if !strings.Contains(setup.String(), fmt.Sprintf(`"seed": %d,`, seed)) {
			t.Errorf("game %s: setup does not deal game seed %d:\n%.300s", game, seed, setup.String())
		}
		if !strings.Contains(trace.String(), fmt.Sprintf("(game seed %d)", seed)) {
			t.Errorf("game %s: trace does not narrate game seed %d:\n%.300s", game, seed, trace.String())
		}
		save := filepath.Join(t.TempDir(), "g.json")
		if code, _, errs := runPlayWith(t, "s\nq\n", "--seed", "3", "--game", game, "--save", save); code != exitOK {
			t.Fatalf("play: %s", errs)
		}
		_, loaded, _ := runCLI(t, "trace", "--load", save)
		if want := fmt.Sprintf("game %s of seed 3 (game seed %d)", game, seed); !strings.Contains(unwrapped(loaded), want) {
			t.Errorf("play --seed 3 --game %s: trace --load says\n%.300s\nwant %q", game, loaded, want)
		}
		// The Politician is the game seed's in all three, as sim deals it.
		pol := r.Politicians[deal.RandomPolitician(seed, len(r.Politicians))].ID
		if want := fmt.Sprintf(`"politician": %q`, pol); !strings.Contains(setup.String(), want) {
			t.Errorf("game %s: setup does not deal %s:\n%.600s", game, pol, setup.String())
		}
		if want := "politician " + pol + ","; !strings.Contains(unwrapped(trace.String()), want) {
			t.Errorf("game %s: trace does not deal %s:\n%.300s", game, pol, trace.String())
		}
		if want := "politician " + pol + ","; !strings.Contains(unwrapped(loaded), want) {
			t.Errorf("game %s: play does not deal %s:\n%.300s", game, pol, loaded)
		}
		// --politician names another for all three.
		other := r.Politicians[(deal.RandomPolitician(seed, len(r.Politicians))+1)%len(r.Politicians)].ID
		setup.Reset()
		if code := run([]string{"scenario", "setup", "--seed", "3", "--game", game, "--politician", other}, &setup, &errb); code != exitOK {
			t.Fatalf("setup --politician: exit %d: %s", code, errb.String())
		}
		_, traced, _ := runCLI(t, "trace", "--seed", "3", "--game", game, "--politician", other)
		if code, _, errs := runPlayWith(t, "s\nq\n", "--seed", "3", "--game", game, "--politician", other, "--save", save); code != exitOK {
			t.Fatalf("play --politician: %s", errs)
		}
		_, loaded, _ = runCLI(t, "trace", "--load", save)
		if !strings.Contains(setup.String(), fmt.Sprintf(`"politician": %q`, other)) || !strings.Contains(unwrapped(traced), "politician "+other+",") ||
			!strings.Contains(unwrapped(loaded), "politician "+other+",") {
			t.Errorf("game %s: --politician %s is not dealt by all three:\n%.600s\n%.300s\n%.300s", game, other, setup.String(), traced, loaded)
		}
	}
}
