package sim

import (
	"slices"
	"testing"
)

func TestShard(t *testing.T) {
	tests := []struct {
		in        string
		k, n      int
		games     int64
		len       int64
		firstGame int64
		err       string
	}{
		{in: "1/1", k: 1, n: 1, games: 10, len: 10, firstGame: 0},
		{in: "1/4", k: 1, n: 4, games: 10, len: 3, firstGame: 0},
		{in: "2/4", k: 2, n: 4, games: 10, len: 3, firstGame: 1},
		{in: "3/4", k: 3, n: 4, games: 10, len: 2, firstGame: 2},
		{in: "4/4", k: 4, n: 4, games: 10, len: 2, firstGame: 3},
		{in: "4/4", k: 4, n: 4, games: 3, len: 0, firstGame: 3},
		{in: "0/4", err: `"0/4" is not K/N with 1 ≤ K ≤ N`},
		{in: "5/4", err: `"5/4" is not K/N with 1 ≤ K ≤ N`},
		{in: "1/0", err: `"1/0" is not K/N with 1 ≤ K ≤ N`},
		{in: "x", err: `"x" is not K/N with 1 ≤ K ≤ N`},
		{in: "1/2/3", err: `"1/2/3" is not K/N with 1 ≤ K ≤ N`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			s, err := ParseShard(tt.in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.K != tt.k || s.N != tt.n {
				t.Errorf("got %d/%d, want %d/%d", s.K, s.N, tt.k, tt.n)
			}
			if got := s.Len(tt.games); got != tt.len {
				t.Errorf("Len(%d) = %d, want %d", tt.games, got, tt.len)
			}
			if got := s.Game(0); got != tt.firstGame {
				t.Errorf("Game(0) = %d, want %d", got, tt.firstGame)
			}
		})
	}
}

func TestShardsPartitionGames(t *testing.T) {
	const games = 103
	for n := 1; n <= 5; n++ {
		count := make([]int, games)
		for k := 1; k <= n; k++ {
			s := Shard{K: k, N: n}
			for j := range s.Len(games) {
				count[s.Game(j)]++
			}
		}
		for i, c := range count {
			if c != 1 {
				t.Fatalf("N=%d: game %d in %d shards", n, i, c)
			}
		}
	}
}

func TestQuantile(t *testing.T) {
	var c Counts
	for _, m := range []int64{-5, -1, 0, 0, 2, 3, 3, 3, 10, 40} {
		c.Games++
		c.Hist[m+MarginLimit]++
	}
	tests := []struct {
		q    float64
		want int
	}{{0.05, -5}, {0.1, -5}, {0.11, -1}, {0.25, 0}, {0.5, 2}, {0.75, 3}, {0.95, 40}, {1, 40}}
	for _, tt := range tests {
		if got := c.Quantile(tt.q); got != tt.want {
			t.Errorf("Quantile(%g) = %d, want %d", tt.q, got, tt.want)
		}
	}
}

// TestShardsHeld reads the shard field as the report's command rebuilds
// it: every game, one shard, shards merged in order, and a field that is
// not one.
func TestShardsHeld(t *testing.T) {
	for _, tt := range []struct {
		s     string
		ks    []int
		n     int
		valid bool
	}{
		{"", []int{1}, 1, true},
		{"3/8", []int{3}, 8, true},
		{"5+1+3/8", []int{1, 3, 5}, 8, true},
		{"1+1/2", nil, 0, false},
		{"9/8", nil, 0, false},
		{"1+2", nil, 0, false},
	} {
		ks, n, err := ShardsHeld(tt.s)
		if (err == nil) != tt.valid || !slices.Equal(ks, tt.ks) || n != tt.n {
			t.Errorf("ShardsHeld(%q) = %v, %d, %v", tt.s, ks, n, err)
		}
	}
}
