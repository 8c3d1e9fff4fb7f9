package kit

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{0, "Vote Share", "0 Vote Shares"},
		{1, "Vote Share", "1 Vote Share"},
		{2, "vote", "2 votes"},
		{2, "Money", "2 Money"},
		{3, "Popularity", "3 Popularity"},
		{2, "face-down tile", "2 face-down tiles"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}
