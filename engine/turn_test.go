package engine

import "testing"

// Districts in canonical order, for readable cases.
const (
	red int8 = iota
	blue
	green
	yellow
)

// TestIncome: step 3 gains the resources connected by the placement, card
// slots and board icons (C-11, I-3). You start as the magnate: 4 Money.
func TestIncome(t *testing.T) {
	cases := []struct {
		name       string
		card       string
		col, row   int8
		money, pop int8
	}{
		{"C-11 column 1 top: TL+TR and the board's +1 Money", "PW-01", 0, 0, 5, 0},
		{"C-11 column 1 middle: TL+BL connects 1 Money", "PW-01", 0, 1, 5, 0},
		{"C-11 column 1 bottom: BL+BR connects 1 Money and 1 Popularity", "PW-01", 0, 2, 5, 1},
		{"C-11 column 2 bottom: TL+TR and the board's +1 Popularity", "PW-01", 1, 2, 4, 1},
		{"C-11 column 3 top: BL+BR and the board's +1 Popularity", "PW-09", 2, 0, 4, 2},
		{"C-11 column 4 bottom: TL+BL and the board's +1 Money", "PW-13", 3, 2, 5, 1},
		{"C-11 column 4 middle: TR+BR connects 2 Money", "PW-13", 3, 1, 6, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := startTurn(t, c.card, c.col, c.row, red, nil)
			if st := g.Seats[0]; st.Money != c.money || st.Popularity != c.pop {
				t.Errorf("got %d Money %d Popularity, want %d and %d", st.Money, st.Popularity, c.money, c.pop)
			}
		})
	}
}

// TestDistrictActionCosts checks costs and every "cannot" of the District
// actions (rulebook Strategy Actions in Detail; I-1, I-2, C-15).
func TestDistrictActionCosts(t *testing.T) {
	pw := func(tier int8) Option { return Option{Kind: OptPublicWorks, A: SlotTL, B: tier} }
	cases := []struct {
		name  string
		card  string // placed in column 1, middle row: TL+BL
		setup func(g *Game)
		yes   []Option
		no    []Option
	}{
		{"Public Works costs 2 Money a tier: 5 Money builds tiers 1-2", "PW-01",
			nil, []Option{pw(1), pw(2)}, []Option{pw(3)}},
		{"Public Works needs a Badge left", "PW-01", func(g *Game) {
			for range g.rules.BadgesPerPlayer {
				placeTileForTest(g, TilePublicWorks, green, 1, 0)
			}
		}, nil, []Option{pw(1), pw(2)}},
		{"Public Works needs an unbuilt tile of the tier", "PW-01", func(g *Game) {
			g.Piles[TilePublicWorks][0].N = 0
		}, []Option{pw(2)}, []Option{pw(1)}},
		{"I-1: an Assistant on the spot blocks the action, not the wild Fundraise", "PW-01", func(g *Game) {
			g.Districts[red].Spots[g.rules.SpotOf[PublicWorks]] = 1
		}, []Option{{Kind: OptFundraise, A: SlotTL}}, []Option{pw(1)}},
		{"I-2: the icon must match the action: a Public Works icon does no Celebrity", "PW-01",
			nil, nil, []Option{{Kind: OptCelebrity, A: SlotTL, B: 1}}},
		{"Celebrity costs the tier in Money and Popularity", "CE-01", func(g *Game) {
			g.Seats[0].Money, g.Seats[0].Popularity = 1, 2 // +1 Money income
		}, []Option{{Kind: OptCelebrity, A: SlotTL, B: 1}, {Kind: OptCelebrity, A: SlotTL, B: 2}},
			[]Option{{Kind: OptCelebrity, A: SlotTL, B: 3}}},
		{"Campaign costs 3 Popularity", "CA-01", func(g *Game) { g.Seats[0].Popularity = 2 },
			nil, []Option{{Kind: OptCampaign, A: SlotTL}}},
		{"Campaign with 3 Popularity", "CA-01", func(g *Game) { g.Seats[0].Popularity = 3 },
			[]Option{{Kind: OptCampaign, A: SlotTL}}, nil},
		{"Research needs a face-down tile: the Initial Support token", "RE-01",
			nil, []Option{{Kind: OptResearch, A: SlotTL, B: -1}}, nil},
		{"Research with nothing face down cannot be taken", "RE-01", func(g *Game) {
			g.Districts[red].SupportFaceUp = true
		}, []Option{{Kind: OptFundraise, A: SlotTL}}, []Option{{Kind: OptResearch, A: SlotTL, B: -1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := startTurn(t, c.card, 0, 1, red, c.setup)
			for _, o := range c.yes {
				if !has(g, o) {
					t.Errorf("%s not offered", g.Describe(o))
				}
			}
			for _, o := range c.no {
				if has(g, o) {
					t.Errorf("%s offered", g.Describe(o))
				}
				if err := g.Apply(o); err == nil {
					t.Errorf("%s applied", g.Describe(o))
				}
			}
		})
	}
}

// TestDistrictActionEffects checks what each District action does.
func TestDistrictActionEffects(t *testing.T) {
	t.Run("Public Works tier 2: 4 Money, tile face down with your Badge, Strength 2+1", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, red, nil)
		mustApply(t, g, Option{Kind: OptPublicWorks, A: SlotTL, B: 2})
		tile := g.Placed[g.NPlaced-1]
		if g.Seats[0].Money != 1 || tile.Kind != TilePublicWorks || tile.Tier != 2 || tile.FaceUp || tile.Badge != 0 || tile.District != red {
			t.Fatalf("money %d, tile %+v", g.Seats[0].Money, tile)
		}
		if got := g.Strength(0, red); got != 3 {
			t.Errorf("Strength %d, want 3 (Assistant + tier 2 Badge)", got)
		}
		if g.BadgesLeft(0) != 5 {
			t.Errorf("Badges left %d, want 5", g.BadgesLeft(0))
		}
	})
	t.Run("Celebrity tier 2: pays 2+2, +2 polling, 2 cubes to the Plaza", func(t *testing.T) {
		g := startTurn(t, "CE-01", 0, 1, blue, func(g *Game) { g.Seats[0].Popularity = 3 })
		plaza, bag := g.PlazaCount(), g.BagCount()
		mustApply(t, g, Option{Kind: OptCelebrity, A: SlotTL, B: 2})
		st := g.Seats[0]
		if st.Money != 3 || st.Popularity != 1 || st.Polling[blue] != 2 {
			t.Errorf("money %d pop %d polling %d, want 3 1 2", st.Money, st.Popularity, st.Polling[blue])
		}
		if g.PlazaCount() != plaza+2 || g.BagCount() != bag-2 {
			t.Errorf("Plaza %d→%d, bag %d→%d", plaza, g.PlazaCount(), bag, g.BagCount())
		}
	})
	t.Run("Research flips a tile, +1 polling, attracts its cubes from the Plaza (M = the District)", func(t *testing.T) {
		var tile int
		g := startTurn(t, "RE-01", 0, 1, green, func(g *Game) {
			tile = placeTileForTest(g, TileCelebrity, green, 2, NoSeat)
			g.Placed[tile].Face = 5 // GY
			g.Plaza = [4]int8{0, 0, 0, 1}
		})
		mustApply(t, g, Option{Kind: OptResearch, A: SlotTL, B: int8(tile)})
		if !g.Placed[tile].FaceUp || g.Seats[0].Polling[green] != 1 {
			t.Fatalf("tile %+v polling %d", g.Placed[tile], g.Seats[0].Polling[green])
		}
		// I-21: no green cube in the Plaza moves nothing; the yellow one comes.
		if g.Districts[green].Cubes[yellow] != 1 || g.Plaza[yellow] != 0 {
			t.Errorf("cubes in Green %v, Plaza %v", g.Districts[green].Cubes, g.Plaza)
		}
	})
	t.Run("Research on a multi-colour face takes the District's colour (Research 4)", func(t *testing.T) {
		var tile int
		g := startTurn(t, "RE-01", 0, 1, red, func(g *Game) {
			tile = placeTileForTest(g, TilePublicWorks, red, 1, 1)
			g.Placed[tile].Face = 4 // M
			g.Plaza = [4]int8{2, 1, 0, 0}
		})
		mustApply(t, g, Option{Kind: OptResearch, A: SlotTL, B: int8(tile)})
		if g.Districts[red].Cubes[red] != 1 || g.Plaza[red] != 1 || g.Plaza[blue] != 1 {
			t.Errorf("Red cubes %v, Plaza %v", g.Districts[red].Cubes, g.Plaza)
		}
		if g.Placed[tile].Badge != 1 {
			t.Errorf("Research 5: the Badge stays on the flipped Public Works")
		}
	})
	t.Run("Research flips the Initial Support token", func(t *testing.T) {
		g := startTurn(t, "RE-01", 0, 1, yellow, nil)
		mustApply(t, g, Option{Kind: OptResearch, A: SlotTL, B: -1})
		if !g.Districts[yellow].SupportFaceUp || g.Seats[0].Polling[yellow] != 1 {
			t.Errorf("support face up %v, polling %d", g.Districts[yellow].SupportFaceUp, g.Seats[0].Polling[yellow])
		}
	})
	t.Run("Campaign: 3 Popularity for 2 polling", func(t *testing.T) {
		g := startTurn(t, "CA-01", 0, 1, red, func(g *Game) { g.Seats[0].Popularity = 4 })
		mustApply(t, g, Option{Kind: OptCampaign, A: SlotTL})
		if st := g.Seats[0]; st.Popularity != 1 || st.Polling[red] != 2 {
			t.Errorf("pop %d polling %d", st.Popularity, st.Polling[red])
		}
	})
	t.Run("I-2: two icons take the same action twice", func(t *testing.T) {
		// PW-09 (L3: TL PW, BR PW) in column 2 middle row connects TL+BR.
		g := startTurn(t, "PW-09", 1, 1, red, func(g *Game) { g.Seats[0].Money = 4 })
		mustApply(t, g, Option{Kind: OptPublicWorks, A: SlotTL, B: 1})
		mustApply(t, g, Option{Kind: OptPublicWorks, A: SlotBR, B: 1})
		if g.Built(red, TilePublicWorks, 1, 0) != 2 {
			t.Errorf("built %d, want 2", g.Built(red, TilePublicWorks, 1, 0))
		}
		if k := legalKinds(g); k[OptPublicWorks]+k[OptFundraise] != 0 {
			t.Errorf("a spent icon is offered again: %v", k)
		}
	})
}

// TestWildActions: District Fundraise and the Plaza actions (rulebook Plaza
// Wild Strategy Actions, I-8).
func TestWildActions(t *testing.T) {
	t.Run("District Fundraise: 1 Money per Strength", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, red, func(g *Game) {
			placeTileForTest(g, TilePublicWorks, red, 2, 0)
			g.Seats[0].Money = 0
		})
		mustApply(t, g, Option{Kind: OptFundraise, A: SlotTL})
		if g.Seats[0].Money != 1+3 {
			t.Errorf("money %d, want 4 (1 income + 3 Strength)", g.Seats[0].Money)
		}
	})
	t.Run("Direct Appeal: 1 Money 1 Popularity, a cube, the Badge only the first time", func(t *testing.T) {
		g := startTurn(t, "PW-03", 0, 0, Plaza, func(g *Game) {
			g.Seats[0].Popularity = 2
			g.Plaza = [4]int8{1, 1, 1, 1}
		})
		// PW-03 in column 1 top: TL (PW) + TR (CE), two icons.
		mustApply(t, g, Option{Kind: OptDirectAppeal, A: SlotTL, B: blue, C: yellow})
		if st := g.Seats[0]; st.Money != 4 || st.Popularity != 1 || !st.PlazaBadge || g.Districts[yellow].Cubes[blue] != 1 {
			t.Fatalf("money %d pop %d badge %v", st.Money, st.Popularity, st.PlazaBadge)
		}
		mustApply(t, g, Option{Kind: OptDirectAppeal, A: SlotTR, B: red, C: red})
		if g.BadgesLeft(0) != 5 {
			t.Errorf("Badges left %d, want 5: one Plaza Badge", g.BadgesLeft(0))
		}
	})
	t.Run("I-8: Direct Appeal needs a cube in the Plaza", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, Plaza, func(g *Game) {
			g.Seats[0].Popularity = 2
			for c := range g.Plaza {
				g.Bag[c] += g.Plaza[c]
				g.Plaza[c] = 0
			}
		})
		if k := legalKinds(g); k[OptDirectAppeal] != 0 || k[OptRally] != 1 || k[OptPlazaFundraise] != 1 {
			t.Errorf("options %v", k)
		}
	})
	t.Run("Rally: 2 Popularity per Plaza Strength", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, Plaza, func(g *Game) { g.Seats[0].PlazaBadge = true })
		mustApply(t, g, Option{Kind: OptRally, A: SlotTL})
		if g.Seats[0].Popularity != 4 {
			t.Errorf("pop %d, want 4 (Assistant + Badge = 2 Strength)", g.Seats[0].Popularity)
		}
	})
	t.Run("Plaza Fundraise: 1 Money per District with Strength", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, Plaza, func(g *Game) {
			placeTileForTest(g, TilePublicWorks, red, 1, 0)
			placeTileForTest(g, TilePublicWorks, blue, 3, 0)
			placeTileForTest(g, TilePublicWorks, blue, 1, 0)
		})
		mustApply(t, g, Option{Kind: OptPlazaFundraise, A: SlotTL})
		if g.Seats[0].Money != 4+1+2 {
			t.Errorf("money %d, want 7", g.Seats[0].Money)
		}
	})
	t.Run("In the Plaza no District action and no spot", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, Plaza, nil)
		if k := legalKinds(g); k[OptPublicWorks]+k[OptFundraise] != 0 {
			t.Errorf("District actions offered in the Plaza: %v", k)
		}
		mustApply(t, g, Option{Kind: OptEnd})
		if g.Seats[0].Assistants[0].Spot != NoSpot || g.Decision().Seat == 0 && g.Pending == DecSpot {
			t.Errorf("an Assistant in the Plaza takes a spot")
		}
	})
}

// TestAbilities: optional, once a turn, passives for the rest of the round
// (rulebook 5.a, I-4, C-15).
func TestAbilities(t *testing.T) {
	t.Run("polling in this District, once", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, blue, nil)
		mustApply(t, g, Option{Kind: OptAbility, B: blue})
		if g.Seats[0].Polling[blue] != 1 {
			t.Errorf("polling %d", g.Seats[0].Polling[blue])
		}
		if legalKinds(g)[OptAbility] != 0 {
			t.Errorf("ability offered twice (I-4)")
		}
	})
	t.Run("C-15: this District means nothing in the Plaza", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, Plaza, nil)
		if legalKinds(g)[OptAbility] != 0 {
			t.Errorf("polling_here offered in the Plaza")
		}
	})
	t.Run("polling in any District: four choices", func(t *testing.T) {
		g := startTurn(t, "CE-01", 0, 1, Plaza, nil)
		if n := legalKinds(g)[OptAbility]; n != 4 {
			t.Errorf("%d choices", n)
		}
	})
	t.Run("draw then attract: the attract is its own decision", func(t *testing.T) {
		g := startTurn(t, "RE-04", 0, 1, red, nil)
		mustApply(t, g, Option{Kind: OptAbility})
		if g.Pending != DecAttract {
			t.Fatalf("pending %s, want attract", g.Pending)
		}
		var buf [MaxOptions]Option
		o := g.Legal(buf[:0])[0]
		mustApply(t, g, o)
		if g.Pending != DecAction || g.Districts[o.C].Cubes[o.B] != 1 {
			t.Errorf("after attract: pending %s, cubes %v", g.Pending, g.Districts[o.C].Cubes)
		}
	})
	t.Run("I-19: draw then attract with an empty bag still attracts", func(t *testing.T) {
		g := startTurn(t, "RE-04", 0, 1, red, func(g *Game) {
			for c := range g.Bag {
				g.Plaza[c] += g.Bag[c]
				g.Bag[c] = 0
			}
		})
		mustApply(t, g, Option{Kind: OptAbility})
		if g.Pending != DecAttract {
			t.Fatalf("pending %s, want attract", g.Pending)
		}
	})
	t.Run("passive discount lasts the round, ends at Clean Up", func(t *testing.T) {
		// CA-02: Campaign costs 1 less Popularity (passive).
		g := startTurn(t, "CA-02", 0, 1, red, nil)
		if m, p := g.Cost(0, Campaign, 0); m != 0 || p != 2 {
			t.Errorf("Campaign costs %d %d, want 0 2", m, p)
		}
		if legalKinds(g)[OptAbility] != 0 {
			t.Errorf("a passive is offered as a use")
		}
		g.startCleanup()
		if _, p := g.Cost(0, Campaign, 0); p != 3 {
			t.Errorf("after Clean Up Campaign costs %d Popularity, want 3", p)
		}
	})
	t.Run("passive Research bonus", func(t *testing.T) {
		// RE-02: each Research gains 1 extra Polling.
		g := startTurn(t, "RE-02", 0, 1, red, nil)
		mustApply(t, g, Option{Kind: OptResearch, A: SlotTL, B: -1})
		if g.Seats[0].Polling[red] != 2 {
			t.Errorf("polling %d, want 2", g.Seats[0].Polling[red])
		}
	})
	t.Run("C-15: costs never go below 0", func(t *testing.T) {
		g := startTurn(t, "PW-02", 0, 1, red, func(g *Game) { g.Seats[0].DiscountMoney[PublicWorks] = 5 })
		if m, _ := g.Cost(0, PublicWorks, 1); m != 0 {
			t.Errorf("cost %d", m)
		}
	})
}

// TestFavors: an unused Endorsement flipped as a Favor connects one more
// slot at its cost (rulebook 5.b, C-5, I-3, I-5).
func TestFavors(t *testing.T) {
	cases := []struct {
		level      int8
		money, pop int8 // after: you start with 4 Money 0 Popularity, +1 Money income
	}{
		{1, 4 - 1 + 1, 3 - 1}, // level 1 costs 1 Money + 1 Popularity
		{2, 4 - 1 + 1, 3},     // level 2 costs 1 Money
		{3, 4 + 1, 3},         // level 3 is free
	}
	for _, c := range cases {
		t.Run("level "+string('0'+rune(c.level)), func(t *testing.T) {
			// PW-01 column 1 middle: TL (PW) + BL (1 Money); the Favor
			// connects TR (Celebrity) or BR (1 Popularity).
			g := startTurn(t, "PW-01", 0, 1, red, func(g *Game) {
				g.Districts[green].Endorsements[c.level-1] = 0
				g.Seats[0].Popularity = 3
			})
			mustApply(t, g, Option{Kind: OptFavor, A: green, B: SlotBR})
			st := g.Seats[0]
			if st.Money != c.money || st.Popularity != c.pop+1 {
				t.Errorf("money %d pop %d, want %d %d (I-3: the slot's Popularity at once)", st.Money, st.Popularity, c.money, c.pop+1)
			}
			if legalKinds(g)[OptFavor] != 0 {
				t.Errorf("I-5: a token serves as a Favor once a round")
			}
			if st.Columns[0].Favors != 1<<SlotBR || g.EndorsementHeld(0, green) != c.level {
				t.Errorf("favor mask %b, held %d", st.Columns[0].Favors, g.EndorsementHeld(0, green))
			}
			g.readyForNextRound()
			if g.Districts[green].FavorUsed != [NumLevels]bool{} {
				t.Errorf("Clean Up 5: Favors not ready again")
			}
		})
	}
	t.Run("a Favor connects a Strategy icon that can then act", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, red, func(g *Game) {
			g.Districts[blue].Endorsements[2] = 0
			g.Seats[0].Popularity = 1
		})
		if has(g, Option{Kind: OptCelebrity, A: SlotTR, B: 1}) {
			t.Fatal("Celebrity offered before the Favor")
		}
		mustApply(t, g, Option{Kind: OptFavor, A: blue, B: SlotTR})
		if !has(g, Option{Kind: OptCelebrity, A: SlotTR, B: 1}) {
			t.Error("Celebrity not offered after the Favor")
		}
	})
	t.Run("a Favor that cannot be paid is not offered", func(t *testing.T) {
		g := startTurn(t, "PW-01", 0, 1, red, func(g *Game) {
			g.Districts[blue].Endorsements[0] = 0
			g.Seats[0].Popularity = 0
		})
		if legalKinds(g)[OptFavor] != 0 {
			t.Error("level 1 Favor offered with no Popularity")
		}
	})
}

// TestSpotAndEndorsement: the Assistant's spot (I-1), the Endorsement check
// (I-6, C-9) and the space-12 token (C-10).
func TestSpotAndEndorsement(t *testing.T) {
	t.Run("I-1: any free spot; the turn passes after it", func(t *testing.T) {
		g := startTurn(t, "CA-01", 0, 1, red, func(g *Game) {
			g.Districts[red].Spots[0] = 1
		})
		mustApply(t, g, Option{Kind: OptEnd})
		var buf [MaxOptions]Option
		if n := len(g.Legal(buf[:0])); g.Pending != DecSpot || n != 3 {
			t.Fatalf("pending %s with %d spots, want 3", g.Pending, n)
		}
		mustApply(t, g, Option{Kind: OptSpot, A: 3})
		if g.Districts[red].Spots[3] != 0 || g.Seats[0].Assistants[0].Spot != 3 {
			t.Error("spot not taken")
		}
	})
	t.Run("I-1: all four taken, the Assistant stands with no spot", func(t *testing.T) {
		g := startTurn(t, "CA-01", 0, 1, red, func(g *Game) {
			g.Districts[red].Spots = [4]int8{1, 1, 1, 1}
		})
		mustApply(t, g, Option{Kind: OptEnd})
		var buf [MaxOptions]Option
		if l := g.Legal(buf[:0]); len(l) != 1 || l[0] != (Option{Kind: OptSpot, A: NoSpot}) {
			t.Fatalf("options %v", l)
		}
	})
	cases := []struct {
		name    string
		polling int8 // before a Campaign (+2)
		taken   [3]int8
		held    int8 // level you hold before
		act     bool
		want    int8
	}{
		{"C-9 polling 4→6 entitles level 2", 4, [3]int8{NoSeat, NoSeat, NoSeat}, 0, true, 2},
		{"polling 1→3 entitles level 1", 1, [3]int8{NoSeat, NoSeat, NoSeat}, 0, true, 1},
		{"polling 7→9 with level 1 held: upgrade to 3, return 1", 7, [3]int8{NoSeat, NoSeat, NoSeat}, 1, true, 3},
		{"level 3 claimed by the Opposition: the highest unclaimed, 2", 7, [3]int8{NoSeat, NoSeat, 1}, 0, true, 2},
		{"I-6: no action in the District, no Endorsement", 4, [3]int8{NoSeat, NoSeat, NoSeat}, 0, false, 0},
		{"already holding the entitled level: nothing", 4, [3]int8{NoSeat, NoSeat, NoSeat}, 2, true, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := startTurn(t, "CA-01", 0, 1, red, func(g *Game) {
				g.Seats[0].Polling[red] = c.polling
				g.Seats[0].Popularity = 3
				g.Districts[red].Endorsements = c.taken
				if c.held > 0 {
					g.Districts[red].Endorsements[c.held-1] = 0
				}
			})
			if c.act {
				mustApply(t, g, Option{Kind: OptCampaign, A: SlotTL})
			} else {
				mustApply(t, g, Option{Kind: OptAbility, B: red}) // not an action

			}
			mustApply(t, g, Option{Kind: OptEnd})
			mustApply(t, g, Option{Kind: OptSpot, A: 0})
			if got := g.EndorsementHeld(0, red); got != c.want {
				t.Errorf("holds level %d, want %d", got, c.want)
			}
			if c.held > 0 && c.want != c.held && g.Districts[red].Endorsements[c.held-1] != NoSeat {
				t.Errorf("the lower token was not returned")
			}
		})
	}
	t.Run("C-10: reaching 12 takes the Vote Share token at once", func(t *testing.T) {
		g := startTurn(t, "CA-01", 0, 1, red, func(g *Game) {
			g.Seats[0].Polling[red] = 10
			g.Seats[0].Popularity = 3
		})
		mustApply(t, g, Option{Kind: OptCampaign, A: SlotTL})
		if g.Districts[red].VoteShareToken != 0 || g.VoteShares(0, red) != 5 {
			t.Errorf("token %d, shares %d, want 0 and 5 (4 icons + token, I-7)", g.Districts[red].VoteShareToken, g.VoteShares(0, red))
		}
	})
	t.Run("C-7: a gain past 12 is lost", func(t *testing.T) {
		g := startTurn(t, "CA-01", 0, 1, red, func(g *Game) {
			g.Seats[0].Polling[red] = 11
			g.Seats[0].Popularity = 3
		})
		mustApply(t, g, Option{Kind: OptCampaign, A: SlotTL})
		if g.Seats[0].Polling[red] != 12 {
			t.Errorf("polling %d", g.Seats[0].Polling[red])
		}
	})
}

// TestIllegalOptionsRefused: Apply refuses anything not in the legal list.
func TestIllegalOptionsRefused(t *testing.T) {
	g := newTestGame(t, 1, Normal)
	for _, o := range []Option{
		{Kind: OptCard, A: 9},
		{Kind: OptColumn, A: 0},
		{Kind: OptEnd},
		{Kind: OptCard, A: -1},
	} {
		if err := g.Apply(o); err == nil {
			t.Errorf("%v applied at the card decision", o)
		}
	}
	mustApply(t, g, Option{Kind: OptCard, A: 0})
	mustApply(t, g, Option{Kind: OptColumn, A: 2})
	mustApply(t, g, Option{Kind: OptRow, A: 0})
	mustApply(t, g, Option{Kind: OptRegion, A: 0})
	mustApply(t, g, Option{Kind: OptEnd})
	mustApply(t, g, Option{Kind: OptSpot, A: 0})
	// Your next turn: column 3 is used.
	for g.Decision().Seat != 0 || g.Pending != DecCard {
		t.Fatalf("pending %s for seat %d", g.Pending, g.Decision().Seat)
	}
	mustApply(t, g, Option{Kind: OptCard, A: 0})
	if err := g.Apply(Option{Kind: OptColumn, A: 2}); err == nil {
		t.Error("rulebook Strategy Phase 2: a used column accepted")
	}
}

// TestDescribeTellsUsesApart: the words for an option name what tells it
// from the other options of the same decision, as menus, errors and the
// exec protocol's labels show them: the icon a District Fundraise spends
// (I-2), and the District or cube of a card ability's use (C-15).
func TestDescribeTellsUsesApart(t *testing.T) {
	cases := []struct {
		card string
		o    Option
		want string
	}{
		{"PW-01", Option{Kind: OptFundraise, A: SlotTL}, "District Fundraise (Public Works icon)"},
		{"PW-01", Option{Kind: OptAbility, B: red}, "use the card ability in Red"},
		{"CE-01", Option{Kind: OptAbility, B: blue}, "use the card ability in Blue"},
		{"CE-04", Option{Kind: OptAbility, B: green, C: red}, "use the card ability: Green cube to Red"},
		{"PW-03", Option{Kind: OptAbility}, "use the card ability"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			g := startTurn(t, c.card, 0, 1, red, nil)
			if got := g.Describe(c.o); got != c.want {
				t.Errorf("%s: Describe = %q, want %q", c.card, got, c.want)
			}
		})
	}
	// Outside a turn there is no card to read: the plain words.
	g := newTestGame(t, 1, Normal)
	if got := g.Describe(Option{Kind: OptFundraise}); got != "District Fundraise" {
		t.Errorf("before the card: Describe = %q", got)
	}
}
