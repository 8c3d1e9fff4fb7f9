package play

import (
	"fmt"
	"strings"

	"tallywood/engine"
)

// tally lays the Final Tally out like the dry-erase scoring board: per
// District its votes (3.a-3.d), the Vote Shares (4.a-4.c), the votes per
// share and each side's votes; then the Endorsements, the Opposition's
// resource bonus, the totals and the result (rulebook Final Tally, Solo
// Final Tally, I-18).
func (s *Session) tally() string {
	g := s.g
	r := g.Rules()
	res := &g.Result
	you, opp := int8(0), g.Opponent()
	var b strings.Builder
	const label = 26
	row := func(name string, cell func(d int8) string) {
		fmt.Fprintf(&b, "%-*s", label, name)
		for d := range int8(engine.NumDistricts) {
			fmt.Fprintf(&b, "%8s", cell(d))
		}
		b.WriteString("\n")
	}
	num := func(v int) string { return fmt.Sprint(v) }
	b.WriteString(s.paint(bold, "FINAL TALLY") + "\n")
	fmt.Fprintf(&b, "%-*s", label, "")
	for d := range int8(engine.NumDistricts) {
		b.WriteString(s.district(d, fmt.Sprintf("%8s", clip(r.Districts[d], 7))))
	}
	b.WriteString("\n")
	raw := func(d int8) int {
		return int(g.Districts[d].InitialSupport) + 2*cubesIn(g, d) + unclaimed(g, d)
	}
	row("3.a Initial Support", func(d int8) string { return num(int(g.Districts[d].InitialSupport)) })
	row("3.b Voter cubes x2", func(d int8) string { return num(2 * cubesIn(g, d)) })
	row("3.c unclaimed Endorsements", func(d int8) string { return num(unclaimed(g, d)) })
	row("3.d made even", func(d int8) string { return fmt.Sprintf("+%d", int(res.Districts[d].Votes)-raw(d)) })
	row("    District votes", func(d int8) string { return num(int(res.Districts[d].Votes)) })
	row("4.a Vote Shares: You", func(d int8) string { return num(int(res.Districts[d].Shares[you])) })
	row("               Opposition", func(d int8) string { return num(int(res.Districts[d].Shares[opp])) })
	row("4.c incl. majority share", func(d int8) string {
		var who []string
		for _, seat := range []int8{you, opp} {
			if g.Seats[seat].MajorityShares[d] > 0 {
				who = append(who, map[bool]string{true: "O", false: "Y"}[seat == opp])
			}
		}
		if len(who) == 0 {
			return "-"
		}
		return strings.Join(who, " ")
	})
	row("    votes per share", func(d int8) string { return num(int(res.Districts[d].PerShare)) })
	row("Votes: You", func(d int8) string { return num(int(res.Districts[d].SeatVotes[you])) })
	row("       Opposition", func(d int8) string { return num(int(res.Districts[d].SeatVotes[opp])) })
	b.WriteString(strings.Repeat("-", label+8*engine.NumDistricts) + "\n")
	fmt.Fprintf(&b, "%-14s%12s%14s%8s%8s\n", "", "Districts", "Endorsements", "Bonus", "TOTAL")
	for _, seat := range []int8{you, opp} {
		districts := 0
		for d := range engine.NumDistricts {
			districts += int(res.Districts[d].SeatVotes[seat])
		}
		bonus := "-"
		if g.Seats[seat].Automaton {
			bonus = num(int(res.Bonus[seat]))
		}
		name := "You"
		if seat == opp {
			name = "Opposition"
		}
		fmt.Fprintf(&b, "%-14s%12d%14d%8s%8d\n", name, districts, res.Endorsements[seat], bonus, res.Total[seat])
	}
	m := res.Margin()
	var verdict string
	switch res.Outcome {
	case engine.Win:
		verdict = fmt.Sprintf("You win by %d votes (%d to %d). Your politician is elected mayor.", m, res.Total[you], res.Total[opp])
	case engine.Loss:
		verdict = fmt.Sprintf("The Opposition wins by %d votes (%d to %d).", -m, res.Total[opp], res.Total[you])
	default:
		verdict = fmt.Sprintf("A draw at %d votes each: the victory is shared.", res.Total[you])
	}
	b.WriteString(s.paint(bold, "Result: "+verdict) + "\n")
	return b.String()
}

func cubesIn(g *engine.Game, d int8) int {
	n := 0
	for _, c := range g.Districts[d].Cubes {
		n += int(c)
	}
	return n
}

// unclaimed sums the numbers of the Endorsements still in a District (3.c).
func unclaimed(g *engine.Game, d int8) int {
	n := 0
	for l, h := range g.Districts[d].Endorsements {
		if h == engine.NoSeat {
			n += int(g.Rules().Endorsements[l].Votes)
		}
	}
	return n
}
