package play

import (
	"fmt"
	"strings"

	"tallywood/engine"
)

// narrate writes the events logged since the last call as rulebook
// narration (the same rule-cited lines as `tallywood trace`). Your own
// decision's effects come at once; the Opposition's turns, Round Scoring,
// Clean Up and the Final Tally reveals come step by step, with a pause for
// Enter between steps when the session pauses. It reports whether the
// player quit at a pause.
func (s *Session) narrate() (quit bool) {
	from := s.narrated
	evs := s.log.Events[from:]
	s.narrated = len(s.log.Events)
	if s.quiet {
		s.shown = len(s.marks)
		return false
	}
	defer s.chanceLines(s.narrated)
	r := s.g.Rules()
	st := stepper{me: s.me}
	skip := !s.cfg.Pause
	written := false // something was written since the last pause
	for i, e := range evs {
		s.chanceLines(from + i)
		switch e.Kind {
		case engine.EvTally, engine.EvSeatTally, engine.EvResult:
			if s.others == nil {
				continue // the Final Tally is laid out as the scoring board
			}
		}
		wasAuto := st.auto
		if st.starts(e) {
			// No pause before the first automatic step: your own
			// decision's effects were just shown.
			if wasAuto && written && !skip {
				switch s.pause() {
				case pauseQuit:
					return true
				case pauseSkip:
					skip = true
				}
			}
			written = false
		}
		s.printf("%s\n", s.eventLine(r, e))
		if !e.Kind.Header() {
			written = true
		}
	}
	return false
}

// stepper cuts the events after one of the person's decisions into the
// steps narration shows one at a time: the decision's own effects, then
// each step of the Opposition's turns (its Notes saying why, the main
// event, what followed), Round Scoring, Clean Up and the Final Tally, each
// under its header.
type stepper struct {
	me       int8 // the person's seat
	auto     bool // past the person's own decision's effects
	stepMain bool // the current step has its main event
}

// starts reports whether e begins a new step, and notes e.
func (st *stepper) starts(e engine.Event) bool {
	// Events of a seat other than the person's are automatic: the
	// Opposition's, or at a table the policies'.
	other := e.Seat != engine.NoSeat && e.Seat != st.me
	start := false
	switch {
	case e.Kind.Header() && (e.Kind != engine.EvTurn || other):
		// The Opposition's turn, Round Scoring, Clean Up and the
		// Final Tally each begin a step under their header.
		st.auto, start = true, true
	case e.Kind == engine.EvFlip && e.Seat == engine.NoSeat:
		// Final Tally 1: the Initial Support tokens turn face up, one
		// step for all four, the step of the Final Tally header.
		st.stepMain = false
	case e.Kind == engine.EvReveal && other:
		st.auto, start = true, true
	case e.Kind == engine.EvTurn:
		// The person's turn begins: the board follows, no pause.
	case st.auto && (e.Kind == engine.EvNote || mainEvent(e.Kind)) && st.stepMain:
		start = true
	}
	if start {
		st.stepMain = false
	}
	if mainEvent(e.Kind) {
		st.stepMain = true
	}
	return start
}

// Steps cuts evs, the events after one of seat me's decisions, into the
// steps the terminal's narration pauses between: the decision's own
// effects, then a step at each header or automatic step. No step is
// empty; evs empty gives one empty step.
func Steps(evs []engine.Event, me int8) [][]engine.Event {
	st := stepper{me: me}
	steps := [][]engine.Event{nil}
	for _, e := range evs {
		if st.starts(e) && len(steps[len(steps)-1]) > 0 {
			steps = append(steps, nil)
		}
		steps[len(steps)-1] = append(steps[len(steps)-1], e)
	}
	return steps
}

// mainEvent marks the event a step of the Opposition's turn is about; the
// Notes before it say why, the tracker and cube moves after it what
// followed.
func mainEvent(k engine.EventKind) bool {
	switch k {
	case engine.EvSoloCard, engine.EvAssistant, engine.EvPublicWorks, engine.EvCelebrity, engine.EvFlip,
		engine.EvCampaign, engine.EvSpot, engine.EvFundraise, engine.EvReveal, engine.EvSoloBox,
		engine.EvSoloReveal, engine.EvVotes:
		return true
	}
	return false
}

// eventLine is one narration line: headers flush left and bold, the rest
// indented, long lines wrapped to Width with a deeper indent.
func (s *Session) eventLine(r *engine.Rules, e engine.Event) string {
	text := r.Text(e)
	if s.others != nil && e.Seat != s.me {
		// Another player's draws and Clean Up discards are hidden from
		// the person (Clean Up 4 discards face down): say which deck, not
		// which card.
		switch e.Kind {
		case engine.EvDraw:
			text = fmt.Sprintf("%s: draw a card from the %s deck", engine.TableSeatName(e.Seat), engine.Action(e.Action))
		case engine.EvDiscard:
			text = fmt.Sprintf("%s: discard a card face down", engine.TableSeatName(e.Seat))
		}
	}
	if e.Kind.Header() {
		return s.paint(bold, Wrap(text, Width, "    "))
	}
	text = Wrap("  "+text, Width, "      ")
	if s.others != nil {
		// At a table the person's seat is painted as "You" is in solo.
		me := engine.TableSeatName(s.me)
		if rest, ok := strings.CutPrefix(text, "  "+me); ok && e.Seat == s.me {
			text = "  " + s.paint(colourYou, me) + rest
		}
		return text
	}
	if e.Seat == s.g.Opponent() {
		if rest, ok := strings.CutPrefix(text, "  Opposition"); ok {
			text = "  " + s.paint(colourOpp, "Opposition") + rest
		}
	} else if rest, ok := strings.CutPrefix(text, "  You"); ok && e.Seat == 0 {
		text = "  " + s.paint(colourYou, "You") + rest
	}
	return text
}

// Wrap breaks plain text into lines of at most width runes at spaces; the
// lines after the first start with indent.
func Wrap(text string, width int, indent string) string {
	var b strings.Builder
	line := []rune(text)
	for len(line) > width {
		cut := -1
		for i := width; i > len(indent); i-- {
			if line[i] == ' ' {
				cut = i
				break
			}
		}
		for i := width + 1; cut < 0 && i < len(line); i++ {
			if line[i] == ' ' {
				cut = i // a word longer than the line: break after it
			}
		}
		if cut < 0 {
			break // one long word to the end: leave it to the terminal
		}
		b.WriteString(strings.TrimRight(string(line[:cut]), " ") + "\n")
		line = append([]rune(indent), []rune(strings.TrimLeft(string(line[cut:]), " "))...)
	}
	b.WriteString(string(line))
	return b.String()
}

type pauseAnswer int

const (
	pauseNext pauseAnswer = iota
	pauseSkip
	pauseQuit
)

// pause waits for Enter between narration steps. "a" shows the rest of
// the narration at once, "q" quits; the end of the input stops pausing.
func (s *Session) pause() pauseAnswer {
	s.printf("%s", s.paint(dim, "  -- Enter: next step, a: all at once, q: quit -- "))
	line, err := s.readLine()
	if err != nil {
		s.printf("\n")
		return pauseSkip
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "a", "all":
		return pauseSkip
	case "q", "quit":
		if s.confirmQuit() {
			return pauseQuit
		}
	}
	return pauseNext
}
