package kit

import (
	"slices"
	"strings"
)

// maxSlip bounds the names Nearest and DidYouMean compare: a longer one
// is no slip of a name of the tool, and the edit distance's cost grows
// with the product of the lengths.
const maxSlip = 256

// Nearest returns up to three of the valid names closest to name by edit
// distance, ignoring case: those within one edit of the closest.
func Nearest(name string, valid []string) []string {
	if len(name) > maxSlip {
		return nil
	}
	type cand struct {
		name string
		d    int
	}
	cands := make([]cand, len(valid))
	for i, v := range valid {
		cands[i] = cand{v, editDistance(strings.ToLower(name), strings.ToLower(v))}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return a.d - b.d })
	var out []string
	for _, c := range cands {
		if len(out) == 3 || c.d > cands[0].d+1 {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// DidYouMean is " (did you mean X?)" for the valid name nearest a mistyped
// one when it is near enough to be a slip (at most a third of its letters
// differ, and at most 3), "" when none is.
func DidYouMean(name string, valid []string) string {
	if len(name) > maxSlip {
		return ""
	}
	var best string
	bestD := -1
	for _, v := range valid {
		if d := editDistance(strings.ToLower(name), strings.ToLower(v)); bestD < 0 || d < bestD {
			best, bestD = v, d
		}
	}
	if bestD < 0 || bestD > 3 || 3*bestD > max(len(name), len(best)) || bestD == 0 && best == name {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// editDistance is the number of edits between a and b in bytes: an
// insertion, a deletion, a substitution or a swap of two neighbours (the
// commonest slip at a keyboard) each counts one.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
