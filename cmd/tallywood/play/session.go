package play

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/opposition/script"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// Config sets up a session.
type Config struct {
	Rules *engine.Rules
	// Seed is the master seed, as `sim` and `trace` take it, and Game the
	// game of it: the game dealt is engine seed deal.GameSeed(Seed, Game),
	// so `play --seed 7 --game 2` deals the game `trace --seed 7 --game 2`
	// narrates.
	Seed       uint64
	Game       uint64
	Mode       engine.Mode
	Politician int               // index into Rules.Politicians, or deal.RandomPoliticianIndex
	Opposition engine.Opposition // nil: the rules' own (script.For)

	// Color writes ANSI colours; the caller sets it only when the output
	// is a terminal and NO_COLOR is unset.
	Color bool
	// Pause waits for Enter between the steps of the Opposition's turns
	// and the automatic phases.
	Pause bool
	// Echo writes each input line after its prompt, so that a transcript
	// of scripted input reads like a terminal session.
	Echo bool
	// Words names cards, icons, actions and tiles in full in the options'
	// descriptions ("Public Works", "1 Money") instead of the terminal's
	// short forms (PW, M1), for a reader without the legend (tallywood
	// serve).
	Words bool
	// SavePath is the file `s` writes when no file is named.
	SavePath string
	// Write writes a save file; the command sets it to the writer of
	// --out, so that `s FILE` follows its rules (a symlink's target is
	// written, a FIFO or device written into, a file's mode kept). nil
	// refuses to save.
	Write func(path string, data []byte) error
	// TrustLineup lets a save file's lineup run as written: programs
	// (exec:) and parameters beyond the defaults and the skill levels.
	TrustLineup bool
	// Hinter answers `h`; nil asks the policy of Chance's level when the
	// chance is shown, so that the advice and its chance come from one
	// level, and otherwise the greedy policy (sim/policy).
	Hinter Hinter
	// Chance, when set, is the win chance the narration shows at the
	// start of every turn of the solo game, and the hint after each option
	// (chance.go).
	Chance *policy.WinChance
	// Tester names who plays, in the save file: a game with a tester (a
	// new one, or a resumed save's) is saved when it ends, for
	// `tallywood calibrate` to read.
	Tester string
	// Create, when set, writes a tester's game to a new file: at path,
	// or when path is taken, at the first free name after it (Create
	// returns the name written). A tester's save never replaces a file
	// the session did not write or resume: another tester's finished
	// game, or the same tester's earlier one.
	Create func(path string, data []byte) (string, error)

	// Seats 2..4 plays the game without the Opposition (Mode, Politician
	// and Opposition do not apply): the person plays seat Seat (0-based),
	// Lineup the other seats in seat order, each policy on its own stream
	// (deal.PolicySeed(game seed, j) for entry j). The Politicians are the
	// deal's (deal.SeatsPoliticians), as in `sim --seats` and `trace
	// --seats`. 0 is the solo game.
	Seats  int
	Seat   int8
	Lineup []policy.Spec
}

// End says how a session ended.
type End int

const (
	Finished   End = iota // the game reached its Final Tally
	Quit                  // the player typed q
	EndOfInput            // the input ended before the game did
)

func (e End) String() string {
	switch e {
	case Finished:
		return "finished"
	case Quit:
		return "quit"
	}
	return "end of input"
}

// turnInfo is what the engine keeps private about the player's turn in
// progress and the board shows: the chosen card, its column, the spent
// icons. It is derived from the decisions, so a replay rebuilds it.
type turnInfo struct {
	card int16 // Strategy card chosen, -1 before
	col  int8  // column chosen, -1 before
	used uint8 // slots whose icons were spent
}

var noTurn = turnInfo{card: -1, col: -1}

// snapshot is the session before one of the player's decisions, for undo.
type snapshot struct {
	g      engine.Game
	n      int // decisions recorded
	events int // events logged
	turn   turnInfo
}

// Session is one game at the terminal: the live game, its event log, the
// record of the player's decisions (what a save file holds) and the undo
// stack of the current turn.
type Session struct {
	cfg  Config
	g    *engine.Game
	log  *engine.Log
	rec  Record
	turn turnInfo

	undo    []snapshot
	undoWhy string // why the undo stack is empty

	savedAt  int    // decisions in the last save, -1 before one
	own      string // the file the session last saved to or resumed: its saves replace it
	narrated int    // events already written
	quiet    bool   // replaying a save file: no narration
	banner   string
	buf      [engine.MaxOptions]engine.Option

	in  *bufio.Reader
	w   *errWriter
	eof bool

	// hinted: the player asked for a hint since their last decision, so
	// the next is recorded as hinted.
	hinted bool

	// me is the person's seat: 0 in the solo game.
	me int8
	// others holds the policy of every seat but me at a table (nil in
	// the solo game and for me); fatal is the first error of one of them,
	// which ends the session.
	others []policy.Policy
	fatal  error

	// marks are the win chance at each turn's start (with Config.Chance),
	// shown the first of them written.
	marks []chanceMark
	shown int
}

// New sets up a new game.
func New(cfg Config) (_ *Session, err error) {
	// The Opposition may take the first turn as the game is dealt (Hard);
	// a scripted one may fail there.
	defer engine.CatchOpposition(&err)
	if cfg.Rules == nil {
		cfg.Rules = engine.Reference()
	}
	if cfg.Seats > 1 {
		return newTable(cfg)
	}
	if cfg.Opposition == nil {
		// The rules' own: the built-in Opposition or the script they name.
		opp, err := script.For(cfg.Rules)
		if err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		cfg.Opposition = opp
	}
	if cfg.Politician != deal.RandomPoliticianIndex && (cfg.Politician < 0 || cfg.Politician >= len(cfg.Rules.Politicians)) {
		return nil, fmt.Errorf("play: politician %d: the rules have %d", cfg.Politician, len(cfg.Rules.Politicians))
	}
	s := &Session{cfg: cfg, log: &engine.Log{}, turn: noTurn, undoWhy: "no decision yet this turn", savedAt: -1}
	g := new(engine.Game)
	d := deal.Solo{Mode: cfg.Mode, Politician: cfg.Politician, Opposition: cfg.Opposition, Recorder: s.log}
	if cfg.Chance != nil {
		// The chance at the start of each of the Opposition's turns, in
		// this game only (not in the copies a hint looks ahead on).
		d.Opposition = &policy.OppWatch{Opposition: cfg.Opposition, Game: g, Start: func(g *engine.Game, _ int8) { s.markChance(g) }}
	}
	if err := d.Deal(g, cfg.Rules, deal.GameSeed(cfg.Seed, cfg.Game)); err != nil {
		return nil, err
	}
	s.g = g
	s.markTurn()
	s.rec = Record{
		Format:       RecordFormat,
		RulesHash:    cfg.Rules.Hash,
		RulesVersion: cfg.Rules.Version,
		Seed:         cfg.Seed,
		Game:         cfg.Game,
		Mode:         cfg.Mode.String(),
		Politician:   cfg.Rules.Politicians[g.Seats[0].Politician].ID,
		Tester:       cfg.Tester,
	}
	return s, nil
}

// newTable sets up a game without the Opposition: the deal of game Game of
// the seed, the person in seat cfg.Seat and the lineup in the others.
func newTable(cfg Config) (*Session, error) {
	n := cfg.Seats
	switch {
	case n > engine.MaxSeats:
		return nil, fmt.Errorf("play: %d seats: a table has 2 to %d", n, engine.MaxSeats)
	case cfg.Seat < 0 || int(cfg.Seat) >= n:
		return nil, fmt.Errorf("play: seat %d is not one of the %d seats", cfg.Seat+1, n)
	case len(cfg.Lineup) != n-1:
		return nil, fmt.Errorf("play: %d policies for the %d other seats", len(cfg.Lineup), n-1)
	case n > len(cfg.Rules.Politicians):
		return nil, fmt.Errorf("play: %d players need %d Politicians, the rules have %d", n, n, len(cfg.Rules.Politicians))
	}
	s := &Session{cfg: cfg, log: &engine.Log{}, turn: noTurn, undoWhy: "no decision yet this turn", savedAt: -1, me: cfg.Seat}
	seed := deal.GameSeed(cfg.Seed, cfg.Game)
	pols := deal.SeatsPoliticians(seed, n, len(cfg.Rules.Politicians))
	g, err := engine.NewTable(cfg.Rules, seed, engine.TableConfig{Politicians: pols, Recorder: s.log})
	if err != nil {
		return nil, err
	}
	s.g = g
	lineup := make([]string, len(cfg.Lineup))
	s.others = make([]policy.Policy, n)
	for j, spec := range cfg.Lineup {
		lineup[j] = spec.Label
		seat := j
		if seat >= int(cfg.Seat) {
			seat++
		}
		s.others[seat] = spec.New()
		s.others[seat].Reset(deal.PolicySeed(seed, j))
	}
	s.rec = Record{
		Format:       RecordFormat,
		RulesHash:    cfg.Rules.Hash,
		RulesVersion: cfg.Rules.Version,
		Seed:         cfg.Seed,
		Game:         cfg.Game,
		Politician:   cfg.Rules.Politicians[pols[cfg.Seat]].ID,
		Seats:        n,
		Seat:         int(cfg.Seat) + 1,
		Lineup:       lineup,
		Tester:       cfg.Tester,
	}
	// The policies play up to the person's first decision.
	if _, err := s.playOthers(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close releases the policies of the other seats.
func (s *Session) Close() {
	for _, p := range s.others {
		if p != nil {
			policy.Close(p)
		}
	}
}

// playOthers lets the policies of the other seats decide until the
// person's next decision or the end of the game, and returns how many
// decisions they made.
func (s *Session) playOthers() (int, error) {
	g := s.g
	n := 0
	for ; s.others != nil && !g.Over() && g.Decision().Seat != s.me; n++ {
		seat := g.Decision().Seat
		p := s.others[seat]
		o := p.Choose(g, g.Legal(s.buf[:0]))
		if f, ok := p.(policy.Fallible); ok && f.Err() != nil {
			return n, fmt.Errorf("play: the policy of %s: %w", engine.TableSeatName(seat), f.Err())
		}
		if err := g.Apply(o); err != nil {
			return n, fmt.Errorf("play: the policy of %s chose %s: %w", engine.TableSeatName(seat), g.Describe(o), err)
		}
	}
	return n, nil
}

// Record returns a copy of the replayable record of the game so far, with
// its check.
func (s *Session) Record() Record {
	r := s.rec
	r.Decisions = append([]Decision(nil), s.rec.Decisions...)
	r.Hinted = slices.Clone(s.rec.Hinted)
	r.Check = r.check()
	return r
}

// errWriter keeps the first write error, so that rendering code can write
// freely and Run reports the failure once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, nil
}

func (s *Session) printf(format string, args ...any) { fmt.Fprintf(s.w, format, args...) }

// Run plays the game with the player's input from in and everything else
// written to out, until the game ends, the player quits or in ends.
func (s *Session) Run(in io.Reader, out io.Writer) (_ End, err error) {
	// A scripted Opposition's error, in the game or in a hint's lookahead,
	// ends the session with it: the game cannot go on.
	defer engine.CatchOpposition(&err)
	s.in = bufio.NewReader(in)
	s.w = &errWriter{w: out}
	if s.banner != "" {
		s.printf("%s\n", s.banner)
	}
	if s.narrate() {
		return s.quit(), s.w.err
	}
	for !s.g.Over() {
		if end, done := s.decide(); done {
			if s.fatal != nil {
				return end, s.fatal
			}
			return end, s.w.err
		}
	}
	if s.others != nil {
		s.printf("\n%s\n", Wrap(TableOutcome(s.g), Width, "    "))
	} else {
		s.printf("\n%s", s.tally())
	}
	if s.rec.Tester != "" && s.savedAt != len(s.rec.Decisions) {
		s.save("")
	}
	return Finished, s.w.err
}

// TableOutcome words a finished game without the Opposition: every seat's
// votes and place, best first, and who shares a victory (rulebook Final
// Tally: "the tied players share the victory").
func TableOutcome(g *engine.Game) string {
	res := &g.Result
	var parts, winners []string
	for place := int8(1); place <= g.NSeats; place++ {
		for s := range g.NSeats {
			if res.Place[s] != place {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s %s with %s", engine.TableSeatName(s), engine.Ordinal(int(place)), kit.Count(int(res.Total[s]), "vote")))
			if place == 1 {
				winners = append(winners, engine.TableSeatName(s))
			}
		}
	}
	out := "Outcome: " + strings.Join(parts, ", ")
	if len(winners) > 1 {
		out += "; " + strings.Join(winners, " and ") + " share the victory"
	}
	return out + "."
}

// maxLine bounds an input line: a command is a few characters, a file
// name a path. A longer line is skipped, not held nor echoed.
const maxLine = 4096

// readLine reads one line of input without its line end; at the end of
// the input it returns io.EOF once nothing is left. A line longer than
// maxLine reads as an empty one, after a note.
func (s *Session) readLine() (string, error) {
	if s.eof {
		return "", io.EOF
	}
	var line []byte
	long := false
	for {
		chunk, err := s.in.ReadSlice('\n')
		if long = long || len(line)+len(chunk) > maxLine; !long {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && len(line) == 0 && !long {
			s.eof = true
			return "", io.EOF
		}
		if err != nil && err != io.EOF {
			return "", err
		}
		break
	}
	if long {
		s.printf("(skipped a line longer than %d bytes)\n", maxLine)
		return "", nil
	}
	text := strings.TrimRight(string(line), "\r\n")
	if s.cfg.Echo {
		s.printf("%s\n", text)
	}
	return text, nil
}

// decide shows the board and the menu of the pending decision and reads
// commands until one changes the game. done reports the end of the session.
func (s *Session) decide() (end End, done bool) {
	legal := s.g.Legal(s.buf[:0])
	nums := s.number(legal)
	s.printf("\n%s", s.board())
	s.printf("%s", s.menu(legal, nums))
	for {
		s.printf("%s", s.prompt(nums))
		line, err := s.readLine()
		if err != nil {
			s.printf("\n")
			if err != io.EOF {
				s.printf("Input error: %v\n", err)
			}
			s.printf("End of input: the game stops at %s.%s\n", s.where(), s.savedNote())
			return EndOfInput, true
		}
		cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		arg = strings.TrimSpace(arg)
		switch strings.ToLower(cmd) {
		case "":
			s.printf("Type the number of an option (%s), or ? for help.\n", span(nums))
		case "?", "help":
			s.printf("%s", s.help())
		case "b", "board":
			s.printf("\n%s%s", s.board(), s.menu(legal, nums))
		case "u", "undo":
			if s.undoLast() {
				return 0, false
			}
		case "s", "save":
			s.save(arg)
		case "h", "hint":
			s.printf("%s", s.hint(legal, nums))
			s.hinted = true
		case "q", "quit":
			if s.confirmQuit() {
				return s.quit(), true
			}
		default:
			n, err := strconv.Atoi(cmd)
			switch {
			case err != nil:
				s.printf("%q is not an option or a command: type %s, or ? for help.\n", line, span(nums))
			case arg != "":
				s.printf("One choice at a time: type just the number.\n")
			case !slices.Contains(nums, n):
				s.printf("There is no option %d: choose %s.\n", n, span(nums))
			default:
				o := legal[slices.Index(nums, n)]
				s.printf("%s\n", Wrap("> "+s.describe(o), Width, "    "))
				if err := s.apply(o); err != nil {
					if s.fatal != nil {
						return EndOfInput, true
					}
					// The menu lists only legal options, so this is an
					// engine inconsistency; say so rather than hide it.
					s.printf("The engine refused it: %v\n", err)
					continue
				}
				if s.narrate() {
					return s.quit(), true
				}
				return 0, false
			}
		}
	}
}

func (s *Session) prompt(nums []int) string {
	return fmt.Sprintf("Your choice [%s, ? u h s q]: ", span(nums))
}

// number numbers the legal options of every menu from 1, in the
// engine's order, so that the prompt's range always starts at 1 (after an
// action of Step 5 the rest are numbered again).
func (s *Session) number(legal []engine.Option) []int { return countFrom1(len(legal)) }

func countFrom1(n int) []int {
	nums := make([]int, n)
	for i := range nums {
		nums[i] = i + 1
	}
	return nums
}

// span writes ascending option numbers as ranges: "1-4", "1", "1-2, 5".
func span(nums []int) string {
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(nums[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", nums[i], nums[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// confirmQuit asks before q ends a game under way, whatever is saved, so
// that a stray q never ends one: the question says what quitting loses.
// The end of the input quits.
func (s *Session) confirmQuit() bool {
	unsaved := len(s.rec.Decisions) - max(s.savedAt, 0)
	switch {
	case unsaved > 0:
		s.printf("Quit and lose %s not saved? Type y to quit, anything else to go on (s saves): ", kit.Count(unsaved, "decision"))
	case s.savedAt >= 0:
		s.printf("Quit? The game is saved. Type y to quit, anything else to go on: ")
	default:
		s.printf("Quit the game at its start? Type y to quit, anything else to go on: ")
	}
	line, err := s.readLine()
	if err != nil {
		s.printf("\n")
		return true
	}
	if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
		return true
	}
	s.printf("Not quitting.\n")
	return false
}

// where names the point the game has reached.
func (s *Session) where() string {
	g := s.g
	switch g.Phase {
	case engine.PhaseStrategy:
		return fmt.Sprintf("round %d, turn %d", g.Round+1, g.Turn+1)
	case engine.PhaseCleanupDiscard, engine.PhaseCleanupDraw:
		return fmt.Sprintf("the Clean Up after round %d", g.Round+1)
	case engine.PhaseReveal:
		return "the Final Tally reveals"
	}
	return "the end"
}

// savedNote says whether the game as it stands is in a save file.
func (s *Session) savedNote() string {
	switch s.savedAt {
	case len(s.rec.Decisions):
		return " It is saved."
	case -1:
		return " It was not saved."
	}
	return fmt.Sprintf(" The last save holds %d of its %d decisions.", s.savedAt, len(s.rec.Decisions))
}

func (s *Session) quit() End {
	s.printf("Quit at %s after %s.%s\n", s.where(), kit.Count(len(s.rec.Decisions), "decision"), s.savedNote())
	return Quit
}

// apply plays one option of the player's and keeps the record, the turn
// information and the undo stack. Replays of save files go through here too,
// so a resumed game is in exactly the state the live one was.
func (s *Session) apply(o engine.Option) error {
	g := s.g
	if !g.IsLegal(o) {
		return fmt.Errorf("play: %s is not a legal option for the %s decision", g.Describe(o), g.Decision().Kind)
	}
	snap := snapshot{g: *g, n: len(s.rec.Decisions), events: len(s.log.Events), turn: s.turn}
	snap.g.SetRecorder(nil)
	next := s.turn
	switch o.Kind {
	case engine.OptCard:
		st := &g.Seats[g.Decision().Seat]
		next.card = int16(st.Hand[o.A])
	case engine.OptColumn:
		next.col = o.A
	case engine.OptPublicWorks, engine.OptCelebrity, engine.OptResearch, engine.OptCampaign,
		engine.OptFundraise, engine.OptDirectAppeal, engine.OptRally, engine.OptPlazaFundraise:
		next.used |= 1 << o.A
	}
	if err := g.Apply(o); err != nil {
		return err
	}
	if s.hinted {
		s.rec.Hinted = append(s.rec.Hinted, len(s.rec.Decisions))
		s.hinted = false
	}
	s.rec.Decisions = append(s.rec.Decisions, decisionOf(o))
	others, err := s.playOthers()
	if err != nil {
		s.fatal = err
		return err
	}
	s.turn = next
	switch g.Decision().Kind {
	case engine.DecColumn, engine.DecRow, engine.DecRegion, engine.DecAction, engine.DecAttract, engine.DecSpot:
	default:
		s.turn = noTurn
	}
	why := s.barrier(s.log.Events[snap.events:])
	if why == "" && others > 0 {
		// The policies have used their streams: undoing would replay
		// them differently from a save file of the same decisions.
		why = "the other players have played"
	}
	if why != "" {
		s.undo = s.undo[:0]
		s.undoWhy = why
	} else {
		s.undo = append(s.undo, snap)
	}
	if g.Decision().Kind == engine.DecCard {
		s.undo = s.undo[:0]
		s.undoWhy = "no decision yet this turn"
	}
	s.markTurn()
	return nil
}

// barrier says why the decision that made evs cannot be undone: it ended
// the turn, or it showed something hidden (a tile face, a cube from the
// bag, a drawn card), which undoing would let the player peek at.
func (s *Session) barrier(evs []engine.Event) string {
	for _, e := range evs {
		switch {
		case e.Kind.Header() || (e.Seat != engine.NoSeat && e.Seat != s.me):
			return "your turn is over"
		case e.Kind == engine.EvFlip || e.Kind == engine.EvReveal:
			return "the flip showed a hidden tile"
		case e.Kind == engine.EvCubeDraw:
			return "a cube was drawn from the bag"
		case e.Kind == engine.EvDraw || e.Kind == engine.EvReshuffle:
			return "you drew a card"
		}
	}
	return ""
}

// undoLast takes back the player's last decision of this turn.
func (s *Session) undoLast() bool {
	if len(s.undo) == 0 {
		s.printf("Nothing to undo: %s.\n", s.undoWhy)
		return false
	}
	snap := s.undo[len(s.undo)-1]
	s.undo = s.undo[:len(s.undo)-1]
	o := s.rec.Decisions[snap.n].Option()
	*s.g = snap.g
	s.g.SetRecorder(s.log)
	s.log.Events = s.log.Events[:snap.events]
	s.narrated = snap.events
	for len(s.marks) > 0 && s.marks[len(s.marks)-1].event > snap.events {
		s.marks = s.marks[:len(s.marks)-1]
	}
	s.shown = min(s.shown, len(s.marks))
	s.rec.Decisions = s.rec.Decisions[:snap.n]
	// A hint seen before the decision undone still informs the next.
	for len(s.rec.Hinted) > 0 && s.rec.Hinted[len(s.rec.Hinted)-1] >= snap.n {
		s.rec.Hinted = s.rec.Hinted[:len(s.rec.Hinted)-1]
		s.hinted = true
	}
	s.turn = snap.turn
	s.printf("Undone: %s\n", s.describe(o))
	return true
}
