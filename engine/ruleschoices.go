package engine

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"tallywood/engine/kit"
)

// Choice is one non-numeric field of a rules file that a design study may
// vary as it varies a number (Field): a Solo card's District or action, a
// discount's action, a Round card reward's kind, a difficulty's rounding, a
// switch. Sensitivity plays each alternative against the base; tune
// searches them.
type Choice struct {
	// Path names it as --set takes it, with card ids where the path
	// syntax has them (solo_cards[S-03].left_action).
	Path  string
	Value string // as --set takes it
	// Alternatives are the other values the rules accept in its place,
	// each with every other field as it is (With validates each), in the
	// order of its domain: a Solo card's left District cannot become its
	// right one (C-16).
	Alternatives []string
}

// choiceDomain is a kind of Choice: the fields whose path, with its
// [index] and [id] steps left out, is key, and the values they may take.
type choiceDomain struct {
	key    string
	values func(r *Rules) []string
}

var (
	districtValues = func(r *Rules) []string { return r.Districts[:] }
	actionValues   = func(*Rules) []string { return actionNames[:] }
	rewardValues   = func(*Rules) []string { return rewardKinds }
	roundingValues = func(*Rules) []string { return []string{"down", "up"} }
	switchValues   = func(*Rules) []string { return []string{"false", "true"} }
)

// choiceDomains lists the non-numeric fields that are choices a designer
// makes card by card or rule by rule. Names and ids are labels, not
// choices; a Strategy card's slots and ability kind change what the card
// is and which numbers it needs, so they are left to a rules file.
var choiceDomains = []choiceDomain{
	{"rounds.presence.kind", rewardValues},
	{"rounds.district_majority.kind", rewardValues},
	{"rounds.plaza_majority.kind", rewardValues},
	{"rounds.opposition_plaza_advance", switchValues},
	{"strategy_cards.ability.action", actionValues},
	{"solo_cards.left_district", districtValues},
	{"solo_cards.right_district", districtValues},
	{"solo_cards.left_action", actionValues},
	{"solo_cards.right_action", actionValues},
	{"difficulties.normal.bonus_rounding", roundingValues},
	{"difficulties.hard.bonus_rounding", roundingValues},
	{"variants.opposition_respects_blocks", switchValues},
	{"variants.opposition_cleanup_after_round_4", switchValues},
	{"variants.opposition_plaza_popularity_too", switchValues},
	{"variants.endorsements_score_for_holder", switchValues},
	{"variants.endorsement_check_every_district", switchValues},
	{"variants.upgraded_favor_inherits_used", switchValues},
	{"variants.turns_clockwise", switchValues},
	{"variants.reform_deck_at_once", switchValues},
}

// Choices lists the choices of r's rules file that some glob matches
// (every one with none), in the order of the file, each with the
// alternatives the rules accept. A glob that matches no choice is an
// error naming it.
func (r *Rules) Choices(globs ...string) ([]Choice, error) {
	out, unmatched := matchGlobs(r.choices(), globs, func(c Choice) string { return c.Path })
	if unmatched != "" {
		return nil, fmt.Errorf("rules: %q matches no choice (a Solo card's District or action, a reward's kind, a rounding, a switch: solo_cards[S-03].*)", kit.Clip(unmatched))
	}
	return out, r.alternatives(out)
}

// Variables lists what a design study may vary in r's rules file, the
// numbers (Fields) and the choices (Choices) that some glob matches. A
// glob that matches neither is an error naming it and the nearest paths.
func (r *Rules) Variables(globs ...string) ([]Field, []Choice, error) {
	fields, err := r.Fields()
	if err != nil {
		return nil, nil, err
	}
	choices := r.choices()
	for _, g := range globs {
		hit := false
		for _, f := range fields {
			hit = hit || MatchPath(g, f.Path)
		}
		for _, c := range choices {
			hit = hit || MatchPath(g, c.Path)
		}
		if !hit {
			return nil, nil, &NoMatchError{Glob: g, Nearest: nearestPaths(g, fields, choices)}
		}
	}
	fs, _ := matchGlobs(fields, globs, func(f Field) string { return f.Path })
	cs, _ := matchGlobs(choices, globs, func(c Choice) string { return c.Path })
	return fs, cs, r.alternatives(cs)
}

// NoMatchError is a glob of Variables that names no field of the rules
// file, with the nearest paths it might have meant.
type NoMatchError struct {
	Glob    string
	Nearest []string
}

func (e *NoMatchError) Error() string {
	s := fmt.Sprintf("rules: %q matches no number or choice of the rules file (named as --set takes them, e.g. difficulties.hard.* or solo_cards[S-03].*)", kit.Clip(e.Glob))
	if len(e.Nearest) > 0 {
		s += "; nearest: " + strings.Join(e.Nearest, ", ")
	}
	return s
}

// nearestPaths are the paths nearest a glob that matched nothing; for a
// glob with a star, the prefixes of paths with a star after them too
// (difficulties.hard.* for difficulties.easy.*).
func nearestPaths(glob string, fields []Field, choices []Choice) []string {
	seen := map[string]bool{}
	var cands []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			cands = append(cands, p)
		}
	}
	for _, p := range append(fieldPaths(fields), choicePaths(choices)...) {
		if strings.Contains(glob, "*") {
			for i := range len(p) {
				switch p[i] {
				case '.':
					add(p[:i+1] + "*")
				case '[':
					add(p[:i] + "*")
				}
			}
		}
		add(p)
	}
	return nearest(glob, cands)
}

func fieldPaths(fs []Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Path
	}
	return out
}

func choicePaths(cs []Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Path
	}
	return out
}

// matchGlobs keeps the items whose path some glob matches (all with no
// globs) and returns the first glob that matches none.
func matchGlobs[T any](all []T, globs []string, path func(T) string) (out []T, unmatched string) {
	if len(globs) == 0 {
		return all, ""
	}
	matched := make([]bool, len(globs))
	for _, x := range all {
		hit := false
		for i, g := range globs {
			if MatchPath(g, path(x)) {
				matched[i], hit = true, true
			}
		}
		if hit {
			out = append(out, x)
		}
	}
	for i, g := range globs {
		if !matched[i] {
			return out, g
		}
	}
	return out, ""
}

// choices lists every choice of r's rules file, without its
// alternatives (alternatives fills them: each is a With).
func (r *Rules) choices() []Choice {
	var out []Choice
	walkChoices(reflect.ValueOf(r.file()), "", "", func(path, key string, v reflect.Value) {
		if domainOf(key) != nil {
			out = append(out, Choice{Path: path, Value: leafText(v)})
		}
	})
	return out
}

// alternatives fills each choice's alternatives: the values of its domain
// but its own that the rules accept.
func (r *Rules) alternatives(cs []Choice) error {
	for i := range cs {
		c := &cs[i]
		key, err := pathKey(c.Path)
		if err != nil {
			return err
		}
		for _, alt := range domainOf(key).values(r) {
			if alt == c.Value {
				continue
			}
			if _, err := r.With(Assignment{Path: c.Path, Value: alt}); err != nil {
				var refused *SetError
				if !errors.As(err, &refused) {
					return err
				}
				continue
			}
			c.Alternatives = append(c.Alternatives, alt)
		}
	}
	return nil
}

func domainOf(key string) *choiceDomain {
	for i := range choiceDomains {
		if choiceDomains[i].key == key {
			return &choiceDomains[i]
		}
	}
	return nil
}

// leafText writes a string or bool leaf as --set takes it.
func leafText(v reflect.Value) string {
	if v.Kind() == reflect.Bool {
		return strconv.FormatBool(v.Bool())
	}
	return v.String()
}

// walkChoices calls leaf for every string and bool leaf under v, the
// ones a file may leave out too (a switch left out is false): its path
// with ids (as Choices names it) and its key, the path without its
// [index] and [id] steps (as choiceDomains names it). A discount's
// action, absent from every other ability, is left out where absent: it
// is not a choice there.
func walkChoices(v reflect.Value, path, key string, leaf func(path, key string, v reflect.Value)) {
	switch v.Kind() {
	case reflect.String:
		if v.String() != "" {
			leaf(path, key, v)
		}
	case reflect.Bool:
		leaf(path, key, v)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			name := jsonName(t.Field(i))
			walkChoices(v.Field(i), joinPath(path, name), joinPath(key, name), leaf)
		}
	case reflect.Slice:
		for i := range v.Len() {
			step := "[" + strconv.Itoa(i) + "]"
			if id := idOf(v.Index(i)); id != "" && !allDigits(id) {
				step = "[" + id + "]"
			}
			walkChoices(v.Index(i), path+step, key, leaf)
		}
	}
}

// IsChoicePath reports whether path (as --set takes it) names a choice of
// a rules file: a string or switch whose alternatives Choices knows. A
// result that names a choice is checked with it, as IsNumericPath checks
// a number's.
func IsChoicePath(path string) bool {
	t, key, ok := pathType(path)
	return ok && (t.Kind() == reflect.String || t.Kind() == reflect.Bool) && domainOf(key) != nil
}
