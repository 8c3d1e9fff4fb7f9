package engine

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"tallywood/engine/kit"
)

// Fixed shape of the game. These are the structure the rules file fills in,
// not tunable numbers: the board has four Districts with four action spots,
// the player board four columns of three rows, a card four slots (C-1, C-2,
// C-11) and tiles three tiers (C-14). The Max constants bound the fixed
// arrays of the State; a rules file beyond them is refused by Load.
const (
	NumDistricts = 4
	NumActions   = 4
	NumSlots     = 4
	NumColumns   = 4
	NumRows      = 3
	NumTiers     = 3
	NumLevels    = 3
	NumDecks     = NumActions
	MaxSeats     = 4

	MaxPile       = 12 // tiles of one kind and tier
	MaxTiles      = 2 * NumTiers * MaxPile
	MaxDeckCards  = 32 // Strategy cards of one deck
	MaxSoloCards  = 48
	MaxRounds     = 8
	MaxHand       = 8
	MaxTrack      = 40
	MaxShareIcons = 10
	MaxBadges     = 12
	MaxCubes      = 20 // per colour
	// MaxPlayVotes bounds the votes a seat gains during play (GainVotes, a
	// scripted Opposition's), so that every total fits the tally's sums.
	MaxPlayVotes = 200
)

// Action is one of the four District Strategy Actions, in canonical order
// (reference set, "Canonical orders"). It also names a Strategy deck.
type Action uint8

const (
	PublicWorks Action = iota
	Celebrity
	Research
	Campaign
)

var actionNames = [NumActions]string{"Public Works", "Celebrity", "Research", "Campaign"}

func (a Action) String() string {
	if int(a) < NumActions {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", a)
}

// Slot positions on a Strategy card (C-11), canonical order TL, BL, TR, BR.
const (
	SlotTL = iota
	SlotBL
	SlotTR
	SlotBR
)

var slotNames = [NumSlots]string{"TL", "BL", "TR", "BR"}

// SlotName is slot s's name, as rules files, menus and scenarios write it:
// TL, BL, TR or BR.
func SlotName(s int) string { return slotNames[s] }

// Icon is what a card slot shows: a Strategy icon of an Action, or a
// resource gained as income.
type Icon struct {
	IsAction   bool
	Action     Action
	Money      int8
	Popularity int8
}

// AbilityKind enumerates the card abilities of C-15.
type AbilityKind uint8

const (
	AbilityPollingHere   AbilityKind = iota // +N Polling in this District
	AbilityPollingAny                       // +N Polling in a District of your choice
	AbilityGain                             // +Money and/or +Popularity
	AbilityDrawCube                         // bag → Plaza
	AbilityAttractCube                      // Plaza → any District
	AbilityDrawAttract                      // draw, then attract
	AbilityDiscount                         // passive: an Action costs less
	AbilityResearchBonus                    // passive: each Research gains extra Polling
)

var abilityKinds = []string{"polling_here", "polling_any", "gain", "draw_cube", "attract_cube", "draw_attract", "discount", "research_bonus"}

// String is the kind as the rules file writes it: polling_here, gain...
func (k AbilityKind) String() string {
	if int(k) < len(abilityKinds) {
		return abilityKinds[k]
	}
	return fmt.Sprintf("AbilityKind(%d)", k)
}

// ParseAbilityKind reads a kind as the rules file writes it.
func ParseAbilityKind(s string) (AbilityKind, bool) {
	for i, n := range abilityKinds {
		if n == s {
			return AbilityKind(i), true
		}
	}
	return 0, false
}

// ParseAction reads an action by its name, as the rules file writes it.
func ParseAction(s string) (Action, bool) {
	for i, n := range actionNames {
		if n == s {
			return Action(i), true
		}
	}
	return 0, false
}

// Notation writes a slot's icon as the rules file does: an action's
// name, "money:N" or "popularity:N".
func (ic Icon) Notation() string {
	switch {
	case ic.IsAction:
		return ic.Action.String()
	case ic.Money > 0:
		return fmt.Sprintf("money:%d", ic.Money)
	}
	return fmt.Sprintf("popularity:%d", ic.Popularity)
}

// Passive reports whether the ability is constantly in effect for the rest
// of the round (rulebook Strategy Phase 5.a) rather than used once.
func (k AbilityKind) Passive() bool { return k == AbilityDiscount || k == AbilityResearchBonus }

// Ability is the banner of a Strategy card.
type Ability struct {
	Kind       AbilityKind
	Action     Action // the discounted Action, for AbilityDiscount
	Money      int8
	Popularity int8
	Polling    int8
}

// Card is a Strategy card.
type Card struct {
	ID      string
	Deck    Action
	Slots   [NumSlots]Icon
	Ability Ability
}

// SoloCard is an Opposition card (C-16): two Districts on top, two actions
// at the bottom.
type SoloCard struct {
	ID                          string
	LeftDistrict, RightDistrict uint8
	LeftAction, RightAction     Action
}

// Face is what a tile shows: voter-cube icons by colour, plus multi-colour
// icons that count as the colour of the District the tile is in (C-14).
type Face struct {
	Cubes [NumDistricts]int8
	Multi int8
}

// RewardKind is what a Round card reward grants (C-13).
type RewardKind uint8

const (
	RewardMoney RewardKind = iota
	RewardPopularity
	RewardPolling   // in the District scored
	RewardVoteShare // +1 Vote Share in the District at the Final Tally
)

var rewardKinds = []string{"money", "popularity", "polling", "vote_share"}

// Reward is one of the three rewards of a Round card.
type Reward struct {
	Kind   RewardKind
	Amount int8
}

// Round is a Round card (C-13).
type Round struct {
	Turns            int8
	HandSize         int8
	Presence         Reward
	DistrictMajority Reward
	PlazaMajority    Reward
	// OppositionPlazaAdvance marks the rounds (3 and 4) in which the
	// Opposition's Plaza majority advances its lowest Polling trackers
	// instead of the printed reward (rulebook Solo Round Scoring, I-14).
	OppositionPlazaAdvance bool
}

// Placement is one row of one action column (C-11): the two card slots it
// connects and the resources printed on the board there.
type Placement struct {
	Slots      [2]uint8
	Money      int8
	Popularity int8
}

// Politician sets a player's starting trackers (C-12).
type Politician struct {
	ID         string
	Money      int8
	Popularity int8
	Polling    [NumDistricts]int8
}

// Endorsement is one level of a District's Endorsement token (C-5).
type Endorsement struct {
	Votes           int8
	FavorMoney      int8
	FavorPopularity int8
}

// Rounding of the Opposition's final resource bonus.
type Rounding uint8

const (
	RoundDown Rounding = iota
	RoundUp
)

// Difficulty holds the numbers in which Normal and Hard differ (rulebook
// Solo Mode, I-14, I-20).
type Difficulty struct {
	PlayerInitiative    int8 // 1: the player goes first in round 1
	CelebrityAllTiers   int8 // Celebrity tier when every tier is present
	PlazaLowestTrackers int8 // how many lowest trackers advance (I-14)
	BonusDivisor        int8
	BonusRounding       Rounding
}

// Mode selects a Difficulty.
type Mode uint8

const (
	Normal Mode = iota
	Hard
)

func (m Mode) String() string {
	if m == Hard {
		return "hard"
	}
	return "normal"
}

// ParseMode reads "normal" or "hard".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "normal":
		return Normal, nil
	case "hard":
		return Hard, nil
	}
	return 0, fmt.Errorf("engine: mode %q is not normal or hard", s)
}

// Variants are the switches V-1…V-4 and the rule switches for readings
// that are defensible either way (docs/scenarios.md "Rule switches").
type Variants struct {
	OppositionRespectsBlocks     bool // V-1
	OppositionCleanupAfterRound4 bool // V-2
	OppositionPlazaPopularityToo bool // V-3
	EndorsementsScoreForHolder   bool // V-4
	// EndorsementCheckEveryDistrict: at the end of a player's turn the
	// Endorsement check (I-6) covers every District it took an action in
	// this round, as the rulebook's example words it ("took Actions in the
	// red District this round"); off, only this turn's District.
	EndorsementCheckEveryDistrict bool
	// UpgradedFavorInheritsUsed: an Endorsement token taken in exchange
	// for a lower one is already used as a Favor this round if the lower
	// one was (I-5); off, the new token is ready.
	UpgradedFavorInheritsUsed bool
	// TurnsClockwise: in the Strategy Phase play passes clockwise from the
	// holder of the "1" token (rulebook Strategy Phase: "play proceeds to
	// the next player clockwise"); off, in the Initiative token order
	// (Flow of Play Overview). Only three or four players tell them apart.
	TurnsClockwise bool
	// ReformDeckAtOnce: a Strategy deck is reformed from its discards the
	// moment its last card is drawn (Clean Up 7: "If a deck runs out");
	// off, when a player next draws from it, with the cards discarded in
	// between.
	ReformDeckAtOnce bool
}

// Costs are the numbers printed in the rulebook's action descriptions.
type Costs struct {
	PublicWorksMoneyPerTier           int8
	CelebrityMoneyPerTier             int8
	CelebrityPopularityPerTier        int8
	CelebrityCubes                    int8
	ResearchPolling                   int8
	CampaignPopularity                int8
	CampaignPolling                   int8
	DirectAppealMoney                 int8
	DirectAppealPopularity            int8
	RallyPopularityPerStrength        int8
	PlazaFundraiseMoneyPerDistrict    int8
	DistrictFundraiseMoneyPerStrength int8
}

// Rules is a validated, immutable rule set. Share it by pointer; never
// change it after Load.
type Rules struct {
	// Name is the rules file's own short name ("reference" for the
	// reference set), empty when the file gives none; see Label.
	Name    string
	Version string
	// Hash is the sha256, in hex, of the canonical form without the
	// metadata (name, version, notes): equal hashes mean the same play.
	Hash string
	// Overrides lists the PATH=VALUE assignments With applied to the
	// rules file, in order, so results can record them.
	Overrides []string
	// File is the path LoadFile read the rules from, as given, so that a
	// result can name it in the command that reproduces it; empty for the
	// reference set and for rules parsed from bytes. With keeps it.
	File             string
	Districts        [NumDistricts]string
	Spots            [NumActions]Action // spot index (left to right) → Action
	SpotOf           [NumActions]int8   // Action → spot index
	CubesPerDistrict int8
	PlazaCubes       int8
	InitialSupport   [NumDistricts]int8
	BadgesPerPlayer  int8
	Endorsements     [NumLevels]Endorsement
	TrackMax         int8
	ShareIcons       []int8
	EndorseAt        [NumLevels]int8
	TokenSpace       int8
	Columns          [NumColumns][NumRows]Placement
	Costs            Costs
	Politicians      []Politician
	Rounds           []Round
	Tiles            [2][NumTiers][]Face // [TileCelebrity|TilePublicWorks][tier-1]
	Cards            []Card
	DeckCards        [NumDecks][]uint8 // card indexes of each deck
	Solo             []SoloCard
	Difficulties     [2]Difficulty
	Variants         Variants
	FallbackMoney    int8
	FallbackPop      int8
	// Automaton is the scripted Opposition the file names, nil for the
	// built-in one (package opposition).
	Automaton *Automaton

	source   []byte             // canonical JSON
	sharesAt [MaxTrack + 1]int8 // SharesAt by position, computed at Parse
}

//go:embed reference.json
var referenceJSON []byte

// ReferenceJSON returns the default rules file: the reference set, a
// reconstruction of the components (docs/rules.md defines its ids).
func ReferenceJSON() []byte { return bytes.Clone(referenceJSON) }

var reference *Rules

func init() {
	r, err := Parse(referenceJSON)
	if err != nil {
		panic("engine: embedded reference rules: " + err.Error())
	}
	reference = r
}

// Reference returns the embedded reference rule set.
func Reference() *Rules { return reference }

// ReferenceName is the name of the reference set's rules file.
const ReferenceName = "reference"

// IsReference reports whether r plays exactly as the reference set, whatever
// its name, version and notes say.
func (r *Rules) IsReference() bool { return r.Hash == reference.Hash }

// Label names the rules for a person: "reference" for rules that play as
// the reference set; otherwise the file's name, or "edited reference" when
// the file still carries the reference set's name (a dumped copy that was
// changed, or the reference set with --set assignments). It is empty when
// the file gives no name; callers then name the rules by their file.
func (r *Rules) Label() string {
	switch {
	case r.IsReference():
		return ReferenceName
	case r.Name == ReferenceName:
		return "edited reference"
	}
	return r.Name
}

// ShortHash is the first 12 hex digits of a rules hash, the form output
// shows: enough to tell two rule sets apart at a glance.
func ShortHash(h string) string { return h[:min(12, len(h))] }

// IsRulesHash reports whether s has the form of a rules hash as files
// that name rules write it (a save file, a record of decisions): a
// SHA-256 in 64 lower-case hex digits.
func IsRulesHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// errTooLarge refuses a rules file larger than MaxRulesFileSize.
var errTooLarge = fmt.Errorf("the file is larger than the %d bytes (1 MiB) allowed", MaxRulesFileSize)

// LoadFile reads and validates a rules file.
func LoadFile(path string) (*Rules, error) {
	b, err := kit.ReadFileMax(path, MaxRulesFileSize)
	var big *kit.TooLargeError
	var pe *fs.PathError
	switch {
	case errors.As(err, &big):
		return nil, fmt.Errorf("%s: rules: %v", path, errTooLarge)
	case errors.As(err, &pe):
		// The path once, with what went wrong ("no such file or directory").
		return nil, fmt.Errorf("rules file %s: %w", path, pe.Err)
	case err != nil:
		return nil, fmt.Errorf("rules file: %w", err)
	}
	r, err := parse(b, readBeside(path))
	if err != nil {
		return nil, fmt.Errorf("%s: rules: %w", path, err)
	}
	r.File = path
	return r, nil
}

// Parse validates a rules file and compiles it. The error names the field
// that is wrong and why, and the line for a problem of the JSON itself.
func Parse(data []byte) (*Rules, error) {
	r, err := parse(data, nil)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return r, nil
}

// ParseBeside is Parse for a rules file that may name its automaton's
// script by file: read reads a file named beside the rules file (a
// scenario's folder, which must keep it inside). LoadFile reads beside the
// file it loads.
func ParseBeside(data []byte, read func(name string) ([]byte, error)) (*Rules, error) {
	r, err := parse(data, read)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return r, nil
}

// parse is Parse, its error unprefixed: With words it as a SetError.
// read reads a script the file names beside it (nil: none may be named).
func parse(data []byte, read scriptReader) (*Rules, error) {
	if len(data) > MaxRulesFileSize {
		return nil, errTooLarge
	}
	// Windows editors may start a UTF-8 file with a byte-order mark: it
	// says nothing about the rules, so it is dropped rather than refused
	// as "invalid character 'ï'".
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	var f rulesFile
	if err := decodeStrict(data, "", &f); err != nil {
		return nil, decodeError(data, err)
	}
	if err := inlineScript(&f, read); err != nil {
		return nil, err
	}
	r, err := compile(&f)
	if err != nil {
		return nil, err
	}
	canon, err := json.Marshal(&f)
	if err != nil {
		return nil, err
	}
	play, err := json.Marshal(playForm(f))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(play)
	r.Hash = hex.EncodeToString(sum[:])
	for p := range r.sharesAt {
		for _, icon := range r.ShareIcons {
			if int8(p) >= icon {
				r.sharesAt[p]++
			}
		}
	}
	r.source = canon
	return r, nil
}

// playForm is the rules file without its metadata (name, version, notes)
// and with the polling entries of 0 dropped, which read as absent ones do:
// what the Hash covers, so that two files that play the same hash the same.
func playForm(f rulesFile) rulesFile {
	f.Name, f.Version, f.Notes = "", "", ""
	f.Automaton.Name = "" // the script's content plays, not its file's name
	pols := make([]politicianFile, len(f.Politicians))
	for i, p := range f.Politicians {
		var polling map[string]int
		for d, v := range p.Polling {
			if v != 0 {
				if polling == nil {
					polling = map[string]int{}
				}
				polling[d] = v
			}
		}
		p.Polling = polling
		pols[i] = p
	}
	f.Politicians = pols
	return f
}

// DistrictIndex returns the index of a District by name, or -1.
func (r *Rules) DistrictIndex(name string) int {
	for i, d := range r.Districts {
		if d == name {
			return i
		}
	}
	return -1
}

// PoliticianIndex returns the index of a politician by id, or -1.
func (r *Rules) PoliticianIndex(id string) int {
	for i, p := range r.Politicians {
		if p.ID == id {
			return i
		}
	}
	return -1
}

// Canonical returns the rules in their canonical JSON form, metadata
// included.
func (r *Rules) Canonical() []byte { return bytes.Clone(r.source) }

// LastRound is the index of the final round (no Clean Up after it).
func (r *Rules) LastRound() int { return len(r.Rounds) - 1 }

// SharesAt is the number of Vote Share icons a tracker at position p has
// reached (C-8).
func (r *Rules) SharesAt(p int8) int8 { return r.sharesAt[p] }

// EntitledLevel is the highest Endorsement level (1..3) a polling position
// entitles to, 0 for none (C-9).
func (r *Rules) EntitledLevel(p int8) int8 {
	lvl := int8(0)
	for i, t := range r.EndorseAt {
		if p >= t {
			lvl = int8(i + 1)
		}
	}
	return lvl
}
