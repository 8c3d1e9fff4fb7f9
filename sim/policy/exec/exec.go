package exec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// startTimeout is the least time a program gets to start and answer the
// handshake: an interpreter takes a while to load, whatever the
// per-decision timeout.
const startTimeout = 10 * time.Second

// Policy plays the player's seat by asking an outside program. The program
// is started at the first decision, reused for the following games and
// restarted after a game it failed. Choose and End are called by one
// goroutine; Close may be called from any.
type Policy struct {
	cfg config

	mu     sync.Mutex
	proc   *proc // nil: not running
	closed bool

	seed    uint64 // Reset's, for the program's generator
	started bool   // GameStart sent for the game in progress
	reused  bool   // the program of this game played an earlier one
	seat    int8   // the seat the program plays in it
	n       int    // decisions of the game so far
	err     error  // why the last Choose has no answer
}

var _ policy.Fallible = (*Policy)(nil)

func newPolicy(cfg config) *Policy { return &Policy{cfg: cfg} }

// Reset starts a new game: the program hears of it at its first decision.
func (p *Policy) Reset(gameSeed uint64) {
	p.seed, p.started, p.n, p.err = gameSeed, false, 0, nil
}

// Err is why the last Choose has no answer: the program crashed, timed
// out or answered something that is not one of the options.
func (p *Policy) Err() error { return p.err }

// Choose sends the decision and the player's view and returns the option
// whose id the program answers. On failure it sets Err, stops the program
// and returns legal[0], which Play does not apply.
func (p *Policy) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	p.n++
	p.err = nil
	o, err := p.choose(g, legal)
	var gone *exitedError
	if err != nil && p.n == 1 && p.reused && errors.As(err, &gone) {
		// A program may end after the last game's end (docs/protocol.md):
		// it is restarted, and that costs no game (else the next game would
		// fail, or not, by timing).
		p.drop()
		o, err = p.choose(g, legal)
	}
	if err != nil {
		p.err = fmt.Errorf("exec: game seed %d, decision %d (round %d, %s): %v [program %q]",
			g.Seed, p.n, g.Round+1, g.Pending, err, p.cfg.command)
		p.drop()
		return legal[0]
	}
	return o
}

func (p *Policy) choose(g *engine.Game, legal []engine.Option) (engine.Option, error) {
	pr, err := p.running(g)
	if err != nil {
		return engine.Option{}, err
	}
	if !p.started {
		p.reused = pr.games > 0
		pr.games++
		p.seat = g.Decision().Seat
		pol := g.Seats[p.seat].Politician
		difficulty := "table"
		if g.IsSolo() {
			difficulty = g.Mode.String()
		}
		start := GameStart{Type: "game", PlayerSeed: deal.ProgramSeed(p.seed), Difficulty: difficulty, Players: int(g.NSeats),
			Seat: int(p.seat), Politician: g.Rules().Politicians[pol].ID, PoliticianIndex: int(pol)}
		if err := pr.send(start, p.cfg.timeout); err != nil {
			return engine.Option{}, err
		}
		p.started = true
	}
	opts := Options(g, legal)
	msg := Decision{Type: "decision", N: p.n, Decision: g.Pending.String(), View: NewView(g), Options: opts}
	if err := pr.send(msg, p.cfg.timeout); err != nil {
		return engine.Option{}, err
	}
	line, err := pr.receive(p.cfg.timeout)
	if err != nil {
		return engine.Option{}, err
	}
	var a Answer
	if err := decodeStrict(line, &a); err != nil || a.Type != "answer" {
		return engine.Option{}, fmt.Errorf(`answer %s is not {"type":"answer","id":"..."}`, quoteLine(line))
	}
	for i, o := range opts {
		if o.ID == a.ID {
			return legal[i], nil
		}
	}
	return engine.Option{}, fmt.Errorf("answer id %q is not one of the %d option ids", a.ID, len(opts))
}

// End sends the Final Tally. A program that fails to take it is stopped
// and restarted for the next game; the game's outcome stands.
func (p *Policy) End(g *engine.Game) {
	p.mu.Lock()
	pr := p.proc
	p.mu.Unlock()
	if pr == nil || !p.started {
		return
	}
	if err := pr.send(newGameEnd(g, p.seat, p.n), p.cfg.timeout); err != nil {
		p.drop()
	}
}

// Close stops the program (closing its input, then killing it after a
// grace period) and reaps it. The policy plays no more.
func (p *Policy) Close() error {
	p.mu.Lock()
	pr := p.proc
	p.proc, p.closed = nil, true
	p.mu.Unlock()
	if pr != nil {
		pr.stop(true)
	}
	return nil
}

// drop kills the program after a failure; the next game starts another.
func (p *Policy) drop() {
	p.mu.Lock()
	pr := p.proc
	p.proc = nil
	p.mu.Unlock()
	if pr != nil {
		pr.stop(false)
	}
}

// running returns the program, starting it and shaking hands when it is
// not running or was started for other rules.
func (p *Policy) running(g *engine.Game) (*proc, error) {
	r := g.Rules()
	p.mu.Lock()
	pr, closed := p.proc, p.closed
	p.mu.Unlock()
	if closed {
		return nil, errors.New("the policy is closed (the run is ending)")
	}
	if pr != nil && pr.rules == r.Hash {
		return pr, nil
	}
	if pr != nil {
		p.drop()
	}
	pr, err := start(p.cfg.argv)
	if err != nil {
		return nil, fmt.Errorf("start: %v", err)
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		pr.stop(false)
		return nil, errors.New("the policy is closed (the run is ending)")
	}
	p.proc = pr
	p.mu.Unlock()
	if err := p.handshake(pr, r); err != nil {
		return nil, fmt.Errorf("handshake: %v", err)
	}
	p.started = false
	return pr, nil
}

func (p *Policy) handshake(pr *proc, r *engine.Rules) error {
	timeout := max(p.cfg.timeout, startTimeout)
	hello := Hello{Type: "hello", Protocol: ProtocolVersion, Tool: "tallywood", ToolVersion: deal.Version(),
		RulesHash: r.Hash, RulesVersion: r.Version}
	if err := pr.send(hello, timeout); err != nil {
		return err
	}
	line, err := pr.receive(timeout)
	if err != nil {
		return err
	}
	var h HelloReply
	if err := decodeStrict(line, &h); err != nil || h.Type != "hello" {
		return fmt.Errorf(`reply %s is not {"type":"hello","protocol":%d,"name":"..."}`, quoteLine(line), ProtocolVersion)
	}
	if h.Protocol != ProtocolVersion {
		return fmt.Errorf("the program speaks protocol %d, this harness %d", h.Protocol, ProtocolVersion)
	}
	pr.name, pr.rules = h.Name, r.Hash
	if h.WantRules {
		return pr.send(Rules{Type: "rules", RulesHash: r.Hash, Rules: r.Canonical()}, timeout)
	}
	return nil
}

// decodeStrict reads one JSON object into v, refusing unknown fields and
// trailing data: a program that answers something else is told so.
func decodeStrict(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}
