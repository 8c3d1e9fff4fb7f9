package engine

import (
	"fmt"
	"strings"
)

// Scope says which games read a field of the rules file: the solo game
// (against the Opposition, at a difficulty) and the game of two to four
// players (no Opposition). A change to a field a game does not read
// cannot change it: `compare` warns before playing such a change, and
// `sensitivity` skips the field in the cells that cannot read it.
type Scope struct {
	Solo  bool // the solo game reads it
	Seats bool // the game of two to four players reads it
	// OneMode: only the solo game at difficulty Mode reads it.
	OneMode bool
	Mode    Mode
	// Why is the rule the reading rests on, in words.
	Why string
}

// ReadsSolo reports whether the solo game at difficulty m reads the field.
func (s Scope) ReadsSolo(m Mode) bool { return s.Solo && (!s.OneMode || s.Mode == m) }

// Who says in words which games read the field.
func (s Scope) Who() string {
	switch {
	case s.OneMode:
		return "only the solo game at " + s.Mode.String()
	case s.Solo && s.Seats:
		return "every game"
	case s.Solo:
		return "only the solo game"
	case s.Seats:
		return "only the game of 2–4 players"
	}
	return "no game"
}

// scopeRule is one entry of scopes: the fields whose path, with its
// [index] and [id] steps left out, is key or lies under it.
type scopeRule struct {
	key   string
	scope Scope
}

var (
	both       = Scope{Solo: true, Seats: true, Why: "a component or number of the game itself, which every game plays"}
	metadata   = Scope{Why: "metadata: no game reads it, and the rules hash leaves it out"}
	opposition = func(why string) Scope { return Scope{Solo: true, Why: why} }
	difficulty = func(m Mode) Scope {
		return Scope{Solo: true, OneMode: true, Mode: m,
			Why: "a difficulty of the solo game: I-20 initiative, I-12 Celebrity tier, I-14 Plaza, Solo Final Tally bonus"}
	}
)

// scopes classifies every field of the rules file; the longest key that
// a path lies under decides. TestReadByEveryField holds every leaf of the
// reference rules to it, so a new field must be classified here.
var scopes = []scopeRule{
	{"name", metadata},
	{"version", metadata},
	{"notes", metadata},
	{"districts", both},
	{"spots", both},
	{"cubes_per_district", both},
	{"plaza_cubes_at_setup", both},
	{"initial_support", both},
	{"badges_per_player", both},
	{"endorsements", both},
	{"track", both},
	{"columns", both},
	{"actions", both},
	{"politicians", both},
	{"rounds", both},
	{"rounds.opposition_plaza_advance", opposition("I-14: the Opposition's polling advance at the Plaza majority of rounds 3 and 4")},
	{"celebrity_tiles", both},
	{"public_works_tiles", both},
	{"strategy_cards", both},
	{"solo_cards", opposition("C-16, I-10: the Solo cards drive the Opposition, which only the solo game has")},
	{"difficulties.normal", difficulty(Normal)},
	{"difficulties.hard", difficulty(Hard)},
	{"variants.opposition_respects_blocks", opposition("V-1: how the Opposition treats a blocked spot")},
	{"variants.opposition_cleanup_after_round_4", opposition("V-2: the Opposition's Clean Up after round 4")},
	{"variants.opposition_plaza_popularity_too", opposition("V-3: the Opposition's Plaza Popularity in rounds 3 and 4")},
	{"variants.endorsements_score_for_holder", both},
	{"variants.endorsement_check_every_district", both},
	{"variants.upgraded_favor_inherits_used", both},
	{"variants.reform_deck_at_once", both},
	{"variants.turns_clockwise", Scope{Seats: true,
		Why: "the order of turns from the holder of the \"1\" token, which only three or four players tell apart (Strategy Phase)"}},
	{"opposition_fallback", opposition("I-10: what the Opposition gains when it can take no action")},
	{"automaton", opposition("the scripted Opposition, which only the solo game has")},
	{"automaton.name", metadata},
}

// ReadBy says which games read the rules field at path (a path as --set
// takes it). A path the classification does not cover is an error.
func ReadBy(path string) (Scope, error) {
	key, err := pathKey(path)
	if err != nil {
		return Scope{}, err
	}
	best := -1
	for i, s := range scopes {
		if (key == s.key || strings.HasPrefix(key, s.key+".")) && (best < 0 || len(s.key) > len(scopes[best].key)) {
			best = i
		}
	}
	if best < 0 {
		return Scope{}, fmt.Errorf("rules: %s: no game is known to read it or not (engine.scopes classifies every field)", path)
	}
	return scopes[best].scope, nil
}

// pathKey is a path with its [index] and [id] steps left out: the key
// the tables of scopes and choiceDomains name fields by.
func pathKey(path string) (string, error) {
	steps, err := parsePath(path)
	if err != nil {
		return "", err
	}
	var keys []string
	for _, st := range steps {
		if !st.isIndex {
			keys = append(keys, st.key)
		}
	}
	return strings.Join(keys, "."), nil
}

// FieldScope is a rules field and the games that read it.
type FieldScope struct {
	Path  string
	Scope Scope
}

// Unread returns the fields in which b differs from a, each with the
// games that read it, when the games played read none of them (reads says
// whether they read a field of a scope): then no game played can tell a
// from b. It returns nil when they read one, when a changed field is not
// classified, or when a and b do not differ.
func Unread(a, b *Rules, reads func(Scope) bool) []FieldScope {
	var out []FieldScope
	for _, d := range Diff(a, b) {
		s, err := ReadBy(d.Path)
		if err != nil || reads(s) {
			return nil
		}
		out = append(out, FieldScope{Path: d.Path, Scope: s})
	}
	return out
}
