package engine

import "testing"

// BenchmarkRandomGame plays a whole game from setup to result with the
// random player (≤ 20 µs and 0 allocations a game).
func BenchmarkRandomGame(b *testing.B) {
	b.ReportAllocs()
	var g Game
	p := NewRandomPlayer(0)
	seed := uint64(0)
	for b.Loop() {
		seed++
		if err := g.Reset(Reference(), seed, Config{Opposition: scriptedOpposition{}}); err != nil {
			b.Fatal(err)
		}
		p.Reset(seed)
		if err := p.Play(&g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRandomTableGame plays a whole 4-player game with the random
// player in every seat.
func BenchmarkRandomTableGame(b *testing.B) {
	b.ReportAllocs()
	var g Game
	p := NewRandomPlayer(0)
	cfg := TableConfig{Politicians: []int{0, 1, 2, 3}}
	seed := uint64(0)
	for b.Loop() {
		seed++
		if err := g.ResetTable(Reference(), seed, cfg); err != nil {
			b.Fatal(err)
		}
		p.Reset(seed)
		if err := p.Play(&g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse is loading the reference rules file: the strict decode,
// validation and hashing every run and every --set point pays once.
func BenchmarkParse(b *testing.B) {
	data := ReferenceJSON()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWith is one --set assignment on the reference rules.
func BenchmarkWith(b *testing.B) {
	a := Assignment{"difficulties.hard.bonus_divisor", "3"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Reference().With(a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck is the invariant check that property tests run after
// every decision of thousands of games, at a 4-player game's 100th
// decision.
func BenchmarkCheck(b *testing.B) {
	b.ReportAllocs()
	var g Game
	if err := g.ResetTable(Reference(), 1, TableConfig{Politicians: []int{0, 1, 2, 3}}); err != nil {
		b.Fatal(err)
	}
	p := NewRandomPlayer(1)
	for range 100 {
		if err := g.Apply(p.Choose(&g)); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if err := g.Check(); err != nil {
			b.Fatal(err)
		}
	}
}
