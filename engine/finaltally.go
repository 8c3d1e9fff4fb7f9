package engine

// Final Tally (rulebook "Final Tally", Solo Final Tally, I-16, I-18).

// Outcome is the result for you (seat 0): a win alone at the top, a draw
// sharing the top, a loss below it.
type Outcome int8

const (
	Loss Outcome = -1
	Draw Outcome = 0
	Win  Outcome = 1
)

func (o Outcome) String() string {
	switch o {
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "draw"
}

// DistrictTally is one District's column of the scoring board.
type DistrictTally struct {
	Votes     int16 // total, made even (3.a–3.d)
	Shares    [MaxSeats]int8
	PerShare  int16
	SeatVotes [MaxSeats]int16
}

// Result is the Final Tally.
type Result struct {
	Districts    [NumDistricts]DistrictTally
	Endorsements [MaxSeats]int16 // numbers of the Endorsements held (V-4)
	Bonus        [MaxSeats]int16 // the Opposition's resource bonus
	Votes        [MaxSeats]int16 // votes gained during play (Seat.Votes)
	Total        [MaxSeats]int16
	// Place ranks the seats by Total: 1 for the most votes, equal votes
	// sharing a place (Final Tally: tied players share the victory).
	Place   [MaxSeats]int8
	Outcome Outcome // for seat 0
}

// Margin is your votes minus the Opposition's (seat 0 minus seat 1; Lead
// serves a game of more seats).
func (r *Result) Margin() int { return int(r.Total[0]) - int(r.Total[1]) }

// startFinalTally is step 1: Initial Support tokens face up, then the
// reveals begin with the seat holding Initiative 1 (I-16).
func (g *Game) startFinalTally() {
	if g.rec != nil {
		g.emit(Event{Kind: EvFinalTally, Seat: NoSeat, District: -1})
	}
	for d := range int8(NumDistricts) {
		if !g.Districts[d].SupportFaceUp {
			g.Districts[d].SupportFaceUp = true
			g.flips++
			if g.rec != nil {
				g.emit(Event{Kind: EvFlip, Seat: NoSeat, District: d, Item: -1, To: int16(g.Districts[d].InitialSupport), Rule: "Final Tally 1"})
			}
		}
	}
	g.Phase = PhaseReveal
	g.reveals = 0
	g.Pending = DecNone
}

// revealNext runs reveals (1.a–1.d) until a player must choose; when no
// face-down tile is left it tallies. It reports whether a decision is
// pending.
func (g *Game) revealNext() bool {
	for {
		if !g.anyFaceDown() {
			g.tally()
			g.Phase = PhaseOver
			return false
		}
		g.Step = g.reveals % g.NSeats
		s := g.Order[g.Step]
		if !g.Seats[s].Automaton {
			g.Pending = DecReveal
			return true
		}
		i := g.opp.Reveal(g, s)
		if i < 0 || i >= int(g.NPlaced) || g.Placed[i].FaceUp {
			panic("engine: the Opposition revealed a tile that is not face down")
		}
		g.RevealTile(s, i)
		g.reveals++
	}
}

func (g *Game) anyFaceDown() bool {
	for i := range g.NPlaced {
		if !g.Placed[i].FaceUp {
			return true
		}
	}
	return false
}

// tally is steps 2–4 and the votes (I-18).
func (g *Game) tally() {
	g.Pending = DecNone
	for c := range int8(NumDistricts) {
		for g.Plaza[c] > 0 {
			g.MoveCube(c, Plaza, c) // step 2: home to the matching District
		}
	}
	res := &g.Result
	*res = Result{}
	for d := range int8(NumDistricts) {
		dt := &res.Districts[d]
		dt.Votes = g.DistrictVotes(d)
		total := int16(0)
		for s := range g.NSeats {
			dt.Shares[s] = g.VoteShares(s, d) + g.Seats[s].MajorityShares[d]
			total += int16(dt.Shares[s])
		}
		dt.PerShare = VotesPerShare(dt.Votes, total)
		if g.rec != nil {
			g.emit(Event{Kind: EvTally, Seat: NoSeat, District: d, From: dt.Votes, To: dt.PerShare, Rule: "I-18"})
		}
		for s := range g.NSeats {
			dt.SeatVotes[s] = int16(dt.Shares[s]) * dt.PerShare
			res.Total[s] += dt.SeatVotes[s]
			if g.rec != nil {
				g.emit(Event{Kind: EvSeatTally, Seat: s, District: d, From: int16(dt.Shares[s]), To: dt.SeatVotes[s]})
			}
		}
	}
	for s := range g.NSeats {
		if g.rules.Variants.EndorsementsScoreForHolder {
			for d := range int8(NumDistricts) {
				if lvl := g.EndorsementHeld(s, d); lvl > 0 {
					res.Endorsements[s] += int16(g.rules.Endorsements[lvl-1].Votes)
				}
			}
			if g.rec != nil {
				g.emit(Event{Kind: EvSeatTally, Seat: s, District: -1, To: res.Endorsements[s], Rule: "V-4"})
			}
		}
		if g.Seats[s].Automaton {
			res.Bonus[s] = g.ResourceBonus(s)
			if g.rec != nil {
				g.emit(Event{Kind: EvSeatTally, Seat: s, District: Plaza, To: res.Bonus[s], Rule: "Solo Final Tally"})
			}
		}
		if v := g.Seats[s].Votes; v > 0 {
			res.Votes[s] = v
			if g.rec != nil {
				g.emit(Event{Kind: EvSeatTally, Seat: s, District: PlayVotes, To: v})
			}
		}
		res.Total[s] += res.Endorsements[s] + res.Bonus[s] + res.Votes[s]
	}
	res.placeAll(g.NSeats)
	switch lead := res.Lead(0, g.NSeats); {
	case lead > 0:
		res.Outcome = Win
	case lead < 0:
		res.Outcome = Loss
	default:
		res.Outcome = Draw
	}
	switch {
	case g.rec == nil:
	case g.IsSolo():
		g.emit(Event{Kind: EvResult, Seat: NoSeat, District: -1, From: res.Total[0], To: res.Total[1]})
	default:
		// A table game's result is one event per seat, seat order.
		for s := range g.NSeats {
			var sharing int16
			for o := range g.NSeats {
				if res.Place[o] == res.Place[s] {
					sharing++
				}
			}
			g.emit(Event{Kind: EvResult, Seat: s, District: -1, From: res.Total[s], To: int16(res.Place[s]), Item: sharing})
		}
	}
}

// DistrictVotes is step 3: Initial Support + 2 per cube + unclaimed
// Endorsement numbers, raised to even (E-3).
func (g *Game) DistrictVotes(d int8) int16 {
	ds := &g.Districts[d]
	v := int16(ds.InitialSupport)
	for _, n := range ds.Cubes {
		v += 2 * int16(n)
	}
	for l, h := range ds.Endorsements {
		if h == NoSeat {
			v += int16(g.rules.Endorsements[l].Votes)
		}
	}
	return v + v%2
}

// VotesPerShare is the rulebook's formula (I-18): ⌊V/S⌋, plus 1 when the
// remainder is at least half of S. No shares: nobody gets the votes.
func VotesPerShare(votes, shares int16) int16 {
	if shares <= 0 {
		return 0
	}
	q, rem := votes/shares, votes%shares
	if 2*rem >= shares {
		q++
	}
	return q
}

// ResourceBonus is the Opposition's extra votes: the lower of Money and
// Popularity, divided by the difficulty's divisor, rounded down (Normal) or
// up (Hard) (Solo Final Tally).
func (g *Game) ResourceBonus(s int8) int16 {
	diff := g.Difficulty()
	low := int16(min(g.Seats[s].Money, g.Seats[s].Popularity))
	div := int16(diff.BonusDivisor)
	if diff.BonusRounding == RoundUp {
		return (low + div - 1) / div
	}
	return low / div
}
