package main

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/spf13/pflag"

	"tallywood/sim"
	"tallywood/sim/policy"
	"tallywood/sim/report"
)

func init() { curveCommand.register() }

const curveUsage = `usage: tallywood curve [flags]

Plays the skill dial (policy dial:skill=S: 0 random, 1 the skilled level,
2 the expert level) at every skill of --skills on each difficulty, the same
seeds at every skill and on every difficulty, and reports the win rate and
margin against the skill with bands that hold at every point at once,
where each difficulty reaches --target, and how far apart the difficulties
are at each skill (paired, game by game). The default answers: at which
skill does Hard reach 50%, and how far apart are Normal and Hard for a
casual and for a skilled player? (docs/calibration.md)

flags:
`

// defaultSkills are the points of a curve: every tenth of the lower half
// (casual is at 0.4, novice at 0.1), quarters of the upper half, where the
// dial searches.
const defaultSkills = "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1,1.25,1.5,1.75,2"

// The flags curve and calibrate share.
const (
	skillsUsage      = "the dial's skills a curve plays, a rising `LIST` from 0 to 2"
	searchGamesUsage = "`N` games a point and difficulty above skill 1, where the dial searches (a hundred times slower)"
)

var curveCommand = &studyCommand{
	name:    "curve",
	summary: "win rate and margin against the skill dial, per difficulty; where a difficulty reaches a target",
	usage:   curveUsage,
	shared: sharedFlags{games: 2000, gamesUsage: "`N` games a point and difficulty at skill 1 and below", rulesUsage: rulesFileUsage, sets: true,
		politician: true, formats: tableJSONCSVHTML, wide: true},
	define: defineCurve,
}

// defineCurve defines curve's own flags: the skills, the difficulties,
// the games above skill 1 and the target.
func defineCurve(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error) {
	skills := fs.String("skills", defaultSkills, skillsUsage)
	modes := fs.String("mode", modesDefault, modesUsage)
	search := fs.Int64("search-games", 200, searchGamesUsage)
	target := fs.Float64("target", 0.5, "the win rate whose crossing is found for each difficulty (0: none)")
	return func() (*plan, error) {
		xs, err := parseSkills("skills", *skills)
		if err != nil {
			return nil, err
		}
		ms, err := parseModes("mode", *modes)
		if err != nil {
			return nil, err
		}
		if *search < 1 || *search > sim.MaxGames {
			return nil, fmt.Errorf("--search-games %d is outside 1..%d", *search, int64(sim.MaxGames))
		}
		if !(*target >= 0 && *target < 1) {
			return nil, fmt.Errorf("--target %g: a win rate from 0 (none) to below 1", *target)
		}
		rules, err := s.rules()
		if err != nil {
			return nil, err
		}
		pols, err := parsePoliticians(rules, "politician", s.politician, false)
		if err != nil {
			return nil, err
		}
		cfg := sim.CurveConfig{RunConfig: s.runConfig(), Rules: rules, Skills: xs, Modes: ms, Politician: pols[0], Games: s.games,
			SearchGames: *search, Target: *target}
		p := &plan{text: report.TextOptions{Wide: s.wide}}
		for _, x := range xs {
			p.keys = append(p.keys, policy.DialSpec(x))
			p.games = append(p.games, int64(len(ms))*s.shard.Len(cfg.GamesAt(x)))
		}
		p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
			cfg.Workers, cfg.Progress = workers, progress
			return result(sim.Curve(ctx, cfg))
		}
		return p, nil
	}
}

// parseSkills reads a list of the dial's skills: numbers within
// 0..policy.MaxSkill, rising.
func parseSkills(flag, value string) ([]float64, error) {
	items, err := splitList(flag, value)
	if err != nil {
		return nil, err
	}
	if len(items) > sim.MaxCurvePoints {
		return nil, fmt.Errorf("--%s: %d skills, at most %d", flag, len(items), sim.MaxCurvePoints)
	}
	xs := make([]float64, len(items))
	for i, it := range items {
		x, err := strconv.ParseFloat(it, 64)
		if err != nil || !(x >= 0 && x <= policy.MaxSkill) {
			return nil, itemError(flag, value, it, fmt.Sprintf("is not a skill from 0 to %d", policy.MaxSkill))
		}
		if i > 0 && x <= xs[i-1] {
			return nil, itemError(flag, value, it, "is not above the skill before it (the skills rise)")
		}
		xs[i] = x
	}
	return xs, nil
}
