package main

// Helpers every command uses, so that flags behave alike: errors, help,
// lists, formats. The conventions they hold:
//
//   - a usage error (bad flag or argument) is one line on stderr ending
//     with "see 'tallywood CMD --help'", exit 2; bad input in a file is one
//     line naming the file, exit 2, without the pointer to help;
//   - a value the user typed is quoted (%q) in messages, so no value can
//     split an error over lines or hide in it;
//   - a list flag takes comma-separated items, names ignore case, and an
//     item given twice is an error;
//   - a flag that only matters with another one is an error without it.

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/spf13/pflag"

	"tallywood/engine/kit"
)

// fail prints a usage error and returns exitBadArgs. The message starts
// with the command's name ("sim: --games ..."), which names the help the
// error points to.
func fail(stderr io.Writer, format string, args ...any) int {
	msg := fmt.Sprintf(format, args...)
	cmd, _, _ := strings.Cut(msg, ":")
	if _, ok := commands[cmd]; !ok {
		cmd = ""
	}
	return failf(stderr, cmd, "%s", msg)
}

// failf prints "tallywood: MSG; see 'tallywood CMD --help'" (or
// 'tallywood --help' when cmd is "") and returns exitBadArgs.
func failf(stderr io.Writer, cmd, format string, args ...any) int {
	help := "tallywood --help"
	if cmd != "" {
		help = "tallywood " + cmd + " --help"
	}
	fmt.Fprintf(stderr, "tallywood: %s; see '%s'\n", oneLine(fmt.Sprintf(format, args...)), help)
	return exitBadArgs
}

// failInput prints an error in an input file (its path and what is
// wrong) and returns exitBadArgs: the flags were right, so no pointer to
// help.
func failInput(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "tallywood: %s\n", oneLine(fmt.Sprintf(format, args...)))
	return exitBadArgs
}

// failRun prints the error of a run that failed and returns exitFailed.
func failRun(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "tallywood: %s\n", oneLine(fmt.Sprintf(format, args...)))
	return exitFailed
}

// oneLine escapes control characters (a newline in a file name, say) so
// that a message stays on one line.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// newFlags returns a flag set for command cmd that reports errors to its
// caller only.
func newFlags(cmd string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(cmd, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = true
	return fs
}

// parseFlags parses args. With --help it prints usage and the flags to
// stdout; on a bad flag it prints the usage error. done tells the caller
// to return code.
func parseFlags(fs *pflag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, false
	case errors.Is(err, pflag.ErrHelp):
		fmt.Fprint(stdout, usage+helpText(fs))
		return exitOK, true
	}
	return failf(stderr, fs.Name(), "%s: %s", fs.Name(), flagError(err, fs)), true
}

// inputError is bad content in a file a flag names (rules), as opposed to
// a bad flag: it is reported without the pointer to help.
type inputError struct{ error }

// reportParseError prints what parseSim-like parsers return: help on
// stdout, an input error, or a usage error.
func reportParseError(err error, fs *pflag.FlagSet, usage string, stdout, stderr io.Writer) int {
	var in inputError
	switch {
	case errors.Is(err, pflag.ErrHelp):
		fmt.Fprint(stdout, usage+helpText(fs))
		return exitOK
	case errors.As(err, &in):
		return failInput(stderr, "%s: %v", fs.Name(), in.error)
	}
	return failf(stderr, fs.Name(), "%s: %s", fs.Name(), flagError(err, fs))
}

// flagError rewords pflag's errors with the value quoted, and names the
// flag of fs an unknown one is nearest.
func flagError(err error, fs *pflag.FlagSet) string {
	var (
		notExist *pflag.NotExistError
		invalid  *pflag.InvalidValueError
		required *pflag.ValueRequiredError
		syntax   *pflag.InvalidSyntaxError
	)
	switch {
	case errors.As(err, &notExist):
		if s := notExist.GetSpecifiedShortnames(); s != "" {
			return fmt.Sprintf("unknown flag %q", "-"+notExist.GetSpecifiedName())
		}
		var names []string
		fs.VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, "--"+f.Name)
			}
		})
		name := "--" + notExist.GetSpecifiedName()
		return fmt.Sprintf("unknown flag %q", name) + kit.DidYouMean(name, names)
	case errors.As(err, &invalid):
		// pflag drops strconv's error, so parse again to tell a number
		// out of range from no number.
		f, v := invalid.GetFlag(), invalid.GetValue()
		var what string
		var perr error
		switch f.Value.Type() {
		case "int", "int64":
			what = "not a whole number"
			_, perr = strconv.ParseInt(v, 0, 64)
		case "uint", "uint64":
			what = "not a whole number ≥ 0"
			_, perr = strconv.ParseUint(v, 0, 64)
		case "float64":
			what = "not a number"
			_, perr = strconv.ParseFloat(v, 64)
		case "bool":
			what = "not true or false"
		default:
			what = "not a valid value"
		}
		if errors.Is(perr, strconv.ErrRange) {
			what = "out of range"
		}
		return fmt.Sprintf("--%s %q: %s", f.Name, v, what)
	case errors.As(err, &required):
		return fmt.Sprintf("--%s needs a value", required.GetFlag().Name)
	case errors.As(err, &syntax):
		return fmt.Sprintf("bad flag syntax %q", syntax.GetSpecifiedFlag())
	}
	return err.Error()
}

// typePlaceholders are the placeholders of flags whose usage names none.
var typePlaceholders = map[string]string{
	"int": "N", "int64": "N", "uint": "N", "uint64": "N", "float64": "X", "string": "VALUE", "duration": "DURATION",
}

// helpText lists the flags of fs, one a line: the flag, its placeholder
// (the back-quoted word of its usage: FILE, N, SPEC), what it does and its
// default. Unlike pflag's FlagUsages it shows a switch as --quiet, not
// --quiet[=true|false].
func helpText(fs *pflag.FlagSet) string {
	type line struct{ flag, usage string }
	var lines []line
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name := "    --" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + ", --" + f.Name
		}
		placeholder, usage := pflag.UnquoteUsage(f)
		if !strings.Contains(f.Usage, "`") {
			placeholder = typePlaceholders[f.Value.Type()] // a Go type name says nothing to a user
		}
		if placeholder != "" {
			name += " " + placeholder
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		lines = append(lines, line{name, usage})
		width = max(width, len(name))
	})
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "  %-*s   %s\n", width, l.flag, l.usage)
	}
	return b.String()
}

// noArgs refuses arguments after the flags of a command that takes none.
func noArgs(fs *pflag.FlagSet, stderr io.Writer) (int, bool) {
	if fs.NArg() > 0 {
		return fail(stderr, "%s: unexpected argument %q", fs.Name(), fs.Arg(0)), true
	}
	return exitOK, false
}

// splitList splits a list flag's value at commas, trimming spaces around
// items; an empty item is an error.
func splitList(flag, value string) ([]string, error) {
	items := strings.Split(value, ",")
	for i, it := range items {
		items[i] = strings.TrimSpace(it)
		if items[i] == "" {
			return nil, fmt.Errorf("--%s %q: empty item in the list", flag, value)
		}
	}
	return items, nil
}

// itemError says what is wrong with item of a list flag's value: the
// value alone when it is the only item.
func itemError(flag, value, item, what string) error {
	if strings.TrimSpace(value) == item {
		return fmt.Errorf("--%s %q %s", flag, kit.Clip(value), what)
	}
	return fmt.Errorf("--%s %q: %q %s", flag, kit.Clip(value), kit.Clip(item), what)
}

// noDuplicates refuses a list whose items have the same key twice: keys
// are what the items mean (a canonical policy spec, a politician index),
// so two spellings of one thing are caught too.
func noDuplicates[K comparable](flag, value string, items []string, keys []K) error {
	for i, k := range keys {
		if j := slices.Index(keys[:i], k); j >= 0 {
			if strings.EqualFold(items[i], items[j]) {
				return fmt.Errorf("--%s %q: %q is given twice", flag, value, items[i])
			}
			return fmt.Errorf("--%s %q: %q and %q are the same", flag, value, items[j], items[i])
		}
	}
	return nil
}

// onlyWith refuses flag when it was set but cond, the condition under
// which it matters (e.g. "--format table"), does not hold.
func onlyWith(fs *pflag.FlagSet, flag, cond string, holds bool) error {
	if fs.Changed(flag) && !holds {
		return fmt.Errorf("--%s only matters with %s", flag, cond)
	}
	return nil
}

// formatsByExt are the output formats an --out file's extension names.
var formatsByExt = map[string]string{".json": "json", ".csv": "csv", ".html": "html"}

// outputFormat returns the output format: --format when given, else the
// one --out's extension names (.json, .csv, .html), else def. A --format
// that contradicts the extension is an error, and so is a format not in
// allowed. Format names ignore case.
func outputFormat(fs *pflag.FlagSet, format, out, def string, allowed ...string) (string, error) {
	format = strings.ToLower(format)
	ext := strings.ToLower(filepath.Ext(out))
	byExt, known := formatsByExt[ext]
	inferred := false
	switch {
	case !fs.Changed("format") && known:
		format, inferred = byExt, true
	case !fs.Changed("format"):
		format = def
	case known && byExt != format:
		return "", fmt.Errorf("--format %q contradicts --out %q (a %s file): drop --format or change the extension", format, out, ext)
	}
	switch {
	case slices.Contains(allowed, format):
		return format, nil
	case inferred:
		return "", fmt.Errorf("--out %q: %s writes %s, not %s", out, fs.Name(), orList(allowed), format)
	}
	return "", fmt.Errorf("--format %q is not %s", format, orList(allowed))
}

// orList writes "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
