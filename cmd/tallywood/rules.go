package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"tallywood/engine"
)

func init() {
	register(command{name: "rules", summary: "dump the default rules file, check one, or diff two", subcommands: []string{"dump", "check", "diff"}, run: runRules})
}

const rulesUsage = `usage:
  tallywood rules dump          print the default rules file (the reference set)
  tallywood rules check FILE    validate a rules file and print its name and hash
  tallywood rules diff A B      print the fields in which two rule sets differ in play

A and B are rules files, or "reference" for the default rules (write
./reference for a file of that name). docs/rules-file.md documents every field.
`

func runRules(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("rules", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
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
	case len(rest) == 1 && rest[0] == "dump":
		out.Write(engine.ReferenceJSON())
	case len(rest) == 2 && rest[0] == "check":
		r, err := loadRules(rest[1])
		if err != nil {
			return failInput(stderr, "%v", err)
		}
		fmt.Fprintf(&out, "%s: ok: %s, version %q, hash %s\n", rest[1], rulesLabel(r), r.Version, r.Hash)
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
	case len(rest) == 0:
		fmt.Fprint(stderr, rulesUsage)
		return exitBadArgs
	case rest[0] == "dump":
		return fail(stderr, "rules: dump takes no argument, not %q", rest[1])
	case rest[0] == "check":
		return fail(stderr, "rules: check takes one FILE, not %d arguments", len(rest)-1)
	case rest[0] == "diff":
		return fail(stderr, "rules: diff takes two rule sets A and B, not %d arguments", len(rest)-1)
	default:
		return fail(stderr, "rules: unknown subcommand %q (dump, check or diff)", rest[0])
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
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Path, orNone(d.A), orNone(d.B))
	}
	tw.Flush()
	if len(diffs) == 1 {
		fmt.Fprintln(w, "1 field differs")
	} else {
		fmt.Fprintf(w, "%d fields differ\n", len(diffs))
	}
}

// orNone shows an array element one side lacks.
func orNone(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}
