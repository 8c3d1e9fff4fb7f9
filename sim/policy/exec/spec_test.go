package exec

import (
	"slices"
	"strings"
	"testing"
	"time"

	"tallywood/sim/policy"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{in: "python3 p.py", want: []string{"python3", "p.py"}},
		{in: "  python3\t p.py  ", want: []string{"python3", "p.py"}},
		{in: `'my player' --name="a b"`, want: []string{"my player", "--name=a b"}},
		{in: `a\ b c`, want: []string{"a b", "c"}},
		{in: `"say \"hi\" \\ \n"`, want: []string{`say "hi" \ \n`}},
		{in: `'it''s'`, want: []string{"its"}},
		{in: `'$HOME' *.py`, want: []string{"$HOME", "*.py"}},
		{in: `""`, want: []string{""}},
		{in: "", want: nil},
		{in: `'open`, err: "unterminated ' quote"},
		{in: `"open`, err: `unterminated " quote`},
		{in: `end\`, err: "ends in a backslash"},
	}
	for _, tt := range tests {
		got, err := splitWords(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("splitWords(%q): error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseConfig(t *testing.T) {
	tests := []struct {
		in      string
		argv    []string
		timeout time.Duration
		err     string
	}{
		{in: "python3 p.py", argv: []string{"python3", "p.py"}, timeout: DefaultTimeout},
		{in: "python3 p.py,timeout=2s", argv: []string{"python3", "p.py"}, timeout: 2 * time.Second},
		{in: "prog 'a,b' \"c,d\",timeout=500ms", argv: []string{"prog", "a,b", "c,d"}, timeout: 500 * time.Millisecond},
		{in: `prog a\,b`, argv: []string{"prog", "a,b"}, timeout: DefaultTimeout},
		{in: "", err: "exec: no command (exec:COMMAND[,timeout=DUR])"},
		{in: ",timeout=2s", err: "exec: no command (exec:COMMAND[,timeout=DUR])"},
		{in: "prog a,b", err: `exec: "b" is not key=value (a comma in the command must be quoted)`},
		{in: "prog,timeout=", err: `exec: "timeout=" is not key=value (a comma in the command must be quoted)`},
		{in: "prog,timeout=2s,timeout=3s", err: `exec: parameter "timeout" given twice`},
		{in: "prog,timeout=0s", err: `exec: timeout "0s" is not a duration between 0 and 1h0m0s (e.g. 500ms, 2s)`},
		{in: "prog,timeout=2", err: `exec: timeout "2" is not a duration between 0 and 1h0m0s (e.g. 500ms, 2s)`},
		{in: "prog,timeout=2h", err: `exec: timeout "2h" is not a duration between 0 and 1h0m0s (e.g. 500ms, 2s)`},
		{in: "prog,iters=3", err: `exec: no parameter "iters" (known: timeout)`},
		{in: "'prog", err: `exec: command "'prog": unterminated ' quote`},
	}
	for _, tt := range tests {
		cfg, err := parseConfig(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("parseConfig(%q): error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(cfg.argv, tt.argv) || cfg.timeout != tt.timeout {
			t.Errorf("parseConfig(%q) = %q %v, %v; want %q %v", tt.in, cfg.argv, cfg.timeout, err, tt.argv, tt.timeout)
		}
	}
}

// TestParseSpec goes through policy.Parse, as the command line does.
func TestParseSpec(t *testing.T) {
	tests := []struct{ spec, canon, err string }{
		{spec: "exec:true", canon: "exec:true"},
		{spec: "exec: true ,timeout=10s", canon: "exec:true"},
		{spec: "exec:true,timeout=2000ms", canon: "exec:true,timeout=2s"},
		{spec: "exec", err: `policy "exec": exec: no command (exec:COMMAND[,timeout=DUR])`},
		{spec: "exec:no-such-program-here x", err: `policy "exec:no-such-program-here x": exec: command "no-such-program-here": executable file not found in $PATH`},
		{spec: "exec:./no/such/file", err: `policy "exec:./no/such/file": exec: command "./no/such/file": stat ./no/such/file: no such file or directory`},
	}
	for _, tt := range tests {
		sp, err := policy.Parse(tt.spec)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Parse(%q): error %v, want %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil || sp.Label != tt.canon || sp.Name != "exec" {
			t.Errorf("Parse(%q) = %q, %v; want %q", tt.spec, sp.Label, err, tt.canon)
		}
	}
	if !strings.Contains(policy.Describe(), "exec       an outside program") {
		t.Errorf("exec is not listed:\n%s", policy.Describe())
	}
}

// FuzzParseConfig: any spec either parses to a command of at least one
// word and a timeout in range, or is refused with an error, never a panic;
// and the command's end never splits a quoted word.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"python3 p.py", "prog 'a,b',timeout=2s", `a\ b "c\"d"`, "'", `\`, ",", "p,timeout=1ns"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cfg, err := parseConfig(s)
		if err != nil {
			return
		}
		if len(cfg.argv) == 0 || cfg.timeout <= 0 || cfg.timeout > maxTimeout {
			t.Fatalf("parseConfig(%q) = %q %v", s, cfg.argv, cfg.timeout)
		}
		if _, err := splitWords(cfg.command); err != nil {
			t.Fatalf("parseConfig(%q) accepted a command splitWords refuses: %v", s, err)
		}
	})
}
