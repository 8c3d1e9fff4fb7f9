package script

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/opposition"
)

// apiFunc is one function of the automaton API: its name, its parameters
// as docs/automaton.md writes them, the hooks it may be called from (none:
// any hook), and its body. A function that changes the game is a step of
// the engine, which refuses a step the rules do not allow.
type apiFunc struct {
	name   string
	params string
	hooks  []hook
	fn     func(c *call, args starlark.Tuple) (starlark.Value, error)
}

// The hooks the primitives belong to.
var (
	inTurn    = []hook{hookTurn}
	inPlaza   = []hook{hookPlaza}
	inCleanUp = []hook{hookCleanUp}
	inGains   = []hook{hookTurn, hookPlaza, hookCleanUp}
)

// api is the whole automaton API, in the order docs/automaton.md lists it.
var api = []apiFunc{
	// The rules.
	{"districts", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) { return c.a.w.districts, nil }},
	{"actions", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) { return c.a.w.actions, nil }},
	{"mode", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) { return modes[c.g.Mode], nil }},
	{"difficulty", "(name)", nil, difficulty},
	{"variant", "(name)", nil, variant},
	{"rounds", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt(len(c.g.Rules().Rounds)), nil
	}},
	{"track_max", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt(int(c.g.Rules().TrackMax)), nil
	}},
	{"token_space", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt(int(c.g.Rules().TokenSpace)), nil
	}},
	{"entitled_level", "(position)", nil, entitledLevel},
	{"fallback_gain", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) { return c.a.w.fallback, nil }},
	{"strings", "(column)", nil, func(c *call, args starlark.Tuple) (starlark.Value, error) {
		col, err := columnArg(args, 0, 1)
		if err != nil {
			return nil, err
		}
		return c.a.w.strings[col], nil
	}},

	// Where the game is.
	{"current_round", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt(int(c.g.Round) + 1), nil
	}},
	{"current_turn", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt(int(c.g.Turn) + 1), nil
	}},

	// A seat's trackers and holdings.
	{"money", "(who)", nil, seatNumber(func(g *engine.Game, s int8) int { return int(g.Seats[s].Money) })},
	{"popularity", "(who)", nil, seatNumber(func(g *engine.Game, s int8) int { return int(g.Seats[s].Popularity) })},
	{"badges_left", "(who)", nil, seatNumber(func(g *engine.Game, s int8) int { return int(g.BadgesLeft(s)) })},
	{"votes", "(who)", nil, seatNumber(func(g *engine.Game, s int8) int { return int(g.Seats[s].Votes) })},
	{"polling", "(who, district)", nil, seatDistrict(func(g *engine.Game, s, d int8) int { return int(g.Seats[s].Polling[d]) })},
	{"vote_shares", "(who, district)", nil, seatDistrict(func(g *engine.Game, s, d int8) int { return int(g.VoteShares(s, d)) })},
	{"majority_shares", "(who, district)", nil, seatDistrict(func(g *engine.Game, s, d int8) int { return int(g.Seats[s].MajorityShares[d]) })},
	{"final_shares", "(who, district)", nil, seatDistrict(func(g *engine.Game, s, d int8) int {
		return int(g.VoteShares(s, d) + g.Seats[s].MajorityShares[d])
	})},
	{"endorsement", "(who, district)", nil, seatDistrict(func(g *engine.Game, s, d int8) int { return int(g.EndorsementHeld(s, d)) })},
	{"strength", "(who, region)", nil, strength},
	{"resource_bonus", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt(int(c.g.ResourceBonus(c.seat))), nil
	}},

	// The board.
	{"spot_free", "(district, action)", nil, spotFree},
	{"spot_holder", "(district, action)", nil, spotHolder},
	{"token_holder", "(district)", nil, tokenHolder},
	{"endorsement_holder", "(district, level)", nil, endorsementHolder},
	{"cubes", "(region)", nil, cubes},
	{"support", "(district)", nil, support},
	{"tiles", "(district)", nil, tilesIn(false)},
	{"face_down", "(district)", nil, tilesIn(true)},
	{"count_face_down", "(district)", nil, func(c *call, args starlark.Tuple) (starlark.Value, error) {
		d, err := c.oneDistrict(args)
		if err != nil {
			return nil, err
		}
		n := 0
		for i := range int(c.g.NPlaced) {
			if t := &c.g.Placed[i]; t.District == d && !t.FaceUp {
				n++
			}
		}
		return starlark.MakeInt(n), nil
	}},
	{"tiles_left", "(kind, tier)", nil, tilesLeft},
	{"solo_deck", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) { return starlark.MakeInt(int(c.g.Solo.N)), nil }},
	{"solo_box", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) {
		return starlark.MakeInt(int(c.g.SoloBox.N)), nil
	}},
	{"board", "()", nil, board},
	{"assistant", "(column)", nil, assistant},

	// Narration and chance.
	{"recording", "()", nil, func(c *call, _ starlark.Tuple) (starlark.Value, error) { return starlark.Bool(c.g.Recording()), nil }},
	{"note", "(district, rule, text, *args)", nil, note},
	{"plural", "(n, word)", nil, plural},
	{"chance", "(n)", nil, chance},

	// The Opposition's turn (Solo Gameplay 1–5, I-9, I-10).
	{"flip", "(card=None)", inTurn, flip},
	{"reveal_solo", "(n)", inTurn, revealSolo},
	{"solo_to_bottom", "(card)", inTurn, soloToBottom},
	{"move_assistant", "(column, district)", inTurn, moveAssistant},
	{"try_action", "(district, action)", inTurn, tryAction},
	{"occupy", "(column, action)", inTurn, occupy},
	{"no_spot", "(column, rule)", inTurn, noSpot},
	{"count_fallback", "(kind)", inTurn, countFallback},

	// Gains, in a turn, Round Scoring or Clean Up.
	{"gain", "(money, popularity, rule)", inGains, gain},
	{"gain_polling", "(district, n, rule)", inGains, gainPolling},
	{"gain_votes", "(n, rule)", inGains, gainVotes},

	// Round Scoring (I-14) and Clean Up (Solo Clean Up 1–5, I-15).
	{"plaza_advance", "(amount, rule)", inPlaza, plazaAdvance},
	{"box_solo_cards", "()", inCleanUp, boxSoloCards},
	{"take_endorsement", "(district)", inCleanUp, takeEndorsement},
	{"take_vote_share_token", "(district, rule)", inCleanUp, takeToken},
}

// modes are the difficulties' names as values, made once.
var modes = [2]starlark.Value{starlark.String(engine.Normal.String()), starlark.String(engine.Hard.String())}

// predeclared is every name a script may use besides its own and
// Starlark's: the API, ME and YOU, and the sandbox's charged builtins.
var predeclared = func() starlark.StringDict {
	d := sandboxBuiltins()
	d["ME"], d["YOU"] = me, you
	d["print"] = starlark.NewBuiltin("print", printNote)
	for _, f := range api {
		d[f.name] = builtin(f)
	}
	return d
}()

// builtin wraps an API function: it reads the game, so it runs only in a
// hook, and a primitive only in the hooks it belongs to.
func builtin(f apiFunc) *starlark.Builtin {
	var allowed uint // bit h: hook h may call it; none set: any hook
	for _, h := range f.hooks {
		allowed |= 1 << h
	}
	return starlark.NewBuiltin(f.name, func(thread *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		c := callOf(thread)
		if c.g == nil {
			return nil, fmt.Errorf("%s() reads the game: call it from a hook, not at the top level", f.name)
		}
		if allowed != 0 && allowed&(1<<c.hook) == 0 {
			return nil, fmt.Errorf("%s() is a step of %s, not of %s()", f.name, hookList(f.hooks), hookNames[c.hook])
		}
		if len(kwargs) > 0 {
			if f.name != "flip" || len(kwargs) != 1 || kwargs[0][0] != starlark.String("card") {
				return nil, fmt.Errorf("%s%s takes no keyword arguments", f.name, f.params)
			}
			args = append(args, kwargs[0][1])
		}
		return f.fn(c, args)
	})
}

func hookList(hs []hook) string {
	var names []string
	for _, h := range hs {
		names = append(names, hookNames[h]+"()")
	}
	return strings.Join(names, ", ")
}

// arity checks the number of arguments.
func arity(name string, args starlark.Tuple, lo, hi int) error {
	if len(args) < lo || len(args) > hi {
		return fmt.Errorf("%s takes %d arguments, not %d", name, lo, len(args))
	}
	return nil
}

func columnArg(args starlark.Tuple, i, n int) (int8, error) {
	if len(args) != n {
		return 0, fmt.Errorf("wrong number of arguments: %d, want %d", len(args), n)
	}
	return column(args[i])
}

// seat reads ME or YOU.
func (c *call) seatOf(v starlark.Value) (int8, error) {
	switch v {
	case me:
		return c.seat, nil
	case you:
		if c.you == engine.NoSeat {
			return 0, fmt.Errorf("there is no YOU at this table")
		}
		return c.you, nil
	}
	return 0, fmt.Errorf("a seat is ME or YOU, not %s", v)
}

// who names a seat back: ME, YOU, or None for none.
func (c *call) who(s int8) starlark.Value {
	switch s {
	case c.seat:
		return me
	case engine.NoSeat:
		return starlark.None
	}
	return you
}

func seatNumber(get func(g *engine.Game, s int8) int) func(*call, starlark.Tuple) (starlark.Value, error) {
	return func(c *call, args starlark.Tuple) (starlark.Value, error) {
		if len(args) != 1 {
			return nil, fmt.Errorf("takes one argument, the seat (ME or YOU), not %d", len(args))
		}
		s, err := c.seatOf(args[0])
		if err != nil {
			return nil, err
		}
		return starlark.MakeInt(get(c.g, s)), nil
	}
}

func seatDistrict(get func(g *engine.Game, s, d int8) int) func(*call, starlark.Tuple) (starlark.Value, error) {
	return func(c *call, args starlark.Tuple) (starlark.Value, error) {
		if len(args) != 2 {
			return nil, fmt.Errorf("takes two arguments, the seat (ME or YOU) and a District, not %d", len(args))
		}
		s, err := c.seatOf(args[0])
		if err != nil {
			return nil, err
		}
		d, err := c.a.w.district(args[1])
		if err != nil {
			return nil, err
		}
		return starlark.MakeInt(get(c.g, s, d)), nil
	}
}

// districtAction reads (district, action).
func (c *call) districtAction(args starlark.Tuple) (int8, engine.Action, error) {
	if len(args) != 2 {
		return 0, 0, fmt.Errorf("takes two arguments, a District and an action, not %d", len(args))
	}
	d, err := c.a.w.district(args[0])
	if err != nil {
		return 0, 0, err
	}
	a, err := c.a.w.action(args[1])
	return d, a, err
}

// oneDistrict reads (district).
func (c *call) oneDistrict(args starlark.Tuple) (int8, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("takes one argument, a District, not %d", len(args))
	}
	return c.a.w.district(args[0])
}

// intArg reads a whole number in lo..hi.
func intArg(what string, v starlark.Value, lo, hi int) (int, error) {
	n, err := starlark.AsInt32(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s must be a whole number from %d to %d, not %s", what, lo, hi, v)
	}
	return n, nil
}

// ruleArg reads the rule a step cites: shown in traces, so one line of at
// most 40 bytes.
func ruleArg(v starlark.Value) (string, error) {
	s, ok := v.(starlark.String)
	if !ok {
		return "", fmt.Errorf("a rule is a string such as \"I-10\", not %s", v.Type())
	}
	if len(s) > maxRule {
		return "", fmt.Errorf("a rule of %d bytes, longer than the %d allowed", len(s), maxRule)
	}
	if printableASCII(string(s)) {
		return string(s), nil
	}
	if r, bad := engine.Hidden(string(s)); bad {
		return "", fmt.Errorf("a rule holds %U, a control or hidden character", r)
	}
	return string(s), nil
}

const maxRule = 40

// printableASCII is the fast path of the checks of a text: no byte but
// the printable ASCII ones.
func printableASCII(s string) bool {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

var difficultyNames = []string{"player_initiative", "celebrity_all_tiers", "plaza_lowest_trackers", "bonus_divisor", "bonus_rounding"}

func difficulty(c *call, args starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("takes one argument, the name of a difficulty field (%s)", strings.Join(difficultyNames, ", "))
	}
	d := c.g.Difficulty()
	switch args[0] {
	case starlark.String("player_initiative"):
		return starlark.MakeInt(int(d.PlayerInitiative)), nil
	case starlark.String("celebrity_all_tiers"):
		return starlark.MakeInt(int(d.CelebrityAllTiers)), nil
	case starlark.String("plaza_lowest_trackers"):
		return starlark.MakeInt(int(d.PlazaLowestTrackers)), nil
	case starlark.String("bonus_divisor"):
		return starlark.MakeInt(int(d.BonusDivisor)), nil
	case starlark.String("bonus_rounding"):
		if d.BonusRounding == engine.RoundUp {
			return starlark.String("up"), nil
		}
		return starlark.String("down"), nil
	}
	return nil, fmt.Errorf("%s is not a difficulty field (%s)", args[0], strings.Join(difficultyNames, ", "))
}

var variantNames = []string{
	"opposition_respects_blocks", "opposition_cleanup_after_round_4", "opposition_plaza_popularity_too",
	"endorsements_score_for_holder", "endorsement_check_every_district", "upgraded_favor_inherits_used",
	"turns_clockwise", "reform_deck_at_once",
}

func variant(c *call, args starlark.Tuple) (starlark.Value, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("takes one argument, the name of a variants field")
	}
	v := c.g.Rules().Variants
	switch args[0] {
	case starlark.String("opposition_respects_blocks"):
		return starlark.Bool(v.OppositionRespectsBlocks), nil
	case starlark.String("opposition_cleanup_after_round_4"):
		return starlark.Bool(v.OppositionCleanupAfterRound4), nil
	case starlark.String("opposition_plaza_popularity_too"):
		return starlark.Bool(v.OppositionPlazaPopularityToo), nil
	case starlark.String("endorsements_score_for_holder"):
		return starlark.Bool(v.EndorsementsScoreForHolder), nil
	case starlark.String("endorsement_check_every_district"):
		return starlark.Bool(v.EndorsementCheckEveryDistrict), nil
	case starlark.String("upgraded_favor_inherits_used"):
		return starlark.Bool(v.UpgradedFavorInheritsUsed), nil
	case starlark.String("turns_clockwise"):
		return starlark.Bool(v.TurnsClockwise), nil
	case starlark.String("reform_deck_at_once"):
		return starlark.Bool(v.ReformDeckAtOnce), nil
	}
	return nil, fmt.Errorf("%s is not a variants field (%s)", args[0], strings.Join(variantNames, ", "))
}

func entitledLevel(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("entitled_level", args, 1, 1); err != nil {
		return nil, err
	}
	p, err := intArg("the position", args[0], 0, int(c.g.Rules().TrackMax))
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt(int(c.g.Rules().EntitledLevel(int8(p)))), nil
}

func strength(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("strength", args, 2, 2); err != nil {
		return nil, err
	}
	s, err := c.seatOf(args[0])
	if err != nil {
		return nil, err
	}
	region, err := c.a.w.region(args[1])
	if err != nil || region == engine.Home {
		return nil, fmt.Errorf("strength is in a District or the Plaza, not %s", args[1])
	}
	return starlark.MakeInt(int(c.g.Strength(s, region))), nil
}

func spotFree(c *call, args starlark.Tuple) (starlark.Value, error) {
	d, a, err := c.districtAction(args)
	if err != nil {
		return nil, err
	}
	return starlark.Bool(c.g.SpotFree(d, a)), nil
}

func spotHolder(c *call, args starlark.Tuple) (starlark.Value, error) {
	d, a, err := c.districtAction(args)
	if err != nil {
		return nil, err
	}
	return c.who(c.g.Districts[d].Spots[c.g.Rules().SpotOf[a]]), nil
}

func tokenHolder(c *call, args starlark.Tuple) (starlark.Value, error) {
	d, err := c.oneDistrict(args)
	if err != nil {
		return nil, err
	}
	return c.who(c.g.Districts[d].VoteShareToken), nil
}

func endorsementHolder(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("endorsement_holder", args, 2, 2); err != nil {
		return nil, err
	}
	d, err := c.a.w.district(args[0])
	if err != nil {
		return nil, err
	}
	l, err := intArg("the level", args[1], 1, engine.NumLevels)
	if err != nil {
		return nil, err
	}
	return c.who(c.g.Districts[d].Endorsements[l-1]), nil
}

// cubes is a region's voter cubes by colour: a dict from each District's
// colour to its count.
func cubes(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("cubes", args, 1, 1); err != nil {
		return nil, err
	}
	region, err := c.a.w.region(args[0])
	if err != nil || region == engine.Home {
		return nil, fmt.Errorf("cubes are in a District or the Plaza, not %s", args[0])
	}
	counts := c.g.Plaza
	if region != engine.Plaza {
		counts = c.g.Districts[region].Cubes
	}
	out := starlark.NewDict(engine.NumDistricts)
	for colour, n := range counts {
		if err := out.SetKey(c.a.w.districts[colour], starlark.MakeInt(int(n))); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// support is a District's Initial Support value, None while its token is
// face down: hidden from the Opposition as from you.
func support(c *call, args starlark.Tuple) (starlark.Value, error) {
	d, err := c.oneDistrict(args)
	if err != nil {
		return nil, err
	}
	if ds := &c.g.Districts[d]; ds.SupportFaceUp {
		return starlark.MakeInt(int(ds.InitialSupport)), nil
	}
	return starlark.None, nil
}

// tilesIn lists the tiles placed in a District, in placement order (the
// earliest first, I-21); faceDown keeps only the face-down ones.
func tilesIn(faceDown bool) func(*call, starlark.Tuple) (starlark.Value, error) {
	return func(c *call, args starlark.Tuple) (starlark.Value, error) {
		d, err := c.oneDistrict(args)
		if err != nil {
			return nil, err
		}
		g := c.g
		n := 0
		for i := range int(g.NPlaced) {
			if t := &g.Placed[i]; t.District == d && !(faceDown && t.FaceUp) {
				n++
			}
		}
		tiles := make([]tile, n)
		out := make([]starlark.Value, n)
		n = 0
		for i := range int(g.NPlaced) {
			t := g.Placed[i]
			if t.District != d || faceDown && t.FaceUp {
				continue
			}
			tiles[n] = tile{w: c.a.w, i: i, t: t, by: c.who(t.Badge)}
			out[n] = &tiles[n]
			n++
		}
		return starlark.NewList(out), nil
	}
}

// tileKind reads "Celebrity" or "Public Works".
func tileKind(v starlark.Value) (engine.TileKind, error) {
	switch v {
	case starlark.String("Celebrity"):
		return engine.TileCelebrity, nil
	case starlark.String("Public Works"):
		return engine.TilePublicWorks, nil
	}
	return 0, fmt.Errorf("a tile's kind is \"Celebrity\" or \"Public Works\", not %s", v)
}

func tilesLeft(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("tiles_left", args, 2, 2); err != nil {
		return nil, err
	}
	k, err := tileKind(args[0])
	if err != nil {
		return nil, err
	}
	t, err := intArg("the tier", args[1], 1, engine.NumTiers)
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt(c.g.TilesLeft(k, int8(t))), nil
}

// board is the Solo cards in the Opposition's four columns, None where a
// column is open.
func board(c *call, _ starlark.Tuple) (starlark.Value, error) {
	out := make(starlark.Tuple, engine.NumColumns)
	for col, cl := range c.g.Seats[c.seat].Columns {
		out[col] = starlark.None
		if cl.Card >= 0 {
			out[col] = c.a.w.cards[cl.Card]
		}
	}
	return out, nil
}

func assistant(c *call, args starlark.Tuple) (starlark.Value, error) {
	col, err := columnArg(args, 0, 1)
	if err != nil {
		return nil, err
	}
	return c.a.w.regionName(c.g.AssistantRegion(c.seat, col)), nil
}

// note narrates a decision in the trace, citing its rule, as the built-in
// Opposition's notes do: text % args. A note statement runs only while a
// trace is recorded (see rewrite); a text that does not format is shown
// with why rather than failing the game.
func note(c *call, args starlark.Tuple) (starlark.Value, error) {
	if len(args) < 3 {
		return nil, fmt.Errorf("note takes a District (or None), a rule and a text, not %d arguments", len(args))
	}
	d := int8(-1)
	if args[0] != starlark.None {
		r, err := c.a.w.region(args[0])
		if err != nil || r == engine.Home {
			return nil, fmt.Errorf("a note is about a District, the Plaza or None, not %s", args[0])
		}
		d = r
	}
	rule, err := ruleArg(args[1])
	if err != nil {
		return nil, err
	}
	text, ok := args[2].(starlark.String)
	if !ok {
		return nil, fmt.Errorf("a note's text is a string, not %s", args[2].Type())
	}
	g := c.g
	if !g.Recording() {
		return starlark.None, nil
	}
	shown := string(text)
	if len(args) > 3 {
		if err := chargeText(&c.thread, args[3:]...); err != nil {
			return nil, err
		}
		if v, err := starlark.Binary(syntax.PERCENT, text, args[3:]); err != nil {
			shown += " [note: " + err.Error() + "]"
		} else {
			shown = string(v.(starlark.String))
		}
	}
	g.Note(c.seat, d, rule, "%s", oneLine(shown))
	return starlark.None, nil
}

// oneLine makes a text a line of a trace: a control or hidden character
// (an escape sequence, a newline) shown as U+FFFD, and at most maxNote
// bytes.
func oneLine(s string) string {
	if len(s) > maxNote {
		s = s[:maxNote] + "…"
	}
	return strings.Map(func(r rune) rune {
		if _, bad := engine.Hidden(string(r)); bad {
			return '\uFFFD'
		}
		return r
	}, s)
}

const maxNote = 1024

// printNote is print: a note citing "print" in a trace, nothing otherwise.
func printNote(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	c := callOf(thread)
	if c.g == nil || !c.g.Recording() {
		return starlark.None, nil
	}
	if err := chargeText(thread, args...); err != nil {
		return nil, err
	}
	var parts []string
	for _, a := range args {
		if s, ok := a.(starlark.String); ok {
			parts = append(parts, string(s))
		} else {
			parts = append(parts, a.String())
		}
	}
	c.print(strings.Join(parts, " "))
	return starlark.None, nil
}

func (c *call) print(msg string) {
	if c.g == nil || !c.g.Recording() {
		return
	}
	c.g.Note(c.seat, -1, "print", "%s", oneLine(msg))
}

// plural is "1 Vote Share", "2 Vote Shares".
func plural(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("plural", args, 2, 2); err != nil {
		return nil, err
	}
	n, err := starlark.AsInt32(args[0])
	if err != nil {
		return nil, fmt.Errorf("plural: %s is not a whole number", args[0])
	}
	word, ok := args[1].(starlark.String)
	if !ok || len(word) > maxRule {
		return nil, fmt.Errorf("plural: the word is a short string, not %s", args[1].Type())
	}
	return starlark.String(kit.Count(n, string(word))), nil
}

// chance is a whole number from 0 to n-1 drawn from the game's own
// generator for the automaton.
func chance(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("chance", args, 1, 1); err != nil {
		return nil, err
	}
	n, err := intArg("chance's n", args[0], 1, 1<<30)
	if err != nil {
		return nil, err
	}
	return starlark.MakeInt(c.g.AutomatonIntN(n)), nil
}

// flip is Solo Gameplay 1: the top Solo card, or a card reveal_solo turned
// up, into the leftmost open column, middle row. Once a turn. It returns
// the card and the column.
func flip(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("flip", args, 0, 1); err != nil {
		return nil, err
	}
	if c.flipped {
		return nil, fmt.Errorf("flip(): the Opposition flips one Solo card a turn (Solo Gameplay 1)")
	}
	g := c.g
	open := false
	for _, cl := range g.Seats[c.seat].Columns {
		open = open || cl.Card < 0
	}
	if !open {
		return nil, fmt.Errorf("flip(): no column of the Opposition's board is open")
	}
	depth := 0
	if len(args) == 1 && args[0] != starlark.None {
		d, err := c.revealedDepth(args[0], "flip")
		if err != nil {
			return nil, err
		}
		depth = d
	} else if g.Solo.N == 0 && g.SoloBox.N == 0 {
		return nil, fmt.Errorf("flip(): the Solo deck and the box are empty")
	}
	card, col := g.FlipSoloCardAt(c.seat, depth)
	c.forget(card)
	c.flipped = true
	return c.a.w.flipped[card][col], nil
}

// revealedDepth finds a card reveal_solo turned up this turn in the deck.
func (c *call) revealedDepth(v starlark.Value, what string) (int, error) {
	sc, ok := v.(*soloCard)
	if !ok || sc.w != c.a.w {
		return 0, fmt.Errorf("%s(): %s is not a Solo card", what, v)
	}
	if !slices.Contains(c.revealed, sc.i) {
		return 0, fmt.Errorf("%s(%s): only a card reveal_solo() turned up this turn (the deck's order is hidden)", what, c.g.Rules().Solo[sc.i].ID)
	}
	for k := range len(c.revealed) {
		if c.g.SoloCardAt(k) == sc.i {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%s(%s): the card is no longer on top of the deck", what, c.g.Rules().Solo[sc.i].ID)
}

// forget drops a card from the revealed cards still in the deck.
func (c *call) forget(card int) {
	if i := slices.Index(c.revealed, card); i >= 0 {
		c.revealed = slices.Delete(c.revealed, i, i+1)
	}
}

// revealSolo turns up n cards from the top of the Solo deck, before the
// flip, and returns them, top first.
func revealSolo(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("reveal_solo", args, 1, 1); err != nil {
		return nil, err
	}
	n, err := intArg("reveal_solo's n", args[0], 1, engine.MaxSoloCards)
	if err != nil {
		return nil, err
	}
	if c.flipped || len(c.revealed) > 0 {
		return nil, fmt.Errorf("reveal_solo() comes once a turn, before flip()")
	}
	g := c.g
	if g.Solo.N == 0 && g.SoloBox.N == 0 {
		return nil, fmt.Errorf("reveal_solo(): the Solo deck and the box are empty")
	}
	k := g.RevealSoloCards(c.seat, n)
	out := make(starlark.Tuple, k)
	for i := range k {
		card := g.SoloCardAt(i)
		c.revealed = append(c.revealed, card)
		out[i] = c.a.w.cards[card]
	}
	return out, nil
}

func soloToBottom(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("solo_to_bottom", args, 1, 1); err != nil {
		return nil, err
	}
	k, err := c.revealedDepth(args[0], "solo_to_bottom")
	if err != nil {
		return nil, err
	}
	card := c.g.SoloCardAt(k)
	c.g.SoloCardToBottom(c.seat, k)
	c.forget(card)
	return starlark.None, nil
}

// placedColumn reads a column of the Opposition's board that holds a
// Solo card: only such a column has an Assistant out.
func (c *call) placedColumn(v starlark.Value) (int8, error) {
	col, err := column(v)
	if err != nil {
		return 0, err
	}
	if c.g.Seats[c.seat].Columns[col].Card < 0 {
		return 0, fmt.Errorf("column %d holds no Solo card: its Assistant stays home (Solo Gameplay 2)", col+1)
	}
	return col, nil
}

// moveAssistant is Solo Gameplay 2 (and I-10's moves): the column's
// Assistant to a District, freeing the spot it held.
func moveAssistant(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("move_assistant", args, 2, 2); err != nil {
		return nil, err
	}
	col, err := c.placedColumn(args[0])
	if err != nil {
		return nil, err
	}
	d, err := c.a.w.district(args[1])
	if err != nil {
		return nil, err
	}
	c.g.MoveAssistant(c.seat, col, d)
	return starlark.None, nil
}

// tryAction takes an Opposition Strategy Action in a District as the
// rulebook defines it (its own I-9 cases and preferences: I-11, I-12,
// I-13, I-21), or reports False when the Opposition is unable to. The
// spot's block (I-9, V-1) is the script's to ask, with spot_free.
func tryAction(c *call, args starlark.Tuple) (starlark.Value, error) {
	d, a, err := c.districtAction(args)
	if err != nil {
		return nil, err
	}
	return starlark.Bool(opposition.Act(c.g, c.seat, d, a)), nil
}

// standing reads a column whose Assistant stands in a District without a
// spot: the one a spot can be taken for.
func (c *call) standing(v starlark.Value) (int8, int8, error) {
	col, err := c.placedColumn(v)
	if err != nil {
		return 0, 0, err
	}
	a := c.g.Seats[c.seat].Assistants[col]
	switch {
	case a.Region < 0 || a.Region >= engine.NumDistricts:
		return 0, 0, fmt.Errorf("the Assistant of column %d stands in %s, not in a District", col+1, c.a.w.regionName(a.Region))
	case a.Spot != engine.NoSpot:
		return 0, 0, fmt.Errorf("the Assistant of column %d already holds a spot", col+1)
	}
	return col, a.Region, nil
}

// occupy is Solo Gameplay 5: the column's Assistant takes the action's
// spot in the District it stands in, which must be free (I-1).
func occupy(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("occupy", args, 2, 2); err != nil {
		return nil, err
	}
	col, d, err := c.standing(args[0])
	if err != nil {
		return nil, err
	}
	a, err := c.a.w.action(args[1])
	if err != nil {
		return nil, err
	}
	if !c.g.SpotFree(d, a) {
		return nil, fmt.Errorf("occupy(): the %s spot in %s holds an Assistant already (I-1)", a, c.g.Rules().Districts[d])
	}
	c.g.OccupySpot(c.seat, col, c.g.Rules().SpotOf[a])
	return starlark.None, nil
}

// noSpot records that the column's Assistant stays in its District with
// no spot (I-10's last case), citing rule.
func noSpot(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("no_spot", args, 2, 2); err != nil {
		return nil, err
	}
	_, d, err := c.standing(args[0])
	if err != nil {
		return nil, err
	}
	rule, err := ruleArg(args[1])
	if err != nil {
		return nil, err
	}
	c.g.Emit(engine.Event{Kind: engine.EvSpot, Seat: c.seat, District: d, Item: -1, Rule: rule})
	return starlark.None, nil
}

// countFallback counts an I-10 fallback for the results' FALLBACKS/GAME:
// "other" (unable in the connected District, moved to the other) or
// "both" (unable in both).
func countFallback(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("count_fallback", args, 1, 1); err != nil {
		return nil, err
	}
	st := &c.g.Seats[c.seat]
	switch args[0] {
	case starlark.String("other"):
		st.FallbackOther++
	case starlark.String("both"):
		st.FallbackBoth++
	default:
		return nil, fmt.Errorf("count_fallback takes \"other\" or \"both\", not %s", args[0])
	}
	return starlark.None, nil
}

// gain moves the Opposition's Money and Popularity right; past the end of
// the track a gain is lost (C-7).
func gain(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("gain", args, 3, 3); err != nil {
		return nil, err
	}
	top := int(c.g.Rules().TrackMax)
	m, err := intArg("gain's money", args[0], 0, top)
	if err != nil {
		return nil, err
	}
	p, err := intArg("gain's popularity", args[1], 0, top)
	if err != nil {
		return nil, err
	}
	rule, err := ruleArg(args[2])
	if err != nil {
		return nil, err
	}
	c.g.GainResources(c.seat, int8(m), int8(p), rule)
	return starlark.None, nil
}

// gainPolling advances the Opposition's polling in a District (C-7); it
// takes the Vote Share token at its Clean Up, not here (I-15).
func gainPolling(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("gain_polling", args, 3, 3); err != nil {
		return nil, err
	}
	d, err := c.a.w.district(args[0])
	if err != nil {
		return nil, err
	}
	n, err := intArg("gain_polling's n", args[1], 0, int(c.g.Rules().TrackMax))
	if err != nil {
		return nil, err
	}
	rule, err := ruleArg(args[2])
	if err != nil {
		return nil, err
	}
	c.g.GainPolling(c.seat, d, int8(n), rule)
	return starlark.None, nil
}

// gainVotes gives the Opposition votes now, counted at the Final Tally: a
// lever the printed rules do not have (engine.GainVotes bounds the total).
func gainVotes(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("gain_votes", args, 2, 2); err != nil {
		return nil, err
	}
	n, err := intArg("gain_votes' n", args[0], 0, engine.MaxPlayVotes)
	if err != nil {
		return nil, err
	}
	rule, err := ruleArg(args[1])
	if err != nil {
		return nil, err
	}
	c.g.GainVotes(c.seat, int16(n), rule)
	return starlark.None, nil
}

// plazaAdvance announces the Round Scoring Plaza rule in the trace before
// the trackers move (I-14).
func plazaAdvance(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("plaza_advance", args, 2, 2); err != nil {
		return nil, err
	}
	n, err := intArg("plaza_advance's amount", args[0], 0, int(c.g.Rules().TrackMax))
	if err != nil {
		return nil, err
	}
	rule, err := ruleArg(args[1])
	if err != nil {
		return nil, err
	}
	c.g.Emit(engine.Event{Kind: engine.EvPlazaAdvance, Seat: c.seat, District: engine.Plaza, To: int16(n), Rule: rule})
	return starlark.None, nil
}

// boxSoloCards is Solo Clean Up 1–3: the cards of the Opposition's board
// and as many from the top of its deck go to the box. Once a Clean Up.
func boxSoloCards(c *call, _ starlark.Tuple) (starlark.Value, error) {
	if c.boxed {
		return nil, fmt.Errorf("box_solo_cards() comes once a Clean Up")
	}
	c.g.BoxSoloCards(c.seat)
	c.boxed = true
	return starlark.None, nil
}

// takeEndorsement is Solo Clean Up 4 in a District: the highest unclaimed
// level its polling entitles it to above the one it holds, returning the
// lower (I-15); nothing when none is.
func takeEndorsement(c *call, args starlark.Tuple) (starlark.Value, error) {
	d, err := c.oneDistrict(args)
	if err != nil {
		return nil, err
	}
	c.g.GrantEndorsement(c.seat, d)
	return starlark.None, nil
}

// takeToken is Solo Clean Up 5 in a District: the Vote Share token, which
// must still be there (C-10).
func takeToken(c *call, args starlark.Tuple) (starlark.Value, error) {
	if err := arity("take_vote_share_token", args, 2, 2); err != nil {
		return nil, err
	}
	d, err := c.a.w.district(args[0])
	if err != nil {
		return nil, err
	}
	rule, err := ruleArg(args[1])
	if err != nil {
		return nil, err
	}
	if h := c.g.Districts[d].VoteShareToken; h != engine.NoSeat {
		return nil, fmt.Errorf("take_vote_share_token(): the %s token is held by %s already", c.g.Rules().Districts[d], c.who(h))
	}
	c.g.TakeVoteShareToken(c.seat, d, rule)
	return starlark.None, nil
}
