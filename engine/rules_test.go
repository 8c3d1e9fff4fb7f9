package engine

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected errors of testdata/rules/bad")

// TestBadRulesFiles: each file under testdata/rules/bad is refused with the
// exact error in its .err file, which names the field and why.
func TestBadRulesFiles(t *testing.T) {
	files, err := filepath.Glob("../testdata/rules/bad/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad rules files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, perr := Parse(b)
			if perr == nil {
				t.Fatal("accepted")
			}
			errFile := strings.TrimSuffix(f, ".json") + ".err"
			if *update {
				os.WriteFile(errFile, []byte(perr.Error()+"\n"), 0o644)
			}
			want, err := os.ReadFile(errFile)
			if err != nil {
				t.Fatal(err)
			}
			if got := perr.Error(); got != strings.TrimSpace(string(want)) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestLoadFileNamesThePath: errors from a file start with its path.
func TestLoadFileNamesThePath(t *testing.T) {
	_, err := LoadFile("../testdata/rules/bad/solo-purple.json")
	if err == nil || !strings.HasPrefix(err.Error(), "../testdata/rules/bad/solo-purple.json: rules: solo_cards[7].left_district") {
		t.Errorf("got %v", err)
	}
	if _, err := LoadFile("no/such/file.json"); err == nil || !strings.Contains(err.Error(), "no/such/file.json") {
		t.Errorf("got %v", err)
	}
}

// TestRulesHash: the hash identifies the content, not the layout.
func TestRulesHash(t *testing.T) {
	r := Reference()
	again, err := Parse(r.Canonical())
	if err != nil {
		t.Fatal(err)
	}
	if again.Hash != r.Hash {
		t.Errorf("canonical form hashes differently")
	}
	spaced, err := Parse(bytes.ReplaceAll(ReferenceJSON(), []byte("\n"), []byte("\n\n  ")))
	if err != nil || spaced.Hash != r.Hash {
		t.Errorf("whitespace changed the hash: %v", err)
	}
	off := false
	changed := rulesWith(t, func(f *rulesFile) { f.Variants.OppositionRespectsBlocks = off })
	if changed.Hash == r.Hash {
		t.Errorf("a changed switch kept the hash")
	}
}

// TestReferenceSet checks the embedded rules against the reference set's
// own statements, so a slip in reference.json is caught.
func TestReferenceSet(t *testing.T) {
	r := Reference()
	// C-15: card k of deck T has layout L((k-1) div 4 + 1).
	for d := range NumDecks {
		T := Action(d)
		N := func(a Action, k int) Action { return Action((int(a) + k) % NumActions) }
		act := func(a Action) Icon { return Icon{IsAction: true, Action: a} }
		m1, m2, p1 := Icon{Money: 1}, Icon{Money: 2}, Icon{Popularity: 1}
		layouts := [4][4]Icon{
			{act(T), m1, act(N(T, 1)), p1},
			{m1, act(T), p1, act(N(T, 2))},
			{act(T), p1, m1, act(T)},
			{p1, act(N(T, 1)), act(T), m2},
		}
		if len(r.DeckCards[d]) != 16 {
			t.Fatalf("%s deck has %d cards", T, len(r.DeckCards[d]))
		}
		for k, ci := range r.DeckCards[d] {
			c := r.Cards[ci]
			if c.Slots != layouts[k/4] {
				t.Errorf("%s: slots %v, want layout L%d", c.ID, c.Slots, k/4+1)
			}
			if passive := c.Ability.Kind.Passive(); passive != (k%4 == 1) {
				t.Errorf("%s: ability b (and only b) is passive", c.ID)
			}
		}
	}
	// C-16: every ordered pair of Districts twice, of distinct actions twice.
	var districts [NumDistricts][NumDistricts]int
	var actions [NumActions][NumActions]int
	for _, c := range r.Solo {
		districts[c.LeftDistrict][c.RightDistrict]++
		actions[c.LeftAction][c.RightAction]++
	}
	for i := range NumDistricts {
		for j := range NumDistricts {
			if want := map[bool]int{true: 0, false: 2}[i == j]; districts[i][j] != want || actions[i][j] != want {
				t.Errorf("pair %d,%d: %d District cards, %d action cards, want %d", i, j, districts[i][j], actions[i][j], want)
			}
		}
	}
	// C-13: turns 3, 3, 4, 4 use the 24 Solo cards exactly.
	used := 0
	for i, rd := range r.Rounds {
		per := 2
		if i == r.LastRound() {
			per = 1
		}
		used += per * int(rd.Turns)
	}
	if used != len(r.Solo) {
		t.Errorf("the rounds use %d Solo cards, the deck has %d", used, len(r.Solo))
	}
	// C-14: tier t tiles show t cube icons.
	for k := range 2 {
		for tier, faces := range r.Tiles[k] {
			for _, f := range faces {
				n := int(f.Multi)
				for _, c := range f.Cubes {
					n += int(c)
				}
				if n != tier+1 {
					t.Errorf("%s tier %d face %s has %d icons", TileKind(k), tier+1, f, n)
				}
			}
		}
	}
}

// FuzzParse: any input gives rules or an error, never a panic; accepted
// rules round-trip through their canonical form to the same hash.
func FuzzParse(f *testing.F) {
	f.Add(ReferenceJSON())
	files, _ := filepath.Glob("../testdata/rules/bad/*.json")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rules: ") {
				t.Errorf("error without the rules: prefix: %v", err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("error of more than one line: %q", err)
			}
			return
		}
		again, err := Parse(r.Canonical())
		if err != nil || again.Hash != r.Hash {
			t.Errorf("canonical round trip: %v", err)
		}
		if d := Diff(r, again); len(d) != 0 {
			t.Errorf("the canonical form differs from the rules: %q", d)
		}
		// A valid rule set must play to the end.
		g, err := New(r, 1, Config{Opposition: scriptedOpposition{}})
		if err != nil {
			t.Fatalf("valid rules do not set up: %v", err)
		}
		if err := NewRandomPlayer(1).Play(g); err != nil {
			t.Fatalf("valid rules do not play: %v", err)
		}
		if err := g.Check(); err != nil {
			t.Errorf("valid rules break an invariant: %v", err)
		}
	})
}

// FuzzWith: any assignment gives rules or an error naming it, never a
// panic; accepted rules record it, and differ from the reference set
// exactly when their hash does.
func FuzzWith(f *testing.F) {
	for _, s := range []string{
		"difficulties.hard.bonus_divisor=3", "solo_cards[7].left_district=Yellow", "politicians[0].polling.Red=2",
		"track.vote_share_icons=[3,6,9]", "rounds[0].presence={\"kind\":\"money\",\"amount\":2}",
		"columns[0][0].money=2", "name=mine", "solo_cards=[]", "x[99999999999999999999]=1", "a.b.c=",
		"solo_cards[S-13].left_action=Campaign", "strategy_cards[PW-03].ability.money=3", "politicians[magnate].polling.Red=2",
		"solo_cards[S-08].id=7", "politicians[0].id=a]b", "solo_cards[S-99].id=x", "track.vote_share_icons[x]=1", "solo_cards[]=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAssignment(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rules: set ") {
				t.Errorf("error without its prefix: %v", err)
			}
			return
		}
		r, err := Reference().With(a)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rules: set "+shown(a.String())) {
				t.Errorf("error does not name the assignment: %v", err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("error of more than one line: %q", err)
			}
			return
		}
		if len(r.Overrides) != 1 || r.Overrides[0] != a.String() {
			t.Errorf("Overrides = %q", r.Overrides)
		}
		diffs := Diff(Reference(), r)
		if (len(diffs) == 0) != (r.Hash == Reference().Hash) {
			t.Errorf("Diff and Hash disagree")
		}
		// The paths Diff prints are --set paths.
		for _, d := range diffs {
			checkDiffPath(t, Reference(), r, d)
		}
	})
}

// TestRulesHashIgnoresMetadata: name, version and notes do not change play,
// so they do not change the hash (identical rules are detectable).
func TestRulesHashIgnoresMetadata(t *testing.T) {
	ref := Reference()
	for _, set := range []Assignment{{"name", "mine"}, {"version", "2"}, {"notes", "Hard with a gentler bonus\nsecond line"}} {
		r, err := ref.With(set)
		if err != nil {
			t.Fatal(err)
		}
		if r.Hash != ref.Hash {
			t.Errorf("%s changed the hash", set)
		}
		if bytes.Equal(r.Canonical(), ref.Canonical()) {
			t.Errorf("%s is not kept in the canonical form", set)
		}
	}
}

// TestLabel: the reference label goes only to rules that play as the
// reference set, whatever they call themselves.
func TestLabel(t *testing.T) {
	with := func(as ...Assignment) *Rules {
		r, err := Reference().With(as...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	harder := Assignment{"difficulties.hard.bonus_divisor", "1"}
	tests := []struct {
		name      string
		r         *Rules
		label     string
		reference bool
	}{
		{"reference", Reference(), "reference", true},
		{"renamed copy", with(Assignment{"name", "mine"}), "reference", true},
		{"unnamed copy", with(Assignment{"name", ""}), "reference", true},
		{"edited, name kept", with(harder), "edited reference", false},
		{"edited and renamed", with(harder, Assignment{"name", "harder"}), "harder", false},
		{"edited, no name", with(harder, Assignment{"name", ""}), "", false},
	}
	for _, tt := range tests {
		if got := tt.r.Label(); got != tt.label {
			t.Errorf("%s: Label() = %q, want %q", tt.name, got, tt.label)
		}
		if got := tt.r.IsReference(); got != tt.reference {
			t.Errorf("%s: IsReference() = %v, want %v", tt.name, got, tt.reference)
		}
	}
}

// TestRulesFileSize: a file beyond MaxRulesFileSize is refused before it is
// decoded, by Parse and by LoadFile (a 100 MB rules file took
// 755 MB). Generated, not kept under testdata/rules/bad, to keep a
// megabyte of padding out of the repository.
func TestRulesFileSize(t *testing.T) {
	big := append(ReferenceJSON(), bytes.Repeat([]byte(" "), MaxRulesFileSize)...)
	want := "rules: the file is larger than the 1048576 bytes (1 MiB) allowed"
	if _, err := Parse(big); err == nil || err.Error() != want {
		t.Errorf("Parse: got %v, want %s", err, want)
	}
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(path); err == nil || err.Error() != path+": "+want {
		t.Errorf("LoadFile: got %v, want %s: %s", err, path, want)
	}
	// Just under the limit, whitespace is still only whitespace.
	fits := append(ReferenceJSON(), bytes.Repeat([]byte(" "), MaxRulesFileSize-len(ReferenceJSON()))...)
	if _, err := Parse(fits); err != nil {
		t.Errorf("a file of exactly the limit: %v", err)
	}
}

// TestEveryFieldDocumented: docs/rules-file.md names every field of the
// rules file, written as a path with [] for the elements
// of an array of objects, and calls optional every field a file may leave
// out.
func TestEveryFieldDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/rules-file.md")
	if err != nil {
		t.Fatal(err)
	}
	// optional says whether the table row of a field calls it optional.
	optional := func(path string) bool {
		for _, line := range strings.Split(string(doc), "\n") {
			if strings.HasPrefix(line, "| `"+path+"`") {
				return strings.Contains(line, "optional")
			}
		}
		return false
	}
	var walk func(path string, typ reflect.Type)
	walk = func(path string, typ reflect.Type) {
		if typ.Kind() == reflect.Struct {
			for i := range typ.NumField() {
				f := typ.Field(i)
				p := joinPath(path, jsonName(f))
				if strings.Contains(f.Tag.Get("json"), ",omitempty") && !optional(p) {
					t.Errorf("docs/rules-file.md does not say that %s is optional", p)
				}
				walk(p, f.Type)
			}
			return
		}
		if !bytes.Contains(doc, []byte("`"+path+"`")) {
			t.Errorf("docs/rules-file.md does not document %s", path)
		}
		elems := path
		for typ.Kind() == reflect.Slice {
			typ = typ.Elem()
			elems += "[]"
		}
		if typ.Kind() == reflect.Struct {
			walk(elems, typ)
		}
	}
	walk("", reflect.TypeOf(rulesFile{}))
}

// TestShortHash: output shows a rules hash by its first 12 hex digits; a
// shorter string (a result with no hash) is shown whole.
func TestShortHash(t *testing.T) {
	for _, tt := range []struct{ h, want string }{
		{Reference().Hash, Reference().Hash[:12]},
		{"0123456789abcdef", "0123456789ab"},
		{"0123456789ab", "0123456789ab"},
		{"abc", "abc"},
		{"", ""},
	} {
		if got := ShortHash(tt.h); got != tt.want {
			t.Errorf("ShortHash(%q) = %q, want %q", tt.h, got, tt.want)
		}
	}
}
