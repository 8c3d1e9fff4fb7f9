package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
)

// writeRules writes the reference rules with old replaced by new.
func writeRules(t *testing.T, dir, name, old, new string) string {
	t.Helper()
	ref := string(engine.ReferenceJSON())
	edited := strings.Replace(ref, old, new, 1)
	if edited == ref && old != new {
		t.Fatalf("reference rules have no %s", old)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRulesCommand: rules check and rules diff, exact output and exit
// codes (issue 9 item 6).
func TestRulesCommand(t *testing.T) {
	dir := t.TempDir()
	hard3 := writeRules(t, dir, "hard3.json", `"bonus_divisor": 2`, `"bonus_divisor": 3`)
	named := writeRules(t, dir, "named.json", `"name": "reference"`, `"name": "gentle-hard"`)
	copied := writeRules(t, dir, "copy.json", `"name": "reference"`, `"name": "reference"`)
	missing := writeRules(t, dir, "missing.json", `"hard": {"player_initiative": 2, `, `"hard": {`)
	bom := writeRules(t, dir, "bom.json", "{", "\uFEFF{")
	ref := engine.Reference().Hash
	refOK := `: ok: "reference", version "reference-set 1 (reconstruction, not the printed components)", hash ` + ref + "\n"
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"check reference copy", []string{"rules", "check", copied}, exitOK,
			copied + `: ok: "reference", version "reference-set 1 (reconstruction, not the printed components)", hash ` + ref + "\n", ""},
		// Issue 22: a Windows editor's byte-order mark was refused as
		// "invalid character 'ï'"; default was a file name here only.
		{"check byte-order mark", []string{"rules", "check", bom}, exitOK, bom + refOK, ""},
		{"check default", []string{"rules", "check", "default"}, exitOK, "default" + refOK, ""},
		{"check reference", []string{"rules", "check", "reference"}, exitOK, "reference" + refOK, ""},
		{"diff default", []string{"rules", "diff", "default", "reference"}, exitOK,
			"A: default: \"reference\" (" + ref[:12] + ")\nB: reference: \"reference\" (" + ref[:12] + ")\nno differences in play\n", ""},
		{"check renamed copy", []string{"rules", "check", named}, exitOK,
			named + `: ok: "gentle-hard", plays as the reference set, version "reference-set 1 (reconstruction, not the printed components)", hash ` + ref + "\n", ""},
		{"check missing field", []string{"rules", "check", missing}, exitBadArgs, "",
			"tallywood: " + missing + ": rules: difficulties.hard.player_initiative: missing from the object on line 141\n"},
		{"diff one field", []string{"rules", "diff", "reference", hard3}, exitOK,
			"A: reference: \"reference\" (" + ref[:12] + ")\n" +
				"B: " + hard3 + ": \"edited reference\" (" + must(t, hard3).Hash[:12] + ")\n" +
				"FIELD                            A  B\n" +
				"difficulties.hard.bonus_divisor  2  3\n" +
				"1 field differs\n", ""},
		{"diff metadata only", []string{"rules", "diff", named, "reference"}, exitOK,
			"A: " + named + ": \"gentle-hard\", plays as the reference set (" + ref[:12] + ")\n" +
				"B: reference: \"reference\" (" + ref[:12] + ")\n" +
				"no differences in play\n", ""},
		{"diff bad file", []string{"rules", "diff", "reference", missing}, exitBadArgs, "",
			"tallywood: rules diff: " + missing + ": rules: difficulties.hard.player_initiative: missing from the object on line 141\n"},
		{"diff no such file", []string{"rules", "diff", "reference", filepath.Join(dir, "none.json")}, exitBadArgs, "",
			"tallywood: rules diff: engine: rules file: open " + filepath.Join(dir, "none.json") + ": no such file or directory\n"},
		{"diff one argument", []string{"rules", "diff", "reference"}, exitBadArgs, "",
			"tallywood: rules: diff takes two rule sets A and B, not 1 arguments; see 'tallywood rules --help'\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tt.args...)
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("exit %d, stdout\n%s\nstderr\n%s\nwant exit %d, stdout\n%s\nstderr\n%s", code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

func must(t *testing.T, path string) *engine.Rules {
	t.Helper()
	r, err := engine.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRulesWriteError: a failed write of the output is exit 1, not 0.
func TestRulesWriteError(t *testing.T) {
	var stderr strings.Builder
	if code := run([]string{"rules", "dump"}, failingWriter{}, &stderr); code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	if want := "tallywood: rules: the output could not be written: no space left on device\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}
