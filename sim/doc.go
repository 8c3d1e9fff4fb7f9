// Package sim is the Monte Carlo harness: it plays seeded games in
// parallel and reports win rates with honest statistics.
//
// A solo run (Run) is a list of cells (difficulty × policy × politician),
// each playing games 0..Games−1 (or one shard of them); game i plays on
// GameSeed(Seed, i) whatever the number of workers. Results are integer
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
// difference (a draw scores ½) and margin difference with intervals,
// p-values Holm-adjusted over the cells, a Verdict, and optionally a
// sequential test (Sequential) that stops a cell as soon as it decides
// easier, harder or within ±delta. Sweep plays the base rules and every
// point of a parameter grid on the same seeds and pairs each point against
// the base. RunSeats plays the game of 2–4 players without the Opposition
// (sim --seats), every deal once per rotation of the lineup, and
// CompareSeats two rule sets on the same deals. Every result carries a
// kind (KindSim, KindCompare, KindSweep, KindSeats, KindSeatsCompare) and
// writes its own JSON; docs/output.md describes every field. Package
// sim/report writes the results for people: as text, CSV and HTML.
package sim
