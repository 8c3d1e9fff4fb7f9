package engine

import (
	"bytes"
	"cmp"
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
// exactly when the Hashes are equal. Arrays whose elements have ids (cards,
// tiles, politicians) are compared by id, so a card added or removed is
// listed whole under its id (byID says when); other arrays element by
// index, the elements only one side has listed whole.
func Diff(a, b *Rules) []Difference {
	fa, fb := a.file(), b.file()
	var out []Difference
	pa, pb := playForm(fa), playForm(fb)
	// The automaton, the file's last field, is compared line by line, with
	// the scripts' names (which the play form leaves out) to tell them
	// apart.
	pa.Automaton, pb.Automaton = automatonFile{}, automatonFile{}
	diffValue(&out, "", reflect.ValueOf(pa), reflect.ValueOf(pb))
	diffAutomaton(&out, fa.Automaton, fb.Automaton)
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
		if byID(a, b) {
			diffByID(out, path, a, b)
			return
		}
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

// byID reports whether two arrays are compared element by id: their
// elements have ids that --set can write (not digits only, no "]" or "="),
// each unique on its side, and the ids both sides have come in the same
// order. Then a card added or removed reads as that card (S-22 removed),
// not as every later card changed by one place. Arrays without ids, and a
// reordering (which changes play, the deck's order), are compared by index.
func byID(a, b reflect.Value) bool {
	if a.Type().Elem().Kind() != reflect.Struct || idField(a.Type().Elem()) < 0 {
		return false
	}
	ia, ib := writableIDs(a), writableIDs(b)
	if ia == nil || ib == nil {
		return false
	}
	var common []string
	for _, id := range ia.order {
		if _, ok := ib.at[id]; ok {
			common = append(common, id)
		}
	}
	k := 0
	for _, id := range ib.order {
		if _, ok := ia.at[id]; ok {
			if common[k] != id {
				return false
			}
			k++
		}
	}
	return true
}

// idIndex is an array's ids in order and the index of each.
type idIndex struct {
	order []string
	at    map[string]int
}

// writableIDs indexes v's elements by id, nil when an element has no id,
// one --set cannot name it by, or one another element has.
func writableIDs(v reflect.Value) *idIndex {
	x := &idIndex{at: make(map[string]int, v.Len())}
	for i := range v.Len() {
		id := idOf(v.Index(i))
		if id == "" || allDigits(id) || strings.ContainsAny(id, "]=") {
			return nil
		}
		if _, dup := x.at[id]; dup {
			return nil
		}
		x.order = append(x.order, id)
		x.at[id] = i
	}
	return x
}

// diffByID compares two arrays element by id (byID holds): each changed
// field of an element both have, in their shared order, and the whole of an
// element only one side has (removed or added) where it stands, those
// between the same two shared elements by their index and then id, so that
// Diff(b, a) is Diff(a, b) with the sides swapped.
func diffByID(out *[]Difference, path string, a, b reflect.Value) {
	ia, ib := writableIDs(a), writableIDs(b)
	type lone struct {
		index int
		id    string
		d     Difference
	}
	i, j := 0, 0
	for i < a.Len() || j < b.Len() {
		var run []lone
		for ; i < a.Len(); i++ {
			id := ia.order[i]
			if _, ok := ib.at[id]; ok {
				break
			}
			run = append(run, lone{i, id, Difference{path + "[" + id + "]", valueJSON(a.Index(i)), ""}})
		}
		for ; j < b.Len(); j++ {
			id := ib.order[j]
			if _, ok := ia.at[id]; ok {
				break
			}
			run = append(run, lone{j, id, Difference{path + "[" + id + "]", "", valueJSON(b.Index(j))}})
		}
		slices.SortStableFunc(run, func(x, y lone) int {
			return cmp.Or(cmp.Compare(x.index, y.index), strings.Compare(x.id, y.id))
		})
		for _, l := range run {
			*out = append(*out, l.d)
		}
		if i < a.Len() && j < b.Len() {
			// Both stand at the same shared id (byID: the same order).
			diffValue(out, path+"["+ia.order[i]+"]", a.Index(i), b.Index(j))
			i, j = i+1, j+1
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

// diffAutomaton lists how two automata differ: which plays, when one side
// has the built-in Opposition, else the script's lines that differ, one
// row each (automaton.source:12), numbered as in B (as in A for a line
// only A has).
func diffAutomaton(out *[]Difference, a, b automatonFile) {
	switch {
	case a.Source == b.Source:
		return
	case a.Source == "" || b.Source == "":
		*out = append(*out, Difference{"automaton", automatonWords(a), automatonWords(b)})
		return
	}
	la, lb := strings.Split(a.Source, "\n"), strings.Split(b.Source, "\n")
	if len(la)*len(lb) > maxDiffCells {
		*out = append(*out, Difference{"automaton.source", fmt.Sprintf("%d lines", len(la)), fmt.Sprintf("%d lines (too long to compare line by line)", len(lb))})
		return
	}
	for _, e := range lineDiff(la, lb) {
		path := fmt.Sprintf("automaton.source:%d", e.line)
		*out = append(*out, Difference{path, lineJSON(e.a, e.inA), lineJSON(e.b, e.inB)})
	}
}

// maxDiffCells bounds the line comparison's table (lines of A × lines of
// B): scripts of a thousand lines each.
const maxDiffCells = 1 << 20

func automatonWords(a automatonFile) string {
	if a.Source == "" {
		return `"built-in"`
	}
	name := a.Name
	if name == "" {
		name = "inline"
	}
	return strconv.Quote("script " + name)
}

// lineJSON shows a line as JSON, "" for a side without it.
func lineJSON(s string, present bool) string {
	if !present {
		return ""
	}
	return strconv.Quote(s)
}

// lineEdit is one row of a line diff: a line changed (both sides), added
// (only B) or removed (only A).
type lineEdit struct {
	line     int
	a, b     string
	inA, inB bool
}

// lineDiff compares two scripts line by line by their longest common
// subsequence, and pairs a run of removed lines with the run of added
// lines that replaces it, so that an edited line reads as one row.
func lineDiff(a, b []string) []lineEdit {
	n, m := len(a), len(b)
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []lineEdit
	var removed, added []int
	flush := func() {
		for k := range max(len(removed), len(added)) {
			e := lineEdit{}
			if k < len(removed) {
				e.a, e.inA, e.line = a[removed[k]], true, removed[k]+1
			}
			if k < len(added) {
				e.b, e.inB, e.line = b[added[k]], true, added[k]+1
			}
			out = append(out, e)
		}
		removed, added = removed[:0], added[:0]
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			flush()
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			added = append(added, j)
			j++
		default:
			removed = append(removed, i)
			i++
		}
	}
	flush()
	return out
}
