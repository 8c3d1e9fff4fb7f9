package engine

// Round Scoring (rulebook "Round Scoring Phase", C-13, I-17, E-5).

// scoreRound applies the Round card's rewards: presence in every District,
// then each District's majority, then the Plaza, Districts in canonical
// order (C-13).
func (g *Game) scoreRound() {
	if g.rec != nil {
		g.emit(Event{Kind: EvScoring, Seat: NoSeat, District: -1})
	}
	rd := g.RoundCard()
	str := g.Strengths()
	// OPEN: a presence reward of Polling (round 4 of the reference set)
	// can take two players to the token space of one District in the same
	// step, and C-10 gives the Vote Share token to the first to reach it.
	// The rulebook gives the players of Round Scoring no order: each
	// criterion rewards every player who meets it. The engine rewards the
	// seats in seat order, so the lower seat number takes the token. Any
	// order is a convention here; this one favours no policy in sim,
	// whose lineups rotate through the seats, and it arises rarely (90
	// times in 20,000 games of three greedy or builder players, 17 in
	// 10,000 of four). Initiative order or nobody would be no more
	// literal, so there is no switch. In solo the Opposition takes a token only at its Clean Up
	// (I-15), so the question does not arise.
	for d := range int8(NumDistricts) {
		for s := range g.NSeats {
			if str[s][d] > 0 {
				g.reward(s, d, rd.Presence, "presence")
			}
		}
	}
	// Presence rewards move no Strength, so the table still holds.
	for d := range int8(NumDistricts) {
		if w := g.districtMajority(d, &str); w != NoSeat {
			g.reward(w, d, rd.DistrictMajority, "majority")
		}
	}
	best := int8(0)
	for s := range g.NSeats {
		best = max(best, str[s][Plaza])
	}
	if best == 0 {
		return // I-17: a majority needs at least 1 Strength
	}
	for s := range g.NSeats {
		if str[s][Plaza] != best {
			continue // I-17: in the Plaza everyone tied gets the reward
		}
		if g.Seats[s].Automaton && rd.OppositionPlazaAdvance {
			// Solo Round Scoring: the lowest tracker(s) advance instead,
			// unless V-3 grants the Popularity too (I-14).
			g.opp.PlazaMajority(g, s, rd.PlazaMajority.Amount)
			if !g.rules.Variants.OppositionPlazaPopularityToo {
				continue
			}
		}
		g.reward(s, Plaza, rd.PlazaMajority, "Plaza majority")
	}
}

// DistrictMajority returns the seat with the most Strength in d, or NoSeat.
// Ties go to the tied seat whose Assistant holds the leftmost spot; with no
// tied Assistant on a spot, to the one with a Badge on the strictly highest
// tier of Public Works there; otherwise nobody (rulebook Strength, I-17).
func (g *Game) DistrictMajority(d int8) int8 {
	t := g.Strengths()
	return g.districtMajority(d, &t)
}

// DistrictMajorityIn is DistrictMajority with g.Strengths() already at
// hand in t, for an evaluation that asks about every District.
func (g *Game) DistrictMajorityIn(d int8, t *[MaxSeats][NumDistricts + 1]int8) int8 {
	return g.districtMajority(d, t)
}

func (g *Game) districtMajority(d int8, t *[MaxSeats][NumDistricts + 1]int8) int8 {
	var str [MaxSeats]int8
	best := int8(0)
	for s := range g.NSeats {
		str[s] = t[s][d]
		best = max(best, str[s])
	}
	if best == 0 {
		return NoSeat
	}
	tied, winner := 0, NoSeat
	for s := range g.NSeats {
		if str[s] == best {
			tied++
			winner = s
		}
	}
	if tied == 1 {
		return winner
	}
	for _, holder := range g.Districts[d].Spots {
		if holder != NoSeat && str[holder] == best {
			return holder
		}
	}
	var top [MaxSeats]int8
	for i := range g.NPlaced {
		t := &g.Placed[i]
		if t.District == d && t.Badge != NoSeat && str[t.Badge] == best {
			top[t.Badge] = max(top[t.Badge], t.Tier)
		}
	}
	high, winner, n := int8(0), NoSeat, 0
	for s := range g.NSeats {
		switch {
		case top[s] > high:
			high, winner, n = top[s], s, 1
		case top[s] == high && high > 0:
			n++
		}
	}
	if n != 1 {
		return NoSeat
	}
	return winner
}

// reward grants one Round card reward in a region.
func (g *Game) reward(s int8, region int8, w Reward, what string) {
	if g.rec != nil {
		g.emit(Event{Kind: EvReward, Seat: s, District: region, Item: int16(w.Kind), To: int16(w.Amount), Note: what, Rule: "C-13"})
	}
	switch w.Kind {
	case RewardMoney:
		g.GainResources(s, w.Amount, 0, "")
	case RewardPopularity:
		g.GainResources(s, 0, w.Amount, "")
	case RewardPolling:
		g.GainPolling(s, region, w.Amount, "")
	case RewardVoteShare:
		g.Seats[s].MajorityShares[region] += w.Amount
	}
}
