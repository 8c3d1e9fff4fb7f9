package engine

import (
	"errors"
	"slices"
	"testing"
)

func TestParseAssignment(t *testing.T) {
	tests := []struct {
		in      string
		want    Assignment
		wantErr string
	}{
		{in: "difficulties.hard.bonus_divisor=3", want: Assignment{"difficulties.hard.bonus_divisor", "3"}},
		{in: "solo_cards[7].left_district=Red", want: Assignment{"solo_cards[7].left_district", "Red"}},
		{in: "version=a=b", want: Assignment{"version", "a=b"}},
		{in: "track.vote_share_icons=[2,5,8,11]", want: Assignment{"track.vote_share_icons", "[2,5,8,11]"}},
		{in: "difficulties.hard.bonus_divisor", wantErr: `rules: set difficulties.hard.bonus_divisor: want PATH=VALUE`},
		{in: "=3", wantErr: `rules: set =3: path is empty`},
		// An element with an id is named by it, as Diff names it.
		{in: "solo_cards[S-13].left_action=Campaign", want: Assignment{"solo_cards[S-13].left_action", "Campaign"}},
		{in: "strategy_cards[PW-03].ability.money=3", want: Assignment{"strategy_cards[PW-03].ability.money", "3"}},
		{in: "solo_cards[x].id=a", want: Assignment{"solo_cards[x].id", "a"}},
		{in: "solo_cards[].id=a", wantErr: `rules: set solo_cards[].id=a: path "solo_cards[].id": "[]" names no element (an index from 0, or an id)`},
		{in: "x[99999999999999999999]=1", wantErr: `rules: set x[99999999999999999999]=1: path "x[99999999999999999999]": "[99999999999999999999]" is not an index (a number from 0)`},
		{in: "solo_cards[1.id=a", wantErr: `rules: set solo_cards[1.id=a: path "solo_cards[1.id": "[1.id" has no closing ]`},
		{in: "track..max=3", wantErr: `rules: set track..max=3: path "track..max": empty name at byte 7`},
		// Results record the assignment and must read it back.
		{in: "notes=two\nlines", wantErr: `rules: set "notes=two\nlines": holds U+000A, a control or hidden character (an assignment is one line, shown as written)`},
		{in: "name=x\u202e", wantErr: `rules: set "name=x\u202e": holds U+202E, a control or hidden character (an assignment is one line, shown as written)`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAssignment(tt.in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got error %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
			if got.String() != tt.in {
				t.Errorf("String() = %q, want %q", got.String(), tt.in)
			}
		})
	}
}

// TestWith: each assignment reaches its field of the compiled rules, the
// reference set itself is left as it was, and the overrides are recorded.
func TestWith(t *testing.T) {
	ref := Reference()
	tests := []struct {
		set   string
		check func(r *Rules) bool
	}{
		{"difficulties.hard.bonus_divisor=3", func(r *Rules) bool { return r.Difficulties[Hard].BonusDivisor == 3 }},
		{"difficulties.hard.bonus_rounding=down", func(r *Rules) bool { return r.Difficulties[Hard].BonusRounding == RoundDown }},
		{`difficulties.hard.bonus_rounding="down"`, func(r *Rules) bool { return r.Difficulties[Hard].BonusRounding == RoundDown }},
		{"solo_cards[7].left_district=Yellow", func(r *Rules) bool { return r.Solo[7].LeftDistrict == 3 }},
		{"politicians[0].popularity=2", func(r *Rules) bool { return r.Politicians[0].Popularity == 2 }},
		{"politicians[0].polling.Green=2", func(r *Rules) bool { return r.Politicians[0].Polling[2] == 2 }},
		{"variants.opposition_respects_blocks=false", func(r *Rules) bool { return !r.Variants.OppositionRespectsBlocks }},
		{"track.vote_share_icons=[3,6,9]", func(r *Rules) bool { return slices.Equal(r.ShareIcons, []int8{3, 6, 9}) }},
		{"columns[0][0].money=2", func(r *Rules) bool { return r.Columns[0][0].Money == 2 }},
		{"rounds[3].opposition_plaza_advance=false", func(r *Rules) bool { return !r.Rounds[3].OppositionPlazaAdvance }},
		// By id: S-08 is solo_cards[7], PW-03 strategy_cards[2].
		{"solo_cards[S-08].left_district=Yellow", func(r *Rules) bool { return r.Solo[7].LeftDistrict == 3 }},
		{"strategy_cards[PW-03].ability.money=3", func(r *Rules) bool { return r.Cards[2].Ability.Money == 3 }},
		{"politicians[starlet].polling.Red=2", func(r *Rules) bool { return r.Politicians[1].Polling[0] == 2 }},
		{"solo_cards[S-08].id=S-99", func(r *Rules) bool { return r.Solo[7].ID == "S-99" }},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			a, err := ParseAssignment(tt.set)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ref.With(a)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(r) {
				t.Errorf("the change did not reach the rules")
			}
			if r.Hash == ref.Hash {
				t.Errorf("the hash did not change")
			}
			if !slices.Equal(r.Overrides, []string{tt.set}) {
				t.Errorf("Overrides = %q", r.Overrides)
			}
		})
	}
	if len(ref.Overrides) != 0 || ref.Difficulties[Hard].BonusDivisor != 2 {
		t.Errorf("With changed the reference set")
	}
}

// TestWithChained: overrides accumulate, and setting a field to the value
// it has leaves the play-relevant hash unchanged.
func TestWithChained(t *testing.T) {
	r, err := Reference().With(Assignment{"difficulties.hard.bonus_divisor", "3"})
	if err != nil {
		t.Fatal(err)
	}
	r, err = r.With(Assignment{"difficulties.hard.bonus_divisor", "2"}, Assignment{"cubes_per_district", "10"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"difficulties.hard.bonus_divisor=3", "difficulties.hard.bonus_divisor=2", "cubes_per_district=10"}
	if !slices.Equal(r.Overrides, want) {
		t.Errorf("Overrides = %q, want %q", r.Overrides, want)
	}
	if r.Hash != Reference().Hash {
		t.Errorf("the same rules hash differently after a round trip through With")
	}
}

// TestWithErrors: a bad path names itself and the nearest valid names; a
// bad value names the path and the value.
func TestWithErrors(t *testing.T) {
	tests := []struct{ path, value, want string }{
		{"difficulties.hard.bonus_divisr", "3",
			`rules: set difficulties.hard.bonus_divisr=3: difficulties.hard has no field "bonus_divisr" (nearest: bonus_divisor)`},
		{"difficulties.harder.bonus_divisor", "3",
			`rules: set difficulties.harder.bonus_divisor=3: difficulties has no field "harder" (nearest: hard)`},
		{"cubes_per_distric", "3",
			`rules: set cubes_per_distric=3: the rules file has no field "cubes_per_distric" (nearest: cubes_per_district)`},
		{"CUBES_PER_DISTRICT", "3",
			`rules: set CUBES_PER_DISTRICT=3: the rules file has no field "CUBES_PER_DISTRICT" (nearest: cubes_per_district)`},
		{"solo_cards[24].id", "x",
			`rules: set solo_cards[24].id=x: solo_cards has 24 entries, [24] is past the end`},
		{"solo_cards.id", "x",
			`rules: set solo_cards.id=x: solo_cards is an array: it has no field "id"`},
		{"cubes_per_district[0]", "3",
			`rules: set cubes_per_district[0]=3: cubes_per_district is not an array: it has no [0]`},
		{"cubes_per_district.x", "3",
			`rules: set cubes_per_district.x=3: cubes_per_district is a value: it has no field "x"`},
		{"difficulties.hard.bonus_divisor", "three",
			`rules: set difficulties.hard.bonus_divisor=three: difficulties.hard.bonus_divisor: "three" is not a valid whole number`},
		{"difficulties.hard.bonus_divisor", "2.5",
			`rules: set difficulties.hard.bonus_divisor=2.5: difficulties.hard.bonus_divisor: "2.5" is not a valid whole number`},
		{"difficulties.hard.bonus_divisor", "null",
			`rules: set difficulties.hard.bonus_divisor=null: difficulties.hard.bonus_divisor: "null" is not a valid whole number`},
		{"variants.opposition_respects_blocks", "yes",
			`rules: set variants.opposition_respects_blocks=yes: variants.opposition_respects_blocks: "yes" is not a valid true or false`},
		{"difficulties.hard.bonus_divisor", "0",
			`rules: set difficulties.hard.bonus_divisor=0: difficulties.hard.bonus_divisor: 0 is out of range 1..40`},
		{"name", "two\nlines",
			`rules: set "name=two\nlines": name: "two\nlines" holds U+000A, a control or hidden character (it must be one line, shown as written)`},
		{"name\nx", "1",
			`rules: set "name\nx=1": the rules file has no field "name\nx" (nearest: name)`},
		{"solo_cards[7].left_district", "Purple",
			`rules: set solo_cards[7].left_district=Purple: solo_cards[7].left_district: "Purple" is not a district`},
		// By id. The rules' own check names the element by its
		// place in the file, as it does for a file.
		{"solo_cards[S-08].left_district", "Purple",
			`rules: set solo_cards[S-08].left_district=Purple: solo_cards[7].left_district: "Purple" is not a district`},
		{"strategy_cards[PW-03].ability.money", "lots",
			`rules: set strategy_cards[PW-03].ability.money=lots: strategy_cards[PW-03].ability.money: "lots" is not a valid whole number`},
		{"solo_cards[S-99].id", "x",
			`rules: set solo_cards[S-99].id=x: solo_cards has no entry with the id "S-99" (nearest: S-09, S-19, S-01)`},
		{"solo_cards[x].id", "a",
			`rules: set solo_cards[x].id=a: solo_cards has no entry with the id "x" (nearest: S-01, S-02, S-03)`},
		{"solo_cards[-1].id", "a",
			`rules: set solo_cards[-1].id=a: solo_cards has no entry with the id "-1" (nearest: S-01, S-10, S-11)`},
		{"strategy_cards[S-08].id", "a",
			`rules: set strategy_cards[S-08].id=a: strategy_cards has no entry with the id "S-08" (nearest: PW-08, CE-08, RE-08)`},
		{"track.vote_share_icons[top]", "3",
			`rules: set track.vote_share_icons[top]=3: track.vote_share_icons has no ids: name its entries by index, [0] to [3]`},
		{"columns[0][top].money", "3",
			`rules: set columns[0][top].money=3: columns[0] has no ids: name its entries by index, [0] to [2]`},
		{"politicians[0].polling[Red]", "3",
			`rules: set politicians[0].polling[Red]=3: politicians[0].polling is not an array: it has no [Red]`},
		{"cubes_per_district[S-1]", "3",
			`rules: set cubes_per_district[S-1]=3: cubes_per_district is not an array: it has no [S-1]`},
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.value, func(t *testing.T) {
			_, err := Reference().With(Assignment{tt.path, tt.value})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
			// A caller words the refusal without the assignment it made.
			var refused *SetError
			if !errors.As(err, &refused) || refused.Set != shown(tt.path+"="+tt.value) {
				t.Errorf("not a *SetError of %s: %#v", tt.path+"="+tt.value, err)
			}
		})
	}
}

func TestNearest(t *testing.T) {
	valid := []string{"player_initiative", "celebrity_all_tiers", "plaza_lowest_trackers", "bonus_divisor", "bonus_rounding"}
	tests := []struct {
		name string
		want []string
	}{
		{"bonus_divisor", []string{"bonus_divisor"}},
		{"bonus", []string{"bonus_divisor", "bonus_rounding"}},
		{"Bonus_Rounding", []string{"bonus_rounding"}},
	}
	for _, tt := range tests {
		if got := nearest(tt.name, valid); !slices.Equal(got, tt.want) {
			t.Errorf("nearest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestWithWholeValues: an array or object value is held to the schema as a
// file is, and replaces the old value whole.
func TestWithWholeValues(t *testing.T) {
	r, err := Reference().With(Assignment{"politicians[0]", `{"id":"tycoon","popularity":3}`})
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Politicians[0]; p.ID != "tycoon" || p.Money != 0 || p.Popularity != 3 {
		t.Errorf("politicians[0] = %+v, want tycoon with popularity 3 and no money", p)
	}
	tests := []struct{ path, value, want string }{
		{"politicians[0]", `{"id":"x","Money":3}`,
			`rules: set politicians[0]={"id":"x","Money":3}: politicians[0].Money: line 1: unknown field (nearest: money; keys are case-sensitive)`},
		{"politicians[0]", `{"money":3}`,
			`rules: set politicians[0]={"money":3}: politicians[0].id: missing from the object on line 1`},
		{"track.vote_share_icons", `[2,"5"]`,
			`rules: set track.vote_share_icons=[2,"5"]: track.vote_share_icons[1]: line 1, column 7: string is not a valid int`},
		{"track.vote_share_icons", `3`,
			`rules: set track.vote_share_icons=3: track.vote_share_icons: "3" is not a valid JSON array`},
		{"track", `{"max":12}{}`,
			`rules: set track={"max":12}{}: track.vote_share_icons: missing from the object on line 1`},
		{"track.vote_share_icons", `[2,5][3]`,
			`rules: set track.vote_share_icons=[2,5][3]: track.vote_share_icons: "[2,5][3]" is not a valid JSON array`},
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.value, func(t *testing.T) {
			_, err := Reference().With(Assignment{tt.path, tt.value})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
			// A caller words the refusal without the assignment it made.
			var refused *SetError
			if !errors.As(err, &refused) || refused.Set != shown(tt.path+"="+tt.value) {
				t.Errorf("not a *SetError of %s: %#v", tt.path+"="+tt.value, err)
			}
		})
	}
}
