package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// optionKindNames name the option kinds where an option is written down:
// the exec protocol's option ids, `play`'s save files and the decision
// records calibration reads.
var optionKindNames = [...]string{
	OptCard:           "card",
	OptColumn:         "column",
	OptRow:            "row",
	OptRegion:         "region",
	OptPublicWorks:    "public_works",
	OptCelebrity:      "celebrity",
	OptResearch:       "research",
	OptCampaign:       "campaign",
	OptFundraise:      "fundraise",
	OptDirectAppeal:   "direct_appeal",
	OptRally:          "rally",
	OptPlazaFundraise: "plaza_fundraise",
	OptAbility:        "ability",
	OptFavor:          "favor",
	OptEnd:            "end",
	OptAttract:        "attract",
	OptSpot:           "spot",
	OptDiscard:        "discard",
	OptKeep:           "keep",
	OptDraw:           "draw",
	OptReveal:         "reveal",
	OptExchange:       "exchange",
}

// OptionKindName names an option kind ("direct_appeal"); a kind beyond
// the engine's is "kindN".
func OptionKindName(k OptionKind) string {
	if int(k) < len(optionKindNames) {
		return optionKindNames[k]
	}
	return fmt.Sprintf("kind%d", k)
}

// ParseOptionKind reads an option kind's name.
func ParseOptionKind(s string) (OptionKind, bool) {
	for i, n := range optionKindNames {
		if n == s {
			return OptionKind(i), true
		}
	}
	return 0, false
}

// OptionID is the stable id of an option: its kind and its three
// arguments, e.g. "direct_appeal/0/1/2". The same option always has the
// same id, whatever the position.
func OptionID(o Option) string {
	return fmt.Sprintf("%s/%d/%d/%d", OptionKindName(o.Kind), o.A, o.B, o.C)
}

// ParseOptionID reads an option id written by OptionID. It checks the
// form only: whether the option is legal is the game's to say.
func ParseOptionID(id string) (Option, error) {
	parts := strings.Split(id, "/")
	if len(parts) != 4 {
		return Option{}, fmt.Errorf("option id %q is not KIND/A/B/C", id)
	}
	k, ok := ParseOptionKind(parts[0])
	if !ok {
		return Option{}, fmt.Errorf("option id %q: %q is not an option kind", id, parts[0])
	}
	var args [3]int8
	for i, p := range parts[1:] {
		v, err := strconv.ParseInt(p, 10, 8)
		if err != nil {
			return Option{}, fmt.Errorf("option id %q: %q is not an integer from -128 to 127", id, p)
		}
		args[i] = int8(v)
	}
	return Option{Kind: k, A: args[0], B: args[1], C: args[2]}, nil
}
