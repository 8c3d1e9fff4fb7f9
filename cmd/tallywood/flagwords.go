package main

// The usage strings of the flags several commands share: one flag, one
// meaning, one line of help in every command (TestSharedFlagHelp checks
// that the commands' --help agree). The back-quoted word is the
// placeholder helpText shows.
const (
	seedUsage        = "master seed `N`: game i of it is the same game in sim, compare, sweep, trace, play and scenario setup"
	gameUsage        = "game index `N` within the run of --seed (0 is the first game)"
	modeUsage        = "difficulty `MODE`: normal or hard"
	modesUsage       = "difficulties, a `LIST` of normal and hard (both: normal,hard)"
	modesDefault     = "normal,hard"
	rulesFileUsage   = "rules `FILE`, or default (the reference set)"
	setUsage         = "`PATH=VALUE`: change one rules field (repeatable; see docs/rules-file.md)"
	outUsage         = "write the output to `FILE` instead of stdout"
	quietUsage       = "no progress bar"
	wideUsage        = "table: the full width, every column and every line whole (wider than 100 characters)"
	workersUsage     = "`N` parallel workers (at most 4 per CPU: more are capped, with a note)"
	shardUsage       = "play only shard `K/N`: the games i with i mod N = K-1"
	seatsUsage       = "`N` players: 1 is the solo game; 2 to 4 play without the Opposition, --policy as the lineup"
	policiesUsage    = "player policies, a `LIST` of SPEC (see 'tallywood policies')"
	politicianUsage  = "your politician `ID` (see 'tallywood rules dump'), or random: the game seed's, the one sim, trace, play and scenario setup deal that game"
	politiciansUsage = "politicians, a `LIST` of IDs, random (drawn per game) or all (one cell each)"
	trustUsage       = "with --load: run the save file's lineup as written, programs (exec:) and searches of any size"
)
