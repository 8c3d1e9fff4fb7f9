package policy

import (
	"strings"
	"testing"
)

func TestSplitList(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"greedy,random", []string{"greedy", "random"}},
		{"mcts:iters=400,rollout=greedy,random", []string{"mcts:iters=400,rollout=greedy", "random"}},
		{"random,mcts:iters=4,c=1.4", []string{"random", "mcts:iters=4,c=1.4"}},
		{"random", []string{"random"}},
		// A comma in quotes is the exec command's.
		{"exec:prog 'a,b',random", []string{"exec:prog 'a,b'", "random"}},
		{`exec:sh -c "x,\"y,z\"",timeout=2s,greedy`, []string{`exec:sh -c "x,\"y,z\"",timeout=2s`, "greedy"}},
		{`exec:prog a\,b,random`, []string{`exec:prog a\,b`, "random"}},
	}
	for _, tt := range tests {
		if got := SplitList(tt.in); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("SplitList(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestParseList checks the names ignore case and the parameters do not, a
// lineup may repeat a policy, and the errors name the item.
func TestParseList(t *testing.T) {
	specs, err := ParseList(" Greedy,MCTS:iters=40,rollout=greedy,greedy")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sp := range specs {
		got = append(got, sp.String())
	}
	if want := "greedy|mcts:iters=40,rollout=greedy|greedy"; strings.Join(got, "|") != want {
		t.Errorf("specs %q, want %s", got, want)
	}
	for _, c := range []struct{ in, want string }{
		{"greedy,nope", `policy "nope": unknown`},
		{"random,greedy:samples=x", `policy "greedy:samples=x": samples=x`},
		{"greedy,ran\u202edom", `"ran\u202edom" holds U+202E, a control or hidden character (a policy spec is one line, shown as written)`},
	} {
		if _, err := ParseList(c.in); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseList(%q): %v, want %s…", c.in, err, c.want)
		}
	}
}

// FuzzParseList: a policy list splits into items that join back to it, cut
// at commas outside quotes only, no item of the cut holding another
// (exec:prog 'a,b' is one item); and ParseList, which reads the list from
// a command line, never panics and gives a spec per item.
func FuzzParseList(f *testing.F) {
	for _, s := range []string{"greedy,random", "exec:prog 'a,b',random", `exec:sh -c "x,\"y\"",timeout=2s`, `a\,b,c`, `'unterminated,x`, "mcts:iters=4,c=1.4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		items := SplitList(s)
		if strings.Join(items, ",") != s {
			t.Fatalf("%q split into %q, which do not join back", s, items)
		}
		pieces := splitOutsideQuotes(s)
		if strings.Join(pieces, ",") != s {
			t.Fatalf("%q cut into %q, which do not join back", s, pieces)
		}
		for _, p := range pieces {
			if again := splitOutsideQuotes(p); len(again) != 1 {
				t.Fatalf("%q: piece %q holds a comma outside quotes", s, p)
			}
		}
		if specs, err := ParseList(s); err == nil && len(specs) != len(items) {
			t.Fatalf("%q: %d specs of %d items", s, len(specs), len(items))
		}
	})
}
