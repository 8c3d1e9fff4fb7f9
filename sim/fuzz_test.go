package sim

import (
	"testing"
)

// FuzzMerge merges two arbitrary shard files: the merge fails cleanly, or
// its result is itself a valid result (so it can be merged again) with no
// more games than the run has.
func FuzzMerge(f *testing.F) {
	var shards [][]byte
	for k := 1; k <= 3; k++ {
		r, err := Run(f.Context(), testConfig(f, 7, 1, Shard{K: k, N: 3}))
		if err != nil {
			f.Fatal(err)
		}
		shards = append(shards, Encode(r))
	}
	f.Add(shards[0], shards[1])
	f.Add(shards[2], shards[0])
	f.Add(shards[1], shards[1])
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ra, errA := DecodeAs[*Result](a)
		rb, errB := DecodeAs[*Result](b)
		if errA != nil || errB != nil {
			return
		}
		m, err := mergeAs([]*Result{ra, rb}, []string{"a", "b"}, MergeOptions{})
		if err != nil {
			return
		}
		if _, err := DecodeAs[*Result](Encode(m)); err != nil {
			t.Fatalf("merged result is not valid: %v", err)
		}
		for _, c := range m.Cells {
			if c.Games > m.GamesPerCell {
				t.Fatalf("cell %s: %d games of %d", c.name(), c.Games, m.GamesPerCell)
			}
		}
	})
}

// FuzzParseShard checks that a parsed shard is in range and prints back
// as it was read.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/1", "3/8", "0/4", "5/4", "x", "1/2/3", "-1/2", "+1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.K < 1 || sh.K > sh.N {
			t.Fatalf("ParseShard(%q) = %d/%d out of range", s, sh.K, sh.N)
		}
		again, err := ParseShard(sh.String())
		if err != nil || again != sh {
			t.Fatalf("ParseShard(%q) = %v does not round-trip: %v, %v", s, sh, again, err)
		}
	})
}
