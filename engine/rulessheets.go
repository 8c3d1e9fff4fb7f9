package engine

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"tallywood/engine/kit"
)

// The spreadsheet form of a rules file: a directory of CSV sheets, one per
// kind of component, each with a header row, that a spreadsheet opens and
// saves (rules export and rules import; docs/rules-file.md). Every field
// of the rules file has a cell, so the round trip is exact: the sheets of
// a rule set read back as the same canonical rules file, byte for byte.
//
// A list of objects (the cards, politicians, rounds, Endorsement levels) is
// a sheet of one row per object, its columns the fields as --set names them
// within it (ability.money, slots[0], polling.Red). A list of lists (the
// board's columns, the tiles of each tier) is one row per inner element,
// with a first column (column, tier) that counts the outer list from 0.
// Everything else is a row of numbers.csv: field (its --set path), value.

// Sheet is one file of the spreadsheet form: its name and CSV content.
type Sheet struct {
	Name string
	Data []byte
}

// sheetKind says how a field of the rules file is laid out: a sheet of
// rows, or of rows grouped by an outer index (group names the column that
// gives it; value the column of a list of plain strings).
type sheetKind struct {
	field, group, value string
}

// sheetKinds are the fields with a sheet of their own, in file order; the
// rest go into numbers.csv.
var sheetKinds = []sheetKind{
	{field: "endorsements"},
	{field: "columns", group: "column"},
	{field: "politicians"},
	{field: "rounds"},
	{field: "celebrity_tiles", group: "tier", value: "face"},
	{field: "public_works_tiles", group: "tier", value: "face"},
	{field: "strategy_cards"},
	{field: "solo_cards"},
}

// NumbersSheet is the sheet of the fields not in a list sheet.
const NumbersSheet = "numbers.csv"

// defaultScript names the automaton's script beside the sheets when its
// own name cannot (it has none, or a sheet has it).
const defaultScript = "automaton.star"

// SheetNames lists the sheets of the spreadsheet form in the order they
// are written.
func SheetNames() []string {
	names := []string{NumbersSheet}
	for _, k := range sheetKinds {
		names = append(names, k.field+".csv")
	}
	return names
}

// Sheets writes r as its spreadsheet form: SheetNames' sheets and, when
// the rules name a scripted Opposition, the script as a file of its own
// (named by automaton.file in numbers.csv).
func (r *Rules) Sheets() ([]Sheet, error) {
	f := r.file()
	root := reflect.ValueOf(f)
	var numbers [][]string
	for i := range root.NumField() {
		name := jsonName(root.Type().Field(i))
		if name == "automaton" || sheetOf(name) != nil {
			continue
		}
		walkLeaves(root.Field(i), name, name, false, func(_, at string, v reflect.Value, _ bool) {
			numbers = append(numbers, []string{at, cellText(v)})
		})
	}
	var script *Sheet
	if a := f.Automaton; a.Source != "" {
		file := a.Name
		if file == "" || slices.Contains(SheetNames(), file) {
			file = defaultScript
		}
		numbers = append(numbers, []string{"automaton.file", file})
		if file != a.Name {
			numbers = append(numbers, []string{"automaton.name", a.Name})
		}
		script = &Sheet{file, []byte(a.Source)}
	}
	if f.Notes != "" && strings.Contains(f.Notes, "\r\n") {
		// CSV reads a quoted CR LF as LF: the notes would come back
		// changed.
		return nil, errors.New("notes hold a carriage return before a line feed, which a CSV sheet cannot keep: end the notes' lines with line feeds alone")
	}
	sheet, err := writeCSV(NumbersSheet, []string{"field", "value"}, numbers)
	if err != nil {
		return nil, err
	}
	out := []Sheet{sheet}
	for _, k := range sheetKinds {
		header, rows := k.rows(root.FieldByIndex([]int{schemaOf(root.Type()).index[k.field]}))
		sheet, err := writeCSV(k.field+".csv", header, rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sheet)
	}
	if script != nil {
		out = append(out, *script)
	}
	return out, nil
}

func sheetOf(field string) *sheetKind {
	for i := range sheetKinds {
		if sheetKinds[i].field == field {
			return &sheetKinds[i]
		}
	}
	return nil
}

// rows lays out a list field: its header (the columns every element has,
// then those only some have, in the order met) and one row per element.
func (k sheetKind) rows(list reflect.Value) ([]string, [][]string) {
	var header []string
	if k.group != "" {
		header = append(header, k.group)
	}
	var cells []map[string]string
	var groups []string
	add := func(g string, elem reflect.Value) {
		row := map[string]string{}
		emit := func(path string, v reflect.Value) {
			if !slices.Contains(header, path) {
				header = append(header, path)
			}
			row[path] = cellText(v)
		}
		if k.value != "" {
			emit(k.value, elem)
		} else {
			walkLeaves(elem, "", "", false, func(_, at string, v reflect.Value, _ bool) { emit(at, v) })
		}
		cells, groups = append(cells, row), append(groups, g)
	}
	for i := range list.Len() {
		if k.group == "" {
			add("", list.Index(i))
			continue
		}
		for j := range list.Index(i).Len() {
			add(strconv.Itoa(i), list.Index(i).Index(j))
		}
	}
	rows := make([][]string, len(cells))
	for i, row := range cells {
		rows[i] = make([]string, len(header))
		for c, col := range header {
			rows[i][c] = row[col]
		}
		if k.group != "" {
			rows[i][0] = groups[i]
		}
	}
	return header, rows
}

// cellText writes a value as its cell: a string as it is, a number in
// decimal, a switch as true or false.
func cellText(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	}
	return strconv.FormatInt(v.Int(), 10)
}

func writeCSV(name string, header []string, rows [][]string) (Sheet, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(header)
	w.WriteAll(rows)
	if err := w.Error(); err != nil {
		return Sheet{}, fmt.Errorf("%s: %w", name, err)
	}
	return Sheet{name, b.Bytes()}, nil
}

// SheetError is a problem in the spreadsheet form, named where a
// spreadsheet shows it: the sheet, the row (the header is row 1) and the
// column by its header; Row 0 for the sheet as a whole, Column "" for a
// whole row.
type SheetError struct {
	Sheet  string
	Row    int
	Column string
	Err    error
}

func (e *SheetError) Error() string {
	var b strings.Builder
	b.WriteString(e.Sheet)
	if e.Row > 0 {
		fmt.Fprintf(&b, ": row %d", e.Row)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ", column %s", e.Column)
	}
	return b.String() + ": " + e.Err.Error()
}

func (e *SheetError) Unwrap() error { return e.Err }

// LoadSheets reads the spreadsheet form from the directory dir: the sheets
// SheetNames lists, each a regular file of at most MaxRulesFileSize bytes,
// and the script numbers.csv names, if any, of at most MaxAutomatonSize.
// Nothing else in dir is read, and the script is only carried, as a rules
// file's is: it runs when a game is played under the rules.
func LoadSheets(dir string) (*Rules, error) {
	return parseSheets(func(name string, limit int64) ([]byte, error) {
		b, err := kit.ReadFileMax(filepath.Join(dir, name), limit)
		var big *kit.TooLargeError
		var pe *fs.PathError
		switch {
		case errors.As(err, &big):
			return nil, fmt.Errorf("larger than the %s allowed", kit.FormatBytes(limit))
		case errors.As(err, &pe):
			return nil, pe.Err
		}
		return b, err
	})
}

// sheetReader reads one file of the spreadsheet form, at most limit bytes.
type sheetReader = func(name string, limit int64) ([]byte, error)

// origin is where a field of the rules file came from in the sheets.
type origin struct {
	sheet  string
	row    int
	column string
}

// sheetsImport is the rules file being read back from its sheets, with
// the cell each field came from, so that the rules' own checks can name
// the cell they refuse.
type sheetsImport struct {
	f       rulesFile
	origins map[string]origin // a --set path → its cell, or row
}

func parseSheets(read sheetReader) (*Rules, error) {
	in := &sheetsImport{origins: map[string]origin{}}
	root := reflect.ValueOf(&in.f).Elem()
	if err := in.numbers(read, root); err != nil {
		return nil, err
	}
	for _, k := range sheetKinds {
		field := root.Field(schemaOf(root.Type()).index[k.field])
		if err := in.list(read, k, field); err != nil {
			return nil, err
		}
	}
	data, err := json.Marshal(&in.f)
	if err != nil {
		return nil, err
	}
	r, err := parse(data, nil)
	if err != nil {
		return nil, in.where(err)
	}
	return r, nil
}

// where names the cell of a field the rules refuse: the field's own, or
// the row of the element that holds it, or the sheet.
func (in *sheetsImport) where(err error) error {
	var fe *fieldError
	if !errors.As(err, &fe) {
		return err
	}
	for p := fe.path; p != ""; p = parentPath(p) {
		if o, ok := in.origins[p]; ok {
			return &SheetError{o.sheet, o.row, o.column, fmt.Errorf("%s: %s", fe.path, fe.msg)}
		}
	}
	top, _, _ := strings.Cut(fe.path, "[")
	top, _, _ = strings.Cut(top, ".")
	sheet := NumbersSheet
	if sheetOf(top) != nil {
		sheet = top + ".csv"
	}
	return &SheetError{Sheet: sheet, Err: fmt.Errorf("%s: %s", fe.path, fe.msg)}
}

// parentPath drops the last step of a --set path ("" after the first).
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

// readCSV reads a sheet: its header, and its rows with their numbers as a
// spreadsheet shows them (the header row 1). Rows with no text at all (a
// spreadsheet may save some) are skipped; a row longer than the header
// must be empty past it, and a shorter one reads as empty cells.
func readCSV(read sheetReader, name string) ([]string, [][]string, []int, error) {
	data, err := read(name, MaxRulesFileSize)
	if err != nil {
		return nil, nil, nil, &SheetError{Sheet: name, Err: err}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	var header []string
	var rows [][]string
	var lines []int
	for n := 1; ; n++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, nil, nil, &SheetError{Sheet: name, Row: n, Err: fmt.Errorf("line %d of the file: %w", pe.Line, pe.Err)}
			}
			return nil, nil, nil, &SheetError{Sheet: name, Err: err}
		}
		line := n // as a spreadsheet numbers it, the header row 1
		if header == nil {
			header = rec
			for i, h := range header {
				if j := slices.Index(header[:i], h); j >= 0 || h == "" {
					return nil, nil, nil, &SheetError{name, line, strconv.Itoa(i + 1), fmt.Errorf("the header %q repeats column %d's, or is empty", h, j+1)}
				}
			}
			continue
		}
		if strings.Join(rec, "") == "" {
			continue
		}
		for i := len(header); i < len(rec); i++ {
			if rec[i] != "" {
				return nil, nil, nil, &SheetError{name, line, strconv.Itoa(i + 1), fmt.Errorf("%q is past the last column of the header", kit.Clip(rec[i]))}
			}
		}
		rec = append(rec, make([]string, max(0, len(header)-len(rec)))...)
		rows, lines = append(rows, rec[:len(header)]), append(lines, line)
	}
	if header == nil {
		return nil, nil, nil, &SheetError{Sheet: name, Err: errors.New("empty: it needs its header row")}
	}
	return header, rows, lines, nil
}

// numbers reads numbers.csv into the rules file, and the script it names.
func (in *sheetsImport) numbers(read sheetReader, root reflect.Value) error {
	header, rows, lines, err := readCSV(read, NumbersSheet)
	if err != nil {
		return err
	}
	if !slices.Equal(header, []string{"field", "value"}) {
		return &SheetError{Sheet: NumbersSheet, Row: 1, Err: fmt.Errorf("the header is %q, want field,value", strings.Join(header, ","))}
	}
	var script, scriptName *string
	seen := map[string]int{}
	for i, row := range rows {
		path, value := row[0], row[1]
		at := func(column string, err error) error { return &SheetError{NumbersSheet, lines[i], column, err} }
		if line, ok := seen[path]; ok {
			return at("field", fmt.Errorf("%q is given twice (first on row %d)", kit.Clip(path), line))
		}
		seen[path] = lines[i]
		switch path {
		case "automaton.file":
			script = &row[1]
			continue
		case "automaton.name":
			scriptName = &row[1]
			continue
		}
		steps, err := parsePath(path)
		if err != nil {
			return at("field", err)
		}
		if steps[0].isIndex || sheetOf(steps[0].key) != nil || steps[0].key == "automaton" {
			return at("field", fmt.Errorf("%q is not a field of this sheet (lists of objects have sheets of their own: %s)", kit.Clip(path), strings.Join(SheetNames()[1:], ", ")))
		}
		if err := setCell(root, steps, value); err != nil {
			col := "value"
			if errors.Is(err, errNoField) {
				col = "field"
			}
			return at(col, err)
		}
		in.origins[path] = origin{NumbersSheet, lines[i], "value"}
	}
	// A row left out would read as zero, which the checks may accept.
	var missing []string
	for _, p := range requiredLeaves(root.Type(), "") {
		if _, ok := seen[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return &SheetError{Sheet: NumbersSheet, Err: fmt.Errorf("no row for %s", strings.Join(missing, ", "))}
	}
	switch {
	case script == nil && scriptName != nil:
		return &SheetError{NumbersSheet, seen["automaton.name"], "field", errors.New("automaton.name without automaton.file, the script's file beside the sheets")}
	case script == nil:
		return nil
	}
	row := seen["automaton.file"]
	if err := scriptFileName(*script); err != nil {
		return &SheetError{NumbersSheet, row, "value", err}
	}
	if slices.Contains(SheetNames(), *script) {
		return &SheetError{NumbersSheet, row, "value", fmt.Errorf("%q is a sheet, not the script", *script)}
	}
	b, err := read(*script, MaxAutomatonSize)
	if err != nil {
		return &SheetError{Sheet: *script, Err: fmt.Errorf("the script automaton.file names (%s row %d): %w", NumbersSheet, row, err)}
	}
	in.f.Automaton = automatonFile{Name: *script, Source: string(b)}
	if scriptName != nil {
		in.f.Automaton.Name = *scriptName
	}
	if in.f.Automaton.Source == "" {
		return &SheetError{Sheet: *script, Err: errors.New("empty")}
	}
	in.origins["automaton"] = origin{NumbersSheet, row, "value"}
	return nil
}

// requiredLeaves lists the --set paths of the single values of struct type
// t that a rules file must give (not lists, not omitempty), below path.
func requiredLeaves(t reflect.Type, path string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name := jsonName(f)
		if strings.Contains(f.Tag.Get("json"), ",omitempty") || (path == "" && sheetOf(name) != nil) {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Struct:
			out = append(out, requiredLeaves(f.Type, joinPath(path, name))...)
		case reflect.Slice, reflect.Map:
		default:
			out = append(out, joinPath(path, name))
		}
	}
	return out
}

// list reads the sheet of a list field k into list.
func (in *sheetsImport) list(read sheetReader, k sheetKind, list reflect.Value) error {
	name := k.field + ".csv"
	header, rows, lines, err := readCSV(read, name)
	if err != nil {
		return err
	}
	cols := header
	if k.group != "" {
		if header[0] != k.group {
			return &SheetError{name, 1, "1", fmt.Errorf("the first column is %q, want %s (which of %s it is in, from 0)", kit.Clip(header[0]), k.group, k.field)}
		}
		cols = header[1:]
	}
	elemType := list.Type().Elem()
	if k.group != "" {
		elemType = elemType.Elem()
	}
	steps := make([][]pathStep, len(cols))
	for c, col := range cols {
		if k.value != "" {
			if col != k.value {
				return &SheetError{name, 1, col, fmt.Errorf("not a column of this sheet (%s, %s)", k.group, k.value)}
			}
			continue
		}
		s, err := parsePath(col)
		if err == nil && s[0].isIndex {
			err = fmt.Errorf("%q does not start with a field's name", col)
		}
		if err != nil {
			return &SheetError{name, 1, col, err}
		}
		if err := setCell(reflect.New(elemType).Elem(), s, ""); errors.Is(err, errNoField) {
			return &SheetError{name, 1, col, err}
		}
		steps[c] = s
	}
	if k.value == "" {
		for _, p := range requiredLeaves(elemType, "") {
			if !slices.Contains(cols, p) {
				return &SheetError{Sheet: name, Row: 1, Err: fmt.Errorf("no column %s", p)}
			}
		}
	}
	list.Set(reflect.MakeSlice(list.Type(), 0, len(rows)))
	for i, row := range rows {
		elems := list
		path := k.field
		if k.group != "" {
			g, err := strconv.Atoi(row[0])
			switch {
			case err != nil || g < 0:
				return &SheetError{name, lines[i], k.group, fmt.Errorf("%q is not a %s number (from 0)", kit.Clip(row[0]), k.group)}
			case g != list.Len()-1 && g != list.Len():
				return &SheetError{name, lines[i], k.group, fmt.Errorf("%d follows %s %d: the rows of each %s come together, in order from 0", g, k.group, list.Len()-1, k.group)}
			case g == list.Len():
				list.Set(reflect.Append(list, reflect.MakeSlice(list.Type().Elem(), 0, 8)))
			}
			elems = list.Index(g)
			path += "[" + strconv.Itoa(g) + "]"
			row = row[1:]
		}
		elem := reflect.New(elemType).Elem()
		path += "[" + strconv.Itoa(elems.Len()) + "]"
		in.origins[path] = origin{name, lines[i], ""}
		for c, cell := range row {
			var err error
			if k.value != "" {
				elem.SetString(cell)
			} else {
				err = setCell(elem, steps[c], cell)
			}
			if err != nil {
				return &SheetError{name, lines[i], cols[c], err}
			}
			if k.value != "" {
				in.origins[path] = origin{name, lines[i], cols[c]}
			} else {
				in.origins[path+pathText(steps[c])] = origin{name, lines[i], cols[c]}
			}
		}
		elems.Set(reflect.Append(elems, elem))
	}
	return nil
}

// pathText writes steps as the tail of a --set path (".money", ".slots[0]").
func pathText(steps []pathStep) string {
	var b strings.Builder
	for _, st := range steps {
		if st.isIndex {
			b.WriteString(st.bracket())
		} else {
			b.WriteString("." + st.key)
		}
	}
	return b.String()
}

// errNoField marks a column or field that names nothing in the rules file.
var errNoField = errors.New("names no field")

// maxCellIndex bounds an index in a column's name (slots[3]): lists in an
// element are a few entries long.
const maxCellIndex = 64

// setCell sets the value at steps below v from a cell. An empty cell is
// absent: a map entry left out, a list entry not given, a number or switch
// that may be left out read as 0 or false; a value that must be given is
// an error. With cell "" on a zero v it checks only that the path names a
// field (errNoField if not).
func setCell(v reflect.Value, steps []pathStep, cell string) error {
	optional := false
	for i, st := range steps {
		switch {
		case st.isIndex && v.Kind() == reflect.Slice && st.id == "":
			if st.index >= maxCellIndex {
				return fmt.Errorf("[%d]: no list here has more than %d entries", st.index, maxCellIndex)
			}
			if cell == "" {
				return nil
			}
			for v.Len() <= st.index {
				v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
			}
			v = v.Index(st.index)
		case !st.isIndex && v.Kind() == reflect.Struct:
			fi, ok := schemaOf(v.Type()).index[st.key]
			if !ok {
				return fmt.Errorf("%w %q (nearest: %s)", errNoField, st.key, strings.Join(nearest(st.key, jsonNames(v.Type())), ", "))
			}
			optional = strings.Contains(v.Type().Field(fi).Tag.Get("json"), ",omitempty")
			v = v.Field(fi)
		case !st.isIndex && v.Kind() == reflect.Map && i == len(steps)-1:
			if cell == "" {
				return nil
			}
			n, err := cellInt(cell)
			if err != nil {
				return err
			}
			if v.IsNil() {
				v.Set(reflect.MakeMap(v.Type()))
			}
			v.SetMapIndex(reflect.ValueOf(st.key), reflect.ValueOf(n))
			return nil
		default:
			return fmt.Errorf("%w: %q", errNoField, pathText(steps[:i+1]))
		}
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(cell)
	case reflect.Bool:
		switch cell {
		case "true":
			v.SetBool(true)
		case "false":
			v.SetBool(false)
		case "":
			if !optional {
				return errors.New("empty: want true or false")
			}
		default:
			return fmt.Errorf("%q is not true or false", kit.Clip(cell))
		}
	case reflect.Int:
		if cell == "" {
			if !optional {
				return errors.New("empty: want a whole number")
			}
			return nil
		}
		n, err := cellInt(cell)
		if err != nil {
			return err
		}
		v.SetInt(int64(n))
	default:
		return fmt.Errorf("%w: %q is a list or object, not a value", errNoField, pathText(steps))
	}
	return nil
}

func cellInt(cell string) (int, error) {
	n, err := strconv.Atoi(cell)
	if err != nil || n < -1<<20 || n > 1<<20 {
		return 0, fmt.Errorf("%q is not a whole number", kit.Clip(cell))
	}
	return n, nil
}
