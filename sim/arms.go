package sim

import (
	"fmt"
	"slices"
	"strings"

	"tallywood/engine"
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

// DescribeArms says what c's arms are and how B differs from A, for
// compare to show before the games: each arm's name and rules, then every
// difference that affects play, the rules field by field (engine.Diff,
// cards named by id) and the first cell's difficulty, policy and
// politician.
func (c *CompareConfig) DescribeArms() string {
	var b strings.Builder
	for _, arm := range []struct {
		label string
		a     *CompareArm
	}{{"A", &c.A}, {"B", &c.B}} {
		fmt.Fprintf(&b, "arm %s: %s (rules %s)\n", arm.label, arm.a.Name, engine.ShortHash(arm.a.Rules.Hash))
	}
	b.WriteString("B differs from A in:")
	n := 0
	for _, d := range engine.Diff(c.A.Rules, c.B.Rules) {
		fmt.Fprintf(&b, "\n  rules %s: %s → %s", d.Path, d.A, d.B)
		n++
	}
	p := c.Cells[0]
	if p.A.Mode != p.B.Mode {
		fmt.Fprintf(&b, "\n  difficulty: %s → %s", p.A.Mode, p.B.Mode)
		n++
	}
	if p.A.Policy.String() != p.B.Policy.String() {
		fmt.Fprintf(&b, "\n  policy: %s → %s", p.A.Policy.Label, p.B.Policy.Label)
		n++
	}
	if p.A.Politician != p.B.Politician {
		fmt.Fprintf(&b, "\n  politician: %s → %s", politicianLabel(c.A.Rules, p.A.Politician), politicianLabel(c.B.Rules, p.B.Politician))
		n++
	}
	if n == 0 {
		b.WriteString(" nothing that affects play")
	}
	b.WriteString("\n")
	return b.String()
}
