package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim"
	"tallywood/sim/policy"
)

func init() {
	register(command{name: "trace", summary: "play one game and narrate it (or write its events as JSON lines)", run: runTrace})
}

const traceUsage = `usage: tallywood trace [flags]

Plays game --game of a run with master seed --seed (the same game that
'tallywood sim --seed S' plays as game number --game) and narrates it as the
rulebook would, every Opposition decision citing its rule; --format jsonl
writes one JSON object per event instead.

flags:
`

// eventKinds names the event kinds in JSON lines.
var eventKinds = map[engine.EventKind]string{
	engine.EvSetup: "setup", engine.EvRound: "round", engine.EvTurn: "turn", engine.EvPlayCard: "play_card",
	engine.EvSoloCard: "solo_card", engine.EvTracker: "tracker", engine.EvAssistant: "assistant",
	engine.EvPublicWorks: "public_works", engine.EvCelebrity: "celebrity", engine.EvFlip: "flip",
	engine.EvCampaign: "campaign", engine.EvFundraise: "fundraise", engine.EvDirectAppeal: "direct_appeal",
	engine.EvRally: "rally", engine.EvAbility: "ability", engine.EvFavor: "favor", engine.EvSpot: "spot",
	engine.EvEndorsement: "endorsement", engine.EvToken: "token", engine.EvCubeDraw: "cube_draw",
	engine.EvCubeMove: "cube_move", engine.EvBadge: "badge", engine.EvReward: "reward",
	engine.EvPlazaAdvance: "plaza_advance", engine.EvCleanup: "cleanup", engine.EvDiscard: "discard",
	engine.EvDraw: "draw", engine.EvReshuffle: "reshuffle", engine.EvSoloBox: "solo_box",
	engine.EvReveal: "reveal", engine.EvTally: "tally", engine.EvSeatTally: "seat_tally",
	engine.EvResult: "result", engine.EvNote: "note",
}

// traceEvent is one line of --format jsonl.
type traceEvent struct {
	Round    int8   `json:"round"`
	Turn     int8   `json:"turn"`
	Kind     string `json:"kind"`
	Seat     int8   `json:"seat"`
	District int8   `json:"district"`
	Action   int8   `json:"action"`
	Tier     int8   `json:"tier"`
	Item     int16  `json:"item"`
	From     int16  `json:"from"`
	To       int16  `json:"to"`
	Rule     string `json:"rule,omitempty"`
	Note     string `json:"note,omitempty"`
	Text     string `json:"text"`
}

func runTrace(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("trace")
	seed := fs.Uint64("seed", 1, "master seed `N`")
	game := fs.Uint64("game", 0, "game index `N` within the run of --seed")
	modeFlag := fs.String("mode", "normal", "difficulty `MODE`: normal or hard")
	policyFlag := fs.String("policy", defaultPolicy, "player policy `SPEC`")
	politicianFlag := fs.String("politician", "random", "politician `ID`, or random (from the game seed)")
	rulesFile := fs.String("rules", "", "rules `FILE`, or default (the reference set)")
	format := fs.String("format", "text", "output `FORMAT`: text (rulebook narration) or jsonl")
	if code, done := parseFlags(fs, args, traceUsage, stdout, stderr); done {
		return code
	}
	if code, done := noArgs(fs, stderr); done {
		return code
	}
	// Game numbers are those of a sim run, so below sim's most games.
	if *game >= sim.MaxGames {
		return fail(stderr, "trace: --game %d is outside 0..%d", *game, int64(sim.MaxGames-1))
	}
	*format = strings.ToLower(*format)
	if *format != "text" && *format != "jsonl" {
		return fail(stderr, "trace: --format %q is not text or jsonl", *format)
	}
	mode, err := parseMode("mode", *modeFlag)
	if err != nil {
		return fail(stderr, "trace: %v", err)
	}
	specs, err := parsePolicies("policy", *policyFlag)
	if err != nil {
		return fail(stderr, "trace: %v", err)
	}
	if len(specs) != 1 {
		return fail(stderr, "trace: --policy %q: one policy", *policyFlag)
	}
	rules, err := loadRules(*rulesFile)
	if err != nil {
		return failInput(stderr, "trace: --rules: %v", err)
	}
	pols, err := parsePoliticians(rules, "politician", *politicianFlag, false)
	if err != nil {
		return fail(stderr, "trace: %v", err)
	}
	gameSeed := sim.GameSeed(*seed, *game)
	politician := pols[0]
	if politician == sim.RandomPoliticianIndex {
		politician = sim.RandomPolitician(gameSeed, len(rules.Politicians))
	}
	log := &engine.Log{}
	g, err := engine.New(rules, gameSeed, engine.Config{Mode: mode, Politician: politician, Opposition: opposition.Solo{}, Recorder: log})
	if err != nil {
		fmt.Fprintf(stderr, "tallywood: trace: %v\n", err)
		return exitFailed
	}
	pol := specs[0].New()
	pol.Reset(gameSeed)
	if err := policy.Play(g, pol, nil); err != nil {
		fmt.Fprintf(stderr, "tallywood: trace: policy %s: %v\n", specs[0].Canon, err)
		return exitFailed
	}
	var b bytes.Buffer
	if *format == "jsonl" {
		enc := json.NewEncoder(&b)
		for _, e := range log.Events {
			kind, ok := eventKinds[e.Kind]
			if !ok {
				kind = fmt.Sprintf("event_%d", e.Kind)
			}
			enc.Encode(traceEvent{Round: e.Round + 1, Turn: e.Turn + 1, Kind: kind, Seat: e.Seat, District: e.District,
				Action: e.Action, Tier: e.Tier, Item: e.Item, From: e.From, To: e.To, Rule: e.Rule, Note: e.Note, Text: rules.Text(e)})
		}
	} else {
		fmt.Fprintf(&b, "Game %d of seed %d (game seed %d): %s, policy %s, politician %s, rules %s\n",
			*game, *seed, gameSeed, mode, specs[0].Canon, rules.Politicians[politician].ID, shortHash(rules.Hash))
		b.WriteString(rules.Narrate(log.Events))
		fmt.Fprintf(&b, "Outcome: %s by %+d votes\n", g.Result.Outcome, g.Result.Margin())
	}
	stdout.Write(b.Bytes())
	return exitOK
}
