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
		m, err := Merge([]*Result{r}, []string{"f"})
		if err != nil {
			return
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
