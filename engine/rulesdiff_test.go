package engine

import (
	"slices"
	"strings"
	"testing"
)

// TestDiff: each change shows as its field with both values, metadata and
// zero polling entries do not show, and arrays of other lengths list the
// elements one side lacks.
func TestDiff(t *testing.T) {
	tests := []struct {
		name string
		set  []Assignment
		want []Difference
	}{
		{"same rules", nil, nil},
		{"metadata only", []Assignment{{"name", "mine"}, {"version", "2"}, {"notes", "n"}}, nil},
		{"zero polling entry", []Assignment{{"politicians[0].polling.Red", "0"}}, nil},
		{"one number", []Assignment{{"difficulties.hard.bonus_divisor", "3"}},
			[]Difference{{"difficulties.hard.bonus_divisor", "2", "3"}}},
		{"in file order", []Assignment{{"variants.opposition_respects_blocks", "false"}, {"cubes_per_district", "9"}},
			[]Difference{{"cubes_per_district", "10", "9"}, {"variants.opposition_respects_blocks", "true", "false"}}},
		{"a string, named by the card's id", []Assignment{{"solo_cards[7].left_district", "Yellow"}},
			[]Difference{{"solo_cards[S-08].left_district", `"Blue"`, `"Yellow"`}}},
		{"a Strategy card", []Assignment{{"strategy_cards[2].ability.money", "3"}},
			[]Difference{{"strategy_cards[PW-03].ability.money", "2", "3"}}},
		{"a new polling entry", []Assignment{{"politicians[0].polling.Red", "2"}},
			[]Difference{{"politicians[magnate].polling.Red", "0", "2"}}},
		{"an id changed: one card removed, another added (by id)", []Assignment{{"solo_cards[7].id", "X-08"}},
			[]Difference{
				{"solo_cards[S-08]", `{"id":"S-08","left_district":"Blue","right_district":"Red","left_action":"Research","right_action":"Public Works"}`, ""},
				{"solo_cards[X-08]", "", `{"id":"X-08","left_district":"Blue","right_district":"Red","left_action":"Research","right_action":"Public Works"}`},
			}},
		{"a shorter array", []Assignment{{"track.vote_share_icons", "[2,5,8]"}},
			[]Difference{{"track.vote_share_icons[3]", "11", ""}}},
		{"a longer array", []Assignment{{"track.vote_share_icons", "[2,5,8,11,12]"}},
			[]Difference{{"track.vote_share_icons[4]", "", "12"}}},
		{"an element gone", []Assignment{{"politicians", `[{"id":"magnate","money":4}]`}},
			[]Difference{
				{"politicians[starlet]", `{"id":"starlet","popularity":4}`, ""},
				{"politicians[moderate]", `{"id":"moderate","money":2,"popularity":2}`, ""},
				{"politicians[red-favourite]", `{"id":"red-favourite","money":2,"popularity":1,"polling":{"Red":1}}`, ""},
				{"politicians[blue-favourite]", `{"id":"blue-favourite","money":1,"popularity":2,"polling":{"Blue":1}}`, ""},
				{"politicians[populist]", `{"id":"populist","money":1,"popularity":1,"polling":{"Green":1,"Yellow":1}}`, ""},
			}},
		{"reordered elements: by index", []Assignment{{"politicians", `[{"id":"starlet","popularity":4},{"id":"magnate","money":4}]`}},
			[]Difference{
				{"politicians[0].id", `"magnate"`, `"starlet"`},
				{"politicians[0].money", "4", "0"},
				{"politicians[0].popularity", "0", "4"},
				{"politicians[1].id", `"starlet"`, `"magnate"`},
				{"politicians[1].money", "0", "4"},
				{"politicians[1].popularity", "4", "0"},
				{"politicians[moderate]", `{"id":"moderate","money":2,"popularity":2}`, ""},
				{"politicians[red-favourite]", `{"id":"red-favourite","money":2,"popularity":1,"polling":{"Red":1}}`, ""},
				{"politicians[blue-favourite]", `{"id":"blue-favourite","money":1,"popularity":2,"polling":{"Blue":1}}`, ""},
				{"politicians[populist]", `{"id":"populist","money":1,"popularity":1,"polling":{"Green":1,"Yellow":1}}`, ""},
			}},
		{"an element only one side has, the others matched by id (issue 42)",
			[]Assignment{{"politicians", `[{"id":"magnate","money":4},{"id":"moderate","money":3}]`}},
			[]Difference{
				{"politicians[starlet]", `{"id":"starlet","popularity":4}`, ""},
				{"politicians[moderate].money", "2", "3"},
				{"politicians[moderate].popularity", "2", "0"},
				{"politicians[red-favourite]", `{"id":"red-favourite","money":2,"popularity":1,"polling":{"Red":1}}`, ""},
				{"politicians[blue-favourite]", `{"id":"blue-favourite","money":1,"popularity":2,"polling":{"Blue":1}}`, ""},
				{"politicians[populist]", `{"id":"populist","money":1,"popularity":1,"polling":{"Green":1,"Yellow":1}}`, ""},
			}},
	}
	ref := Reference()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ref.With(tt.set...)
			if err != nil {
				t.Fatal(err)
			}
			got := Diff(ref, b)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Diff = %q\nwant   %q", got, tt.want)
			}
			if (len(got) == 0) != (b.Hash == ref.Hash) {
				t.Errorf("%d differences but the hashes are equal: %v", len(got), b.Hash == ref.Hash)
			}
			back := Diff(b, ref)
			for i := range back {
				back[i].A, back[i].B = back[i].B, back[i].A
			}
			if !slices.Equal(back, got) {
				t.Errorf("Diff(b, a) is not Diff(a, b) with the sides swapped: %q", back)
			}
		})
	}
}

// TestDiffIDsReadBack: an id --set would read as an index (digits only)
// or cannot write ("]", "=") is named by index, and every path Diff prints
// names, in each file that has it, the field whose value it prints
// (the paths of rules diff and compare are --set paths).
func TestDiffIDsReadBack(t *testing.T) {
	a, err := Reference().With(Assignment{"politicians[0].id", "7"}, Assignment{"politicians[1].id", "a]b"}, Assignment{"politicians[2].id", "x=y"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := a.With(Assignment{"politicians[0].money", "3"}, Assignment{"politicians[1].money", "3"}, Assignment{"politicians[2].money", "3"},
		Assignment{"politicians[3].money", "3"}, Assignment{"solo_cards[S-13].left_action", "Campaign"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Difference{
		{"politicians[0].money", "4", "3"},
		{"politicians[1].money", "0", "3"},
		{"politicians[2].money", "2", "3"},
		{"politicians[red-favourite].money", "2", "3"},
		{"solo_cards[S-13].left_action", `"Research"`, `"Campaign"`},
	}
	got := Diff(a, b)
	if !slices.Equal(got, want) {
		t.Errorf("Diff = %q\nwant   %q", got, want)
	}
	for _, d := range got {
		checkDiffPath(t, a, b, d)
	}
}

// checkDiffPath holds d's path to --set: on each side that has the field,
// setting it to the value Diff printed for that side leaves the rules as
// they are.
func checkDiffPath(t *testing.T, a, b *Rules, d Difference) {
	t.Helper()
	for _, side := range []struct {
		r     *Rules
		value string
	}{{a, d.A}, {b, d.B}} {
		if side.value == "" {
			continue
		}
		again, err := side.r.With(Assignment{d.Path, side.value})
		if err != nil {
			t.Errorf("%s=%s does not read back: %v", d.Path, side.value, err)
			continue
		}
		if again.Hash != side.r.Hash {
			t.Errorf("%s=%s names another field than Diff compared", d.Path, side.value)
		}
	}
}

// TestDiffCardRemovedByID: a card taken out of the middle of the Solo deck
// (S-22, reference set C-16) reads as that card removed, not as every later
// card changed by one place, and one put back reads as added (issue 42).
func TestDiffCardRemovedByID(t *testing.T) {
	ref := Reference()
	lines := strings.Split(string(ReferenceJSON()), "\n")
	var kept []string
	var card string
	for _, l := range lines {
		if strings.Contains(l, `"id": "S-22"`) {
			card = l
			continue
		}
		kept = append(kept, l)
	}
	if card == "" {
		t.Fatal("no S-22 in the reference rules file")
	}
	without, err := Parse([]byte(strings.Join(kept, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	removed := `{"id":"S-22","left_district":"Yellow","right_district":"Blue","left_action":"Campaign","right_action":"Celebrity"}`
	want := []Difference{{"solo_cards[S-22]", removed, ""}}
	if got := Diff(ref, without); !slices.Equal(got, want) {
		t.Errorf("S-22 removed: Diff = %q\nwant   %q", got, want)
	}
	want = []Difference{{"solo_cards[S-22]", "", removed}}
	if got := Diff(without, ref); !slices.Equal(got, want) {
		t.Errorf("S-22 added: Diff = %q\nwant   %q", got, want)
	}
	for _, d := range Diff(ref, without) {
		checkDiffPath(t, ref, without, d)
	}
}
