package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tallywood/sim"
)

// kindFile reads the example of kind k as shard n of 2, which sim's
// TestKindFiles keeps.
func kindFile(t *testing.T, k sim.Kind, n int) Source {
	t.Helper()
	name := filepath.Join("..", "testdata", "kinds", fmt.Sprintf("%s-%d.json", k, n))
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	src, err := Decode(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestEveryKind walks every kind sim registers through decode, merge,
// text (narrow and wide), CSV and the page: each has a view, and each
// form of it writes something for one shard and for the merged whole.
func TestEveryKind(t *testing.T) {
	var viewed []sim.Kind
	for k := range views {
		viewed = append(viewed, k)
	}
	slices.Sort(viewed)
	if !slices.Equal(viewed, sim.Kinds()) {
		t.Fatalf("views of %v, sim registers %v: every kind registers its view", viewed, sim.Kinds())
	}
	for _, k := range sim.Kinds() {
		t.Run(string(k), func(t *testing.T) {
			a, b := kindFile(t, k, 1), kindFile(t, k, 2)
			merged, err := sim.Merge([]sim.Study{a.Study, b.Study}, []string{a.Name, b.Name}, sim.MergeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, src := range []Source{a, {Name: "merged", Study: merged}} {
				for _, opt := range []TextOptions{{}, {Wide: true}, {All: true}} {
					var text bytes.Buffer
					if err := Text(&text, src, opt); err != nil || text.Len() == 0 {
						t.Errorf("%s: text %+v: %v, %d bytes", src.Name, opt, err, text.Len())
					}
				}
				var c bytes.Buffer
				err := CSV(&c, src)
				switch {
				case !HasCSV(k):
					if err == nil {
						t.Errorf("%s: CSV of a kind without a CSV form", src.Name)
					}
				case err != nil:
					t.Errorf("%s: CSV: %v", src.Name, err)
				default:
					rows, err := csv.NewReader(&c).ReadAll()
					if err != nil || len(rows) < 2 {
						t.Errorf("%s: CSV of %d rows: %v", src.Name, len(rows), err)
					}
				}
				var page bytes.Buffer
				if err := Write(&page, []Source{src}, testMeta); err != nil || !strings.Contains(page.String(), "<svg") {
					t.Errorf("%s: page: %v (a plot: %t)", src.Name, err, strings.Contains(page.String(), "<svg"))
				}
			}
		})
	}
}

// TestRegisterRefusesADuplicate: a kind's view registers once; a second
// panics at init rather than replacing the first.
func TestRegisterRefusesADuplicate(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("sim's view registered twice without a panic")
		}
	}()
	register(sim.KindSim, kindView[*sim.Result]{text: simText, section: simSection})
}
