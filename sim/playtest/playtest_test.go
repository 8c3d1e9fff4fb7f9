package playtest

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"tallywood/engine"
)

const hash = "3e1ddf295fc09cc98831ccba251cea14bc207cf7e1a52b21990165a33f2bf3e9"

const gameLineText = `{"type":"game","format":"tallywood-decisions/1","tester":"ana","rules_hash":"` + hash + `","seed":3,"game":2,"difficulty":"hard","politician":"moderate"}`

func TestDecisionsRoundTrip(t *testing.T) {
	m := -4
	games := []Game{
		{Tester: "ana", RulesHash: hash, Seed: 3, Game: 2, Mode: engine.Hard, Politician: "moderate", Margin: &m,
			Decisions: []Decision{{Option: engine.Option{Kind: engine.OptCard, A: 2}}, {Option: engine.Option{Kind: engine.OptDirectAppeal, A: 1, B: 2, C: 3}, Hinted: true}}},
		{Tester: "bo é", RulesHash: hash, Seed: 1 << 63, Mode: engine.Normal, Politician: "x",
			Decisions: []Decision{{Option: engine.Option{Kind: engine.OptEnd}}}},
	}
	var b bytes.Buffer
	for i := range games {
		if err := WriteGame(&b, &games[i]); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ParseDecisions("r.jsonl", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	// The lines the reader saw.
	games[0].File, games[0].Line, games[0].Decisions[0].Line, games[0].Decisions[1].Line = "r.jsonl", 1, 2, 3
	games[1].File, games[1].Line, games[1].Decisions[0].Line = "r.jsonl", 5, 6
	if !reflect.DeepEqual(got, games) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, games)
	}
	if w := got[0].Where(1); w != "r.jsonl:3" {
		t.Errorf("Where: %q", w)
	}
}

func TestParseDecisionsRefuses(t *testing.T) {
	dec := func(n int, id string) string {
		return `{"type":"decision","n":` + strconv.Itoa(n) + `,"id":"` + id + `"}`
	}
	tests := []struct {
		name, text string
		line       int
		want       string
	}{
		{"empty", "", 0, "no game line"},
		{"not JSON", "hello", 1, "not a JSON object"},
		{"unknown type", `{"type":"move"}`, 1, `type "move"`},
		{"unknown field", strings.Replace(gameLineText, `"seed"`, `"sed":1,"seed"`, 1), 1, "unknown field"},
		{"other format", strings.Replace(gameLineText, "decisions/1", "decisions/9", 1), 1, "format"},
		{"bad hash", strings.Replace(gameLineText, hash, "abc", 1), 1, "rules_hash"},
		{"bad difficulty", strings.Replace(gameLineText, "hard", "Hard", 1), 1, "difficulty"},
		{"no tester", strings.Replace(gameLineText, `"ana"`, `" "`, 1), 1, "tester missing"},
		{"hidden character", strings.Replace(gameLineText, `"ana"`, `"a\u202ena"`, 1), 1, "hidden character"},
		{"decision first", dec(1, "end/0/0/0"), 1, "before any game"},
		{"skipped decision", gameLineText + "\n" + dec(2, "end/0/0/0"), 2, "decision n 2, want 1"},
		{"bad id", gameLineText + "\n" + dec(1, "end/0/0"), 2, "KIND/A/B/C"},
		{"decision after the end", gameLineText + "\n" + `{"type":"end","margin":3}` + "\n" + dec(1, "end/0/0/0"), 3, "after the game's end"},
		{"margin out of range", gameLineText + "\n" + `{"type":"end","margin":99999}`, 2, "margin"},
		{"end alone", `{"type":"end","margin":1}`, 1, "without a game"},
		{"long line", gameLineText + "\n" + strings.Repeat(" ", MaxLine+1) + "x", 2, "longer than"},
		{"trailing data", gameLineText + " {}", 1, "not a JSON object"},
		// A thousand such games were read, and counted.
		{"a game with no decisions", gameLineText + "\n" + gameLineText + "\n" + dec(1, "end/0/0/0"), 1, "a game with no decisions"},
		{"the last game with no decisions", gameLineText + "\n" + dec(1, "end/0/0/0") + "\r\n" + gameLineText + "\r\n", 3, "a game with no decisions"},
		{"a line of 4097 bytes", gameLineText + "\n" + dec(1, "end/0/0/0") + strings.Repeat(" ", MaxLine+1-len(dec(1, "end/0/0/0"))), 2, "a line longer than 4096 bytes"},
		{"a BOM not at the start", gameLineText + "\n\ufeff" + dec(1, "end/0/0/0"), 2, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDecisions("r.jsonl", []byte(tt.text))
			var pe *Error
			if !errors.As(err, &pe) || pe.Line != tt.line || pe.File != "r.jsonl" || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want line %d saying %q", err, tt.line, tt.want)
			}
		})
	}
}

// TestParseDecisionsLineEnds: a record reads alike with LF, CR LF or
// CR-only line ends and with a byte-order mark, as the outcomes CSV does,
// and a line of exactly MaxLine bytes is one the docs allow (both were
// refused).
func TestParseDecisionsLineEnds(t *testing.T) {
	last := `{"type":"decision","n":2,"id":"end/0/0/0"}`
	long := last + strings.Repeat(" ", MaxLine-len(last))
	lines := []string{gameLineText, `{"type":"decision","n":1,"id":"card/2/0/0","hint":true}`, long, `{"type":"end","margin":-4}`, gameLineText, `{"type":"decision","n":1,"id":"end/0/0/0"}`}
	want, err := ParseDecisions("r.jsonl", []byte(strings.Join(lines, "\n")+"\n"))
	if err != nil {
		t.Fatalf("LF, a line of %d bytes: %v", len(long), err)
	}
	if len(want) != 2 || len(want[0].Decisions) != 2 || want[1].Line != 5 {
		t.Fatalf("read %+v", want)
	}
	for _, tt := range []struct{ name, bom, end string }{
		{"CR LF", "", "\r\n"}, {"CR", "", "\r"}, {"BOM and LF", "\ufeff", "\n"}, {"BOM and CR", "\ufeff", "\r"}, {"BOM and CR LF", "\ufeff", "\r\n"},
	} {
		got, err := ParseDecisions("r.jsonl", []byte(tt.bom+strings.Join(lines, tt.end)))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, read %+v, want %+v", tt.name, err, got, want)
		}
	}
}

func TestParseOutcomes(t *testing.T) {
	text := "\ufefftester, difficulty,result,margin,rules\nana,normal,won,4,\nbo,Hard,lost,,mine.json\nana,hard,drawn,0,\n"
	got, err := ParseOutcomes("o.csv", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []Outcome{
		{Tester: "ana", Mode: engine.Normal, Result: Won, Margin: 4, HasMargin: true, Line: 2},
		{Tester: "bo", Mode: engine.Hard, Rules: "mine.json", Result: Lost, Line: 3},
		{Tester: "ana", Mode: engine.Hard, Result: Drawn, HasMargin: true, Line: 4},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestParseOutcomesRefuses(t *testing.T) {
	tests := []struct {
		name, text string
		line       int
		want       string
	}{
		{"empty", "", 0, "empty"},
		{"header only", "tester,difficulty,result\n", 0, "no rows"},
		{"unknown column", "tester,difficulty,result,score\n", 1, `column "score"`},
		{"column twice", "tester,difficulty,result,result\n", 1, "twice"},
		{"no result", "tester,difficulty\n", 1, "no result column"},
		{"bad difficulty", "tester,difficulty,result\nana,easy,won\n", 2, "difficulty"},
		{"bad result", "tester,difficulty,result\nana,normal,yes\n", 2, "result"},
		{"no tester", "tester,difficulty,result\n,normal,won\n", 2, "tester: empty"},
		{"bad margin", "tester,difficulty,result,margin\nana,normal,won,many\n", 2, "margin"},
		{"margin disagrees", "tester,difficulty,result,margin\nana,normal,won,-3\n", 2, "disagree"},
		{"short row", "tester,difficulty,result\nana,normal\n", 2, "2 fields, want 3 (the header's)"},
		{"long row", "tester,difficulty,result\nana,normal,won,x\n", 2, "4 fields, want 3 (the header's)"},
		// The 900 KB cell was echoed whole, on one line.
		{"huge cell", "tester,difficulty,result\nana,normal," + strings.Repeat("é", 450000) + "\n", 2, `result "` + strings.Repeat("é", 32) + `…(900000 bytes)" is not won`},
		{"huge column", strings.Repeat("x", 900000) + ",tester,difficulty,result\n", 1, `column "` + strings.Repeat("x", 64) + `…(900000 bytes)" is not one of`},
		{"too many rules files", "tester,difficulty,result,rules\n" + rulesRows(MaxRulesFiles+1), MaxRulesFiles + 2, "rules files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseOutcomes("o.csv", []byte(tt.text))
			var pe *Error
			if !errors.As(err, &pe) || pe.Line != tt.line || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 200 {
				t.Errorf("got %.300v, want line %d saying %q, in 200 bytes at most", err, tt.line, tt.want)
			}
		})
	}
}

func rulesRows(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("ana,normal,won,r" + strconv.Itoa(i) + ".json\n")
	}
	return b.String()
}

// FuzzParseDecisions: a record either reads, and writes back as a record
// that reads the same, or fails with an *Error naming the file.
func FuzzParseDecisions(f *testing.F) {
	f.Add([]byte(gameLineText + "\n" + `{"type":"decision","n":1,"id":"card/0/0/0","hint":true}` + "\n" + `{"type":"end","margin":-2}` + "\n"))
	f.Add([]byte("{}\n"))
	f.Add([]byte("\ufeff" + gameLineText + "\r" + `{"type":"decision","n":1,"id":"end/0/0/0"}` + "\r"))
	f.Add([]byte(gameLineText + "\r\n" + `{"type":"decision","n":1,"id":"end/0/0/0"}` + "\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		games, err := ParseDecisions("f.jsonl", data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.File != "f.jsonl" {
				t.Fatalf("error %v is not an *Error naming the file", err)
			}
			return
		}
		var b bytes.Buffer
		for i := range games {
			if err := WriteGame(&b, &games[i]); err != nil {
				t.Fatal(err)
			}
		}
		again, err := ParseDecisions("f.jsonl", b.Bytes())
		if err != nil || len(again) != len(games) {
			t.Fatalf("written back it does not read: %v", err)
		}
		// Written back with other line ends and a byte-order mark, it
		// reads the same.
		for _, other := range [][]byte{
			bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte("\r")),
			append([]byte("\ufeff"), bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte("\r\n"))...),
		} {
			if o, err := ParseDecisions("f.jsonl", other); err != nil || !reflect.DeepEqual(o, again) {
				t.Fatalf("with other line ends it reads otherwise: %v", err)
			}
		}
		for i := range games {
			a, g := again[i], games[i]
			if a.Tester != g.Tester || a.Seed != g.Seed || a.Game != g.Game || a.Mode != g.Mode || len(a.Decisions) != len(g.Decisions) {
				t.Fatalf("game %d reads back as another", i)
			}
		}
	})
}

// FuzzParseOutcomes: an outcomes file either reads or fails with an
// *Error naming the file; every row read is a valid outcome.
func FuzzParseOutcomes(f *testing.F) {
	f.Add([]byte("tester,difficulty,result,margin\nana,normal,won,3\n"))
	f.Add([]byte("tester,difficulty,result,rules\nbo,hard,lost,\"a,b.json\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := ParseOutcomes("f.csv", data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.File != "f.csv" {
				t.Fatalf("error %v is not an *Error naming the file", err)
			}
			return
		}
		for _, o := range out {
			if o.Tester == "" || o.Result < Lost || o.Result > Won || (o.HasMargin && resultOf(o.Margin) != o.Result) {
				t.Fatalf("row %+v is not a valid outcome", o)
			}
		}
	})
}
