// Package sim is the Monte Carlo harness: it plays seeded games of the
// solo mode in parallel and reports win rates with honest statistics.
//
// A run is a list of cells (difficulty × policy × politician), each
// playing games 0..Games−1 (or one shard of them); game i plays on
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
// Compare plays two arms on the same seeds (common random numbers), cell by
// cell, and reports for each the paired score difference (a draw scores ½)
// and margin difference with intervals, p-values Holm-adjusted over the
// cells, a verdict, and optionally a sequential test (Sequential) that
// stops a cell as soon as it answers easier, harder or within ±delta.
// Sweep plays the base rules and every point of a parameter grid on the
// same seeds and pairs each point against the base. Every result carries
// a kind (KindSim, KindCompare, KindSweep). docs/output.md describes every
// output field.
package sim
