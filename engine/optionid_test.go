package engine

import "testing"

func TestOptionIDRoundTrip(t *testing.T) {
	for k := range OptionKind(len(optionKindNames)) {
		o := Option{Kind: k, A: -1, B: 127, C: -128}
		got, err := ParseOptionID(OptionID(o))
		if err != nil || got != o {
			t.Errorf("%s: read back %+v, %v", OptionID(o), got, err)
		}
	}
}

func TestParseOptionIDRefuses(t *testing.T) {
	for _, id := range []string{"", "end", "end/0/0", "end/0/0/0/0", "nope/0/0/0", "end/x/0/0", "end/0/128/0", "end/0/0/ 1", "End/0/0/0"} {
		if o, err := ParseOptionID(id); err == nil {
			t.Errorf("%q read as %+v", id, o)
		}
	}
}

// FuzzParseOptionID: an id that reads is the id of what it reads as.
func FuzzParseOptionID(f *testing.F) {
	f.Add("direct_appeal/0/1/2")
	f.Add("end/-1/0/0")
	f.Fuzz(func(t *testing.T, id string) {
		o, err := ParseOptionID(id)
		if err != nil {
			return
		}
		if back, err := ParseOptionID(OptionID(o)); err != nil || back != o {
			t.Fatalf("%q read as %+v, which writes as %q", id, o, OptionID(o))
		}
	})
}
