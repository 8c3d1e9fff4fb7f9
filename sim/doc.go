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
//		Rules: engine.Reference(), Seed: 1, Games: 10000,
//		Cells: []sim.CellSpec{{Mode: engine.Hard, Policy: spec, Politician: sim.RandomPoliticianIndex}},
//	})
//	fmt.Println(res.Cells[0].WinRate, res.Cells[0].WinCI95)
//
// ExampleRun plays it. Compare plays two arms on the same seeds (common
// random numbers), cell by cell, and reports for each the paired score
// difference (a draw scores ½) and margin difference with intervals and
// p-values adjusted over every test (FixedVerdicts), a Verdict, and
// optionally a sequential test (Sequential) that stops a cell as soon as
// it decides easier, harder or within ±delta, and then gives its verdict. Sweep plays the base rules and every
// point of a parameter grid on the same seeds and pairs each point against
// the base. RunSeats plays the game of 2–4 players without the Opposition
// (sim --seats), every deal once per rotation of the lineup, and
// CompareSeats two rule sets on the same deals.
//
// Every result is a Study (study.go): it starts with the same Envelope, is
// read by Decode (which checks its counts and recomputes every derived
// field from them), merged by Merge and written by Encode, whatever its
// kind. Each kind is one file that registers itself (Kinds lists them);
// its figures are computed by sim/stats. Every runner plays through one
// worker pool (pool.go), which owns the players, the stop flag and the
// failure policy. docs/output.md describes every field;
// docs/architecture.md the layers and how to add a kind. Package
// sim/report writes the results for people: as text, CSV and HTML.
package sim
