package sim

import (
	"bytes"
	"testing"
)

// FuzzDecodeResult feeds `merge` arbitrary files: decoding and merging
// must fail cleanly or give a result that survives a JSON round trip.
func FuzzDecodeResult(f *testing.F) {
	r, err := Run(f.Context(), testConfig(f, 5, 1, Shard{K: 1, N: 2}))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(r.JSON())
	f.Add([]byte(`{"format":"tallywood-sim/1","cells":[{"counts":{"games":1,"wins":1,"margin_histogram":{"lo":5000,"counts":[1]}}}]}`))
	f.Add([]byte(`{"format":"tallywood-sim/1","shard":"1+1/2"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeResult(data)
		if err != nil {
			return
		}
		m, err := Merge([]*Result{r}, []string{"f"}, MergeOptions{})
		if err != nil {
			t.Fatalf("a result that decodes does not merge alone: %v", err)
		}
		back, err := DecodeResult(m.JSON())
		if err != nil {
			t.Fatalf("merged result does not decode: %v", err)
		}
		if !bytes.Equal(back.JSON(), m.JSON()) {
			t.Fatal("JSON round trip changed the result")
		}
	})
}

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
		shards = append(shards, r.JSON())
	}
	f.Add(shards[0], shards[1])
	f.Add(shards[2], shards[0])
	f.Add(shards[1], shards[1])
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ra, errA := DecodeResult(a)
		rb, errB := DecodeResult(b)
		if errA != nil || errB != nil {
			return
		}
		m, err := Merge([]*Result{ra, rb}, []string{"a", "b"}, MergeOptions{})
		if err != nil {
			return
		}
		if _, err := DecodeResult(m.JSON()); err != nil {
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
