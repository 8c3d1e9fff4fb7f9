package sim

import (
	"fmt"

	"tallywood/engine"
)

// The arms of a comparison as a result names them: a compare's and a
// comparison's at a table.

// ArmInfo names an arm in a result: its name, its rules and every
// override applied to them.
type ArmInfo struct {
	Name string `json:"name"`
	RulesID
}

func armInfo(name string, r *engine.Rules) ArmInfo { return ArmInfo{Name: name, RulesID: rulesID(r)} }

func (a ArmInfo) equal(b ArmInfo) bool { return a.Name == b.Name && a.RulesID.equal(b.RulesID) }

// checkArms checks the arms of a decoded comparison.
func checkArms(a, b *ArmInfo) error {
	for _, arm := range []struct {
		label string
		info  *ArmInfo
	}{{"a", a}, {"b", b}} {
		if len(arm.info.Name) > maxText {
			return fmt.Errorf("%s.name: %d bytes, more than %d", arm.label, len(arm.info.Name), maxText)
		}
		if err := arm.info.RulesID.check(arm.label + "."); err != nil {
			return err
		}
	}
	return nil
}

// text shows an arm in an error: its name, rules hash and overrides.
func (a ArmInfo) text() string { return a.Name + " (rules " + a.RulesID.text() + ")" }
