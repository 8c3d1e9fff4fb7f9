package kit

import (
	"strings"
	"testing"
)

func TestClip(t *testing.T) {
	long := strings.Repeat("a", 63) + "é" + strings.Repeat("b", 100000)
	for _, tt := range []struct{ s, want string }{
		{"short", "short"},
		{strings.Repeat("x", 200), strings.Repeat("x", 200)},
		{strings.Repeat("x", 201), strings.Repeat("x", 64) + "…(201 bytes)"},
		{long, strings.Repeat("a", 63) + "…(100065 bytes)"}, // not inside é
	} {
		if got := Clip(tt.s); got != tt.want {
			t.Errorf("Clip(%d bytes) = %q, want %q", len(tt.s), got, tt.want)
		}
	}
}
