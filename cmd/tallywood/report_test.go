package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var commandFact = regexp.MustCompile(`<dt>Command</dt><dd><code>([^<]*)</code>`)

// TestReportReproduces runs sim, compare and sweep, reports on their
// JSON, and runs the command line the report gives for each: it must
// play the same games.
func TestReportReproduces(t *testing.T) {
	dir := t.TempDir()
	runs := map[string][]string{
		"sim": {"sim", "--games", "40", "--mode", "hard", "--policy", "random,greedy", "--seed", "9",
			"--set", "difficulties.hard.bonus_divisor=3"},
		"compare": {"compare", "--games", "30", "--policy", "random", "--b-set", "difficulties.hard.bonus_divisor=3",
			"--b-name", "divisor three", "--sprt-delta", "0.05", "--seed", "4"},
		"sweep": {"sweep", "--set", "difficulties.hard.bonus_divisor=1..3", "--games", "20", "--mode", "hard",
			"--policy", "random", "--target", "0.01", "--seed", "6"},
	}
	for name, args := range runs {
		t.Run(name, func(t *testing.T) {
			first := filepath.Join(dir, name+"-first.json")
			if code, _, errs := runCLI(t, append(args, "--format", "json", "--out", first, "--quiet")...); code != exitOK {
				t.Fatalf("%s: exit %d: %s", name, code, errs)
			}
			cmds := printedCommands(t, first)
			if len(cmds) != 1 {
				t.Fatalf("the report shows %d commands for a whole run, want 1", len(cmds))
			}
			cmd := cmds[0]
			again := filepath.Join(dir, name+"-again.json")
			if code, _, errs := runCLI(t, append(cmd, "--out", again, "--quiet")...); code != exitOK {
				t.Fatalf("%q: exit %d: %s", cmd, code, errs)
			}
			a, _ := os.ReadFile(first)
			b, _ := os.ReadFile(again)
			if !bytes.Equal(untimed(t, a), untimed(t, b)) {
				t.Errorf("the report's command %q plays other games than the run it reports", cmd)
			}
		})
	}
}

// shellWords splits a command line as a POSIX shell would, for the
// quoting the report writes: words of plain characters and '...' pieces.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			w.WriteByte(c)
		case c == '\'':
			quoted, in = true, true
		case c == ' ':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			if c == '\\' && i+1 < len(s) {
				i++
				c = s[i]
			}
			w.WriteByte(c)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unterminated quote in %q", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// TestHTMLOutput checks that --format html, and an --out file ending in
// .html, write the report directly.
func TestHTMLOutput(t *testing.T) {
	dir := t.TempDir()
	sweepArgs := []string{"--set", "difficulties.hard.bonus_divisor=1,2", "--mode", "hard", "--policy", "random", "--games", "10", "--quiet"}
	seatsArgs := []string{"--seats", "2", "--policy", "random", "--games", "10", "--quiet"}
	type htmlCase struct {
		name    string
		args    []string
		out     string
		heading string
	}
	tests := []htmlCase{
		{"sim --out x.html", []string{"sim", "--games", "10", "--mode", "normal", "--policy", "random", "--quiet"}, "sim.html", "sim: this run"},
		{"sim --format html", []string{"sim", "--games", "10", "--mode", "normal", "--policy", "random", "--format", "html", "--quiet"}, "sim.out", "sim: this run"},
		{"compare --out x.HTML", []string{"compare", "--games", "10", "--policy", "random", "--b-mode", "hard", "--quiet"}, "compare.HTML", "compare: Hard against Normal (this run)"},
		{"sweep --format html", append([]string{"sweep", "--format", "html"}, sweepArgs...), "sweep.out", "sweep: this run"},
		{"sim --seats --format html", append([]string{"sim", "--format", "html"}, seatsArgs...), "seats.out", "sim --seats: this study"},
	}
	// Every kind of merge titles its report "merged shards".
	for _, kind := range []struct {
		name           string
		args           []string
		heading, close string
	}{
		{"sim", []string{"sim", "--games", "10", "--mode", "normal", "--policy", "random"}, "sim: ", ""},
		// A comparison's heading says what the arms are.
		{"compare", []string{"compare", "--games", "10", "--mode", "normal", "--policy", "random", "--b-mode", "hard"}, "compare: Hard against Normal (", ")"},
		{"sweep", append([]string{"sweep"}, sweepArgs...), "sweep: ", ""},
		{"sim --seats", append([]string{"sim"}, seatsArgs...), "sim --seats: ", ""},
	} {
		var shards []string
		for k := 1; k <= 2; k++ {
			shard := filepath.Join(dir, fmt.Sprintf("%s-%d.json", strings.ReplaceAll(kind.name, " ", ""), k))
			if code, _, errs := runCLI(t, append(kind.args, "--shard", fmt.Sprintf("%d/2", k), "--format", "json", "--out", shard, "--quiet")...); code != exitOK {
				t.Fatalf("%s shard: exit %d: %s", kind.name, code, errs)
			}
			shards = append(shards, shard)
		}
		tests = append(tests, htmlCase{"merge " + kind.name, append([]string{"merge", "--format", "html"}, shards...),
			"merge-" + strings.ReplaceAll(kind.name, " ", "") + ".out", kind.heading + "merged shards" + kind.close})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.out)
			if code, _, errs := runCLI(t, append(tc.args, "--out", out)...); code != exitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(data, []byte("<!DOCTYPE html>")) || !bytes.Contains(data, []byte("<h2>"+tc.heading+"</h2>")) ||
				!bytes.Contains(data, []byte(`<svg class="plot"`)) {
				t.Errorf("%s is not the report of %s", tc.out, tc.heading)
			}
		})
	}
}

func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	ladder := filepath.Join(dir, "ladder.json")
	csv := filepath.Join(dir, "result.csv")
	missing := filepath.Join(dir, "missing.json")
	os.WriteFile(ladder, []byte(`{"kind": "ladder", "format": "tallywood-ladder/1"}`), 0o644)
	os.WriteFile(csv, []byte("mode,policy\nnormal,greedy\n"), 0o644)
	good := filepath.Join(dir, "good.json")
	if code, _, errs := runCLI(t, "sim", "--games", "5", "--mode", "normal", "--policy", "random", "--format", "json", "--out", good, "--quiet"); code != exitOK {
		t.Fatalf("sim: exit %d: %s", code, errs)
	}
	page := filepath.Join(dir, "r.html")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no files", []string{"report"}, "tallywood: report: no result files given; see 'tallywood report --help'"},
		{"unknown flag", []string{"report", "--format", "pdf", ladder}, `tallywood: report: unknown flag "--format"; see 'tallywood report --help'`},
		{"unknown kind", []string{"report", ladder},
			"tallywood: report: " + ladder + `: unknown kind of result "ladder": tallywood reads arc, calibrate, cards, compare, curve, sensitivity, sim, sweep, table, table-compare and tune results`},
		{"not JSON", []string{"report", csv},
			"tallywood: report: " + csv + ": not a tallywood result: invalid character 'm' looking for beginning of value"},
		{"missing file", []string{"report", missing}, "tallywood: report: open " + missing + ": no such file or directory"},
		{"no out directory", []string{"report", "--out", filepath.Join(dir, "no", "r.html"), ladder},
			`tallywood: report: --out "` + filepath.Join(dir, "no", "r.html") + `": directory "` + filepath.Join(dir, "no") + `" does not exist; see 'tallywood report --help'`},
		// One bad file among good ones: no report at all, not a partial one.
		{"one bad file", []string{"report", good, csv, "--out", page},
			"tallywood: report: " + csv + ": not a tallywood result: invalid character 'm' looking for beginning of value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != exitBadArgs {
				t.Errorf("exit %d, want %d", code, exitBadArgs)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			if got := strings.TrimSuffix(stderr, "\n"); got != tc.want {
				t.Errorf("stderr\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	if _, err := os.Stat(page); err == nil {
		t.Errorf("a report was written despite the bad file")
	}
}

// TestKindlessSimResultsReadEverywhere: a sim result written before
// results had a "kind" (format tallywood-sim/1 alone) is read as a sim
// result by every reader, as older formats of every kind still are:
// merge, report, and the hint for a result named as a rules file.
func TestKindlessSimResultsReadEverywhere(t *testing.T) {
	dir := t.TempDir()
	shards := writeShards(t, dir, 2)
	for _, f := range shards {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var d map[string]any
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		delete(d, "kind")
		data, _ = json.Marshal(d)
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runCLI(t, "merge", "--format", "json", "--out", filepath.Join(dir, "m.json"), shards[0], shards[1]); code != exitOK {
		t.Errorf("merge: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "report", "--out", filepath.Join(dir, "r.html"), shards[0]); code != exitOK {
		t.Errorf("report: exit %d, %s", code, stderr)
	}
	want := "this is a result file (read it with 'tallywood report' or 'tallywood merge')"
	if code, _, stderr := runCLI(t, "sim", "--rules", shards[0]); code != exitBadArgs || !strings.Contains(stderr, want) {
		t.Errorf("sim --rules: exit %d, %s", code, stderr)
	}
}
