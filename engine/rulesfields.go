package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"tallywood/engine/kit"
)

// Field is one numeric leaf of a rules file: what `sensitivity` moves and
// `tune` varies.
type Field struct {
	// Path names it as --set takes it, with card and politician ids where
	// the path syntax has them (strategy_cards[PW-01].ability.polling).
	Path  string
	Value int
	// Lo..Hi is the range the rules' validation accepts it in, given the
	// file's other values (track.token_space up to track.max), when
	// Bounded. Other checks (icons in rising order, a hand no smaller than
	// the round's turns, MaxHeld) can still refuse a value within it: With
	// says so.
	Lo, Hi  int
	Bounded bool
}

// Fields lists the numeric fields of r's rules file that some glob
// matches (every one with none), in the order of the file. A field a file
// may leave out (a card's zero money) is listed only when the file gives
// it. A glob that matches no field is an error naming it: see MatchPath.
func (r *Rules) Fields(globs ...string) ([]Field, error) {
	var f rulesFile
	if err := json.Unmarshal(r.source, &f); err != nil {
		return nil, fmt.Errorf("rules: canonical form does not decode: %w", err)
	}
	c := &checker{bounds: map[string][2]int{}}
	if _, err := compileWith(c, &f); err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	var all []Field
	walkLeaves(reflect.ValueOf(f), "", "", false, func(path, at string, v reflect.Value, absent bool) {
		if absent || v.Kind() != reflect.Int {
			return
		}
		fd := Field{Path: path, Value: int(v.Int())}
		if b, ok := c.bounds[at]; ok {
			fd.Lo, fd.Hi, fd.Bounded = b[0], b[1], true
		}
		all = append(all, fd)
	})
	out, unmatched := matchGlobs(all, globs, func(f Field) string { return f.Path })
	if unmatched != "" {
		return nil, fmt.Errorf("rules: %q matches no numeric field (fields are named as --set takes them, e.g. difficulties.hard.*)", kit.Clip(unmatched))
	}
	return out, nil
}

// walkLeaves calls leaf with every value under v that is not a struct,
// list or map, in the order of the file (a map's entries in key order),
// named two ways: path as --set and Fields name it, a list's element by
// its id where it has one (strategy_cards[PW-01].money), and at by its
// index, as validation and the sheets name it (strategy_cards[3].money).
// absent says the value is under a field a file may leave out
// (omitempty) and is zero there: Fields lists none such, the sheets every
// one.
func walkLeaves(v reflect.Value, path, at string, absent bool, leaf func(path, at string, v reflect.Value, absent bool)) {
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			fv := v.Field(i)
			left := strings.Contains(t.Field(i).Tag.Get("json"), "omitempty") && fv.IsZero()
			name := jsonName(t.Field(i))
			walkLeaves(fv, joinPath(path, name), joinPath(at, name), absent || left, leaf)
		}
	case reflect.Slice:
		for i := range v.Len() {
			ix := "[" + strconv.Itoa(i) + "]"
			step := ix
			if id := idOf(v.Index(i)); id != "" && !allDigits(id) {
				step = "[" + id + "]"
			}
			walkLeaves(v.Index(i), path+step, at+ix, absent, leaf)
		}
	case reflect.Map:
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.Sort(keys)
		for _, k := range keys {
			walkLeaves(v.MapIndex(reflect.ValueOf(k)), joinPath(path, k), joinPath(at, k), absent, leaf)
		}
	default:
		leaf(path, at, v, absent)
	}
}

// IsNumericPath reports whether path, as Fields names it, can name a
// number of a rules file: its keys are fields of the rules file's schema,
// its brackets elements of arrays (an id only where the elements have
// ids), and it ends at a whole number. It reads no rule set: whether a
// given file has that element is for With to say.
func IsNumericPath(path string) bool {
	t, _, ok := pathType(path)
	return ok && t.Kind() == reflect.Int
}

// pathType follows path through the rules file's schema and returns the
// type it ends at and its key: the path without its [index] and [id]
// steps, as choiceDomains names it, or "" when it crossed a map (no choice
// lies under one). ok is false when a step names nothing of the schema.
func pathType(path string) (t reflect.Type, key string, ok bool) {
	steps, err := parsePath(path)
	if err != nil {
		return nil, "", false
	}
	t = reflect.TypeOf(rulesFile{})
	viaMap := false
	for _, st := range steps {
		switch {
		case st.isIndex:
			if t.Kind() != reflect.Slice || st.id != "" && idField(t.Elem()) < 0 {
				return nil, "", false
			}
			t = t.Elem()
		case t.Kind() == reflect.Struct:
			i, found := schemaOf(t).index[st.key]
			if !found {
				return nil, "", false
			}
			t = t.Field(i).Type
			key = joinPath(key, st.key)
		case t.Kind() == reflect.Map:
			t, viaMap = t.Elem(), true
		default:
			return nil, "", false
		}
	}
	if viaMap {
		key = ""
	}
	return t, key, true
}

// MatchPath reports whether a rules path matches glob: "*" matches any
// run of characters (dots and brackets too), every other character
// itself, so brackets need no escaping (solo_cards[S-13].* or
// strategy_cards[*].ability.polling).
func MatchPath(glob, path string) bool {
	star := strings.IndexByte(glob, '*')
	if star < 0 {
		return glob == path
	}
	if !strings.HasPrefix(path, glob[:star]) {
		return false
	}
	rest := glob[star+1:]
	for i := star; i <= len(path); i++ {
		if MatchPath(rest, path[i:]) {
			return true
		}
	}
	return false
}
