package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
	"tallywood/sim/report"
)

// sim --seats N and compare --seats N: studies of the game for 2–4
// players, without the Opposition (sim.RunSeats, sim.CompareSeats), run
// and handed to the report package to write.

// seatsSimPlan is sim --seats N: --policy is the lineup (one policy for
// every seat, or one per seat), --games the deals, each played once per
// rotation of the lineup. The solo game's --mode and --politician do not
// apply.
func seatsSimPlan(s *studyFlags, seats int) (*plan, error) {
	for _, name := range []string{"mode", "politician"} {
		if err := onlyWith(s.fs, name, "the solo game (--seats 1)", false); err != nil {
			return nil, err
		}
	}
	lineup, err := parseLineup(s.policies, seats)
	if err != nil {
		return nil, err
	}
	s.files.readSpecs(lineup...)
	rules, err := s.rules()
	if err != nil {
		return nil, err
	}
	if seats > len(rules.Politicians) {
		return nil, inputError{fmt.Errorf("--seats %d: the rules have %d Politicians, one per player is needed", seats, len(rules.Politicians))}
	}
	cfg := sim.SeatsConfig{RunConfig: s.runConfig(), Rules: rules, Deals: s.games, Lineup: lineup}
	return &plan{
		total: cfg.Shard.Len(cfg.Deals) * int64(len(cfg.Lineup)),
		run: func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
			cfg.Workers, cfg.Progress = workers, progress
			return result(sim.RunSeats(ctx, cfg))
		},
		name: "this study",
		text: report.TextOptions{Wide: s.wide},
	}, nil
}

// parseLineup reads --policy as the lineup of a table of seats players:
// one policy for every seat, or one per seat (rotation 0's seating).
func parseLineup(policyFlag string, seats int) ([]policy.Spec, error) {
	lineup, err := parseSpecs("policy", policyFlag)
	if err != nil {
		return nil, err
	}
	switch len(lineup) {
	case seats:
	case 1:
		for len(lineup) < seats {
			lineup = append(lineup, lineup[0])
		}
	default:
		return nil, fmt.Errorf("--policy %q names %d policies for --seats %d: give one for every seat, or one per seat", policyFlag, len(lineup), seats)
	}
	return lineup, nil
}

// defaultSeatsDeals is compare --seats's --games default: deals played
// under each rule set, every seating of each.
const defaultSeatsDeals = 2000

// seatsPlan is compare --seats N: the same deals, lineup and seatings
// under rules A and B, compared row by row, paired by deal. The arms
// differ in their rules only; the lineup and deals are shared.
func (f *compareFlags) seatsPlan() (*plan, error) {
	fs := f.fs
	if f.seats < 2 || f.seats > engine.MaxSeats {
		return nil, fmt.Errorf("--seats %d is outside 1..%d", f.seats, engine.MaxSeats)
	}
	for _, name := range []string{"mode", "politician", "a-mode", "b-mode", "a-policy", "b-policy", "a-politician", "b-politician",
		"sprt", "sprt-delta", "sprt-on", "alpha", "beta"} {
		if err := onlyWith(fs, name, "the solo game (--seats 1)", false); err != nil {
			return nil, err
		}
	}
	policyFlag := f.policies
	if !fs.Changed("policy") {
		policyFlag = defaultPolicy
	}
	lineup, err := parseLineup(policyFlag, f.seats)
	if err != nil {
		return nil, err
	}
	f.files.readSpecs(lineup...)
	var arms [2]sim.SeatsArm
	for k := range armNames {
		r, name, flag, err := f.armRules(k)
		if err != nil {
			return nil, err
		}
		if f.seats > len(r.Politicians) {
			return nil, inputError{fmt.Errorf("%s: --seats %d: the rules have %d Politicians, one per player is needed", flag, f.seats, len(r.Politicians))}
		}
		arms[k] = sim.SeatsArm{Name: name, Rules: r}
	}
	if arms[0].Rules.Hash == arms[1].Rules.Hash {
		return nil, errors.New("arms A and B play by the same rules: at a table they differ only in their rules; set --a-/--b-rules or -set")
	}
	deals := f.games
	if !fs.Changed("games") {
		deals = defaultSeatsDeals
	}
	cfg := sim.SeatsConfig{RunConfig: f.runConfig(), Deals: deals, Lineup: lineup}
	p := &plan{total: 2 * cfg.Shard.Len(cfg.Deals) * int64(len(cfg.Lineup)), name: "this comparison"}
	if w := sim.TableUnreadWarning(arms[0].Rules, arms[1].Rules, f.seats); w != "" {
		p.notes += "tallywood: compare: warning: " + w + "\n"
	}
	p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
		cfg.Workers, cfg.Progress = workers, progress
		return result(sim.CompareSeats(ctx, cfg, arms[0], arms[1]))
	}
	return p, nil
}
