package script

import (
	"crypto/sha256"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"tallywood/engine"
	"tallywood/opposition"
)

// The hooks a script defines: the engine asks the Opposition for these four
// things (engine.Opposition). A hook the script leaves out is the built-in
// Opposition's.
type hook int

const (
	hookTurn hook = iota
	hookPlaza
	hookCleanUp
	hookReveal
	numHooks
	hookLoad // the script's top level, run once when it is compiled
)

var hookNames = [...]string{
	hookTurn: "turn", hookPlaza: "plaza_majority", hookCleanUp: "clean_up", hookReveal: "reveal", hookLoad: "the top level",
}

// hookParams are the parameters each hook takes: plaza_majority(amount).
var hookParams = [numHooks]int{hookPlaza: 1}

//go:embed reference.star
var reference string

// Reference returns the reference script: the built-in Opposition written
// as a script, step for step, each step citing its rule. It plays the same
// games as opposition.Solo, byte for byte.
func Reference() string { return reference }

// ReferenceName is the reference script's file name.
const ReferenceName = "reference.star"

// program is a compiled script: its hooks, frozen, shared by every game
// and goroutine that plays it. A script compiles twice: hooks[1] keep its
// note and print statements, for a game whose trace is recorded; hooks[0]
// have none (see rewrite).
type program struct {
	name  string
	hooks [2][numHooks]*starlark.Function
}

// hook is the function of hook h for g.
func (p *program) hook(g *engine.Game, h hook) *starlark.Function {
	return p.hooks[b2i(g.Recording())][h]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Automaton is a scripted Opposition for one rule set: the engine asks it
// for every choice the Solo rules make, and it asks the script's hooks.
// Like opposition.Solo it keeps nothing between calls, so one value serves
// every game and goroutine. A script's error panics with an
// *engine.OppositionError that names the script's file and line, the game
// and the hook; engine.CatchOpposition turns it into the game's error.
type Automaton struct {
	prog *program
	w    *world
}

var _ engine.Opposition = (*Automaton)(nil)

// For returns the Opposition the rules name: the built-in one
// (opposition.Solo) when they name no script, else the script, compiled
// once per content. The error is the script's: a syntax error, a name it
// uses that the API does not have, or a hook of the wrong shape, with its
// file and line.
func For(r *engine.Rules) (engine.Opposition, error) {
	if r.Automaton == nil {
		return opposition.Solo{}, nil
	}
	automata.Lock()
	a, ok := automata.m[r]
	automata.Unlock()
	if ok {
		return a, nil
	}
	p, err := compiled(r.Automaton.Name, r.Automaton.Source)
	if err != nil {
		return nil, err
	}
	a = &Automaton{prog: p, w: newWorld(r)}
	automata.Lock()
	if automata.m == nil || len(automata.m) >= maxAutomata {
		automata.m = map[*engine.Rules]*Automaton{}
	}
	automata.m[r] = a
	automata.Unlock()
	return a, nil
}

// automata caches For's answer by rule set: the harness asks it for
// every game. Bounded as programs is: a study that builds more rule sets
// builds their worlds again.
var automata struct {
	sync.Mutex
	m map[*engine.Rules]*Automaton
}

const maxAutomata = 256

// Check compiles the script the rules name, if any: what loading a rules
// file asks before any game is played.
func Check(r *engine.Rules) error {
	_, err := For(r)
	return err
}

// programs caches compiled scripts by content: the studies that vary a
// rules file's numbers (sensitivity, tune) build hundreds of rule sets
// around one script. The cache is bounded: a long-lived process that
// sees many scripts compiles the old ones again.
var programs struct {
	sync.Mutex
	m map[[32]byte]*program
}

const maxPrograms = 32

func compiled(name, source string) (*program, error) {
	key := sha256.Sum256([]byte(name + "\x00" + source))
	programs.Lock()
	p, ok := programs.m[key]
	programs.Unlock()
	if ok {
		return p, nil
	}
	p, err := compile(name, source)
	if err != nil {
		return nil, err
	}
	programs.Lock()
	if programs.m == nil || len(programs.m) >= maxPrograms {
		programs.m = map[[32]byte]*program{}
	}
	programs.m[key] = p
	programs.Unlock()
	return p, nil
}

// fileOptions are the Starlark dialect of a script: while loops, top-level
// if and for, and sets are allowed (each step counted); recursion is not,
// so a runaway recursion is an error at its first repeat, not a deep stack.
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true}

// compile parses, bounds and runs the top level of a script, and reads
// its hooks, for both of its programs.
func compile(name, source string) (*program, error) {
	p := &program{name: name}
	for traced := range 2 {
		if err := p.compile(source, traced == 1); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *program) compile(source string, traced bool) error {
	name := p.name
	f, err := fileOptions.Parse(name, source, 0)
	if err != nil {
		return fmt.Errorf("automaton %v", err)
	}
	if err := rewrite(f, traced); err != nil {
		return fmt.Errorf("automaton %v", err)
	}
	prog, err := starlark.FileProgram(f, predeclared.Has)
	if err != nil {
		return fmt.Errorf("automaton %s", resolveError(err))
	}
	c := newCall()
	c.hook = hookLoad
	c.start()
	globals, err := prog.Init(&c.thread, predeclared)
	if err != nil {
		return fmt.Errorf("automaton %s", scriptError(name, err))
	}
	globals.Freeze()
	for h := range numHooks {
		v, ok := globals[hookNames[h]]
		if !ok {
			continue
		}
		fn, ok := v.(*starlark.Function)
		if !ok {
			return fmt.Errorf("automaton %s: %s is a %s, not a function (a hook: docs/automaton.md)", name, hookNames[h], v.Type())
		}
		if fn.NumParams() != hookParams[h] || fn.HasVarargs() || fn.HasKwargs() {
			return fmt.Errorf("automaton %s:%d: %s takes %s", name, fn.Position().Line, hookNames[h], paramWords(hookParams[h]))
		}
		p.hooks[b2i(traced)][h] = fn
	}
	return nil
}

func paramWords(n int) string {
	if n == 0 {
		return "no parameters"
	}
	return "one parameter, the amount"
}

// resolveError words the resolver's errors (a name the script uses that
// neither it nor the API defines), each on its own line.
func resolveError(err error) string {
	var list resolve.ErrorList
	if !errors.As(err, &list) {
		return err.Error()
	}
	var lines []string
	for _, e := range list {
		lines = append(lines, fmt.Sprintf("%s:%d: %s", e.Pos.Filename(), e.Pos.Line, e.Msg))
	}
	return strings.Join(lines, "\n")
}

// call is the context of one hook call: the game, the seats, the bounds'
// counts and what the turn has done so far. Calls are pooled: a turn
// allocates no thread.
type call struct {
	// thread is the first field: a builtin finds its call from the thread
	// it runs on (callOf).
	thread   starlark.Thread
	a        *Automaton
	g        *engine.Game
	seat     int8
	you      int8
	hook     hook
	mem      int
	flipped  bool
	boxed    bool
	revealed []int // Solo cards turned up this turn, still in the deck
}

var calls = sync.Pool{New: func() any { return newCall() }}

func newCall() *call {
	c := &call{}
	c.thread.Name = "automaton"
	c.thread.Print = func(thread *starlark.Thread, msg string) { callOf(thread).print(msg) }
	c.thread.OnMaxSteps = func(thread *starlark.Thread) {
		thread.Cancel(fmt.Sprintf("more than %d steps in one call of %s() (an endless loop?)", maxSteps, hookNames[callOf(thread).hook]))
	}
	return c
}

// callOf is the call a builtin runs in. Every thread that runs a script
// is the first field of its call, so the thread's address is the call's:
// a conversion, where thread.Local's map lookup took a tenth of a turn.
func callOf(thread *starlark.Thread) *call { return (*call)(unsafe.Pointer(thread)) }

// start resets the bounds for a new call.
func (c *call) start() {
	c.thread.Uncancel()
	c.thread.Steps = 0
	c.thread.SetMaxExecutionSteps(maxSteps)
	c.mem = 0
	c.flipped, c.boxed = false, false
	c.revealed = c.revealed[:0]
}

// begin takes a call from the pool for hook h of seat's Opposition in g.
func (a *Automaton) begin(g *engine.Game, seat int8, h hook) *call {
	if g.Rules() != a.w.r {
		panic("script: an Automaton plays only the rules it was made for (script.For)")
	}
	c := calls.Get().(*call)
	c.a, c.g, c.seat, c.hook = a, g, seat, h
	c.you = rival(g, seat)
	c.start()
	return c
}

// run calls the hook with args and returns its result; an error fails
// the game (an *engine.OppositionError panic, see Automaton).
func (a *Automaton) run(c *call, args starlark.Tuple) starlark.Value {
	v, err := starlark.Call(&c.thread, a.prog.hook(c.g, c.hook), args, nil)
	if err != nil {
		a.fail(c, scriptError(a.prog.name, err))
	}
	return v
}

// end returns a call to the pool; a failed call is not returned (its
// thread may be cancelled mid-frame).
func (c *call) end() {
	c.a, c.g = nil, nil
	calls.Put(c)
}

// fail fails the game: the script's message, where in the game it was.
func (a *Automaton) fail(c *call, msg string) {
	g := c.g
	where := fmt.Sprintf("game seed %d, round %d", g.Seed, g.Round+1)
	if c.hook == hookTurn {
		where += fmt.Sprintf(", turn %d", g.Turn+1)
	}
	panic(&engine.OppositionError{Err: fmt.Errorf("automaton %s (%s, in %s())", msg, where, hookNames[c.hook])})
}

// scriptError words a Starlark error as file:line: message, the line the
// script's own innermost frame was at (a builtin's error is the line that
// called it).
func scriptError(name string, err error) string {
	var ee *starlark.EvalError
	if !errors.As(err, &ee) {
		return fmt.Sprintf("%s: %v", name, err)
	}
	msg := ee.Msg
	msg = strings.TrimPrefix(msg, "Starlark computation cancelled: ")
	for i := len(ee.CallStack) - 1; i >= 0; i-- {
		if pos := ee.CallStack[i].Pos; pos.Filename() == name && pos.Line > 0 {
			return fmt.Sprintf("%s:%d: %s", name, pos.Line, msg)
		}
	}
	return fmt.Sprintf("%s: %s", name, msg)
}

// rival is the seat the Opposition compares itself with: you.
func rival(g *engine.Game, s int8) int8 {
	for o := range g.NSeats {
		if o != s && !g.Seats[o].Automaton {
			return o
		}
	}
	return engine.NoSeat
}

// Turn plays the Opposition's Strategy Phase turn: the script's turn().
// Solo Gameplay 1 is not the script's to skip: a turn flips exactly one
// Solo card.
func (a *Automaton) Turn(g *engine.Game, seat int8) {
	if a.prog.hooks[0][hookTurn] == nil {
		opposition.Solo{}.Turn(g, seat)
		return
	}
	c := a.begin(g, seat, hookTurn)
	a.run(c, nil)
	if !c.flipped {
		a.fail(c, fmt.Sprintf("%s: turn() returned without flipping a Solo card (Solo Gameplay 1: every turn flips one)", a.prog.name))
	}
	c.end()
}

// PlazaMajority is the solo Round Scoring Plaza rule: the script's
// plaza_majority(amount) (I-14).
func (a *Automaton) PlazaMajority(g *engine.Game, seat int8, amount int8) {
	if a.prog.hooks[0][hookPlaza] == nil {
		opposition.Solo{}.PlazaMajority(g, seat, amount)
		return
	}
	c := a.begin(g, seat, hookPlaza)
	a.run(c, starlark.Tuple{starlark.MakeInt(int(amount))})
	c.end()
}

// CleanUp is the Opposition's Clean Up: the script's clean_up() (Solo
// Clean Up 1–5, I-15). Steps 1–3, the cards to the box, are not the
// script's to skip.
func (a *Automaton) CleanUp(g *engine.Game, seat int8) {
	if a.prog.hooks[0][hookCleanUp] == nil {
		opposition.Solo{}.CleanUp(g, seat)
		return
	}
	c := a.begin(g, seat, hookCleanUp)
	a.run(c, nil)
	if !c.boxed {
		a.fail(c, fmt.Sprintf("%s: clean_up() returned without box_solo_cards() (Solo Clean Up 1–3)", a.prog.name))
	}
	c.end()
}

// Reveal is the tile the Opposition flips in the Final Tally: the one the
// script's reveal() returns (I-16).
func (a *Automaton) Reveal(g *engine.Game, seat int8) int {
	if a.prog.hooks[0][hookReveal] == nil {
		return opposition.Solo{}.Reveal(g, seat)
	}
	c := a.begin(g, seat, hookReveal)
	v := a.run(c, nil)
	t, ok := v.(*tile)
	switch {
	case !ok:
		a.fail(c, fmt.Sprintf("%s: reveal() returned %s, not a tile (one of face_down(district))", a.prog.name, v.Type()))
	case t.w != a.w || t.i >= int(g.NPlaced) || g.Placed[t.i].FaceUp:
		a.fail(c, fmt.Sprintf("%s: reveal() returned a tile that is not face down", a.prog.name))
	}
	c.end()
	return t.i
}
