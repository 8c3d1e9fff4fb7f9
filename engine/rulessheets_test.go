package engine_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
)

// exportTo writes r's sheets into a new directory and returns it.
func exportTo(t *testing.T, r *engine.Rules) string {
	t.Helper()
	sheets, err := r.Sheets()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, s := range sheets {
		if err := os.WriteFile(filepath.Join(dir, s.Name), s.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// roundTrip checks that r's sheets read back as r's canonical rules file,
// byte for byte, with its hash.
func roundTrip(t *testing.T, r *engine.Rules, what string) {
	t.Helper()
	back, err := engine.LoadSheets(exportTo(t, r))
	if err != nil {
		t.Fatalf("%s: the exported sheets do not import: %v", what, err)
	}
	if !bytes.Equal(back.Canonical(), r.Canonical()) || back.Hash != r.Hash {
		t.Fatalf("%s: the round trip changed the rules:\n%s\nwant\n%s", what, back.Canonical(), r.Canonical())
	}
}

// TestSheetsRoundTripReference: the reference set, and the same under a
// scripted Opposition (named, unnamed, and named as a sheet is), come back
// from their sheets exactly.
func TestSheetsRoundTripReference(t *testing.T) {
	roundTrip(t, engine.Reference(), "reference")
	for _, name := range []string{"mine.star", "", "numbers.csv"} {
		r, err := engine.Reference().WithAutomaton(name, "def opposition_turn(g):\n    pass\n")
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, r, "automaton "+name)
	}
}

// sheetTexts are names and notes a designer writes, with what CSV must
// quote: commas, quotes, line feeds, leading spaces, other scripts.
var sheetTexts = []string{"mine", "a, b", `say "hi"`, "Ünïcödé ★", "x;y", "=1+1"}
var sheetNotes = []string{"", "two\nlines", " leading space", "comma, \"quote\"\n\nend\n", "tab\there", "lone \r return"}

// TestSheetsRoundTripRandom: random rule sets near the reference set (the
// mutations of TestMutatedRulesPlay: numbers, switches, names and the
// counts of cards, tiles, rounds and icons), with random names, notes,
// polling entries of 0 and scripts, come back from their sheets exactly
// (issue 42: the spreadsheet round trip is exact).
func TestSheetsRoundTripRandom(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 30
	}
	rng := rand.New(rand.NewPCG(42, 5))
	m := newMutator(t, rng)
	done := 0
	for tries := 0; done < n; tries++ {
		if tries > 20*n {
			t.Fatalf("only %d of %d mutated rule sets validated", done, n)
		}
		r := m.mutate(1 + rng.IntN(4))
		if r == nil {
			continue
		}
		extra := []engine.Assignment{
			{Path: "name", Value: sheetTexts[rng.IntN(len(sheetTexts))]},
			{Path: "notes", Value: sheetNotes[rng.IntN(len(sheetNotes))]},
		}
		if rng.IntN(3) == 0 {
			extra = append(extra, engine.Assignment{Path: "politicians[0].polling.Green", Value: "0"})
		}
		r2, err := r.With(extra...)
		if err != nil {
			t.Fatalf("%q: %v", extra, err)
		}
		if rng.IntN(4) == 0 {
			names := []string{"", "mine.star", "solo_cards.csv"}
			if r2, err = r2.WithAutomaton(names[rng.IntN(len(names))], "# a script, carried, not run\n"); err != nil {
				t.Fatal(err)
			}
		}
		roundTrip(t, r2, strings.Join(r2.Overrides, " "))
		done++
	}
}

// TestSheetsErrors: a bad sheet is refused with its sheet, row and column.
func TestSheetsErrors(t *testing.T) {
	tests := []struct {
		name, sheet, old, new string
		want                  string
	}{
		{"not a number", "politicians.csv", "magnate,4,", "magnate,four,",
			"politicians.csv: row 2, column money: \"four\" is not a whole number"},
		{"out of range, by the rules' own check", "politicians.csv", "magnate,4,", "magnate,99,",
			"politicians.csv: row 2, column money: politicians[0].money: 99 is out of range"},
		{"an unknown column", "solo_cards.csv", "left_action", "left_acton",
			"solo_cards.csv: row 1, column left_acton: names no field \"left_acton\" (nearest: left_action"},
		{"a column missing", "endorsements.csv", "", "",
			"endorsements.csv: row 1: no column favor_popularity"},
		{"a bad action", "solo_cards.csv", "S-22,Yellow,Blue,Campaign", "S-22,Yellow,Blue,Campain",
			"solo_cards.csv: row 23, column left_action: solo_cards[21].left_action: \"Campain\" is not an action"},
		{"a repeated id", "strategy_cards.csv", "PW-02,", "PW-01,",
			"strategy_cards.csv: row 3, column id: strategy_cards[1].id: \"PW-01\" repeats an earlier id"},
		{"a switch", "numbers.csv", "variants.opposition_respects_blocks,true", "variants.opposition_respects_blocks,yes",
			"column value: \"yes\" is not true or false"},
		{"a number row gone", "numbers.csv", "cubes_per_district,10\n", "",
			"numbers.csv: no row for cubes_per_district"},
		{"a field twice", "numbers.csv", "cubes_per_district,10\n", "cubes_per_district,10\ncubes_per_district,9\n",
			"column field: \"cubes_per_district\" is given twice"},
		{"tiers out of order", "celebrity_tiles.csv", "\n1,RM\n", "\n2,RM\n",
			"celebrity_tiles.csv: row 8, column tier: 2 follows tier 0"},
		{"a bad quote", "rounds.csv", "\n3,4,", "\n3\"x,4,",
			"rounds.csv: row 2: line 2 of the file: bare \" in non-quoted-field"},
		{"a cell past the header", "endorsements.csv", "2,2,1,0", "2,2,1,0,9",
			"endorsements.csv: row 3, column 5: \"9\" is past the last column of the header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := exportTo(t, engine.Reference())
			path := filepath.Join(dir, tt.sheet)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			edited := strings.Replace(string(b), tt.old, tt.new, 1)
			if tt.old == "" {
				// The last column, cut from every row.
				lines := strings.Split(string(b), "\n")
				for i, l := range lines {
					if j := strings.LastIndexByte(l, ','); j >= 0 {
						lines[i] = l[:j]
					}
				}
				edited = strings.Join(lines, "\n")
			}
			if edited == string(b) {
				t.Fatalf("%s has no %q:\n%s", tt.sheet, tt.old, b)
			}
			if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = engine.LoadSheets(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v\nwant one with %q", err, tt.want)
			}
			var se *engine.SheetError
			if !errors.As(err, &se) || se.Sheet != tt.sheet {
				t.Errorf("error %v does not name the sheet %s", err, tt.sheet)
			}
		})
	}
}

// TestSheetsMissing: a sheet or script missing is named.
func TestSheetsMissing(t *testing.T) {
	dir := exportTo(t, engine.Reference())
	if err := os.Remove(filepath.Join(dir, "rounds.csv")); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.LoadSheets(dir); err == nil || err.Error() != "rounds.csv: no such file or directory" {
		t.Errorf("error %v, want rounds.csv: no such file or directory", err)
	}
	r, err := engine.Reference().WithAutomaton("mine.star", "pass\n")
	if err != nil {
		t.Fatal(err)
	}
	dir = exportTo(t, r)
	if err := os.Remove(filepath.Join(dir, "mine.star")); err != nil {
		t.Fatal(err)
	}
	want := "mine.star: the script automaton.file names (numbers.csv row 61): no such file or directory"
	if _, err := engine.LoadSheets(dir); err == nil || !strings.HasPrefix(err.Error(), "mine.star: the script automaton.file names") {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestSheetsAsSaved: sheets saved as a spreadsheet may save them (a
// byte-order mark, CR LF line ends, blank rows of commas) read the same,
// and notes CSV cannot keep are refused at export, not changed.
func TestSheetsAsSaved(t *testing.T) {
	dir := exportTo(t, engine.Reference())
	for _, name := range engine.SheetNames() {
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		saved := "\uFEFF" + strings.ReplaceAll(string(b), "\n", "\r\n") + ",,,\r\n"
		if err := os.WriteFile(path, []byte(saved), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	back, err := engine.LoadSheets(dir)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash != engine.Reference().Hash || !bytes.Equal(back.Canonical(), engine.Reference().Canonical()) {
		t.Error("the sheets as a spreadsheet saves them read as other rules")
	}
	r, err := engine.Reference().With(engine.Assignment{Path: "notes", Value: "a\r\nb"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Sheets(); err == nil || !strings.Contains(err.Error(), "carriage return") {
		t.Errorf("notes with CR LF: error %v, want a refusal", err)
	}
}
