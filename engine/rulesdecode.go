package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Bounds of a rules file, so that no input can take unbounded memory or be
// copied, huge, into every result (a 100 MB version string would be).
const (
	MaxRulesFileSize = 1 << 20 // bytes
	maxString        = 256     // bytes of any string but the notes
	maxNotes         = 4096    // bytes of the notes
)

// fieldError is a problem with the content of the file (as opposed to its
// JSON syntax): path names the field as --set does ("" for the document as
// a whole), msg says what is wrong and on which line.
type fieldError struct{ path, msg string }

func (e *fieldError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

// strictDecoder walks a JSON document token by token along the schema of
// the rulesFile types. encoding/json alone matches keys regardless of case,
// lets a later duplicate key win silently and reads a missing field as
// zero; the walk refuses all three, naming the path and line, and checks
// every value's type and every string's length on the way.
type strictDecoder struct {
	data []byte
	dec  *json.Decoder
}

// decodeStrict checks data against the schema of v's type, then decodes it
// into v. path prefixes the paths in errors ("" for a whole file).
func decodeStrict(data []byte, path string, v any) error {
	s := &strictDecoder{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	s.dec.UseNumber()
	if err := s.value(path, reflect.TypeOf(v).Elem()); err != nil {
		return err
	}
	if _, err := s.dec.Token(); err != io.EOF {
		return &fieldError{msg: "trailing data after the JSON object"}
	}
	// The walk has checked every key and type, so this only fills v.
	return json.Unmarshal(data, v)
}

// at says where the decoder is: the line and column just after the last
// token read. It scans the data, so it is for errors only.
func (s *strictDecoder) at() (line, col int) {
	return position(s.data, s.dec.InputOffset())
}

// lineAt is the line of a byte offset.
func (s *strictDecoder) lineAt(off int64) int {
	line, _ := position(s.data, off)
	return line
}

func (s *strictDecoder) fail(path, format string, args ...any) error {
	line, col := s.at()
	return &fieldError{path, fmt.Sprintf("line %d, column %d: %s", line, col, fmt.Sprintf(format, args...))}
}

// value reads one value of type t at path.
func (s *strictDecoder) value(path string, t reflect.Type) error {
	tok, err := s.dec.Token()
	if err != nil {
		return err
	}
	switch t.Kind() {
	case reflect.Struct:
		if tok != json.Delim('{') {
			return s.mismatch(path, tok, t)
		}
		return s.object(path, t)
	case reflect.Map:
		if tok != json.Delim('{') {
			return s.mismatch(path, tok, t)
		}
		return s.mapObject(path, t)
	case reflect.Slice:
		if tok != json.Delim('[') {
			return s.mismatch(path, tok, t)
		}
		for i := 0; s.dec.More(); i++ {
			if err := s.value(path+"["+strconv.Itoa(i)+"]", t.Elem()); err != nil {
				return err
			}
		}
		_, err := s.dec.Token() // ]
		return err
	case reflect.Int:
		n, ok := tok.(json.Number)
		if !ok {
			return s.mismatch(path, tok, t)
		}
		if _, err := strconv.ParseInt(string(n), 10, 32); err != nil {
			return s.fail(path, "number %s is not a valid int", n)
		}
	case reflect.Bool:
		if _, ok := tok.(bool); !ok {
			return s.mismatch(path, tok, t)
		}
	case reflect.String:
		str, ok := tok.(string)
		if !ok {
			return s.mismatch(path, tok, t)
		}
		return s.length(path, str)
	default:
		return fmt.Errorf("engine: rules schema has a %s field at %s", t.Kind(), path)
	}
	return nil
}

// length bounds a string: the notes and a script may be longer than names
// and ids.
func (s *strictDecoder) length(path, str string) error {
	limit := maxString
	switch path {
	case "notes":
		limit = maxNotes
	case "automaton.source":
		limit = MaxAutomatonSize
	}
	if len(str) > limit {
		return s.fail(path, "a string of %d bytes, longer than the %d allowed", len(str), limit)
	}
	return nil
}

// mismatch is the error for a value of the wrong JSON type.
func (s *strictDecoder) mismatch(path string, tok json.Token, t reflect.Type) error {
	var got string
	switch tok := tok.(type) {
	case json.Delim:
		got = map[json.Delim]string{'{': "object", '[': "array"}[tok]
	case string:
		got = "string"
	case json.Number:
		got = "number"
	case bool:
		got = "bool"
	case nil:
		got = "null"
	}
	want := map[reflect.Kind]string{reflect.Struct: "object", reflect.Map: "object", reflect.Slice: "array"}[t.Kind()]
	if want == "" {
		want = t.Kind().String()
	}
	if path == "" {
		return s.fail(path, "the file must be a JSON %s, not %s", want, got)
	}
	return s.fail(path, "%s is not a valid %s", got, want)
}

// object reads the members of an object of struct type t: each key must be
// one of its fields, spelled exactly, and given once; every field without
// omitempty must be present.
func (s *strictDecoder) object(path string, t reflect.Type) error {
	start := s.dec.InputOffset()
	seen := make(map[string]int64, t.NumField()) // key → offset
	for s.dec.More() {
		tok, err := s.dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string) // the decoder allows only string keys
		field := joinPath(path, shown(key))
		if err := s.once(field, key, seen); err != nil {
			return err
		}
		i, ok := schemaOf(t).index[key]
		if !ok {
			near := nearest(key, jsonNames(t))
			hint := ""
			if strings.EqualFold(key, near[0]) {
				hint = "; keys are case-sensitive"
			}
			line, _ := s.at()
			return &fieldError{field, fmt.Sprintf("line %d: unknown field (nearest: %s%s)", line, strings.Join(near, ", "), hint)}
		}
		if err := s.value(field, t.Field(i).Type); err != nil {
			return err
		}
	}
	if _, err := s.dec.Token(); err != nil { // }
		return err
	}
	for _, name := range schemaOf(t).required {
		if _, ok := seen[name]; !ok {
			return &fieldError{joinPath(path, name), fmt.Sprintf("missing from the object on line %d", s.lineAt(start))}
		}
	}
	return nil
}

// schema is what the decoder needs of a struct type of the rules file.
type schema struct {
	index    map[string]int // JSON key → field index
	required []string       // keys of the fields without omitempty
}

var schemas sync.Map // reflect.Type → *schema

// schemaOf reads, once per type, the JSON keys of a rules-file struct.
func schemaOf(t reflect.Type) *schema {
	if sc, ok := schemas.Load(t); ok {
		return sc.(*schema)
	}
	sc := &schema{index: map[string]int{}}
	for i := range t.NumField() {
		f := t.Field(i)
		name := jsonName(f)
		sc.index[name] = i
		if !strings.Contains(f.Tag.Get("json"), ",omitempty") {
			sc.required = append(sc.required, name)
		}
	}
	schemas.Store(t, sc)
	return sc
}

// once refuses a key given twice in one object; seen holds the offsets
// of the keys read so far.
func (s *strictDecoder) once(field, key string, seen map[string]int64) error {
	if first, dup := seen[key]; dup {
		line, _ := s.at()
		return &fieldError{field, fmt.Sprintf("line %d: duplicate key (first on line %d)", line, s.lineAt(first))}
	}
	seen[key] = s.dec.InputOffset()
	return nil
}

// mapObject reads an object of map type t: any keys, each given once.
func (s *strictDecoder) mapObject(path string, t reflect.Type) error {
	seen := map[string]int64{}
	for s.dec.More() {
		tok, err := s.dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		field := joinPath(path, shown(key))
		if err := s.once(field, key, seen); err != nil {
			return err
		}
		if err := s.length(field, key); err != nil {
			return err
		}
		if err := s.value(field, t.Elem()); err != nil {
			return err
		}
	}
	_, err := s.dec.Token() // }
	return err
}

// decodeError words an error of decodeStrict for a rules file: the walk's
// own (a fieldError) is worded already, and it leaves only the JSON syntax
// and the end of the data to encoding/json.
func decodeError(data []byte, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		line, col := position(data, se.Offset)
		return fmt.Errorf("line %d, column %d: %v", line, col, se)
	case err == io.EOF && len(bytes.TrimSpace(data)) == 0:
		return errors.New("empty file")
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return errors.New("the file ends before its JSON is complete")
	}
	return err
}

// position turns a byte offset into a line and column, both from 1.
func position(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
