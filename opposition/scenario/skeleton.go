package scenario

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"tallywood/engine"
	"tallywood/opposition"
)

// Skeleton returns the standard setup of a seed as a complete scenario
// file to start from: every setup value stated as it is (Initial Support,
// Plaza cubes, your trackers and hand, the Solo deck in order), no steps,
// and as facts what the setup leaves hidden (the tile piles and Strategy
// decks top first). It parses and passes as printed. dealt says which
// game the seed is, as the commands that deal it name it ("game 0 of
// seed 3"); the name and description say so, and what the file checks as
// it is, so that none of it must be replaced before it is kept.
// politician is the index of your Politician in r, the one the commands
// deal for that game (Player Board Setup: it sets your trackers).
func Skeleton(r *engine.Rules, seed uint64, mode engine.Mode, politician int, dealt string) ([]byte, error) {
	var g engine.Game
	if err := g.Reset(r, seed, engine.Config{Mode: engine.Normal, Politician: politician, Opposition: opposition.Solo{}}); err != nil {
		return nil, fmt.Errorf("scenario: %v", err)
	}
	g.Mode = mode
	round, turn := 1, 1
	f := File{
		Name: fmt.Sprintf("The standard setup of %s, %s", dealt, mode),
		Description: fmt.Sprintf("The setup of %s at %s (game seed %d), as dealt (Setup, Solo Setup): every value stated "+
			"as it is, and the Strategy decks and tile piles it leaves hidden as facts to expect. It checks the setup; "+
			"add the moves to run and what they should give, and say so here (docs/scenarios.md).", dealt, capitalizeMode(mode), seed),
		Difficulty: mode.String(),
		Seed:       seed,
		Politician: r.Politicians[politician].ID,
		Setup: Setup{
			Round:     &round,
			Turn:      &turn,
			Districts: map[string]District{},
			Plaza:     map[string]int{},
		},
		Run:    []Step{},
		Expect: map[string]json.RawMessage{},
	}
	// Initiative by difficulty (Solo Setup 5): the scenario's own default.
	f.Setup.Initiative = []string{"you", "opposition"}
	if g.Difficulty().PlayerInitiative == 2 {
		f.Setup.Initiative = []string{"opposition", "you"}
	}
	for d, name := range r.Districts {
		f.Setup.Districts[name] = District{InitialSupport: int(g.Districts[d].InitialSupport)}
		f.Setup.Plaza[name] = int(g.Plaza[d])
	}
	seat := func(s int8) *Seat {
		st := &g.Seats[s]
		money, pop := int(st.Money), int(st.Popularity)
		out := &Seat{Money: &money, Popularity: &pop, Polling: map[string]int{}}
		for d, name := range r.Districts {
			out.Polling[name] = int(st.Polling[d])
		}
		return out
	}
	f.Setup.You = seat(0)
	for i := range g.Seats[0].NHand {
		f.Setup.You.Hand = append(f.Setup.You.Hand, r.Cards[g.Seats[0].Hand[i]].ID)
	}
	f.Setup.Opposition = seat(g.Opponent())
	badge := g.Seats[g.Opponent()].PlazaBadge
	f.Setup.Opposition.PlazaBadge = &badge
	for _, id := range soloIDs(r, g.Solo, true) {
		f.Setup.NextSolo = append(f.Setup.NextSolo, id.(string))
	}
	for _, key := range []string{"piles.celebrity_faces", "piles.public_works_faces", "decks.public_works",
		"decks.celebrity", "decks.research", "decks.campaign", "bag.cubes"} {
		v, err := fact(&g, key, nil)
		if err != nil {
			return nil, fmt.Errorf("scenario: %s: %v", key, err)
		}
		if f.Expect[key], err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("scenario: %s: %v", key, err)
		}
	}
	out, err := json.MarshalIndent(&f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("scenario: %v", err)
	}
	// A list or object of names and numbers reads better on one line: the
	// Solo deck and a deck of cards would take a screen each.
	out = flat.ReplaceAllFunc(out, func(b []byte) []byte {
		lines := strings.Split(string(b), "\n")
		for i := range lines {
			lines[i] = strings.TrimSpace(lines[i])
		}
		open, last := lines[0], len(lines)-1
		return []byte(open + strings.Join(lines[1:last], " ") + lines[last])
	})
	return append(out, '\n'), nil
}

// flat matches an indented JSON list or object with no list or object
// inside.
var flat = regexp.MustCompile(`[\[{]\n[^\[\]{}]*\n\s*[\]}]`)

// capitalizeMode is a difficulty as a sentence names it: Normal, Hard.
func capitalizeMode(m engine.Mode) string {
	s := m.String()
	return strings.ToUpper(s[:1]) + s[1:]
}
