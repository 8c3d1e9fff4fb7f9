package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"tallywood/engine/kit"
)

// Assignment is one PATH=VALUE change to a rules file, as given to --set.
// Path names a field of the rules file the way its JSON nests: object keys
// joined by dots, array elements by [i] or, where the elements have ids
// (cards, Solo cards, politicians), by [id]
// (difficulties.hard.bonus_divisor, solo_cards[7].left_district,
// solo_cards[S-08].left_district, politicians[3].polling.Red). Value is
// JSON for the field's type; a string field also takes its text unquoted.
type Assignment struct {
	Path, Value string
}

// String writes the assignment back as PATH=VALUE.
func (a Assignment) String() string { return a.Path + "=" + a.Value }

// shown writes text into a one-line message: as it is, or quoted when it
// holds a character that would break the line or not show (a newline, a
// control character), and clipped when long (a 100 KB --set was
// repeated whole, twice).
func shown(s string) string {
	s = kit.Clip(s)
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// SetError is why assignments (--set) cannot be made: Set is them as
// written (PATH=VALUE, several joined by ", "), Err what is wrong.
type SetError struct {
	Set string
	Err error
}

func (e *SetError) Error() string { return "rules: set " + e.Set + ": " + e.Err.Error() }
func (e *SetError) Unwrap() error { return e.Err }

// ParseAssignment reads PATH=VALUE. The path ends at the first "=", so a
// value may itself contain "=". Whether the path names a field is checked
// by With, which knows the schema. An assignment is one line, shown as
// written: results record it (Rules.Overrides) and refuse to be read back
// with a control or hidden character.
func ParseAssignment(s string) (Assignment, error) {
	if r, ok := Hidden(s); ok {
		return Assignment{}, &SetError{shown(s), fmt.Errorf("holds %U, a control or hidden character (an assignment is one line, shown as written)", r)}
	}
	path, value, ok := strings.Cut(s, "=")
	if !ok {
		return Assignment{}, &SetError{shown(s), errors.New("want PATH=VALUE")}
	}
	if _, err := parsePath(path); err != nil {
		return Assignment{}, &SetError{shown(s), err}
	}
	return Assignment{Path: path, Value: value}, nil
}

// pathStep is one step of an assignment path: a key, an [index], or an
// [id], the element of an array whose id field is id.
type pathStep struct {
	key     string
	index   int
	id      string
	isIndex bool // [index] or [id]
}

// bracket writes an [index] or [id] step as the path gives it.
func (st pathStep) bracket() string {
	if st.id != "" {
		return "[" + st.id + "]"
	}
	return "[" + strconv.Itoa(st.index) + "]"
}

// allDigits reports whether the text between brackets is an index:
// digits only. Anything else is an id, so an id of digits only is reached
// by its index (Diff names it so).
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// maxPath bounds a path: a few keys, and ids of at most maxString bytes.
const maxPath = 4096

// parsePath splits a path into its keys, indexes and ids.
func parsePath(p string) ([]pathStep, error) {
	if len(p) > maxPath {
		return nil, fmt.Errorf("path of %d bytes: no field's path is longer than %d", len(p), maxPath)
	}
	var steps []pathStep
	i := 0
	for i < len(p) {
		switch {
		case p[i] == '[':
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q: %q has no closing ]", p, p[i:])
			}
			inner := p[i+1 : i+end]
			switch {
			case inner == "":
				return nil, fmt.Errorf("path %q: \"[]\" names no element (an index from 0, or an id)", p)
			case allDigits(inner):
				n, err := strconv.Atoi(inner)
				if err != nil {
					return nil, fmt.Errorf("path %q: %q is not an index (a number from 0)", p, p[i:i+end+1])
				}
				steps = append(steps, pathStep{index: n, isIndex: true})
			default:
				steps = append(steps, pathStep{id: inner, isIndex: true})
			}
			i += end + 1
		case p[i] == '.' && len(steps) > 0:
			i++
			fallthrough
		default:
			end := i + strings.IndexAny(p[i:], ".[]")
			if end < i {
				end = len(p)
			}
			if end == i {
				return nil, fmt.Errorf("path %q: empty name at byte %d", p, i+1)
			}
			steps = append(steps, pathStep{key: p[i:end]})
			i = end
		}
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("path is empty")
	}
	return steps, nil
}

// With returns a new validated rule set: r with the assignments applied in
// order to its rules file. The new Rules lists them in Overrides, after any
// r already had. A path that names no field is an error naming it and the
// nearest valid names; a value that does not fit, or that the rules refuse,
// is an error naming the path and value, a *SetError.
func (r *Rules) With(as ...Assignment) (*Rules, error) {
	var f rulesFile
	if err := json.Unmarshal(r.source, &f); err != nil {
		return nil, fmt.Errorf("rules: canonical form does not decode: %w", err)
	}
	for _, a := range as {
		if err := assign(&f, a); err != nil {
			return nil, &SetError{shown(a.String()), err}
		}
	}
	canon, err := json.Marshal(&f)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	out, err := parse(canon, nil)
	if err != nil {
		return nil, &SetError{joinAssignments(as), err}
	}
	out.Overrides, out.File = slices.Clone(r.Overrides), r.File
	for _, a := range as {
		out.Overrides = append(out.Overrides, a.String())
	}
	return out, nil
}

func joinAssignments(as []Assignment) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return shown(strings.Join(s, ", "))
}

// assign applies one assignment to a decoded rules file.
func assign(f *rulesFile, a Assignment) error {
	steps, err := parsePath(a.Path)
	if err != nil {
		return err
	}
	v := reflect.ValueOf(f).Elem()
	at := "" // the path walked so far, for errors
	for i, st := range steps {
		switch {
		case st.isIndex:
			if v.Kind() != reflect.Slice {
				return fmt.Errorf("%s is not an array: it has no %s", describe(at), st.bracket())
			}
			i := st.index
			if st.id != "" {
				if i, err = elementByID(v, at, st.id); err != nil {
					return err
				}
			}
			if i >= v.Len() {
				return fmt.Errorf("%s has %d entries, [%d] is past the end", at, v.Len(), i)
			}
			v = v.Index(i)
			at += st.bracket()
		case v.Kind() == reflect.Struct:
			fi, ok := schemaOf(v.Type()).index[st.key]
			if !ok {
				return unknownName(at, st.key, jsonNames(v.Type()))
			}
			v = v.Field(fi)
			at = joinPath(at, st.key)
		case v.Kind() == reflect.Map && i == len(steps)-1:
			at = joinPath(at, st.key)
			val := reflect.New(v.Type().Elem())
			if err := decodeValue(at, a.Value, val); err != nil {
				return err
			}
			if v.IsNil() {
				v.Set(reflect.MakeMap(v.Type()))
			}
			v.SetMapIndex(reflect.ValueOf(st.key), val.Elem())
			return nil
		case v.Kind() == reflect.Slice:
			return fmt.Errorf("%s is an array: it has no field %q", at, st.key)
		default:
			return fmt.Errorf("%s is a value: it has no field %q", at, st.key)
		}
	}
	return decodeValue(at, a.Value, v.Addr())
}

// elementByID returns the index of the element of array v (at path at)
// whose id is id.
func elementByID(v reflect.Value, at, id string) (int, error) {
	switch {
	case idField(v.Type().Elem()) < 0 && v.Len() == 0:
		return 0, fmt.Errorf("%s has no ids, and no entries", at)
	case idField(v.Type().Elem()) < 0:
		return 0, fmt.Errorf("%s has no ids: name its entries by index, [0] to [%d]", at, v.Len()-1)
	case v.Len() == 0:
		return 0, fmt.Errorf("%s has no entries, so none with the id %q", at, id)
	}
	ids := make([]string, v.Len())
	for i := range v.Len() {
		if ids[i] = idOf(v.Index(i)); ids[i] == id {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s has no entry with the id %q (nearest: %s)", at, id, strings.Join(nearest(id, ids), ", "))
}

// idField returns the index of the id field of a rules-file element type
// (Strategy cards, Solo cards, politicians), or -1 when it has none.
func idField(t reflect.Type) int {
	if t.Kind() != reflect.Struct {
		return -1
	}
	if i, ok := schemaOf(t).index["id"]; ok {
		return i
	}
	return -1
}

// idOf returns the id of an array element, "" when its type has none.
func idOf(v reflect.Value) string {
	if i := idField(v.Type()); i >= 0 {
		return v.Field(i).String()
	}
	return ""
}

func describe(path string) string {
	if path == "" {
		return "the rules file"
	}
	return path
}

func joinPath(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

// decodeValue decodes value into *ptr: as JSON, held to the rules-file
// schema as a file is, or, for a string field, as the text itself when it
// is not JSON. An array or object replaces the old one whole, so a field it
// leaves out reads as zero.
func decodeValue(path, value string, ptr reflect.Value) error {
	fresh := reflect.New(ptr.Elem().Type())
	err := decodeStrict([]byte(value), path, fresh.Interface())
	switch kind := ptr.Elem().Kind(); {
	case err == nil:
		ptr.Elem().Set(fresh.Elem())
		return nil
	case kind == reflect.String:
		ptr.Elem().SetString(value)
		return nil
	case kind == reflect.Struct || kind == reflect.Slice || kind == reflect.Map:
		var fe *fieldError
		if errors.As(err, &fe) && (strings.HasPrefix(fe.path, path+"[") || strings.HasPrefix(fe.path, path+".")) {
			return err // a problem inside the value, with its path
		}
	}
	return fmt.Errorf("%s: %q is not a valid %s", path, kit.Clip(value), typeWord(ptr.Elem().Type()))
}

// typeWord names a rules-file type in a designer's words.
func typeWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int:
		return "whole number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "string"
	case reflect.Slice:
		return "JSON array"
	}
	return "JSON object"
}

// jsonName is the key of a struct field in the rules file.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// jsonNames lists the keys of a rules-file struct type in file order.
func jsonNames(t reflect.Type) []string {
	names := make([]string, t.NumField())
	for i := range t.NumField() {
		names[i] = jsonName(t.Field(i))
	}
	return names
}

// unknownName is the error for a key that names no field of the object at
// path, with the nearest valid names.
func unknownName(path, key string, valid []string) error {
	return fmt.Errorf("%s has no field %q (nearest: %s)", describe(path), key, strings.Join(nearest(key, valid), ", "))
}

// nearest returns up to three of the valid names closest to name.
func nearest(name string, valid []string) []string { return kit.Nearest(name, valid) }
