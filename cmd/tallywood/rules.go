package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/opposition/script"
)

func init() {
	register(command{name: "rules", summary: "dump the default rules file or automaton script, check one, diff two, or export and import them as spreadsheet sheets", subcommands: []string{"dump", "script", "check", "diff", "export", "import"}, run: runRules})
}

const rulesUsage = `usage:
  tallywood rules dump          print the default rules file (the reference set)
  tallywood rules dump --automaton FILE
                                the same, naming the script FILE (beside it) as
                                the Opposition
  tallywood rules script        print the reference automaton script: the
                                built-in Opposition, step for step, to copy and edit
  tallywood rules check FILE    validate a rules file (and the script it names)
                                and print its name and hash
  tallywood rules diff A B      print the fields in which two rule sets differ in
                                play (a card, tile or politician by its id, whole
                                when added or removed), and the lines in which
                                their scripts differ
  tallywood rules export A DIR  write rule set A as CSV sheets a spreadsheet
                                opens (numbers.csv, politicians.csv, the cards,
                                tiles, rounds...) into DIR, a new or empty
                                directory, with the script beside them if any
  tallywood rules import DIR    read the sheets of DIR back and print the rules
                                file (the same one, byte for byte, when unedited)

A and B are rules files, or "reference" for the default rules (write
./reference for a file of that name). docs/rules-file.md documents every field,
docs/automaton.md the script.
`

func runRules(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("rules", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	automaton := fs.String("automaton", "", "with dump: name the script `FILE` beside the rules file as the Opposition")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, rulesUsage)
			return exitOK
		}
		return fail(stderr, "rules: %s", flagError(err, fs))
	}
	rest := fs.Args()
	var out bytes.Buffer
	switch {
	case fs.Changed("automaton") && (len(rest) != 1 || rest[0] != "dump"):
		return fail(stderr, "rules: --automaton goes with dump")
	case len(rest) == 1 && rest[0] == "dump" && fs.Changed("automaton"):
		data, err := namingScript(*automaton)
		if err != nil {
			return fail(stderr, "rules: --automaton: %v", err)
		}
		out.Write(data)
	case len(rest) == 1 && rest[0] == "dump":
		out.Write(engine.ReferenceJSON())
	case len(rest) == 1 && rest[0] == "script":
		out.WriteString(script.Reference())
	case len(rest) == 2 && rest[0] == "check":
		r, err := loadRules(rest[1])
		if err != nil {
			return failInput(stderr, "%v", err)
		}
		fmt.Fprintf(&out, "%s: ok: %s, version %q, hash %s\n", rest[1], rulesLabel(r), r.Version, r.Hash)
		if a := r.Automaton; a != nil {
			fmt.Fprintf(&out, "automaton: the script %s (%s, %s), compiled\n", a.Name, engine.ShortHash(a.Hash), kit.Count(strings.Count(a.Source, "\n"), "line"))
		}
	case len(rest) == 3 && rest[0] == "diff":
		a, err := loadRules(rest[1])
		if err != nil {
			return failInput(stderr, "rules diff: %v", err)
		}
		b, err := loadRules(rest[2])
		if err != nil {
			return failInput(stderr, "rules diff: %v", err)
		}
		writeDiff(&out, rest[1], a, rest[2], b)
	case len(rest) == 3 && rest[0] == "export":
		r, err := loadRules(rest[1])
		if err != nil {
			return failInput(stderr, "rules export: %v", err)
		}
		if err := exportSheets(r, rest[2]); err != nil {
			return fail(stderr, "rules export: %v", err)
		}
		fmt.Fprintf(&out, "%s: %s (%s) as %d sheets; rules import %s reads them back\n", rest[2], rulesLabel(r), engine.ShortHash(r.Hash), len(engine.SheetNames()), rest[2])
	case len(rest) == 2 && rest[0] == "import":
		r, err := engine.LoadSheets(rest[1])
		if err != nil {
			return failInput(stderr, "rules import: %s: %v", rest[1], err)
		}
		if err := json.Indent(&out, r.Canonical(), "", "  "); err != nil {
			return fail(stderr, "rules import: %v", err)
		}
		out.WriteByte('\n')
	case len(rest) == 0:
		fmt.Fprint(stderr, rulesUsage)
		return exitBadArgs
	case rest[0] == "dump":
		return fail(stderr, "rules: dump takes no argument, not %q", rest[1])
	case rest[0] == "script":
		return fail(stderr, "rules: script takes no argument, not %q", rest[1])
	case rest[0] == "check":
		return fail(stderr, "rules: check takes one FILE, not %d arguments", len(rest)-1)
	case rest[0] == "diff":
		return fail(stderr, "rules: diff takes two rule sets A and B, not %d arguments", len(rest)-1)
	case rest[0] == "export":
		return fail(stderr, "rules: export takes a rule set A and a directory DIR, not %d arguments", len(rest)-1)
	case rest[0] == "import":
		return fail(stderr, "rules: import takes one directory DIR, not %d arguments", len(rest)-1)
	default:
		return fail(stderr, "rules: unknown subcommand %q (dump, script, check, diff, export or import)", rest[0])
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return exitFailed // run reports a failed write to stdout
	}
	return exitOK
}

// rulesLabel describes rules by their label, saying when they play as the
// reference set under another name.
func rulesLabel(r *engine.Rules) string {
	switch {
	case r.Label() == "":
		return "unnamed"
	case r.IsReference() && r.Name != engine.ReferenceName:
		return fmt.Sprintf("%q, plays as the reference set", r.Name)
	}
	return fmt.Sprintf("%q", r.Label())
}

// writeDiff prints the play-relevant differences of two rule sets as a
// table of field, A value and B value.
func writeDiff(w io.Writer, argA string, a *engine.Rules, argB string, b *engine.Rules) {
	fmt.Fprintf(w, "A: %s: %s (%s)\n", argA, rulesLabel(a), engine.ShortHash(a.Hash))
	fmt.Fprintf(w, "B: %s: %s (%s)\n", argB, rulesLabel(b), engine.ShortHash(b.Hash))
	diffs := engine.Diff(a, b)
	if len(diffs) == 0 {
		fmt.Fprintln(w, "no differences in play")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FIELD\tA\tB")
	for _, d := range diffs {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Path, orNone(d.A, "(added)"), orNone(d.B, "(removed)"))
	}
	tw.Flush()
	if len(diffs) == 1 {
		fmt.Fprintln(w, "1 field differs")
	} else {
		fmt.Fprintf(w, "%d fields differ\n", len(diffs))
	}
}

// orNone shows an array element one side lacks: a card only B has was
// added, one only A has removed (Diff names a card by its id).
func orNone(v, none string) string {
	if v == "" {
		return none
	}
	return v
}

// namingScript is the reference rules file naming the script name, beside
// it, as its automaton: the file a designer edits the Opposition with.
func namingScript(name string) ([]byte, error) {
	ref := bytes.TrimRight(engine.ReferenceJSON(), "\n")
	if !bytes.HasSuffix(ref, []byte("}")) {
		return nil, errors.New("the reference rules file does not end its object")
	}
	field, err := json.Marshal(map[string]string{"file": name})
	if err != nil {
		return nil, err
	}
	body := bytes.TrimRight(ref[:len(ref)-1], " \n")
	data := append(bytes.Clone(body), []byte(",\n  \"automaton\": "+string(field)+"\n}\n")...)
	// The file is read when the rules are loaded; here only its name is
	// checked, as loading would.
	if _, err := engine.ParseBeside(data, func(string) ([]byte, error) { return []byte(script.Reference()), nil }); err != nil {
		return nil, err
	}
	return data, nil
}

// exportSheets writes r's sheets into dir, which must be new or empty, so
// that no sheet or script of an earlier export is left to be read with
// them. Each file is written whole before the next.
func exportSheets(r *engine.Rules, dir string) error {
	sheets, err := r.Sheets()
	if err != nil {
		return err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty: export into a new or empty directory, so that no older sheet is read with these", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range sheets {
		if err := os.WriteFile(filepath.Join(dir, s.Name), s.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
