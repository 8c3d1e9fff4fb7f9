package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

func init() {
	register(command{name: "play", summary: "play in the terminal: solo against the Opposition, or one seat of 2-4 (--seats)", run: runPlay})
}

// playStdin is the player's input; tests replace it.
var playStdin io.Reader = os.Stdin

const playUsage = `usage: tallywood play [--mode MODE] [--seed N] [--game N] [--rules FILE] [--politician ID] [--save FILE]
       tallywood play --seats N [--seat S] [--policy LINEUP] [--seed N] [--game N] [--rules FILE] [--save FILE]
       tallywood play --load FILE [--rules FILE] [--trust-lineup]

Plays a solo game of Tallywood Rally against the Opposition. Before each of
your decisions the board is shown with a numbered menu of the legal options;
type a number, or ? for help, u to undo, h for a hint, s to save, q to quit.
--seed and --game mean what they mean for sim and trace: the game dealt is
game --game (default 0) of master seed --seed, the one 'tallywood trace
--seed N --game N' narrates and 'tallywood scenario setup' prints.

--seats 2..4 plays the game without the Opposition: you take seat --seat
and --policy plays the others (one policy for all, or one per other seat
in seat order), each on its own stream. The board shows every seat's public
state and only your hand.

flags:
`

func runPlay(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("play", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	mode := fs.String("mode", "normal", modeUsage)
	seed := fs.Uint64("seed", 1, seedUsage)
	game := fs.Uint64("game", 0, gameUsage)
	rulesPath := fs.String("rules", "", rulesFileUsage)
	pol := fs.String("politician", "random", politicianUsage)
	load := fs.String("load", "", "resume the game saved in `FILE`")
	save := fs.String("save", "", "`FILE` that s saves to (default tallywood-seed-N.json, tallywood-seed-N-game-I.json for --game I, tallywood-seed-N-NAME.json for --tester NAME)")
	seats := fs.Int("seats", 1, "`N` players: 1 is the solo game; 2 to 4 play without the Opposition")
	seat := fs.Int("seat", 1, "with --seats: your seat `S` (1 to N)")
	lineupFlag := fs.String("policy", defaultPolicy, "with --seats: the `LINEUP` of the other seats, one policy for all or one per seat")
	trust := fs.Bool("trust-lineup", false, trustUsage)
	pause := fs.Bool("pause", false, "wait for Enter between the Opposition's steps (on by default when the input is a terminal)")
	chance := fs.Bool("chance", false, chanceUsage)
	chanceLevel := fs.String("chance-level", "", chanceLevelUsage)
	tester := fs.String("tester", "", "your `NAME` in the save file, for 'tallywood calibrate'; the game is saved when it ends")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, playUsage+helpText(fs))
			return exitOK
		}
		return fail(stderr, "play: %s", flagError(err, fs))
	}
	if fs.NArg() > 0 {
		return fail(stderr, "play: unexpected argument %q", fs.Arg(0))
	}
	if *seats < 1 || *seats > engine.MaxSeats {
		return fail(stderr, "play: --seats %d is outside 1..%d", *seats, engine.MaxSeats)
	}
	if *game >= sim.MaxGames {
		return fail(stderr, "play: --game %d is outside 0..%d", *game, int64(sim.MaxGames-1))
	}
	if err := onlyWith(fs, "trust-lineup", "--load", *load != ""); err != nil {
		return fail(stderr, "play: %v", err)
	}
	if err := onlyWith(fs, "chance-level", "--chance", *chance); err != nil {
		return fail(stderr, "play: %v", err)
	}
	if *chance && *seats > 1 {
		return fail(stderr, "play: --chance follows the solo game, not --seats %d", *seats)
	}
	for _, f := range []string{"seat", "policy"} {
		// With --load the file holds them: refused below, by name.
		if err := onlyWith(fs, f, "--seats 2..4", *seats > 1 || *load != ""); err != nil {
			return fail(stderr, "play: %v", err)
		}
	}
	if *seats > 1 {
		for _, f := range []string{"mode", "politician"} {
			if fs.Changed(f) {
				return fail(stderr, "play: --%s only matters with the solo game (--seats 1)", f)
			}
		}
		if *seat < 1 || *seat > *seats {
			return fail(stderr, "play: --seat %d is outside 1..%d", *seat, *seats)
		}
	}
	rules, err := loadRules(*rulesPath)
	if err != nil {
		return failInput(stderr, "play: %v", err)
	}
	// A save is an output of the command like any other: never one of
	// its inputs (the file --load names is the game saved again, not an
	// input to keep).
	var fl files
	fl.read("--rules", *rulesPath)
	cfg := play.Config{
		Rules:       rules,
		Color:       colourWanted(stdout),
		Pause:       isTerminal(playStdin),
		Echo:        !isTerminal(playStdin),
		SavePath:    *save,
		Write:       func(path string, data []byte) error { return fl.writeSave(path, data, stderr) },
		Create:      func(path string, data []byte) (string, error) { return fl.createSave(path, data, stderr) },
		TrustLineup: *trust,
		Tester:      strings.TrimSpace(*tester),
	}
	if fs.Changed("tester") && cfg.Tester == "" {
		return fail(stderr, "play: --tester: a name, not empty")
	}
	if r, bad := engine.Hidden(cfg.Tester); bad {
		return fail(stderr, "play: --tester %q holds %U, a control or hidden character", cfg.Tester, r)
	}
	if len(cfg.Tester) > play.MaxTester {
		return fail(stderr, "play: --tester: %d bytes, more than %d", len(cfg.Tester), play.MaxTester)
	}
	defaultSave := play.SaveName(*seed, *game, cfg.Tester)
	if fs.Changed("pause") {
		cfg.Pause = *pause
	}
	if *chance {
		level := *chanceLevel
		if level == "" {
			level = "skilled"
		}
		if cfg.Chance, err = policy.ShippedChance().For(level); err != nil {
			return fail(stderr, "play: --chance-level: %v", err)
		}
		fmt.Fprintln(stderr, policy.ShippedChance().Note(policy.PlayedRules(rules)))
	}
	var s *play.Session
	if *load != "" {
		for _, f := range []string{"mode", "seed", "game", "politician", "seats", "seat", "policy", "tester"} {
			if fs.Changed(f) {
				return fail(stderr, "play: --%s cannot be used with --load: the save file holds it", f)
			}
		}
		if cfg.SavePath == "" {
			cfg.SavePath = *load
		}
		s, err = play.LoadFile(cfg, *load)
		if err != nil {
			return failInput(stderr, "%v", err)
		}
	} else if *seats > 1 {
		lineup, err := parseSpecs("policy", *lineupFlag)
		if err != nil {
			return fail(stderr, "play: %v", err)
		}
		fl.readSpecs(lineup...)
		switch len(lineup) {
		case *seats - 1:
		case 1:
			for len(lineup) < *seats-1 {
				lineup = append(lineup, lineup[0])
			}
		default:
			return fail(stderr, "play: --policy %q names %d policies for the %d other seats: give one for all, or one per other seat", *lineupFlag, len(lineup), *seats-1)
		}
		cfg.Seed, cfg.Game, cfg.Seats, cfg.Seat, cfg.Lineup = *seed, *game, *seats, int8(*seat-1), lineup
		if cfg.SavePath == "" {
			cfg.SavePath = defaultSave
		}
		s, err = play.New(cfg)
		if err != nil {
			return failInput(stderr, "%v", err)
		}
	} else {
		m, err := parseMode("mode", *mode)
		if err != nil {
			return fail(stderr, "play: %v", err)
		}
		p := politicianIndex(rules, *pol)
		if strings.EqualFold(*pol, "random") {
			p = deal.RandomPoliticianIndex
		} else if p < 0 {
			ids := ""
			for i, x := range rules.Politicians {
				if i > 0 {
					ids += ", "
				}
				ids += x.ID
			}
			return fail(stderr, "play: --politician %q: not in the rules (one of %s, or random)", *pol, ids)
		}
		cfg.Seed, cfg.Game, cfg.Mode, cfg.Politician = *seed, *game, m, p
		if cfg.SavePath == "" {
			cfg.SavePath = defaultSave
		}
		s, err = play.New(cfg)
		if err != nil {
			return fail(stderr, "play: %v", err)
		}
	}
	defer s.Close()
	if fs.Changed("save") {
		// Checked before the game, not when it is saved.
		if _, err := fl.openSave(*save, stderr); err != nil {
			return fail(stderr, "play: %v", err)
		}
	}
	if _, err := s.Run(playStdin, stdout); err != nil {
		fmt.Fprintf(stderr, "tallywood: play: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// colourWanted reports whether to write colour: only to a terminal, and
// only when NO_COLOR is unset (no-color.org).
func colourWanted(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	return isTerminal(w)
}
