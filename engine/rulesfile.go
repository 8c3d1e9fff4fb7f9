package engine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// rulesFile is the JSON schema of a rules file. Field names are the ones a
// designer edits; docs/rules-file.md documents each. Every component and
// number of the reference set has a field here. The strict decoder reads
// the schema from these types: a field is required unless its tag says
// omitempty, in which case a file may leave it out and it reads as zero.
// Name, Version and Notes are metadata: they do not change play, so the
// Hash leaves them out (see playForm).
type rulesFile struct {
	Name               string            `json:"name,omitempty"`
	Version            string            `json:"version"`
	Notes              string            `json:"notes,omitempty"`
	Districts          []string          `json:"districts"`
	Spots              []string          `json:"spots"`
	CubesPerDistrict   int               `json:"cubes_per_district"`
	PlazaCubesAtSetup  int               `json:"plaza_cubes_at_setup"`
	InitialSupport     []int             `json:"initial_support"`
	BadgesPerPlayer    int               `json:"badges_per_player"`
	Endorsements       []endorsementFile `json:"endorsements"`
	Track              trackFile         `json:"track"`
	Columns            [][]placementFile `json:"columns"`
	Actions            actionsFile       `json:"actions"`
	Politicians        []politicianFile  `json:"politicians"`
	Rounds             []roundFile       `json:"rounds"`
	CelebrityTiles     [][]string        `json:"celebrity_tiles"`
	PublicWorksTiles   [][]string        `json:"public_works_tiles"`
	StrategyCards      []cardFile        `json:"strategy_cards"`
	SoloCards          []soloFile        `json:"solo_cards"`
	Difficulties       difficultiesFile  `json:"difficulties"`
	Variants           variantsFile      `json:"variants"`
	OppositionFallback resourcesFile     `json:"opposition_fallback"`
	// Automaton names a scripted Opposition (rulesautomaton.go); absent,
	// the built-in one plays, and the hash is what it was before scripts.
	Automaton automatonFile `json:"automaton,omitempty,omitzero"`
}

type endorsementFile struct {
	Level           int `json:"level"`
	Votes           int `json:"votes"`
	FavorMoney      int `json:"favor_money"`
	FavorPopularity int `json:"favor_popularity"`
}

type trackFile struct {
	Max                   int   `json:"max"`
	VoteShareIcons        []int `json:"vote_share_icons"`
	EndorsementThresholds []int `json:"endorsement_thresholds"`
	TokenSpace            int   `json:"token_space"`
}

type placementFile struct {
	Slots      []string `json:"slots"`
	Money      int      `json:"money,omitempty"`
	Popularity int      `json:"popularity,omitempty"`
}

type actionsFile struct {
	PublicWorksMoneyPerTier           int `json:"public_works_money_per_tier"`
	CelebrityMoneyPerTier             int `json:"celebrity_money_per_tier"`
	CelebrityPopularityPerTier        int `json:"celebrity_popularity_per_tier"`
	CelebrityCubes                    int `json:"celebrity_cubes"`
	ResearchPolling                   int `json:"research_polling"`
	CampaignPopularity                int `json:"campaign_popularity"`
	CampaignPolling                   int `json:"campaign_polling"`
	DirectAppealMoney                 int `json:"direct_appeal_money"`
	DirectAppealPopularity            int `json:"direct_appeal_popularity"`
	RallyPopularityPerStrength        int `json:"rally_popularity_per_strength"`
	PlazaFundraiseMoneyPerDistrict    int `json:"plaza_fundraise_money_per_district"`
	DistrictFundraiseMoneyPerStrength int `json:"district_fundraise_money_per_strength"`
}

type politicianFile struct {
	ID         string         `json:"id"`
	Money      int            `json:"money,omitempty"`
	Popularity int            `json:"popularity,omitempty"`
	Polling    map[string]int `json:"polling,omitempty"`
}

type rewardFile struct {
	Kind   string `json:"kind"`
	Amount int    `json:"amount"`
}

type roundFile struct {
	Turns                  int        `json:"turns"`
	HandSize               int        `json:"hand_size"`
	Presence               rewardFile `json:"presence"`
	DistrictMajority       rewardFile `json:"district_majority"`
	PlazaMajority          rewardFile `json:"plaza_majority"`
	OppositionPlazaAdvance bool       `json:"opposition_plaza_advance,omitempty"`
}

type abilityFile struct {
	Kind       string `json:"kind"`
	Action     string `json:"action,omitempty"`
	Money      int    `json:"money,omitempty"`
	Popularity int    `json:"popularity,omitempty"`
	Polling    int    `json:"polling,omitempty"`
}

type cardFile struct {
	ID      string      `json:"id"`
	Deck    string      `json:"deck"`
	Slots   []string    `json:"slots"`
	Ability abilityFile `json:"ability"`
}

type soloFile struct {
	ID            string `json:"id"`
	LeftDistrict  string `json:"left_district"`
	RightDistrict string `json:"right_district"`
	LeftAction    string `json:"left_action"`
	RightAction   string `json:"right_action"`
}

type difficultyFile struct {
	PlayerInitiative    int    `json:"player_initiative"`
	CelebrityAllTiers   int    `json:"celebrity_all_tiers"`
	PlazaLowestTrackers int    `json:"plaza_lowest_trackers"`
	BonusDivisor        int    `json:"bonus_divisor"`
	BonusRounding       string `json:"bonus_rounding"`
}

type difficultiesFile struct {
	Normal difficultyFile `json:"normal"`
	Hard   difficultyFile `json:"hard"`
}

type variantsFile struct {
	OppositionRespectsBlocks     bool `json:"opposition_respects_blocks"`
	OppositionCleanupAfterRound4 bool `json:"opposition_cleanup_after_round_4"`
	OppositionPlazaPopularityToo bool `json:"opposition_plaza_popularity_too"`
	EndorsementsScoreForHolder   bool `json:"endorsements_score_for_holder"`
	// The rule switches are optional (default false, today's reading), so
	// every rules file written before them means what it meant, with the
	// same hash: false is left out of the canonical form.
	EndorsementCheckEveryDistrict bool `json:"endorsement_check_every_district,omitempty"`
	UpgradedFavorInheritsUsed     bool `json:"upgraded_favor_inherits_used,omitempty"`
	TurnsClockwise                bool `json:"turns_clockwise,omitempty"`
	ReformDeckAtOnce              bool `json:"reform_deck_at_once,omitempty"`
}

type resourcesFile struct {
	Money      int `json:"money"`
	Popularity int `json:"popularity"`
}

// id checks that an id is given and not a repeat.
func (c *checker) id(field, id string, seen map[string]bool) {
	switch {
	case id == "":
		c.fail(field, "missing")
	case seen[id]:
		c.fail(field, "%q repeats an earlier id", id)
	}
	c.label(field, id, maxString)
	seen[id] = true
}

// maxName bounds the name of a rules file: it names arms in results.
const maxName = 40

// label checks a one-line text printed in headers and narration (a name,
// an id): no control or hidden characters (a newline would split a header
// line, U+202E reverse it), no surrounding spaces, at most limit bytes.
func (c *checker) label(field, s string, limit int) {
	switch {
	case len(s) > limit:
		c.fail(field, "%q is longer than %d bytes", s, limit)
	case strings.TrimSpace(s) != s:
		c.fail(field, "%q has leading or trailing spaces", s)
	default:
		if r, ok := Hidden(s); ok {
			c.fail(field, "%q holds %U, a control or hidden character (it must be one line, shown as written)", s, r)
		}
	}
}

// Hidden returns the first character of s that breaks a line or does not
// show as written: a control character, a line or paragraph separator, or
// a format character (the bidirectional overrides such as U+202E that
// reverse what follows, zero-width spaces and joiners such as U+200B).
// Every name and label read from a file is checked with it.
func Hidden(s string) (rune, bool) {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			return r, true
		}
	}
	return 0, false
}

// checker collects the first validation error with the path of the field
// and, when bounds is set, the range num allows each numeric field (for
// Fields: the bounds are the validation's own).
type checker struct {
	err    error
	bounds map[string][2]int
}

func (c *checker) fail(field, format string, args ...any) {
	if c.err == nil {
		c.err = &fieldError{field, fmt.Sprintf(format, args...)}
	}
}

// num checks lo ≤ v ≤ hi and returns v as int8.
func (c *checker) num(field string, v, lo, hi int) int8 {
	if c.bounds != nil {
		c.bounds[field] = [2]int{lo, hi}
	}
	if v < lo || v > hi {
		c.fail(field, "%d is out of range %d..%d", v, lo, hi)
		return 0
	}
	return int8(v)
}

func (c *checker) action(field, name string) Action {
	if a, ok := ParseAction(name); ok {
		return a
	}
	c.fail(field, "%q is not an action (one of %s)", name, strings.Join(actionNames[:], ", "))
	return 0
}

func (c *checker) district(r *Rules, field, name string) uint8 {
	if i := r.DistrictIndex(name); i >= 0 {
		return uint8(i)
	}
	c.fail(field, "%q is not a district", name)
	return 0
}

func compile(f *rulesFile) (*Rules, error) { return compileWith(&checker{}, f) }

func compileWith(c *checker, f *rulesFile) (*Rules, error) {
	r := &Rules{Name: f.Name, Version: f.Version}
	if f.Version == "" {
		c.fail("version", "empty")
	}
	c.label("version", f.Version, maxString)
	c.label("name", f.Name, maxName)
	compileBoard(c, f, r)
	compileTrack(c, f, r)
	compileColumns(c, f, r)
	compileCosts(c, f, r)
	compilePoliticians(c, f, r)
	compileRounds(c, f, r)
	r.Tiles[TileCelebrity] = compileTiles(c, "celebrity_tiles", f.CelebrityTiles)
	r.Tiles[TilePublicWorks] = compileTiles(c, "public_works_tiles", f.PublicWorksTiles)
	compileCards(c, f, r)
	compileSolo(c, f, r)
	compileDifficulties(c, f, r)
	compileBounds(c, r)
	r.Variants = Variants(f.Variants)
	r.FallbackMoney = c.num("opposition_fallback.money", f.OppositionFallback.Money, 0, MaxTrack)
	r.FallbackPop = c.num("opposition_fallback.popularity", f.OppositionFallback.Popularity, 0, MaxTrack)
	compileAutomaton(c, f, r)
	if c.err != nil {
		return nil, c.err
	}
	return r, nil
}

func compileBoard(c *checker, f *rulesFile, r *Rules) {
	if len(f.Districts) != NumDistricts {
		c.fail("districts", "has %d names, want %d (C-1)", len(f.Districts), NumDistricts)
		return
	}
	for i, d := range f.Districts {
		if d == "" || r.DistrictIndex(d) >= 0 {
			c.fail(fmt.Sprintf("districts[%d]", i), "%q is missing or a repeat", d)
		}
		c.label(fmt.Sprintf("districts[%d]", i), d, maxString)
		r.Districts[i] = d
	}
	if len(f.Spots) != NumActions {
		c.fail("spots", "has %d actions, want %d (C-2)", len(f.Spots), NumActions)
		return
	}
	seen := [NumActions]bool{}
	for i, s := range f.Spots {
		a := c.action(fmt.Sprintf("spots[%d]", i), s)
		if seen[a] {
			c.fail(fmt.Sprintf("spots[%d]", i), "%q appears twice", s)
		}
		seen[a] = true
		r.Spots[i] = a
		r.SpotOf[a] = int8(i)
	}
	r.CubesPerDistrict = c.num("cubes_per_district", f.CubesPerDistrict, 1, MaxCubes)
	r.PlazaCubes = c.num("plaza_cubes_at_setup", f.PlazaCubesAtSetup, 0, NumDistricts*int(r.CubesPerDistrict))
	if len(f.InitialSupport) != NumDistricts {
		c.fail("initial_support", "has %d values, want %d (C-4)", len(f.InitialSupport), NumDistricts)
	} else {
		for i, v := range f.InitialSupport {
			r.InitialSupport[i] = c.num(fmt.Sprintf("initial_support[%d]", i), v, 0, 100)
		}
	}
	r.BadgesPerPlayer = c.num("badges_per_player", f.BadgesPerPlayer, 1, MaxBadges)
	if len(f.Endorsements) != NumLevels {
		c.fail("endorsements", "has %d levels, want %d (C-5)", len(f.Endorsements), NumLevels)
		return
	}
	for i, e := range f.Endorsements {
		field := fmt.Sprintf("endorsements[%d]", i)
		if e.Level != i+1 {
			c.fail(field+".level", "%d, want %d (levels in order)", e.Level, i+1)
		}
		r.Endorsements[i] = Endorsement{
			Votes:           c.num(field+".votes", e.Votes, 0, 100),
			FavorMoney:      c.num(field+".favor_money", e.FavorMoney, 0, MaxTrack),
			FavorPopularity: c.num(field+".favor_popularity", e.FavorPopularity, 0, MaxTrack),
		}
	}
}

func compileTrack(c *checker, f *rulesFile, r *Rules) {
	t := f.Track
	r.TrackMax = c.num("track.max", t.Max, 1, MaxTrack)
	if len(t.VoteShareIcons) == 0 || len(t.VoteShareIcons) > MaxShareIcons {
		c.fail("track.vote_share_icons", "has %d positions, want 1..%d (C-8)", len(t.VoteShareIcons), MaxShareIcons)
	}
	prev := 0
	for i, p := range t.VoteShareIcons {
		field := fmt.Sprintf("track.vote_share_icons[%d]", i)
		r.ShareIcons = append(r.ShareIcons, c.num(field, p, 1, int(r.TrackMax)))
		if p <= prev {
			c.fail(field, "%d is not above the previous icon %d", p, prev)
		}
		prev = p
	}
	if len(t.EndorsementThresholds) != NumLevels {
		c.fail("track.endorsement_thresholds", "has %d values, want %d (C-9)", len(t.EndorsementThresholds), NumLevels)
	} else {
		prev = 0
		for i, p := range t.EndorsementThresholds {
			field := fmt.Sprintf("track.endorsement_thresholds[%d]", i)
			r.EndorseAt[i] = c.num(field, p, 1, int(r.TrackMax))
			if p <= prev {
				c.fail(field, "%d is not above the previous threshold %d", p, prev)
			}
			prev = p
		}
	}
	r.TokenSpace = c.num("track.token_space", t.TokenSpace, 1, int(r.TrackMax))
}

func compileColumns(c *checker, f *rulesFile, r *Rules) {
	if len(f.Columns) != NumColumns {
		c.fail("columns", "has %d columns, want %d (C-11)", len(f.Columns), NumColumns)
		return
	}
	for i, col := range f.Columns {
		if len(col) != NumRows {
			c.fail(fmt.Sprintf("columns[%d]", i), "has %d rows, want %d (C-11)", len(col), NumRows)
			continue
		}
		for j, p := range col {
			field := fmt.Sprintf("columns[%d][%d]", i, j)
			if len(p.Slots) != 2 {
				c.fail(field+".slots", "has %d slots, want 2", len(p.Slots))
				continue
			}
			for k, s := range p.Slots {
				n := slotIndex(s)
				if n < 0 {
					c.fail(fmt.Sprintf("%s.slots[%d]", field, k), "%q is not a slot (TL, BL, TR, BR)", s)
					continue
				}
				r.Columns[i][j].Slots[k] = uint8(n)
			}
			if p.Slots[0] == p.Slots[1] {
				c.fail(field+".slots", "connects %q twice", p.Slots[0])
			}
			r.Columns[i][j].Money = c.num(field+".money", p.Money, 0, MaxTrack)
			r.Columns[i][j].Popularity = c.num(field+".popularity", p.Popularity, 0, MaxTrack)
		}
	}
}

func slotIndex(s string) int {
	for i, n := range slotNames {
		if n == s {
			return i
		}
	}
	return -1
}

func compileCosts(c *checker, f *rulesFile, r *Rules) {
	a := f.Actions
	n := func(name string, v int) int8 { return c.num("actions."+name, v, 0, MaxTrack) }
	r.Costs = Costs{
		PublicWorksMoneyPerTier:           n("public_works_money_per_tier", a.PublicWorksMoneyPerTier),
		CelebrityMoneyPerTier:             n("celebrity_money_per_tier", a.CelebrityMoneyPerTier),
		CelebrityPopularityPerTier:        n("celebrity_popularity_per_tier", a.CelebrityPopularityPerTier),
		CelebrityCubes:                    n("celebrity_cubes", a.CelebrityCubes),
		ResearchPolling:                   n("research_polling", a.ResearchPolling),
		CampaignPopularity:                n("campaign_popularity", a.CampaignPopularity),
		CampaignPolling:                   n("campaign_polling", a.CampaignPolling),
		DirectAppealMoney:                 n("direct_appeal_money", a.DirectAppealMoney),
		DirectAppealPopularity:            n("direct_appeal_popularity", a.DirectAppealPopularity),
		RallyPopularityPerStrength:        n("rally_popularity_per_strength", a.RallyPopularityPerStrength),
		PlazaFundraiseMoneyPerDistrict:    n("plaza_fundraise_money_per_district", a.PlazaFundraiseMoneyPerDistrict),
		DistrictFundraiseMoneyPerStrength: n("district_fundraise_money_per_strength", a.DistrictFundraiseMoneyPerStrength),
	}
}

func compilePoliticians(c *checker, f *rulesFile, r *Rules) {
	if len(f.Politicians) == 0 || len(f.Politicians) > MaxPoliticians {
		c.fail("politicians", "has %d politicians, want 1..%d (C-12)", len(f.Politicians), MaxPoliticians)
	}
	ids := map[string]bool{}
	for i, p := range f.Politicians {
		field := fmt.Sprintf("politicians[%d]", i)
		c.id(field+".id", p.ID, ids)
		if p.ID == "random" || p.ID == "all" {
			c.fail(field+".id", "%q is reserved for --politician", p.ID)
		}
		pol := Politician{
			ID:         p.ID,
			Money:      c.num(field+".money", p.Money, 0, int(r.TrackMax)),
			Popularity: c.num(field+".popularity", p.Popularity, 0, int(r.TrackMax)),
		}
		for _, d := range sortedKeys(p.Polling) {
			di := c.district(r, field+".polling", d)
			pol.Polling[di] = c.num(field+".polling."+d, p.Polling[d], 0, int(r.TrackMax))
		}
		r.Politicians = append(r.Politicians, pol)
	}
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func (c *checker) reward(field string, w rewardFile, allowed ...RewardKind) Reward {
	for _, k := range allowed {
		if rewardKinds[k] == w.Kind {
			return Reward{Kind: k, Amount: c.num(field+".amount", w.Amount, 1, MaxTrack)}
		}
	}
	names := make([]string, len(allowed))
	for i, k := range allowed {
		names[i] = rewardKinds[k]
	}
	c.fail(field+".kind", "%q is not one of %s", w.Kind, strings.Join(names, ", "))
	return Reward{}
}

func compileRounds(c *checker, f *rulesFile, r *Rules) {
	if len(f.Rounds) == 0 || len(f.Rounds) > MaxRounds {
		c.fail("rounds", "has %d rounds, want 1..%d (C-13)", len(f.Rounds), MaxRounds)
		return
	}
	all := []RewardKind{RewardMoney, RewardPopularity, RewardPolling, RewardVoteShare}
	for i, w := range f.Rounds {
		field := fmt.Sprintf("rounds[%d]", i)
		rd := Round{
			Turns:                  c.num(field+".turns", w.Turns, 1, NumColumns),
			HandSize:               c.num(field+".hand_size", w.HandSize, 1, MaxHand),
			Presence:               c.reward(field+".presence", w.Presence, all...),
			DistrictMajority:       c.reward(field+".district_majority", w.DistrictMajority, all...),
			PlazaMajority:          c.reward(field+".plaza_majority", w.PlazaMajority, RewardMoney, RewardPopularity),
			OppositionPlazaAdvance: w.OppositionPlazaAdvance,
		}
		if rd.HandSize < rd.Turns {
			c.fail(field+".hand_size", "%d is less than the round's %d turns", rd.HandSize, rd.Turns)
		}
		if i == 0 && int(rd.HandSize) != NumDecks {
			c.fail(field+".hand_size", "%d, but the setup hand is one card from each of the %d decks", rd.HandSize, NumDecks)
		}
		r.Rounds = append(r.Rounds, rd)
	}
}

func compileTiles(c *checker, field string, tiers [][]string) [NumTiers][]Face {
	var out [NumTiers][]Face
	if len(tiers) != NumTiers {
		c.fail(field, "has %d tiers, want %d (C-14)", len(tiers), NumTiers)
		return out
	}
	for t, faces := range tiers {
		if len(faces) == 0 || len(faces) > MaxPile {
			c.fail(fmt.Sprintf("%s[%d]", field, t), "has %d tiles, want 1..%d", len(faces), MaxPile)
		}
		for i, s := range faces {
			face, ok := parseFace(s)
			if !ok {
				c.fail(fmt.Sprintf("%s[%d][%d]", field, t, i), "%q is not a face (letters R, B, G, Y for the Districts in order, M for multi-colour)", s)
			}
			out[t] = append(out[t], face)
		}
	}
	return out
}

// faceLetters names cube icons by the canonical District order (C-14).
const faceLetters = "RBGY"

func parseFace(s string) (Face, bool) {
	var f Face
	if len(s) > 8 {
		return f, false
	}
	for _, ch := range s {
		if ch == 'M' {
			f.Multi++
			continue
		}
		i := strings.IndexRune(faceLetters, ch)
		if i < 0 {
			return f, false
		}
		f.Cubes[i]++
	}
	return f, true
}

// String writes a face back in the rules-file notation.
func (f Face) String() string {
	var b strings.Builder
	for i, n := range f.Cubes {
		for range n {
			b.WriteByte(faceLetters[i])
		}
	}
	for range f.Multi {
		b.WriteByte('M')
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}

func compileCards(c *checker, f *rulesFile, r *Rules) {
	ids := map[string]bool{}
	for i, cf := range f.StrategyCards {
		field := fmt.Sprintf("strategy_cards[%d]", i)
		c.id(field+".id", cf.ID, ids)
		card := Card{ID: cf.ID, Deck: c.action(field+".deck", cf.Deck)}
		if len(cf.Slots) != NumSlots {
			c.fail(field+".slots", "has %d icons, want %d (TL, BL, TR, BR)", len(cf.Slots), NumSlots)
		} else {
			for k, s := range cf.Slots {
				card.Slots[k] = c.icon(fmt.Sprintf("%s.slots[%d]", field, k), s)
			}
		}
		card.Ability = c.ability(field+".ability", cf.Ability)
		r.Cards = append(r.Cards, card)
		r.DeckCards[card.Deck] = append(r.DeckCards[card.Deck], uint8(i))
	}
	for d := range NumDecks {
		if n := len(r.DeckCards[d]); n == 0 || n > MaxDeckCards {
			c.fail("strategy_cards", "the %s deck has %d cards, want 1..%d", Action(d), n, MaxDeckCards)
		}
	}
	// Clean Up returns every card before the draws, so a hand can always
	// be filled when the cards number at least the largest hand.
	for i, rd := range r.Rounds {
		if int(rd.HandSize) > len(r.Cards) {
			c.fail(fmt.Sprintf("rounds[%d].hand_size", i), "%d is more than the %d Strategy cards", rd.HandSize, len(r.Cards))
		}
	}
}

// icon parses a slot: an action name, "money:N" or "popularity:N".
func (c *checker) icon(field, s string) Icon {
	if kind, amount, ok := strings.Cut(s, ":"); ok {
		n, err := strconv.Atoi(amount)
		if err != nil || n < 1 || n > MaxTrack {
			c.fail(field, "%q: the amount must be 1..%d", s, MaxTrack)
			return Icon{}
		}
		switch kind {
		case "money":
			return Icon{Money: int8(n)}
		case "popularity":
			return Icon{Popularity: int8(n)}
		}
		c.fail(field, "%q: the resource must be money or popularity", s)
		return Icon{}
	}
	return Icon{IsAction: true, Action: c.action(field, s)}
}

func (c *checker) ability(field string, a abilityFile) Ability {
	k, ok := ParseAbilityKind(a.Kind)
	if !ok {
		c.fail(field+".kind", "%q is not one of %s", a.Kind, strings.Join(abilityKinds, ", "))
		return Ability{}
	}
	ab := Ability{
		Kind:       k,
		Money:      c.num(field+".money", a.Money, 0, MaxTrack),
		Popularity: c.num(field+".popularity", a.Popularity, 0, MaxTrack),
		Polling:    c.num(field+".polling", a.Polling, 0, MaxTrack),
	}
	switch ab.Kind {
	case AbilityPollingHere, AbilityPollingAny, AbilityResearchBonus:
		if ab.Polling == 0 {
			c.fail(field+".polling", "missing: %s needs an amount", a.Kind)
		}
	case AbilityGain:
		if ab.Money == 0 && ab.Popularity == 0 {
			c.fail(field, "gain needs money or popularity")
		}
	case AbilityDiscount:
		ab.Action = c.action(field+".action", a.Action)
		if ab.Money == 0 && ab.Popularity == 0 {
			c.fail(field, "discount needs money or popularity")
		}
	}
	if ab.Kind != AbilityDiscount && a.Action != "" {
		c.fail(field+".action", "only a discount names an action")
	}
	return ab
}

func compileSolo(c *checker, f *rulesFile, r *Rules) {
	if len(f.SoloCards) == 0 || len(f.SoloCards) > MaxSoloCards {
		c.fail("solo_cards", "has %d cards, want 1..%d (C-16)", len(f.SoloCards), MaxSoloCards)
	}
	// The Opposition flips one card a turn and its cards come back only at
	// Clean Up (I-19 reforms the deck from the box, never from the board),
	// so a round needs at least as many Solo cards as it has turns.
	for i, rd := range r.Rounds {
		if int(rd.Turns) > len(f.SoloCards) && len(f.SoloCards) > 0 {
			c.fail("solo_cards", "has %d cards, fewer than the %d turns of rounds[%d] (the Opposition flips one a turn)", len(f.SoloCards), rd.Turns, i)
		}
	}
	ids := map[string]bool{}
	for i, s := range f.SoloCards {
		field := fmt.Sprintf("solo_cards[%d]", i)
		c.id(field+".id", s.ID, ids)
		sc := SoloCard{
			ID:            s.ID,
			LeftDistrict:  c.district(r, field+".left_district", s.LeftDistrict),
			RightDistrict: c.district(r, field+".right_district", s.RightDistrict),
			LeftAction:    c.action(field+".left_action", s.LeftAction),
			RightAction:   c.action(field+".right_action", s.RightAction),
		}
		if c.err == nil && sc.LeftDistrict == sc.RightDistrict {
			c.fail(field+".right_district", "%q is the same as the left district", s.RightDistrict)
		}
		r.Solo = append(r.Solo, sc)
	}
}

func compileDifficulties(c *checker, f *rulesFile, r *Rules) {
	for m, d := range []difficultyFile{f.Difficulties.Normal, f.Difficulties.Hard} {
		field := "difficulties." + Mode(m).String()
		diff := Difficulty{
			PlayerInitiative:    c.num(field+".player_initiative", d.PlayerInitiative, 1, 2),
			CelebrityAllTiers:   c.num(field+".celebrity_all_tiers", d.CelebrityAllTiers, 1, NumTiers),
			PlazaLowestTrackers: c.num(field+".plaza_lowest_trackers", d.PlazaLowestTrackers, 1, NumDistricts),
			BonusDivisor:        c.num(field+".bonus_divisor", d.BonusDivisor, 1, MaxTrack),
		}
		switch d.BonusRounding {
		case "down":
			diff.BonusRounding = RoundDown
		case "up":
			diff.BonusRounding = RoundUp
		default:
			c.fail(field+".bonus_rounding", "%q is not down or up", d.BonusRounding)
		}
		r.Difficulties[m] = diff
	}
}
