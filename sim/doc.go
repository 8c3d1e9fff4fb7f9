// Package sim is the Monte Carlo harness: it plays seeded games in
// parallel and reports win rates with honest statistics.
//
// A solo run (Run) is a list of cells (difficulty × policy × politician),
// each playing games 0..Games−1 (or one shard of them); game i plays on
// deal.GameSeed(Seed, i) whatever the number of workers. Results are integer
// counts, sums and a one-vote-per-bin margin histogram (Counts), so they
// merge exactly, across workers and across shards (Merge):
//
//	spec, _ := policy.Parse("greedy")
//	res, err := sim.Run(ctx, sim.Config{
//		RunConfig: sim.RunConfig{Seed: 1}, Rules: engine.Reference(), Games: 10000,
//		Cells: []sim.CellSpec{{Mode: engine.Hard, Policy: spec, Politician: sim.RandomPoliticianIndex}},
//	})
//	fmt.Println(res.Cells[0].WinRate, res.Cells[0].WinCI95)
//
// ExampleRun plays it. The kinds of study, each with its runner (Kinds
// lists them; docs/architecture.md names their files):
//
//   - sim (Run): a solo run, cell by cell.
//   - compare (Compare): two arms on the same seeds (common random
//     numbers), cell by cell, each cell's paired score and margin
//     differences with intervals and p-values adjusted over every test
//     (FixedVerdicts), a Verdict within the designer's tolerance, and
//     optionally a sequential test (Sequential) that stops a cell as soon
//     as it decides.
//   - sweep (Sweep): the base rules and every point of a parameter grid on
//     the same seeds, each point paired against the base, and where the
//     win rate meets a target.
//   - cards (Cards): every card, tile and politician ranked by its effect
//     on the score, with simultaneous intervals.
//   - arc (Arc): a game's win chance at every turn: lead changes,
//     comebacks, the turn that decides it, and each game's change in
//     chance split into the player's decisions, the chance they set going
//     and the Opposition's turns.
//   - curve (Curve): the win rate against the skill dial on each
//     difficulty, and where it crosses a target.
//   - calibrate (Calibrate): the skill of playtesters, fitted on the dial
//     from their recorded decisions and results, with predicted win rates.
//   - sensitivity (Sensitivity): every number of the rules file one step
//     down and up (and every choice), screened, raced and confirmed
//     against the base.
//   - tune (Tune): a search for the values that bring win rates to
//     targets, confirmed on fresh seeds.
//   - table (RunSeats): the game of 2–4 players without the Opposition
//     (sim --seats), every deal once per rotation of the lineup.
//   - table-compare (CompareSeats): two rule sets at a table, on the same
//     deals.
//
// Every result is a Study (study.go): it starts with the same Envelope, is
// read by Decode (which checks its counts and recomputes every derived
// field from them), merged by Merge and written by Encode, whatever its
// kind. Each kind's files register it, and stand on the core, files named
// for what they do that name no kind; its figures are computed by
// sim/stats. Every kind's config embeds RunConfig, and every runner plays
// through one worker pool (pool.go), which owns the players, the stop
// flag and the failure policy. docs/output.md describes every field;
// docs/architecture.md the layers, the core and how to add a kind.
// Package sim/report writes the results for people: as text, CSV and
// HTML.
package sim
