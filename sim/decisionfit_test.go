package sim

import (
	"slices"
	"testing"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// readDecisionOf is one decision of a record as readDecision sees it.
type readDecisionOf struct {
	kind                 engine.DecisionKind
	scores               []float64
	chosen, best, search int
}

// decisionsOf replays records and keeps each decision with a choice,
// scored by the reader calibrate uses (without the search). It walks the
// game as recordReader.read does, which keeps the scores to itself.
func decisionsOf(b *testing.B, n int64) []readDecisionOf {
	b.Helper()
	games := recordGames(b, "dial:skill=0.6", engine.Normal, 13004, n)
	rules := engine.Reference()
	reader := policy.NewDialReader(policy.ShippedNet, false)
	var out []readDecisionOf
	var g engine.Game
	var buf [engine.MaxOptions]engine.Option
	for i := range games {
		rec := &games[i]
		seed := deal.GameSeed(rec.Seed, rec.Game)
		d := deal.Solo{Mode: rec.Mode, Politician: rules.PoliticianIndex(rec.Politician), Opposition: (&Config{}).opposition()}
		if err := d.Deal(&g, rules, seed); err != nil {
			b.Fatal(err)
		}
		reader.Reset(seed)
		for _, dec := range rec.Decisions {
			legal := g.Legal(buf[:0])
			chosen := slices.Index(legal, dec.Option)
			if len(legal) > 1 {
				scores, best, search := reader.Read(&g, legal, dec.Option)
				out = append(out, readDecisionOf{g.Pending, slices.Clone(scores), chosen, best, search})
			}
			g.ApplyLegal(dec.Option)
		}
	}
	return out
}

// What calibrate spends on a recorded decision beyond reading it: the
// dial's log-likelihood at every skill below 1, and the test of fit's
// sums, each a pass over the options at every skill. The reading (the
// learned score of every option) is BenchmarkRecordRead's.
func BenchmarkDecisionFit(b *testing.B) {
	ds := decisionsOf(b, 20)
	b.Run("loglik", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range ds {
				for k := range logLikSink {
					logLikSink[k] += policy.DialSkill(fitSkill(k)).LogProb(d.scores, d.chosen, d.search)
				}
			}
		}
		reportPerDecision(b, b.N*len(ds))
	})
	b.Run("fit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var s decisionSums
			for _, d := range ds {
				s.add(d.kind, d.scores, d.chosen, d.best, d.search)
			}
		}
		reportPerDecision(b, b.N*len(ds))
	})
}

// logLikSink keeps the benchmarked likelihood from being computed for
// nothing.
var logLikSink [fitBelow]float64

// reportPerDecision reports the benchmark's time per decision read, of
// the decisions read in all its iterations.
func reportPerDecision(b *testing.B, decisions int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(decisions), "ns/decision")
}

// BenchmarkRecordRead is calibrate's whole read of a recorded game
// against the levels novice to expert (the search's pick read too): the
// learned scores, the levels' choices, the likelihood and the test of
// fit.
func BenchmarkRecordRead(b *testing.B) {
	games := recordGames(b, "dial:skill=0.6", engine.Normal, 13004, 20)
	cfg := calibrateConfig(b, games, 1, 1)
	rr := newRecordReader(cfg.Rules, cfg.opposition(), cfg.Levels, true)
	defer rr.Close()
	decisions := 0
	b.ReportAllocs()
	for b.Loop() {
		for i := range games {
			var rd gameRead
			if err := rr.read(&games[i], &rd); err != nil {
				b.Fatal(err)
			}
			decisions += int(rd.decisions + rd.hinted)
		}
	}
	reportPerDecision(b, decisions)
}
