package main

import (
	"io"
	"runtime"

	"tallywood/sim"
	"tallywood/sim/report"
)

func init() {
	register(command{name: "cards", summary: "rank every Solo card, Strategy card, tile and politician by its effect on the score", run: runCards})
}

const cardsUsage = `usage: tallywood cards [flags]

Plays --games seeded games for each cell of --mode × --policy (the
politician dealt at random per game, as sim plays it) and, for every Solo
card, Strategy card, tile and politician, compares the games with it
against the games without it: the difference in the player's score (a win
1, a draw ½) and margin, with Welch intervals adjusted over each family
(Holm), ranked. Solo cards come in a random order and politicians are
dealt at random: their differences are effects. Strategy cards and tiles
are the player's choice: theirs are associations. See docs/balance.md.

flags:
`

func runCards(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("cards")
	games := fs.Int64("games", 10000, "`N` games per cell")
	modeFlag := fs.String("mode", modesDefault, modesUsage)
	policyFlag := fs.String("policy", defaultPolicies, policiesUsage)
	seed := fs.Uint64("seed", 1, seedUsage)
	workers := fs.Int("workers", runtime.NumCPU(), workersUsage)
	rulesFile := fs.String("rules", "", rulesFileUsage)
	sets := fs.StringArray("set", nil, setUsage)
	format := fs.String("format", "table", "output `FORMAT`: table, json, csv or html (the report; without --format: by --out's extension)")
	out := fs.String("out", "", outUsage)
	shardFlag := fs.String("shard", "1/1", shardUsage)
	all := fs.Bool("all", false, "table: every item of every family (the first 10 otherwise)")
	quiet := fs.Bool("quiet", false, quietUsage)
	maxErrors := maxErrorsFlag(fs)
	if code, done := parseFlags(fs, args, cardsUsage, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, "cards: unexpected argument %q", fs.Arg(0))
	}
	if err := checkGames(fs, *games); err != nil {
		return fail(stderr, "cards: %v", err)
	}
	if *workers < 1 {
		return fail(stderr, "cards: --workers %d: must be at least 1", *workers)
	}
	if err := checkMaxErrors(*maxErrors); err != nil {
		return fail(stderr, "cards: %v", err)
	}
	fmtName, err := outputFormat(fs, *format, *out, "table", "table", "json", "csv", "html")
	if err != nil {
		return fail(stderr, "cards: %v", err)
	}
	if err := onlyWith(fs, "all", "--format table", fmtName == "table"); err != nil {
		return fail(stderr, "cards: %v", err)
	}
	shard, err := sim.ParseShard(*shardFlag)
	if err != nil {
		return fail(stderr, "cards: --shard %v", err)
	}
	rules, err := loadRules(*rulesFile)
	if err != nil {
		return failInput(stderr, "cards: --rules: %v", err)
	}
	if rules, err = applySets(rules, *sets); err != nil {
		return fail(stderr, "cards: --set: %v", err)
	}
	modes, err := parseModes("mode", *modeFlag)
	if err != nil {
		return fail(stderr, "cards: %v", err)
	}
	specs, err := parsePolicies("policy", *policyFlag)
	if err != nil {
		return fail(stderr, "cards: %v", err)
	}
	output, err := openOutput(*out, stdout, stderr)
	if err != nil {
		return fail(stderr, "cards: %v", err)
	}
	cfg := sim.CardsConfig{Rules: rules, Seed: *seed, Games: *games, Shard: shard,
		Workers: capWorkers("cards", *workers, stderr), MaxErrors: *maxErrors}
	keys := []string{}
	for _, m := range modes {
		for _, p := range specs {
			cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: m, Policy: p, Politician: sim.RandomPoliticianIndex})
			keys = append(keys, p.Label)
		}
	}
	ctx, release := interruptible("cards", stderr)
	defer release()
	cellGames := make([]int64, len(keys))
	for k := range cellGames {
		cellGames[k] = shard.Len(*games)
	}
	bar := startCellProgress(stderr, keys, cellGames, *quiet)
	cfg.Progress = &bar.done
	res, err := sim.Cards(ctx, cfg)
	bar.stop()
	if res == nil {
		return failRun(stderr, "cards: %v", err)
	}
	reportFailures(stderr, res)
	if err != nil {
		failRun(stderr, "cards: %v", err) // past --max-errors: stopped, and marked so
	}
	return writeStudy("cards", res, "this run", fmtName, report.TextOptions{All: *all}, output, stderr)
}
