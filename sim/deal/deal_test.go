package deal

import (
	"slices"
	"testing"
)

// TestDealsUnchanged pins a few values of every deal: they are part of
// every seeded game (docs/output.md: game i plays on GameSeed(S, i)), so a
// change here changes every result, trace and saved game.
func TestDealsUnchanged(t *testing.T) {
	seeds := []struct {
		name      string
		got, want uint64
	}{
		{"GameSeed(0, 0)", GameSeed(0, 0), 16294208416658607535},
		{"GameSeed(1, 0)", GameSeed(1, 0), 13830413928045401970},
		{"GameSeed(1, 1)", GameSeed(1, 1), 6869446166584666695},
		{"GameSeed(5, 3)", GameSeed(5, 3), 14182749047361679785},
		{"GameSeed(1<<63, 1<<40)", GameSeed(1<<63, 1<<40), 1890026567520093238},
		{"PolicySeed(GameSeed(1, 0), 0)", PolicySeed(GameSeed(1, 0), 0), 14591131311750266162},
		{"PolicySeed(GameSeed(1, 0), 2)", PolicySeed(GameSeed(1, 0), 2), 1996454957195969603},
		{"ProgramSeed(0)", ProgramSeed(0), 8425587800371807473},
		{"ProgramSeed(1)", ProgramSeed(1), 10877629693831599981},
		{"ProgramSeed(GameSeed(1, 0))", ProgramSeed(GameSeed(1, 0)), 2835930257662046623},
		{"RolloutSeed(1)", RolloutSeed(1), 0x6d637472},
		{"HintSeed(1)", HintSeed(1), 0x68696e75},
	}
	for _, tt := range seeds {
		if tt.got != tt.want {
			t.Errorf("%s = %d, want %d", tt.name, tt.got, tt.want)
		}
	}
	politicians := []struct {
		gameSeed uint64
		n, want  int
	}{
		{GameSeed(1, 0), 6, 1},
		{GameSeed(1, 1), 6, 5},
		{GameSeed(1, 2), 6, 1},
		{GameSeed(2, 7), 5, 3},
	}
	for _, tt := range politicians {
		if got := RandomPolitician(tt.gameSeed, tt.n); got != tt.want {
			t.Errorf("RandomPolitician(%d, %d) = %d, want %d", tt.gameSeed, tt.n, got, tt.want)
		}
	}
	tables := []struct {
		gameSeed uint64
		players  int
		want     []int
	}{
		{GameSeed(1, 0), 3, []int{2, 3, 0}},
		{GameSeed(1, 1), 4, []int{5, 1, 4, 0}},
		{GameSeed(1, 2), 2, []int{0, 4}},
	}
	for _, tt := range tables {
		if got := SeatsPoliticians(tt.gameSeed, tt.players, 6); !slices.Equal(got, tt.want) {
			t.Errorf("SeatsPoliticians(%d, %d, 6) = %v, want %v", tt.gameSeed, tt.players, got, tt.want)
		}
	}
}

func TestGameSeedDependsOnSeedAndIndexOnly(t *testing.T) {
	seen := map[uint64]bool{}
	for seed := range uint64(4) {
		for i := range uint64(1000) {
			s := GameSeed(seed, i)
			if seen[s] {
				t.Fatalf("GameSeed(%d, %d) = %d repeats", seed, i, s)
			}
			seen[s] = true
			if GameSeed(seed, i) != s {
				t.Fatal("GameSeed is not a function")
			}
		}
	}
}

func TestRandomPolitician(t *testing.T) {
	var seen [6]int
	for i := range uint64(6000) {
		seen[RandomPolitician(GameSeed(1, i), 6)]++
	}
	for p, n := range seen {
		if n < 850 || n > 1150 {
			t.Errorf("politician %d picked %d times of 6000", p, n)
		}
	}
}

// TestTablePoliticians: distinct Politicians (Player Board Setup 5), a
// function of the seed.
func TestTablePoliticians(t *testing.T) {
	seen := map[int]int{}
	for seed := uint64(0); seed < 600; seed++ {
		p := SeatsPoliticians(seed, 4, 6)
		for i := range p {
			seen[p[i]]++
			for j := range i {
				if p[i] == p[j] {
					t.Fatalf("seed %d: %v deals a Politician twice", seed, p)
				}
			}
		}
		if q := SeatsPoliticians(seed, 4, 6); q[0] != p[0] || q[3] != p[3] {
			t.Fatal("not a function of the seed")
		}
	}
	for pol := range 6 {
		if seen[pol] < 300 {
			t.Errorf("politician %d dealt %d times in 600 four-player deals", pol, seen[pol])
		}
	}
}

// TestPolicySeedsDistinct: the lineup entries of a table draw from seeds
// of their own, none of them the game seed a solo player's policy is
// reset with.
func TestPolicySeedsDistinct(t *testing.T) {
	for i := range uint64(200) {
		gs := GameSeed(7, i)
		seen := map[uint64]bool{gs: true}
		for j := range 4 {
			s := PolicySeed(gs, j)
			if seen[s] {
				t.Fatalf("game seed %d: entry %d's seed %d repeats", gs, j, s)
			}
			seen[s] = true
		}
	}
}

func TestBuildInfoString(t *testing.T) {
	for _, tt := range []struct {
		b    BuildInfo
		want string
	}{
		{BuildInfo{Module: "(devel)"}, "(devel)"},
		{BuildInfo{Module: "v1.2.0", Revision: "901ed70c5d1e0f2a3b4c5d6e7f8091a2b3c4d5e6"}, "v1.2.0 901ed70c5d1e"},
		{BuildInfo{Module: "(devel)", Revision: "901ed70c5d1e0f2a", Modified: true}, "(devel) 901ed70c5d1e+dirty"},
	} {
		if got := tt.b.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.b, got, tt.want)
		}
	}
}
