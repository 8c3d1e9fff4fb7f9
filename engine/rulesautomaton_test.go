package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// namingScript writes the reference rules naming the script file, beside
// it in dir, with the script's source, and returns the rules file's path.
func namingScript(t *testing.T, dir, file, source string) string {
	t.Helper()
	ref := bytes.TrimRight(ReferenceJSON(), "\n")
	data := append(bytes.TrimRight(ref[:len(ref)-1], " \n"), []byte(",\n  \"automaton\": {\"file\": \""+file+"\"}\n}\n")...)
	path := filepath.Join(dir, "rules.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if source != "" {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(source), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// TestAutomatonFile: a rules file names its script beside it; loading
// reads it inline, and its content, not its file's name, is in the hash.
func TestAutomatonFile(t *testing.T) {
	const source = "def turn():\n    flip()\n"
	a := t.TempDir()
	r, err := LoadFile(namingScript(t, a, "mine.star", source))
	if err != nil {
		t.Fatal(err)
	}
	if r.Automaton == nil || r.Automaton.Name != "mine.star" || r.Automaton.Source != source {
		t.Fatalf("automaton %+v", r.Automaton)
	}
	if r.Hash == Reference().Hash {
		t.Error("a script leaves the hash of the reference set")
	}
	// The canonical form holds the script inline: it parses from bytes.
	back, err := Parse(r.Canonical())
	if err != nil || back.Hash != r.Hash || back.Automaton.Source != source {
		t.Fatalf("canonical form: %v", err)
	}
	// Renamed: the same hash. One character changed: another.
	b := t.TempDir()
	renamed, err := LoadFile(namingScript(t, b, "other.star", source))
	if err != nil || renamed.Hash != r.Hash {
		t.Errorf("renamed script: hash %s, want %s (%v)", renamed.Hash, r.Hash, err)
	}
	c := t.TempDir()
	changed, err := LoadFile(namingScript(t, c, "mine.star", source+"\n"))
	if err != nil || changed.Hash == r.Hash {
		t.Errorf("changed script: same hash (%v)", err)
	}
	// Diff: built-in against a script, and two scripts line by line.
	if d := Diff(Reference(), r); len(d) != 1 || d[0].Path != "automaton" || d[0].A != `"built-in"` || d[0].B != `"script mine.star"` {
		t.Errorf("diff reference → script: %+v", d)
	}
	if d := Diff(r, changed); len(d) != 1 || d[0].Path != "automaton.source:4" || d[0].A != "" || d[0].B != `""` {
		t.Errorf("diff of two scripts: %+v", d)
	}
	if d := Diff(r, renamed); len(d) != 0 {
		t.Errorf("diff of a renamed script: %+v", d)
	}
}

// TestAutomatonFileRefused: the script's file is a name beside the rules
// file, read as every file the tool reads, and the error names it.
func TestAutomatonFileRefused(t *testing.T) {
	for _, tt := range []struct{ name, file, source, want string }{
		{"a directory", "sub/mine.star", "x", `automaton.file: "sub/mine.star" must name a file beside the rules file, with no directory`},
		{"out of the folder", "../mine.star", "", `automaton.file: "../mine.star" must name a file beside the rules file, with no directory`},
		{"absolute", "/etc/passwd", "", `automaton.file: "/etc/passwd" must name a file beside the rules file, with no directory`},
		{"missing", "none.star", "", "automaton.file: none.star beside the rules file: no such file or directory"},
		{"empty", "mine.star", "", ""},
		{"a flag", "-x.star", "", `automaton.file: "-x.star" starts with '-'`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.file == "sub/mine.star" {
				os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			}
			path := namingScript(t, dir, tt.file, tt.source)
			if tt.name == "empty" {
				os.WriteFile(filepath.Join(dir, tt.file), nil, 0o644)
				tt.want = "automaton.file: mine.star is empty"
			}
			_, err := LoadFile(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
	// Larger than a script may be.
	dir := t.TempDir()
	path := namingScript(t, dir, "big.star", strings.Repeat("#\n", MaxAutomatonSize))
	if _, err := LoadFile(path); err == nil || !strings.Contains(err.Error(), "larger than the 262144 bytes (256 KiB) allowed") {
		t.Errorf("a big script: %v", err)
	}
	// A FIFO is not read (it would wait for a writer).
	fifoDir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(fifoDir, "fifo.star"), 0o644); err == nil {
		if _, err := LoadFile(namingScript(t, fifoDir, "fifo.star", "")); err == nil {
			t.Error("a FIFO read as a script")
		}
	}
}
