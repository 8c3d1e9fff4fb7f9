// Package exec is the exec policy: a player written in any language, run
// as a program that speaks line-delimited JSON on its stdin and stdout
// (docs/protocol.md, schema in docs/protocol.schema.json). Importing the
// package registers the spec with policy.Parse:
//
//	exec:python3 testdata/protocol/random_player.py,timeout=2s
//
// Each worker starts the program once and reuses it for its games. A
// program that crashes, hangs past the timeout or answers something that
// is not one of the options fails that game (policy.FailedError) and is
// restarted for the next; the harness counts such games as errors, never
// as losses.
//
// The program sees View: exactly what the player may see, none of the
// hidden information engine.Game.Determinize resamples.
package exec
