package sim

import (
	"strconv"
	"strings"
	"testing"

	"tallywood/engine"
)

// TestSweepGrid checks the points of a grid (every combination, the first
// parameter slowest, the rules' values) and the errors of bad --set values.
func TestSweepGrid(t *testing.T) {
	base := engine.Reference()
	params, points, err := SweepGrid(base, []string{"difficulties.hard.bonus_divisor=2,4", "actions.campaign_polling=1..3"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(params, " ") != "difficulties.hard.bonus_divisor actions.campaign_polling" {
		t.Errorf("params %q", params)
	}
	var got []string
	for _, p := range points {
		var set []string
		for _, a := range p.Set {
			set = append(set, a.String())
		}
		got = append(got, strings.Join(set, " "))
		if strconv.Itoa(int(p.Rules.Difficulties[engine.Hard].BonusDivisor)) != p.Set[0].Value {
			t.Errorf("point %s: the rules' divisor is %d", got[len(got)-1], p.Rules.Difficulties[engine.Hard].BonusDivisor)
		}
	}
	want := []string{
		"difficulties.hard.bonus_divisor=2 actions.campaign_polling=1", "difficulties.hard.bonus_divisor=2 actions.campaign_polling=2",
		"difficulties.hard.bonus_divisor=2 actions.campaign_polling=3", "difficulties.hard.bonus_divisor=4 actions.campaign_polling=1",
		"difficulties.hard.bonus_divisor=4 actions.campaign_polling=2", "difficulties.hard.bonus_divisor=4 actions.campaign_polling=3",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("points\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range []struct {
		sets []string
		want string
	}{
		{[]string{"actions.campaign_polling=1", "actions.campaign_polling=2"}, `"actions.campaign_polling=2": actions.campaign_polling is swept twice`},
		{[]string{"actions.campaign_polling=1,1"}, `"actions.campaign_polling=1,1": value 1 given twice`},
		{[]string{"actions.campaign_polling=3..1"}, `"actions.campaign_polling=3..1": range "3..1" is not A..B with integers A ≤ B`},
		{[]string{"actions.campaign_polling=1..40", "difficulties.hard.bonus_divisor=1..40"}, "1600 or more points: at most 1000"},
		{[]string{"nope.x=1,2"}, "rules: set nope.x=1: the rules file has no field"},
	} {
		if _, _, err := SweepGrid(base, c.sets); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s…", c.sets, err, c.want)
		}
	}
}

// FuzzExpandValues: sweep's VALUES parser never panics, and what it
// accepts is non-empty, bounded and without duplicates.
func FuzzExpandValues(f *testing.F) {
	for _, s := range []string{"1,2,3", "2..6", "1,3..5", "4..2", "-3..-1", "1..1000", ",", "0.5,1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		vs, err := expandValues(s)
		if err != nil {
			return
		}
		if len(vs) == 0 || len(vs) > maxSweepPoints {
			t.Fatalf("%q: %d values", s, len(vs))
		}
		seen := map[string]bool{}
		for _, v := range vs {
			if v == "" || seen[v] {
				t.Fatalf("%q: value %q empty or twice in %v", s, v, vs)
			}
			seen[v] = true
		}
	})
}
