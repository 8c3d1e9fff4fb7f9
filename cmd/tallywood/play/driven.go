package play

import (
	"tallywood/engine"
)

// A session driven by a program instead of a terminal (tallywood serve):
// the same game, record, turn information and hint bookkeeping as Run's,
// without reading or writing anything. The caller shows the game as it
// likes, from what the person may see.

// Game is the live game. It holds hidden information (face-down tokens and
// tiles, deck orders): a caller shows the person only what they may see.
func (s *Session) Game() *engine.Game { return s.g }

// Events are every event of the game so far, from its setup.
func (s *Session) Events() []engine.Event { return s.log.Events }

// Legal appends the legal options of the pending decision to buf.
func (s *Session) Legal(buf []engine.Option) []engine.Option { return s.g.Legal(buf) }

// Choose plays one of the person's options as a menu choice does: the
// record, the turn in progress and the other seats' play (at a table).
// Nothing is narrated.
func (s *Session) Choose(o engine.Option) error {
	if err := s.apply(o); err != nil {
		return err
	}
	s.narrated = len(s.log.Events)
	return nil
}

// Describe words an option of the pending decision as the menu does.
func (s *Session) Describe(o engine.Option) string { return s.describe(o) }

// Title is the pending decision's step as the menu heads it.
func (s *Session) Title() string { return decisionTitles[s.g.Decision().Kind] }

// Help explains the pending decision.
func (s *Session) Help() string { return decisionHelp[s.g.Decision().Kind] }

// Advise is the hint for the pending decision (Config.Hinter, or the
// win chance's level, or the greedy policy). The person's next decision
// is recorded as hinted, as after h.
func (s *Session) Advise() (Hint, error) {
	h := s.hinter()
	c := *s.g
	c.SetRecorder(nil)
	adv, err := h.Hint(&c, s.g.Legal(nil))
	if err != nil {
		return Hint{}, err
	}
	s.hinted = true
	return adv, nil
}

// MarkHinted records the person's next decision as taken after a hint: a
// hint given before a resume (the caller keeps that it was given).
func (s *Session) MarkHinted() { s.hinted = true }

// TurnText says where the person's turn in progress stands: the card, its
// column and row, the icons connected and spent, the Assistant's
// District; "" outside a turn in progress.
func (s *Session) TurnText() string {
	if s.turn.card < 0 {
		return ""
	}
	return s.turnLine()
}

// TurnCard is the Strategy card of the person's turn in progress, -1
// before one is chosen.
func (s *Session) TurnCard() int { return int(s.turn.card) }
