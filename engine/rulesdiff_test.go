package engine

import (
	"slices"
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
		{"a string", []Assignment{{"solo_cards[7].left_district", "Yellow"}},
			[]Difference{{"solo_cards[7].left_district", `"Blue"`, `"Yellow"`}}},
		{"a new polling entry", []Assignment{{"politicians[0].polling.Red", "2"}},
			[]Difference{{"politicians[0].polling.Red", "0", "2"}}},
		{"a shorter array", []Assignment{{"track.vote_share_icons", "[2,5,8]"}},
			[]Difference{{"track.vote_share_icons[3]", "11", ""}}},
		{"a longer array", []Assignment{{"track.vote_share_icons", "[2,5,8,11,12]"}},
			[]Difference{{"track.vote_share_icons[4]", "", "12"}}},
		{"an element gone", []Assignment{{"politicians", `[{"id":"magnate","money":4}]`}},
			[]Difference{
				{"politicians[1]", `{"id":"starlet","popularity":4}`, ""},
				{"politicians[2]", `{"id":"moderate","money":2,"popularity":2}`, ""},
				{"politicians[3]", `{"id":"red-favourite","money":2,"popularity":1,"polling":{"Red":1}}`, ""},
				{"politicians[4]", `{"id":"blue-favourite","money":1,"popularity":2,"polling":{"Blue":1}}`, ""},
				{"politicians[5]", `{"id":"populist","money":1,"popularity":1,"polling":{"Green":1,"Yellow":1}}`, ""},
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
