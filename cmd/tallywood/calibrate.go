package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/spf13/pflag"

	"tallywood/cmd/tallywood/play"
	"tallywood/cmd/tallywood/serve"
	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/opposition/script"
	"tallywood/sim"
	"tallywood/sim/playtest"
	"tallywood/sim/report"
)

func init() { calibrateCommand.register() }

const calibrateUsage = `usage: tallywood calibrate [FILE...] [--outcomes FILE.csv] [flags]

Finds the skill on the dial (policy dial:skill=S: 0 random, 1 the skilled
level, 2 the expert level) that explains what testers did, per tester and
pooled, with 95% intervals:

  - from their decisions: play's save files (FILE.json, 'play --tester
    NAME' names the tester), records of decisions (FILE.jsonl, the
    JSON-lines format of docs/calibration.md, which 'sim --record' writes)
    and the games of a playtest store (--store FILE, of 'tallywood serve'),
    each decision's likelihood on the dial; and how often each level would
    have decided alike;
  - from their results: the games of those files played to the end, and
    --outcomes, a CSV of games whose results alone were written down
    (tester,difficulty,result[,rules][,margin]): the likelihood of the
    wins and margins over the dial's curve.

Then predicts the win rates players of that skill reach on Normal and Hard,
under these rules and --predict-rules, with intervals that carry the
fit's uncertainty and the curve's. The curves are played here: the dial at
--skills on both difficulties, under every rules set named.

flags:
`

var calibrateCommand = &studyCommand{
	name:    "calibrate",
	summary: "fit testers' skill on the dial from their decisions and results; predict their win rates",
	usage:   calibrateUsage,
	shared: sharedFlags{games: 1000, gamesUsage: "`N` games a point of the curves and difficulty at skill 1 and below",
		rulesUsage: "rules `FILE` the records were played under, or default (the reference set)",
		formats:    tableJSONCSVHTML, args: true, wide: true},
	define: defineCalibrate,
}

// defaultLevels are the levels decisions are matched against: every one.
const defaultLevels = "novice,casual,skilled,expert,master"

// maxRecordGames bounds the games a calibration reads.
const maxRecordGames = 100000

func defineCalibrate(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error) {
	outcomes := fs.String("outcomes", "", "a CSV `FILE` of games' results: tester,difficulty,result[,rules][,margin] (docs/calibration.md)")
	predict := fs.String("predict-rules", "", "predict the win rates under the rules `FILE` too")
	levels := fs.String("levels", defaultLevels, "the policies decisions are matched against, a `LIST` of specs")
	skills := fs.String("skills", defaultSkills, skillsUsage)
	search := fs.Int64("search-games", 200, searchGamesUsage)
	storePath := fs.String("store", "", "a playtest store `FILE` of tallywood serve: its games played under --rules, decisions and results")
	trustOutcomes := fs.Bool("trust-outcomes", false, "with --outcomes: the CSV's rules column may name any rules file (an absolute path, .., a symlink out of the CSV's folder)")
	return func() (*plan, error) {
		rules, err := s.rules()
		if err != nil {
			return nil, err
		}
		cfg := sim.CalibrateConfig{RunConfig: s.runConfig(), Rules: rules, Games: s.games, SearchGames: *search}
		if cfg.Skills, err = parseSkills("skills", *skills); err != nil {
			return nil, err
		}
		if cfg.Levels, err = parsePolicies("levels", *levels); err != nil {
			return nil, err
		}
		s.files.readSpecs(cfg.Levels...)
		if *search < 1 || *search > sim.MaxGames {
			return nil, fmt.Errorf("--search-games %d is outside 1..%d", *search, int64(sim.MaxGames))
		}
		var named []os.FileInfo
		for _, path := range s.fs.Args() {
			if ext := strings.ToLower(filepath.Ext(path)); ext != ".json" && ext != ".jsonl" {
				return nil, fmt.Errorf("%s: not a save file of play (.json) nor a record of decisions (.jsonl)", path)
			}
			// Each file once, known by what it is, not its name: a
			// file counted twice narrows every interval as if there
			// were twice the games (a copy is caught game by game, in
			// sim).
			st, err := os.Stat(path)
			if err == nil {
				for j, other := range named {
					if other != nil && os.SameFile(st, other) {
						return nil, inputError{fmt.Errorf("%s is %s, named already (or a link to it): each file is read once", path, s.fs.Arg(j))}
					}
				}
			}
			named = append(named, st)
			s.files.read("", path)
			games, err := readPlaytests(path)
			if err != nil {
				return nil, inputError{err}
			}
			if len(cfg.Records)+len(games) > maxRecordGames {
				return nil, inputError{fmt.Errorf("%s: more than %d recorded games in all", path, maxRecordGames)}
			}
			cfg.Records = append(cfg.Records, games...)
		}
		if *storePath != "" {
			s.files.read("--store", *storePath)
			games, err := readStore(*storePath, rules)
			if err != nil {
				return nil, inputError{err}
			}
			if len(cfg.Records)+len(games) > maxRecordGames {
				return nil, inputError{fmt.Errorf("%s: more than %d recorded games in all", *storePath, maxRecordGames)}
			}
			cfg.Records = append(cfg.Records, games...)
		}
		if err := onlyWith(s.fs, "trust-outcomes", "--outcomes", *outcomes != ""); err != nil {
			return nil, err
		}
		if *outcomes != "" {
			if cfg.Outcomes, cfg.OutcomeRules, err = readOutcomes(&s.files, *outcomes, *trustOutcomes); err != nil {
				return nil, inputError{err}
			}
		}
		if len(cfg.Records) == 0 && len(cfg.Outcomes) == 0 {
			return nil, fmt.Errorf("nothing to calibrate from: name save files or records of decisions, --store or --outcomes")
		}
		if *predict != "" {
			s.files.read("--predict-rules", *predict)
			if cfg.Predict, err = loadRules(*predict); err != nil {
				return nil, inputError{fmt.Errorf("--predict-rules: %v", err)}
			}
			cfg.PredictName = filepath.Base(*predict)
		}
		p := &plan{total: int64(len(cfg.Records)) + calibrateGames(&cfg), text: report.TextOptions{Wide: s.wide}, notes: calibrateCost(&cfg)}
		p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
			cfg.Workers, cfg.Progress = workers, progress
			return result(sim.Calibrate(ctx, cfg))
		}
		return p, nil
	}
}

// calibrateGames is the curves' games of this shard: both difficulties
// at every skill, under every rules set (the base, the predicted, and the
// outcomes' distinct files, at most).
func calibrateGames(cfg *sim.CalibrateConfig) int64 {
	sets := int64(1 + len(cfg.OutcomeRules))
	if cfg.Predict != nil {
		sets++
	}
	cc := sim.CurveConfig{Games: cfg.Games, SearchGames: cfg.SearchGames}
	var n int64
	for _, x := range cfg.Skills {
		n += 2 * cfg.Shard.Len(cc.GamesAt(x))
	}
	return sets * n
}

// Speeds of the dial in games per CPU-second (docs/calibration.md, "Its
// speed, along it"): about 1,000 at skill 1 and below, 11 above, where it
// searches at every decision, as reading a recorded game does.
const (
	dialGamesPerSecond   = 1000
	searchGamesPerSecond = 11
)

// calibrateCost says, before a long calibration starts, about how many
// CPU-minutes it takes (the README's calibration, with the default
// curves, takes about 5): nothing under half a CPU-minute.
func calibrateCost(cfg *sim.CalibrateConfig) string {
	sets := int64(1 + len(cfg.OutcomeRules))
	if cfg.Predict != nil {
		sets++
	}
	cc := sim.CurveConfig{Games: cfg.Games, SearchGames: cfg.SearchGames}
	var below, above int64
	for _, x := range cfg.Skills {
		n := 2 * sets * cfg.Shard.Len(cc.GamesAt(x))
		if x > 1 {
			above += n
		} else {
			below += n
		}
	}
	secs := float64(below)/dialGamesPerSecond + float64(above+int64(len(cfg.Records)))/searchGamesPerSecond
	if secs < 30 {
		return ""
	}
	return fmt.Sprintf("calibrate: about %s: %d games of the curves at skill 1 and below (about %d a CPU-second), "+
		"%d above it and %d recorded games read, where the dial searches (about %d a CPU-second); fewer --games or --search-games take less\n",
		kit.Count(int(math.Ceil(secs/60)), "CPU-minute"), below, dialGamesPerSecond, above, len(cfg.Records), searchGamesPerSecond)
}

// readPlaytests reads the recorded games of one file: a record of
// decisions (.jsonl), or else a save file of play (.json).
func readPlaytests(path string) ([]playtest.Game, error) {
	if strings.ToLower(filepath.Ext(path)) == ".jsonl" {
		data, err := kit.ReadFileMax(path, playtest.MaxDecisionsBytes)
		if err != nil {
			return nil, err
		}
		return playtest.ParseDecisions(path, data)
	}
	rec, err := play.ReadRecord(path)
	if err != nil {
		return nil, err
	}
	if rec.Seats > 0 {
		// Replayed as a solo game, its decisions were read as another
		// game's, or refused as damaged.
		return nil, fmt.Errorf("%s: a game at a table (play --seats %d), not a solo game: calibration reads games against the Opposition, which the dial's curves play", path, rec.Seats)
	}
	return []playtest.Game{savedGame(path, rec)}, nil
}

// savedGame is the recorded game of a solo game's save file.
func savedGame(path string, rec *play.Record) playtest.Game {
	g := playtest.Game{Tester: rec.Tester, RulesHash: rec.RulesHash, Seed: rec.Seed, Game: rec.Game, Politician: rec.Politician, File: path}
	if g.Tester == "" {
		g.Tester = "(no name)"
	}
	g.Mode, _ = engine.ParseMode(rec.Mode) // ReadRecord checked it
	hinted := map[int]bool{}
	for _, h := range rec.Hinted {
		hinted[h] = true
	}
	for i, d := range rec.Decisions {
		g.Decisions = append(g.Decisions, playtest.Decision{Option: d.Option(), Hinted: hinted[i]})
	}
	return g
}

// readStore reads the games of a playtest store (tallywood serve) played
// under rules; games under other rules are refused by name only when
// there are no others, since a calibration reads one rules set.
func readStore(path string, rules *engine.Rules) ([]playtest.Game, error) {
	st, err := serve.OpenReadOnly(path)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	groups, err := serve.StoreRecords(st)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var others []string
	for _, g := range groups {
		if g.Rules.Hash == rules.Hash {
			return g.Games, nil
		}
		others = append(others, fmt.Sprintf("%s under rules %s (%s)", kit.Count(len(g.Games), "game"), g.Name, engine.ShortHash(g.Rules.Hash)))
	}
	if len(others) == 0 {
		return nil, fmt.Errorf("%s: no game has a decision yet", path)
	}
	return nil, fmt.Errorf("%s: no game under rules %s; it holds %s: calibrate with --rules naming that rules file",
		path, engine.ShortHash(rules.Hash), strings.Join(others, ", "))
}

// readOutcomes reads an outcomes CSV and the rules files it names, each
// relative to the CSV's directory, and records them in fl as inputs. A
// CSV may come from anyone, so unless trusted its rules files stay in its
// folder, as a scenario's do (kit.ReadFileIn): no absolute path, no ..,
// no symlink leading out. Else a row could open any file, and the errors
// of reading it as rules tell of its contents (the first byte of
// /etc/shadow, the keys of a JSON file).
func readOutcomes(fl *files, path string, trusted bool) ([]playtest.Outcome, map[string]*engine.Rules, error) {
	fl.read("--outcomes", path)
	data, err := kit.ReadFileMax(path, playtest.MaxOutcomesBytes)
	if err != nil {
		return nil, nil, err
	}
	out, err := playtest.ParseOutcomes(path, data)
	if err != nil {
		return nil, nil, err
	}
	rules := map[string]*engine.Rules{}
	dir := filepath.Dir(path)
	for _, o := range out {
		if o.Rules == "" || rules[o.Rules] != nil {
			continue
		}
		var r *engine.Rules
		switch file := o.Rules; {
		case isReferenceName(file):
			r = engine.Reference()
		case trusted:
			if !filepath.IsAbs(file) {
				file = filepath.Join(dir, file)
			}
			fl.read("--outcomes", file)
			r, err = loadRules(file)
		default:
			fl.read("--outcomes", filepath.Join(dir, file))
			r, err = loadRulesIn(dir, file)
		}
		if err != nil {
			return nil, nil, &playtest.Error{File: path, Line: o.Line, Err: fmt.Errorf("rules %q: %v", o.Rules, err)}
		}
		rules[o.Rules] = r
	}
	return out, rules, nil
}

// loadRulesIn loads the rules file name inside the folder dir, and the
// script it names beside it, neither leading out of dir
// (kit.ReadFileIn). The error follows the quoted name.
func loadRulesIn(dir, name string) (*engine.Rules, error) {
	read := func(name string, limit int64, what string) ([]byte, error) {
		data, err := kit.ReadFileIn(dir, name, limit, what)
		if errors.Is(err, kit.ErrNotLocal) {
			return nil, errors.New("is not a path inside the CSV's folder (no absolute path, no ..): name rules files relative to the CSV, or add --trust-outcomes")
		}
		return data, err
	}
	data, err := read(name, engine.MaxRulesFileSize, "a rules file")
	if err != nil {
		return nil, err
	}
	beside := func(script string) ([]byte, error) {
		at := path.Join(path.Dir(filepath.ToSlash(name)), script)
		b, err := read(at, engine.MaxAutomatonSize, "a script")
		if err != nil {
			return nil, fmt.Errorf("%q %v", at, err)
		}
		return b, nil
	}
	r, err := engine.ParseBeside(data, beside)
	if err != nil {
		return nil, err
	}
	r.File = filepath.Join(dir, name)
	if err := script.Check(r); err != nil {
		return nil, err
	}
	return r, nil
}
