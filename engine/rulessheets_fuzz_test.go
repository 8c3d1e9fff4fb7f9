package engine

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// FuzzParseSheets: the sheets of the spreadsheet form are outside input
// (a designer's spreadsheet saves them). With one sheet replaced by any
// bytes, the import never panics, refuses with one line that names a sheet,
// and what it accepts exports and imports again as the same rules.
func FuzzParseSheets(f *testing.F) {
	ref, err := Reference().Sheets()
	if err != nil {
		f.Fatal(err)
	}
	for i, s := range ref {
		f.Add(uint8(i), s.Data)
	}
	f.Add(uint8(0), []byte("field,value\nautomaton.file,x.star\n"))
	f.Add(uint8(2), []byte("column,slots[63],money\n0,TL,1\n"))
	f.Add(uint8(3), []byte("id,polling.Red\n\"a\nb\",1\n"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		sheets := map[string][]byte{}
		for _, s := range ref {
			sheets[s.Name] = s.Data
		}
		names := SheetNames()
		sheets[names[int(which)%len(names)]] = data
		read := func(sheets map[string][]byte) sheetReader {
			return func(name string, limit int64) ([]byte, error) {
				b, ok := sheets[name]
				switch {
				case !ok:
					return nil, fs.ErrNotExist
				case int64(len(b)) > limit:
					return nil, errors.New("too large")
				}
				return b, nil
			}
		}
		r, err := parseSheets(read(sheets))
		if err != nil {
			var se *SheetError
			if !errors.As(err, &se) {
				t.Errorf("error naming no sheet: %v", err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("error of more than one line: %q", err)
			}
			return
		}
		again, err := r.Sheets()
		if err != nil {
			return // notes CSV cannot keep (CR LF), refused at export
		}
		back := map[string][]byte{}
		for _, s := range again {
			back[s.Name] = s.Data
		}
		r2, err := parseSheets(read(back))
		if err != nil {
			t.Fatalf("exported sheets do not import: %v", err)
		}
		if !bytes.Equal(r2.Canonical(), r.Canonical()) {
			t.Errorf("the round trip changed the rules:\n%s\nwant\n%s", r2.Canonical(), r.Canonical())
		}
	})
}
