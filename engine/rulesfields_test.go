package engine

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"testing"
)

// leafPaths lists every leaf of a rules file's JSON with the path --set
// takes (indexes only), in sorted order.
func leafPaths(t *testing.T, data []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, joinPath(path, k))
			}
		case []any:
			for i, e := range x {
				walk(e, path+"["+strconv.Itoa(i)+"]")
			}
		default:
			out = append(out, path)
		}
	}
	walk(v, "")
	sort.Strings(out)
	return out
}

// TestReadByEveryField: every leaf of the reference rules is classified,
// so a new field of the rules file fails here until scopes says who reads
// it.
func TestReadByEveryField(t *testing.T) {
	r := Reference()
	for _, p := range leafPaths(t, r.Canonical()) {
		if _, err := ReadBy(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestReadBy: the readings the scopes table rests on, one per rule.
func TestReadBy(t *testing.T) {
	cases := []struct {
		path                string
		normal, hard, seats bool
		rule                string
	}{
		{"difficulties.hard.bonus_divisor", false, true, false, "Solo Final Tally: Hard's divisor"},
		{"difficulties.normal.plaza_lowest_trackers", true, false, false, "I-14: Normal's trackers"},
		{"difficulties.hard.player_initiative", false, true, false, "I-20"},
		{"solo_cards[S-13].left_action", true, true, false, "C-16: the Opposition's cards"},
		{"solo_cards[3].right_district", true, true, false, "C-16"},
		{"opposition_fallback.money", true, true, false, "I-10"},
		{"variants.opposition_respects_blocks", true, true, false, "V-1"},
		{"variants.opposition_cleanup_after_round_4", true, true, false, "V-2"},
		{"variants.opposition_plaza_popularity_too", true, true, false, "V-3"},
		{"variants.endorsements_score_for_holder", true, true, true, "V-4: every holder"},
		{"variants.turns_clockwise", false, false, true, "Strategy Phase: 3–4 players only"},
		{"rounds[2].opposition_plaza_advance", true, true, false, "I-14"},
		{"rounds[2].plaza_majority.amount", true, true, true, "C-13"},
		{"actions.campaign_polling", true, true, true, "C-2"},
		{"strategy_cards[PW-01].ability.polling", true, true, true, "C-15"},
		{"politicians[magnate].money", true, true, true, "C-12"},
		{"name", false, false, false, "metadata"},
	}
	for _, c := range cases {
		s, err := ReadBy(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if got := [3]bool{s.ReadsSolo(Normal), s.ReadsSolo(Hard), s.Seats}; got != [3]bool{c.normal, c.hard, c.seats} {
			t.Errorf("%s (%s): normal, hard, seats read it: %v, want %v", c.path, c.rule, got, [3]bool{c.normal, c.hard, c.seats})
		}
	}
	if _, err := ReadBy("no_such_field"); err == nil {
		t.Error("an unknown field is classified")
	}
}

func TestFields(t *testing.T) {
	r := Reference()
	all, err := r.Fields()
	if err != nil {
		t.Fatal(err)
	}
	// 140 numbers in the reference file (engine/reference.json).
	if len(all) != 140 {
		t.Errorf("%d numeric fields, want 140", len(all))
	}
	byPath := map[string]Field{}
	for _, f := range all {
		byPath[f.Path] = f
		// Every field is one --set takes, at its own value the same rules.
		r2, err := r.With(Assignment{f.Path, strconv.Itoa(f.Value)})
		if err != nil {
			t.Errorf("%s: %v", f.Path, err)
		} else if r2.Hash != r.Hash {
			t.Errorf("%s=%d changes the rules", f.Path, f.Value)
		}
		if f.Bounded && (f.Value < f.Lo || f.Value > f.Hi) {
			t.Errorf("%s: %d outside its bounds %d..%d", f.Path, f.Value, f.Lo, f.Hi)
		}
	}
	for _, c := range []struct {
		path          string
		value, lo, hi int
		bounded       bool
	}{
		{"difficulties.hard.bonus_divisor", 2, 1, MaxTrack, true},
		{"difficulties.normal.player_initiative", 1, 1, 2, true},
		{"track.token_space", 12, 1, 12, true}, // up to track.max
		{"strategy_cards[PW-01].ability.polling", 1, 0, MaxTrack, true},
		{"politicians[red-favourite].polling.Red", 1, 0, 12, true},
		{"endorsements[1].level", 2, 0, 0, false}, // fixed: level i+1
	} {
		f, ok := byPath[c.path]
		if !ok {
			t.Errorf("%s: not listed", c.path)
			continue
		}
		if got := (Field{c.path, c.value, c.lo, c.hi, c.bounded}); f != got {
			t.Errorf("%s: %+v, want %+v", c.path, f, got)
		}
	}
	hard, err := r.Fields("difficulties.hard.*", "actions.campaign_*")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range hard {
		paths = append(paths, f.Path)
	}
	if got := fmt.Sprint(paths); got != "[actions.campaign_popularity actions.campaign_polling difficulties.hard.player_initiative difficulties.hard.celebrity_all_tiers difficulties.hard.plaza_lowest_trackers difficulties.hard.bonus_divisor]" {
		t.Errorf("globs select %s", got)
	}
	if _, err := r.Fields("difficulties.easy.*"); err == nil {
		t.Error("a glob matching nothing is accepted")
	}
}

func TestMatchPath(t *testing.T) {
	for _, c := range []struct {
		glob, path string
		want       bool
	}{
		{"*", "track.max", true},
		{"track.*", "track.max", true},
		{"track.*", "tracks.max", false},
		{"strategy_cards[*].ability.polling", "strategy_cards[PW-01].ability.polling", true},
		{"strategy_cards[PW-01]*", "strategy_cards[PW-01].ability.money", true},
		{"*.money", "politicians[magnate].money", true},
		{"*.money", "politicians[magnate].polling.Red", false},
		{"track.max", "track.max", true},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxbyy", false},
	} {
		if got := MatchPath(c.glob, c.path); got != c.want {
			t.Errorf("MatchPath(%q, %q) = %v", c.glob, c.path, got)
		}
	}
}

// TestUnread: the changes are listed with their scopes when no game
// played reads any; one read change, or none at all, lists nothing.
func TestUnread(t *testing.T) {
	ref := Reference()
	divisor, err := ref.With(Assignment{"difficulties.hard.bonus_divisor", "3"})
	if err != nil {
		t.Fatal(err)
	}
	both, err := divisor.With(Assignment{"solo_cards[S-03].left_action", "Research"})
	if err != nil {
		t.Fatal(err)
	}
	atNormal := func(s Scope) bool { return s.ReadsSolo(Normal) }
	got := Unread(ref, divisor, atNormal)
	if len(got) != 1 || got[0].Path != "difficulties.hard.bonus_divisor" || !got[0].Scope.OneMode || got[0].Scope.Mode != Hard {
		t.Errorf("the divisor at normal: %+v, want it with its scope", got)
	}
	for _, c := range []struct {
		name  string
		b     *Rules
		reads func(Scope) bool
	}{
		{"the divisor at hard", divisor, func(s Scope) bool { return s.ReadsSolo(Hard) }},
		{"the divisor and a Solo card at normal", both, atNormal},
		{"the same rules", ref, atNormal},
	} {
		if got := Unread(ref, c.b, c.reads); got != nil {
			t.Errorf("%s: %+v, want nothing", c.name, got)
		}
	}
}

// TestIsNumericPath: every field Fields lists is a numeric path, of this
// file or another (other ids, other indexes); what names no number of
// the schema is not.
func TestIsNumericPath(t *testing.T) {
	all, err := Reference().Fields()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range all {
		if !IsNumericPath(f.Path) {
			t.Errorf("%s: listed by Fields, not a numeric path", f.Path)
		}
	}
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"strategy_cards[XX-99].ability.polling", true}, // an id another file may have
		{"solo_cards[40].left_district", false},         // a string
		{"difficulties.normal.no_such_field", false},
		{"difficulties.normal", false}, // an object
		{"track.max[0]", false},
		{"endorsements[id].level", false}, // endorsements have no ids
		{"", false},
		{"difficulties..hard", false},
	} {
		if got := IsNumericPath(tt.path); got != tt.want {
			t.Errorf("IsNumericPath(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
