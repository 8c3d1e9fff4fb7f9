// Package play is the interactive solo game at a terminal: a person
// plays the player's seat against the Opposition (`tallywood play`).
//
// Before each decision the session shows the board at a glance (80x40,
// plain text, colour only when asked) and a numbered menu of the engine's
// legal options in words; the player answers with a number or a command:
// ? help, b board, u undo (within the turn), h hint (the greedy policy's
// choice and estimated margin), s save, q quit. The Opposition's turns and
// the automatic phases are narrated with the rule-cited events of the
// engine, step by step when Config.Pause is set. At the end the Final
// Tally is laid out like the scoring board.
//
// With Config.Seats 2..4 the game is the one without the Opposition: the
// person takes seat Config.Seat and the policies of Config.Lineup the
// others, each on its own stream, so a saved game replays exactly. The
// board shows every seat's public state and only the person's hand; the
// other seats' draws and face-down discards are narrated without the card.
//
// Everything goes through an io.Reader and an io.Writer, so tests script
// whole games:
//
//	s, err := play.New(play.Config{Rules: engine.Reference(), Seed: 7}) // the rules' own Opposition
//	end, err := s.Run(strings.NewReader("1\n2\n1\nq\n"), os.Stdout)
//
// Option numbers run from 1 in every menu: after an action of Step 5 the
// options left are numbered again, so the prompt's range always starts
// at 1.
//
// A save file is a Record: the rules hash, seed, mode, politician (at a
// table: seats, seat and lineup instead of the mode) and the
// player's decisions as engine option values, with a check of each field.
// Since a game is a pure function of these, LoadFile resumes it exactly by
// replaying them; it refuses a file saved under other rules (ErrOtherRules)
// and a file whose fields were edited, naming the field. The seed is the
// master seed of `sim` and `trace`: the game is game 0 of it.
package play
