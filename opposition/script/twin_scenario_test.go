package script_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"tallywood/engine"
	"tallywood/opposition/scenario"
	"tallywood/opposition/script"
)

// TestScenariosTwin runs every scenario of testdata/scenarios twice: as
// written, with the built-in Opposition, and with its rules naming the
// reference script. Both runs must give the same narration, byte for
// byte, and the same verdict on every fact.
func TestScenariosTwin(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "scenarios")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d scenarios", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			builtIn, err := scenario.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			twin, err := scenario.Load(withReferenceScript(t, path))
			if err != nil {
				t.Fatal(err)
			}
			a, b := builtIn.Run(), twin.Run()
			if a.Trace != b.Trace {
				t.Errorf("the narrations differ:\nbuilt-in:\n%s\nscript:\n%s", a.Trace, b.Trace)
			}
			if len(a.Diffs) != len(b.Diffs) {
				t.Fatalf("built-in %v, script %v", a.Diffs, b.Diffs)
			}
			for i := range a.Diffs {
				if a.Diffs[i] != b.Diffs[i] {
					t.Errorf("built-in %v, script %v", a.Diffs[i], b.Diffs[i])
				}
			}
		})
	}
}

// withReferenceScript copies the scenario at path to a folder of its own
// whose rules file is the scenario's (or the reference set) naming the
// reference script, and returns the copy's path.
func withReferenceScript(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	rules := engine.ReferenceJSON()
	if raw, ok := doc["rules"]; ok {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			t.Fatal(err)
		}
		if rules, err = os.ReadFile(filepath.Join(filepath.Dir(path), name)); err != nil {
			t.Fatal(err)
		}
	}
	var rdoc map[string]json.RawMessage
	if err := json.Unmarshal(rules, &rdoc); err != nil {
		t.Fatal(err)
	}
	rdoc["automaton"] = json.RawMessage(`{"file": "` + script.ReferenceName + `"}`)
	out := t.TempDir()
	write := func(name string, v any) {
		b, ok := v.([]byte)
		if !ok {
			var err error
			if b, err = json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(out, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(script.ReferenceName, []byte(script.Reference()))
	write("rules.json", rdoc)
	doc["rules"] = json.RawMessage(`"rules.json"`)
	write("scenario.json", doc)
	return filepath.Join(out, "scenario.json")
}
