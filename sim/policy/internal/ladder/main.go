// Command ladder measures the policies' strength against the Opposition
// with the Monte Carlo runner (sim.Run), and prints the table of
// docs/policies.md: win rates with Wilson 95% intervals and games per
// second. Its one addition to `tallywood sim` is -w, which overrides the
// evaluation weights for tuning.
//
//	go run ./sim/policy/internal/ladder -games 2000 random greedy mcts:iters=100
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

func main() {
	games := flag.Int64("games", 1000, "games per policy and difficulty")
	workers := flag.Int("workers", 2, "parallel games")
	seed := flag.Uint64("seed", 1, "master seed, as sim's --seed")
	modes := flag.String("modes", "normal,hard", "difficulties")
	weights := flag.String("w", "", "override DefaultWeights, e.g. Resource=0.5,Progress=1 (tuning)")
	flag.Parse()
	if err := run(*games, *workers, *seed, *modes, *weights, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "ladder:", err)
		os.Exit(2)
	}
}

func run(games int64, workers int, seed uint64, modes, weights string, specs []string) error {
	if err := setWeights(weights); err != nil {
		return err
	}
	cfg := sim.Config{Rules: engine.Reference(), Seed: seed, Games: games, Workers: workers}
	for _, s := range specs {
		sp, err := policy.Parse(s)
		if err != nil {
			return err
		}
		for _, m := range strings.Split(modes, ",") {
			mode, err := engine.ParseMode(m)
			if err != nil {
				return err
			}
			cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: mode, Policy: sp, Politician: sim.RandomPoliticianIndex})
		}
	}
	res, err := sim.Run(context.Background(), cfg)
	if err != nil {
		return err
	}
	fmt.Printf("| policy | difficulty | games | wins | draws | win rate | Wilson 95%% | mean margin | games/s |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range res.Cells {
		fmt.Printf("| %s | %s | %d | %d | %d | %.1f%% | %.2f–%.2f%% | %+.1f | %.0f |\n",
			c.Policy, c.Mode, c.Games, c.Wins, c.Draws, 100*c.WinRate, 100*c.WinCI95[0], 100*c.WinCI95[1],
			c.MeanMargin, c.GamesPerSecond)
	}
	return nil
}

// setWeights overrides DefaultWeights from "Name=value,Name=value", for
// tuning.
func setWeights(s string) error {
	if s == "" {
		return nil
	}
	v := reflect.ValueOf(&policy.DefaultWeights).Elem()
	for _, kv := range strings.Split(s, ",") {
		k, val, _ := strings.Cut(kv, "=")
		f := v.FieldByName(k)
		x, err := strconv.ParseFloat(val, 64)
		if !f.IsValid() || err != nil {
			return fmt.Errorf("weight %q", kv)
		}
		f.SetFloat(x)
	}
	return nil
}
