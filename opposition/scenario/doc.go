// Package scenario reads, checks and runs scenario files: a position
// stated as what differs from a standard solo setup, the steps to run (the
// Opposition's turn, Round Scoring, Clean Up, the Final Tally) and the facts
// expected afterwards. docs/scenarios.md describes the format.
//
//	s, err := scenario.Load("testdata/scenarios/fallback-unable-in-both.json")
//	if err != nil { ... }           // malformed: the error names the field
//	res := s.Run()
//	fmt.Print(res.Trace)
//	for _, d := range res.Diffs { fmt.Println(d) } // none: res.Pass()
//
// ExampleLoad runs that file.
package scenario
