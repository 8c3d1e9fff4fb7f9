package policy

// Level is a named skill level: a policy spec a study can name by what it
// stands for ("for a skilled player") instead of by its parameters. Parse
// accepts the name wherever it accepts a spec. docs/policies.md has each
// level's measured win rates.
type Level struct {
	Name    string // e.g. "skilled"
	Spec    string // the policy it plays, a canonical spec
	Summary string // who it stands for
}

// Levels are the skill levels, weakest first.
var Levels = []Level{
	{"novice", "builder", "plays to a plan (Strength and majorities) one decision at a time, without reading the Opposition"},
	{"casual", "greedy", "takes the option that looks best one decision ahead"},
	{"skilled", "mcts:iters=100", "searches a few moves ahead, including the Opposition's reply"},
	{"expert", "mcts:iters=400", "searches deeply; beats the Opposition most of the time on Normal"},
}

func levelByName(name string) (Level, bool) {
	for _, lv := range Levels {
		if lv.Name == name {
			return lv, true
		}
	}
	return Level{}, false
}
