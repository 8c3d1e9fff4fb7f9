package sim

import (
	"slices"
)

// ArmsAlike reports whether c's arms play identically in every cell (the
// same play-relevant rules hash, difficulty, policy and politician), and
// whether they are identical in every respect (also the rules' name,
// version and overrides and the arms' names).
func (c *CompareConfig) ArmsAlike() (same, identical bool) {
	a, b := c.A.Rules, c.B.Rules
	if a.Hash != b.Hash {
		return false, false
	}
	for _, p := range c.Cells {
		if !p.alike() {
			return false, false
		}
	}
	identical = a.Name == b.Name && a.Version == b.Version && slices.Equal(a.Overrides, b.Overrides) && c.A.Name == c.B.Name
	return true, identical
}
