package engine

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// NumericField is one whole-number field of a rules file: its path as
// --set writes it (elements with ids by their id, as Diff names them) and
// its value. Every number of the rules-file schema is a whole number.
type NumericField struct {
	Path  string
	Value int
}

// NumericFields lists every whole-number field of r's rules file, in file
// order (the metadata has none). A politician's polling lists the
// Districts it names, as the file does.
func NumericFields(r *Rules) []NumericField {
	var out []NumericField
	f := r.file()
	listNumbers(&out, "", reflect.ValueOf(&f).Elem())
	return out
}

func listNumbers(out *[]NumericField, path string, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			listNumbers(out, joinPath(path, jsonName(v.Type().Field(i))), v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			listNumbers(out, path+elementName(v, v, i), v.Index(i))
		}
	case reflect.Map:
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.Sort(keys)
		for _, k := range keys {
			listNumbers(out, joinPath(path, k), v.MapIndex(reflect.ValueOf(k)))
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		*out = append(*out, NumericField{Path: path, Value: int(v.Int())})
	}
}

// MatchFields returns the numeric fields of r whose path matches glob, in
// file order: "*" matches any run of characters (dots and brackets too),
// "?" any one; everything else is literal, so difficulties.hard.* is every
// number of Hard and strategy_cards[PW-01].* every number of that Strategy card. A glob
// that matches nothing is an error naming it.
func MatchFields(r *Rules, glob string) ([]NumericField, error) {
	var out []NumericField
	for _, f := range NumericFields(r) {
		if globMatch(glob, f.Path) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("rules: %s names no number of the rules file", shown(glob))
	}
	return out, nil
}

// globMatch reports whether s matches pattern, with "*" and "?" as
// MatchFields reads them.
func globMatch(pattern, s string) bool {
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		if len(pattern) != len(s) {
			return false
		}
		for i := range pattern {
			if pattern[i] != '?' && pattern[i] != s[i] {
				return false
			}
		}
		return true
	}
	if len(s) < star || !globMatch(pattern[:star], s[:star]) {
		return false
	}
	rest := pattern[star+1:]
	for i := star; i <= len(s); i++ {
		if globMatch(rest, s[i:]) {
			return true
		}
	}
	return false
}
