package mix

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct{ arg, err string }{
		{"greedy", `"greedy": want NxSPEC with N ≥ 1, e.g. 3000xgreedy`},
		{"0xgreedy", `"0xgreedy": want NxSPEC with N ≥ 1, e.g. 3000xgreedy`},
		{"3greedy", `"3greedy": want NxSPEC`},
		{"5xnope", `policy "nope": unknown`},
	}
	for _, tt := range tests {
		_, err := Parse([]string{tt.arg})
		if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
			t.Errorf("Parse(%q) = %v, want %s", tt.arg, err, tt.err)
		}
	}
	if _, err := Parse(nil); err == nil {
		t.Error("no arguments accepted")
	}
	items, err := Parse([]string{"30xgreedy", "2xmcts:iters=4,prior=1"})
	if err != nil || len(items) != 2 || items[0].Games != 30 || items[1].Spec.String() != "mcts:iters=4,prior=1" {
		t.Errorf("Parse = %+v, %v", items, err)
	}
}
