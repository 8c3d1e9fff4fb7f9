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
	{"skilled", "learned", "one decision ahead, scored as a strong search would (the learned score); wins about half its games on Normal"},
	{"expert", "mcts:iters=100,prior=16", "searches a few moves ahead, guided by the learned score; beats the Opposition most of the time on both difficulties"},
	{"master", "mcts:iters=400,prior=16", "searches deeply, guided by the learned score: the strongest level"},
}

func levelByName(name string) (Level, bool) {
	for _, lv := range Levels {
		if lv.Name == name {
			return lv, true
		}
	}
	return Level{}, false
}
