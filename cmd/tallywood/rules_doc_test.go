package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

// repoRoot is the repository's top directory, seen from this package.
const repoRoot = "../.."

// ruleID matches a reference id: C-n (component data), I-n (reading), V-n
// (switch), E-n (worked example). The word boundary keeps card ids such as
// CE-12 and RE-13 out.
var ruleID = regexp.MustCompile(`\b[CIVE]-[0-9]+\b`)

// rulesDoc reads docs/rules.md and returns the ids it defines (a "### C-1"
// heading each) and the rulebook citations of its last table, with ranges
// such as `Clean Up 1` … `Clean Up 8` expanded.
func rulesDoc(t *testing.T) (ids, cited map[string]bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	ids, cited = map[string]bool{}, map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^### ([CIVE]-[0-9]+)$`).FindAllStringSubmatch(text, -1) {
		if ids[m[1]] {
			t.Errorf("docs/rules.md defines %s twice", m[1])
		}
		ids[m[1]] = true
	}
	const table = "## Rulebook sections as cited"
	i := strings.Index(text, table)
	if i < 0 {
		t.Fatalf("docs/rules.md has no %q section", table)
	}
	quoted := regexp.MustCompile("`([^`]+)`")
	for _, line := range strings.Split(text[i:], "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.Split(line, "|")[1]
		names := quoted.FindAllStringSubmatch(first, -1)
		for _, n := range names {
			cited[n[1]] = true
		}
		if len(names) == 2 && strings.Contains(first, "…") {
			for _, n := range expandRange(names[0][1], names[1][1]) {
				cited[n] = true
			}
		}
	}
	return ids, cited
}

// expandRange lists "Clean Up 1" … "Clean Up 8" or "Final Tally 1.a" …
// "Final Tally 1.d": the two ends differ only in their last character.
func expandRange(from, to string) []string {
	if len(from) != len(to) || from[:len(from)-1] != to[:len(to)-1] {
		return nil
	}
	var out []string
	for c := from[len(from)-1]; c <= to[len(to)-1]; c++ {
		out = append(out, from[:len(from)-1]+string(c))
	}
	return out
}

func TestExpandRange(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		want     []string
	}{
		{"Clean Up 1", "Clean Up 3", []string{"Clean Up 1", "Clean Up 2", "Clean Up 3"}},
		{"Final Tally 1.a", "Final Tally 1.c", []string{"Final Tally 1.a", "Final Tally 1.b", "Final Tally 1.c"}},
		{"Final Tally 3", "Clean Up 4", nil},
	} {
		if got := expandRange(tc.from, tc.to); !slices.Equal(got, tc.want) {
			t.Errorf("expandRange(%q, %q) = %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
}

// TestRuleIDsDefined fails when code, testdata or docs cite a reference id
// that docs/rules.md does not define, or point outside the repository for
// one (to the directory beside the clone, which a clone does not have), so
// that a clone explains every id it cites.
func TestRuleIDsDefined(t *testing.T) {
	ids, _ := rulesDoc(t)
	if len(ids) < 40 {
		t.Fatalf("docs/rules.md defines only %d ids", len(ids))
	}
	cited := map[string][]string{} // id → files citing it
	outside := filepath.Join("..", "shared") + "/"
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != repoRoot {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".json", ".txt", ".golden", ".err", ".csv":
		default:
			if d.Name() != "Makefile" {
				return nil
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, path)
		if strings.Contains(string(data), outside) {
			t.Errorf("%s points at %s, outside the repository: link docs/rules.md instead", rel, outside)
		}
		for _, id := range ruleID.FindAllString(string(data), -1) {
			if !slices.Contains(cited[id], rel) {
				cited[id] = append(cited[id], rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for id, files := range cited {
		if !ids[id] {
			t.Errorf("%s is cited (%s) but docs/rules.md does not define it", id, strings.Join(files, ", "))
		}
	}
	if len(cited) == 0 {
		t.Fatal("found no citation at all: is the repository root right?")
	}
}

// TestTraceCitationsDefined plays games in both modes and checks that every
// rule a trace cites, an id or a rulebook section, is defined in
// docs/rules.md.
func TestTraceCitationsDefined(t *testing.T) {
	ids, cited := rulesDoc(t)
	solo := regexp.MustCompile(`\((Solo: [A-Za-z ]+)\)`)
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 12; seed++ {
		for _, mode := range []engine.Mode{engine.Normal, engine.Hard} {
			log := &engine.Log{}
			g, err := engine.New(engine.Reference(), seed, engine.Config{Mode: mode, Politician: int(seed) % 6, Opposition: opposition.Solo{}, Recorder: log})
			if err != nil {
				t.Fatal(err)
			}
			if err := engine.NewRandomPlayer(seed).Play(g); err != nil {
				t.Fatal(err)
			}
			for _, e := range log.Events {
				if e.Rule != "" {
					seen[e.Rule] = true
				}
				for _, m := range solo.FindAllStringSubmatch(e.Note, -1) {
					seen[m[1]] = true
				}
			}
		}
	}
	for rule := range seen {
		switch {
		case ruleID.MatchString(rule) && ruleID.FindString(rule) == rule:
			if !ids[rule] {
				t.Errorf("traces cite %s, which docs/rules.md does not define", rule)
			}
		case !cited[rule]:
			t.Errorf("traces cite %q, which the rulebook table of docs/rules.md does not list", rule)
		}
	}
	for _, want := range []string{"Solo Gameplay 1", "Solo: Research", "I-10", "Final Tally 1.a"} {
		if !seen[want] {
			t.Errorf("no trace cited %q: the games do not cover what they should", want)
		}
	}
}

// TestRulesDocSoloCards checks the Solo card table of C-16 in docs/rules.md
// against the default rules, so that the page cannot drift from the data.
func TestRulesDocSoloCards(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	r := engine.Reference()
	text := string(data)
	for i, c := range r.Solo {
		row := fmt.Sprintf("| %d | %s | %s | %s | %s |", i+1, r.Districts[c.LeftDistrict], r.Districts[c.RightDistrict], c.LeftAction, c.RightAction)
		if !strings.Contains(text, row+"\n") {
			t.Errorf("docs/rules.md lacks the C-16 row %s (%s)", row, c.ID)
		}
	}
}
