package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"tallywood/engine/kit"
)

// Automaton is the Opposition a rules file names when it is not the
// built-in one: a script (package opposition/script runs it). The engine
// only carries it: its content is part of the rules Hash, so every result
// and save that names the rules names the automaton that played.
type Automaton struct {
	// Name is the script's file name, for messages (mine.star:12); it is
	// metadata and not part of the Hash.
	Name string
	// Source is the whole script.
	Source string
	// Hash is the sha256, in hex, of Source: ShortHash of it names the
	// script in output.
	Hash string
}

// MaxAutomatonSize bounds a script, inline or in its file: an automaton
// is a page or two, and a bound keeps a mistaken path from reading more.
const MaxAutomatonSize = 256 << 10

// automatonFile is the rules file's "automaton" object. On disk it gives
// either file, the name of a script beside the rules file, or source, the
// script inline (with name optional, for messages). Once loaded, the
// canonical form holds the script inline as source and its file name as
// name, so that a dumped or recorded rules file is whole by itself and
// never sends a reader to another path.
type automatonFile struct {
	File   string `json:"file,omitempty"`
	Name   string `json:"name,omitempty"`
	Source string `json:"source,omitempty"`
}

// scriptReader reads the script a rules file names by file: LoadFile's
// reads it beside the rules file, ParseBeside's is its caller's; Parse has
// none and refuses file.
type scriptReader = func(name string) ([]byte, error)

// readBeside returns the scriptReader of a rules file at path: a plain
// file name in the rules file's own directory, read as every file the
// tool reads (a regular file, bounded).
func readBeside(path string) scriptReader {
	dir := filepath.Dir(path)
	return func(name string) ([]byte, error) {
		b, err := kit.ReadFileMax(filepath.Join(dir, name), MaxAutomatonSize)
		var big *kit.TooLargeError
		var pe *fs.PathError
		switch {
		case errors.As(err, &big):
			return nil, fmt.Errorf("the script is larger than the %d bytes (256 KiB) allowed", MaxAutomatonSize)
		case errors.As(err, &pe):
			return nil, fmt.Errorf("%s beside the rules file: %w", name, pe.Err)
		}
		return b, err
	}
}

// inlineScript replaces a file the automaton names by its content (the
// canonical form), reading it with read; nil read refuses a file.
func inlineScript(f *rulesFile, read scriptReader) error {
	a := &f.Automaton
	if a.File == "" {
		return nil
	}
	if a.Source != "" || a.Name != "" {
		return &fieldError{"automaton", "give either file (a script beside the rules file) or source and name (the script inline), not both"}
	}
	if err := scriptFileName(a.File); err != nil {
		return &fieldError{"automaton.file", err.Error()}
	}
	if read == nil {
		return &fieldError{"automaton.file", "a rules file given as bytes cannot name a file; inline the script as automaton.source"}
	}
	b, err := read(a.File)
	if err != nil {
		return &fieldError{"automaton.file", err.Error()}
	}
	a.Name, a.Source, a.File = a.File, string(b), ""
	if a.Source == "" {
		return &fieldError{"automaton.file", fmt.Sprintf("%s is empty", a.Name)}
	}
	return nil
}

// scriptFileName checks that a script's file is named by its name alone:
// "beside the rules file" admits no directory, so no rules file can send
// the tool to another path (an absolute one, or out through "..").
func scriptFileName(name string) error {
	switch {
	case name == "." || name == "..":
		return fmt.Errorf("%q is not a file name", name)
	case strings.ContainsAny(name, `/\`) || filepath.IsAbs(name) || filepath.VolumeName(name) != "":
		return fmt.Errorf("%q must name a file beside the rules file, with no directory", kit.Clip(name))
	case strings.HasPrefix(name, "-"):
		return fmt.Errorf("%q starts with '-': name the file so that no command reads it as a flag", kit.Clip(name))
	}
	return nil
}

// compileAutomaton checks the automaton object of the canonical form and
// sets r.Automaton; an empty object means the built-in Opposition.
func compileAutomaton(c *checker, f *rulesFile, r *Rules) {
	a := f.Automaton
	switch {
	case a == automatonFile{}:
		return
	case a.File != "":
		c.fail("automaton.file", "not read: name the script only in a rules file loaded from disk")
		return
	case a.Source == "":
		c.fail("automaton.source", "missing: give the script inline, or file to read it from beside the rules file")
		return
	}
	if a.Name != "" {
		c.label("automaton.name", a.Name, maxName)
		if err := scriptFileName(a.Name); err != nil {
			c.fail("automaton.name", "%v", err)
		}
	}
	if !utf8.ValidString(a.Source) {
		c.fail("automaton.source", "the script is not valid UTF-8")
	}
	if i := strings.IndexByte(a.Source, 0); i >= 0 {
		c.fail("automaton.source", "the script holds a NUL byte on line %d", strings.Count(a.Source[:i], "\n")+1)
	}
	sum := sha256.Sum256([]byte(a.Source))
	name := a.Name
	if name == "" {
		name = "automaton.star"
	}
	r.Automaton = &Automaton{Name: name, Source: a.Source, Hash: hex.EncodeToString(sum[:])}
}

// AutomatonLabel names the rules' Opposition for a person: "built-in" for
// the Go Opposition, else the script's name and short hash.
func (r *Rules) AutomatonLabel() string {
	if r.Automaton == nil {
		return "built-in"
	}
	return fmt.Sprintf("script %s (%s)", r.Automaton.Name, ShortHash(r.Automaton.Hash))
}

// WithAutomaton returns r with its Opposition the script source, named
// name (a file name, for messages), as a rules file giving it inline
// would; an empty source restores the built-in Opposition.
func (r *Rules) WithAutomaton(name, source string) (*Rules, error) {
	f := r.file()
	f.Automaton = automatonFile{Name: name, Source: source}
	if source == "" {
		f.Automaton = automatonFile{}
	}
	data, err := json.Marshal(&f)
	if err != nil {
		return nil, err
	}
	out, err := Parse(data)
	if err != nil {
		return nil, err
	}
	out.File, out.Overrides = r.File, r.Overrides
	return out, nil
}
