package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Difference is one field of the rules file in which two rule sets differ
// in play. Path is written as for --set, an element with an id by its id
// (solo_cards[S-13].left_action); A and B are the values as JSON, "" on
// the side where an array has no such element.
type Difference struct {
	Path, A, B string
}

// Diff lists the play-relevant differences between two rule sets, field by
// field in file order. Metadata (name, version, notes) is left out, and a
// field a file leaves out counts as the zero it reads as, so Diff is empty
// exactly when the Hashes are equal. Arrays are compared element by
// element; the elements only one side has are listed whole.
func Diff(a, b *Rules) []Difference {
	fa, fb := a.file(), b.file()
	var out []Difference
	diffValue(&out, "", reflect.ValueOf(playForm(fa)), reflect.ValueOf(playForm(fb)))
	return out
}

// file decodes the canonical form back into the rules-file schema.
func (r *Rules) file() rulesFile {
	var f rulesFile
	if err := json.Unmarshal(r.source, &f); err != nil {
		panic("engine: canonical rules do not decode: " + err.Error())
	}
	return f
}

func diffValue(out *[]Difference, path string, a, b reflect.Value) {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			diffValue(out, joinPath(path, jsonName(a.Type().Field(i))), a.Field(i), b.Field(i))
		}
	case reflect.Slice:
		for i := range max(a.Len(), b.Len()) {
			p := path + elementName(a, b, i)
			switch {
			case i >= a.Len():
				*out = append(*out, Difference{p, "", valueJSON(b.Index(i))})
			case i >= b.Len():
				*out = append(*out, Difference{p, valueJSON(a.Index(i)), ""})
			default:
				diffValue(out, p, a.Index(i), b.Index(i))
			}
		}
	case reflect.Map:
		// A key one side lacks reads as zero (a politician's polling).
		keys := map[string]bool{}
		for _, k := range a.MapKeys() {
			keys[k.String()] = true
		}
		for _, k := range b.MapKeys() {
			keys[k.String()] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		slices.Sort(sorted)
		zero := reflect.Zero(a.Type().Elem())
		for _, k := range sorted {
			va, vb := a.MapIndex(reflect.ValueOf(k)), b.MapIndex(reflect.ValueOf(k))
			if !va.IsValid() {
				va = zero
			}
			if !vb.IsValid() {
				vb = zero
			}
			diffValue(out, joinPath(path, k), va, vb)
		}
	default:
		if sa, sb := valueJSON(a), valueJSON(b); sa != sb {
			*out = append(*out, Difference{path, sa, sb})
		}
	}
}

// elementName names element i of the two sides' arrays a and b as --set
// reads it: by its id ([S-13]) when that id names element i on both sides
// (or, on a side without an element i, no element), so the path means the
// same in both files; otherwise, and for an id --set would read as an
// index or cannot write (digits only, "]" or "="), by index ([12]).
func elementName(a, b reflect.Value, i int) string {
	side := a
	if i >= a.Len() {
		side = b
	}
	id := idOf(side.Index(i))
	if id != "" && !allDigits(id) && !strings.ContainsAny(id, "]=") && namesElement(a, id, i) && namesElement(b, id, i) {
		return "[" + id + "]"
	}
	return "[" + strconv.Itoa(i) + "]"
}

// namesElement reports whether id names element i of array v or, when v
// has no element i, none of its elements.
func namesElement(v reflect.Value, id string, i int) bool {
	want := -1
	if i < v.Len() {
		want = i
	}
	for j := range v.Len() {
		if idOf(v.Index(j)) == id {
			return j == want
		}
	}
	return want == -1
}

// valueJSON writes a value of the rules file as compact JSON.
func valueJSON(v reflect.Value) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v.Interface()); err != nil {
		return fmt.Sprint(v.Interface())
	}
	return strings.TrimSuffix(b.String(), "\n")
}
