// Package playtest reads and writes what calibration learns from: records
// of games testers played, decision by decision (the JSON-lines record,
// docs/calibration.md, which `tallywood sim --record` writes and any
// program can), and the results of games played at a table, one row each
// (the outcomes CSV). Both are outside input: reads are bounded, every
// error names the file and line (an *Error), and nothing read runs
// anything. Whether a recorded decision is legal is the game's to say:
// calibration replays each game.
package playtest
