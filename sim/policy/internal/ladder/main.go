// Command ladder measures the policies' strength against the Opposition:
// win rates with Wilson 95% intervals and games per second, for the table
// in docs/policies.md.
//
//	go run ./sim/policy/internal/ladder -games 2000 random greedy mcts:iters=100
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/policy"
)

func main() {
	games := flag.Int("games", 1000, "games per policy and difficulty")
	workers := flag.Int("workers", 2, "parallel games")
	seed := flag.Uint64("seed", 1, "seed of game 0; game i uses seed+i")
	modes := flag.String("modes", "normal,hard", "difficulties")
	weights := flag.String("w", "", "override DefaultWeights, e.g. Resource=0.5,Progress=1 (tuning)")
	flag.Parse()
	if err := setWeights(*weights); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Printf("| policy | difficulty | games | wins | draws | win rate | Wilson 95%% | mean margin | games/s |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|---|\n")
	for _, spec := range flag.Args() {
		sp, err := policy.Parse(spec)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for _, m := range splitComma(*modes) {
			mode, err := engine.ParseMode(m)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			run(sp, mode, *games, *workers, *seed)
		}
	}
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

func run(sp policy.Spec, mode engine.Mode, games, workers int, seed uint64) {
	var next, wins, draws, margin atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	rules := engine.Reference()
	for range workers {
		wg.Go(func() {
			p := sp.New()
			buf := make([]engine.Option, 0, engine.MaxOptions)
			var g engine.Game
			for {
				i := next.Add(1) - 1
				if i >= int64(games) {
					return
				}
				s := seed + uint64(i)
				cfg := engine.Config{Mode: mode, Politician: int(i) % len(rules.Politicians), Opposition: opposition.Solo{}}
				if err := g.Reset(rules, s, cfg); err != nil {
					panic(err)
				}
				p.Reset(s)
				if err := policy.Play(&g, p, buf); err != nil {
					panic(err)
				}
				switch g.Result.Outcome {
				case engine.Win:
					wins.Add(1)
				case engine.Draw:
					draws.Add(1)
				}
				margin.Add(int64(g.Result.Margin()))
			}
		})
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	w := float64(wins.Load())
	lo, hi := wilson(w, float64(games))
	fmt.Printf("| %s | %s | %d | %d | %d | %.1f%% | %.2f–%.2f%% | %+.1f | %.0f |\n",
		sp.Canon, mode, games, wins.Load(), draws.Load(), 100*w/float64(games), 100*lo, 100*hi,
		float64(margin.Load())/float64(games), float64(games)/el)
}

// wilson is the Wilson score interval at 95% for k successes in n trials.
func wilson(k, n float64) (lo, hi float64) {
	const z = 1.959963984540054
	p := k / n
	d := 1 + z*z/n
	c := (p + z*z/(2*n)) / d
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / d
	return max(0, c-h), min(1, c+h)
}

// setWeights overrides DefaultWeights from "Name=value,Name=value", for
// tuning.
func setWeights(s string) error {
	v := reflect.ValueOf(&policy.DefaultWeights).Elem()
	for _, kv := range splitComma(s) {
		k, val, _ := strings.Cut(kv, "=")
		f := v.FieldByName(k)
		x, err := strconv.ParseFloat(val, 64)
		if !f.IsValid() || err != nil {
			return fmt.Errorf("ladder: weight %q", kv)
		}
		f.SetFloat(x)
	}
	return nil
}
