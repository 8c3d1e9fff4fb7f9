package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
)

func init() {
	register(command{name: "completion", summary: "print a shell completion script: bash, zsh or fish",
		subcommands: []string{"bash", "zsh", "fish"}, run: runCompletion})
}

const completionUsage = `usage: tallywood completion bash|zsh|fish

Prints a script that completes tallywood's commands, subcommands and flags
(and file names after them) in the shell. To load it:

  bash:  source <(tallywood completion bash)          (e.g. in ~/.bashrc)
  zsh:   source <(tallywood completion zsh)           (e.g. in ~/.zshrc, after compinit)
  fish:  tallywood completion fish > ~/.config/fish/completions/tallywood.fish
`

func runCompletion(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, completionUsage)
		return exitOK
	}
	if len(args) != 1 {
		return fail(stderr, "completion: want one shell (bash, zsh or fish), not %d arguments", len(args))
	}
	words := completionWords()
	switch args[0] {
	case "bash":
		fmt.Fprint(stdout, bashCompletion(words))
	case "zsh":
		fmt.Fprint(stdout, zshCompletion(words))
	case "fish":
		fmt.Fprint(stdout, fishCompletion(words))
	default:
		return fail(stderr, "completion: unknown shell %q (bash, zsh or fish)", args[0])
	}
	return exitOK
}

// commandWords are what can follow one command: its subcommands and flags.
type commandWords struct {
	name, summary string
	subcommands   []string
	flags         []string // with the leading --
}

// flagInHelp matches a flag at the start of a help line ("  -q, --quiet").
var flagInHelp = regexp.MustCompile(`(?m)^\s+(?:-[a-zA-Z], )?(--[a-z][a-z0-9-]*)`)

// completionWords collects every command's words. The flags are read from
// the command's own --help, so completion cannot miss a flag a command
// documents, whoever adds it.
func completionWords() []commandWords {
	var out []commandWords
	for _, n := range commandNames() {
		c := commands[n]
		var help bytes.Buffer
		c.run([]string{"--help"}, &help, io.Discard)
		w := commandWords{name: n, summary: c.summary, subcommands: c.subcommands}
		seen := map[string]bool{}
		for _, m := range flagInHelp.FindAllStringSubmatch(help.String(), -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				w.flags = append(w.flags, m[1])
			}
		}
		if !seen["--help"] {
			w.flags = append(w.flags, "--help")
		}
		out = append(out, w)
	}
	return out
}

func names(words []commandWords) string {
	var ns []string
	for _, w := range words {
		ns = append(ns, w.name)
	}
	return strings.Join(append(ns, "help"), " ")
}

func bashCompletion(words []commandWords) string {
	var b strings.Builder
	b.WriteString("# bash completion for tallywood (tallywood completion bash)\n_tallywood() {\n")
	b.WriteString("\tlocal cur=${COMP_WORDS[COMP_CWORD]} words=\n")
	fmt.Fprintf(&b, "\tif [[ $COMP_CWORD -eq 1 ]]; then\n\t\tCOMPREPLY=($(compgen -W '%s --help --version' -- \"$cur\"))\n\t\treturn\n\tfi\n", names(words))
	b.WriteString("\tcase ${COMP_WORDS[1]} in\n")
	fmt.Fprintf(&b, "\thelp) [[ $COMP_CWORD -eq 2 ]] && COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", names(words))
	for _, w := range words {
		fmt.Fprintf(&b, "\t%s)\n", w.name)
		if len(w.subcommands) > 0 {
			fmt.Fprintf(&b, "\t\tif [[ $COMP_CWORD -eq 2 && $cur != -* ]]; then COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return; fi\n",
				strings.Join(w.subcommands, " "))
		}
		fmt.Fprintf(&b, "\t\twords='%s' ;;\n", strings.Join(w.flags, " "))
	}
	b.WriteString("\tesac\n")
	b.WriteString("\tif [[ $cur == -* ]]; then\n\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n\telse\n\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n\tfi\n}\n")
	b.WriteString("complete -o filenames -F _tallywood tallywood\n")
	return b.String()
}

func zshCompletion(words []commandWords) string {
	var b strings.Builder
	b.WriteString("#compdef tallywood\n# zsh completion for tallywood (tallywood completion zsh)\n_tallywood() {\n")
	b.WriteString("\tif (( CURRENT == 2 )); then\n\t\tlocal -a cmds\n\t\tcmds=(\n")
	for _, w := range words {
		fmt.Fprintf(&b, "\t\t\t%s\n", zshQuote(w.name+":"+w.summary))
	}
	b.WriteString("\t\t\t'help:describe a command'\n\t\t)\n\t\t_describe command cmds\n\t\treturn\n\tfi\n")
	b.WriteString("\tcase $words[2] in\n")
	fmt.Fprintf(&b, "\thelp) (( CURRENT == 3 )) && compadd -- %s ;;\n", names(words))
	for _, w := range words {
		fmt.Fprintf(&b, "\t%s)\n", w.name)
		if len(w.subcommands) > 0 {
			fmt.Fprintf(&b, "\t\tif (( CURRENT == 3 )) && [[ $PREFIX != -* ]]; then compadd -- %s; return; fi\n", strings.Join(w.subcommands, " "))
		}
		fmt.Fprintf(&b, "\t\tif [[ $PREFIX == -* ]]; then compadd -- %s; else _files; fi ;;\n", strings.Join(w.flags, " "))
	}
	b.WriteString("\tesac\n}\ncompdef _tallywood tallywood\n")
	return b.String()
}

func fishCompletion(words []commandWords) string {
	var b strings.Builder
	b.WriteString("# fish completion for tallywood (tallywood completion fish)\n")
	b.WriteString("complete -c tallywood -n __fish_use_subcommand -l version -d 'print the version'\n")
	b.WriteString("complete -c tallywood -f -n __fish_use_subcommand -a help -d 'describe a command'\n")
	for _, w := range words {
		fmt.Fprintf(&b, "complete -c tallywood -f -n __fish_use_subcommand -a %s -d %s\n", w.name, fishQuote(w.summary))
		fmt.Fprintf(&b, "complete -c tallywood -f -n '__fish_seen_subcommand_from help' -a %s\n", w.name)
		for _, s := range w.subcommands {
			fmt.Fprintf(&b, "complete -c tallywood -f -n '__fish_seen_subcommand_from %s' -a %s\n", w.name, s)
		}
		for _, f := range w.flags {
			fmt.Fprintf(&b, "complete -c tallywood -n '__fish_seen_subcommand_from %s' -l %s\n", w.name, strings.TrimPrefix(f, "--"))
		}
	}
	return b.String()
}

// zshQuote and fishQuote single-quote a word for the shell.
func zshQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
