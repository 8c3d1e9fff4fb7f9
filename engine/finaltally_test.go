package engine

import "testing"

// TestVotesPerShare: the rulebook's formula and chart (I-18, E-1, E-2, E-4).
func TestVotesPerShare(t *testing.T) {
	cases := []struct {
		name          string
		votes, shares int16
		want          int16
	}{
		{"E-1: 30 votes, 5 shares", 30, 5, 6},
		{"E-2: 46 votes, 7 shares, remainder 4 ≥ 3.5 rounds up", 46, 7, 7},
		{"E-4: one share takes all the votes", 38, 1, 38},
		{"E-4: chart row 1", 12, 1, 12},
		{"remainder below half rounds down: 20/6", 20, 6, 3},
		{"remainder exactly half rounds up: 14/4", 14, 4, 4},
		{"I-18: no shares, nobody gets the votes", 20, 0, 0},
	}
	for _, c := range cases {
		if got := VotesPerShare(c.votes, c.shares); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}

// TestDistrictVotes: Final Tally step 3 (E-1, E-3).
func TestDistrictVotes(t *testing.T) {
	cases := []struct {
		name    string
		support int8
		cubes   [4]int8
		claimed [3]bool
		want    int16
	}{
		{"E-1: 14 + 6 cubes + unclaimed 1 and 3 = 30", 14, [4]int8{3, 2, 1, 0}, [3]bool{false, true, false}, 30},
		{"E-3: 29 is raised to 30", 13, [4]int8{8, 0, 0, 0}, [3]bool{true, true, true}, 30},
		{"even stays: 8 + 0 + 6 = 14", 8, [4]int8{}, [3]bool{}, 14},
	}
	for _, c := range cases {
		g := newTestGame(t, 1, Normal)
		ds := &g.Districts[red]
		ds.InitialSupport, ds.Cubes = c.support, c.cubes
		for l, taken := range c.claimed {
			if taken {
				ds.Endorsements[l] = 0
			}
		}
		if got := g.DistrictVotes(red); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}

// TestE1: the rulebook's Final Tally example: Red has 30 votes and 5
// shares; blue (3 shares) gets 18, green (2: one from the track, one from
// the Round 4 majority) gets 12.
func TestE1(t *testing.T) {
	g := newTestGame(t, 1, Normal)
	for d := range g.Districts {
		g.Districts[d].Cubes = [4]int8{}
		g.Districts[d].Endorsements = [3]int8{2, 2, 2} // a third party holds them
	}
	g.Plaza, g.Bag = [4]int8{}, [4]int8{10, 10, 10, 4}
	ds := &g.Districts[red]
	ds.InitialSupport, ds.Cubes = 14, [4]int8{3, 3, 0, 0}
	ds.Endorsements = [3]int8{NoSeat, 2, NoSeat}
	g.Seats[0].Polling = [4]int8{8, 0, 0, 0} // 3 icons (C-8)
	g.Seats[1].Polling = [4]int8{2, 0, 0, 0} // 1 icon
	g.Seats[1].MajorityShares = [4]int8{1, 0, 0, 0}
	g.Seats[1].Money, g.Seats[1].Popularity = 0, 0
	g.tally()
	dt := g.Result.Districts[red]
	if dt.Votes != 30 || dt.PerShare != 6 || dt.SeatVotes[0] != 18 || dt.SeatVotes[1] != 12 {
		t.Errorf("Red: %+v, want 30 votes, 6 a share, 18 and 12", dt)
	}
}

// TestResourceBonus: Solo Final Tally: Normal ⌊min/3⌋, Hard ⌈min/2⌉.
func TestResourceBonus(t *testing.T) {
	cases := []struct {
		mode       Mode
		money, pop int8
		want       int16
	}{
		{Normal, 8, 9, 2},
		{Normal, 9, 12, 3},
		{Normal, 2, 12, 0},
		{Hard, 7, 9, 4},
		{Hard, 8, 8, 4},
		{Hard, 12, 1, 1},
		{Hard, 0, 5, 0},
	}
	for _, c := range cases {
		g := newTestGame(t, 1, c.mode)
		g.Seats[1].Money, g.Seats[1].Popularity = c.money, c.pop
		if got := g.ResourceBonus(1); got != c.want {
			t.Errorf("%s, Money %d Popularity %d: got %d, want %d", c.mode, c.money, c.pop, got, c.want)
		}
	}
}

// TestFinalTally: a whole game's Final Tally: reveals alternate from the
// Initiative 1 holder (I-16), every tile ends face up, the Plaza empties
// into the matching Districts (step 2), the Endorsements held count (V-4).
func TestFinalTally(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		log := &Log{}
		g, err := New(Reference(), seed, Config{Mode: Mode(seed % 2), Opposition: scriptedOpposition{}, Recorder: log})
		if err != nil {
			t.Fatal(err)
		}
		if err := NewRandomPlayer(seed).Play(g); err != nil {
			t.Fatal(err)
		}
		want := g.Order[0]
		for _, e := range log.Events {
			if e.Kind != EvReveal {
				continue
			}
			if e.Seat != want {
				t.Fatalf("seed %d: reveal by seat %d, want %d (I-16 alternation)", seed, e.Seat, want)
			}
			want = 1 - want
		}
		for s := range int8(2) {
			held := int16(0)
			for d := range int8(NumDistricts) {
				if l := g.EndorsementHeld(s, d); l > 0 {
					held += int16(l)
				}
			}
			if g.Result.Endorsements[s] != held {
				t.Errorf("seed %d seat %d: endorsement votes %d, want %d", seed, s, g.Result.Endorsements[s], held)
			}
		}
	}
}

// TestEndorsementsVariant: V-4 off, held Endorsements score nothing.
func TestEndorsementsVariant(t *testing.T) {
	off := false
	r := rulesWith(t, func(f *rulesFile) { f.Variants.EndorsementsScoreForHolder = off })
	g, err := New(r, 1, Config{Opposition: scriptedOpposition{}})
	if err != nil {
		t.Fatal(err)
	}
	g.Districts[red].Endorsements[2] = 0
	g.tally()
	if g.Result.Endorsements[0] != 0 {
		t.Errorf("V-4 off: %d endorsement votes", g.Result.Endorsements[0])
	}
}
