package deal

// Every stream id the module seeds a generator with, outside the engine,
// in one list. The engine's own (its decks, piles, Initial Support, bag,
// solo deck, Initiative tokens, Determinize and RandomPlayer) are in
// engine/streams.go, since the engine imports nothing of sim; TestStreams
// checks that no two ids here or there are equal. A policy whose stream
// were the solo deck's, say, would draw that deck's shuffle: the hidden
// future. The values are part of every seeded game: changing one changes
// the games.
const (
	// StreamPolitician picks the Politician: RandomPolitician's PCG
	// stream, and the key of SeatsPoliticians' SplitMix64 deal.
	StreamPolitician = 0x504f4c49 // "POLI"

	// The policies' own generators, seeded by Reset's game seed.
	StreamRandom   = 0x706f6c72
	StreamGreedy   = 0x706f6c73
	StreamPollster = 0x706f6c74
	StreamBuilder  = 0x706f6c75
	StreamMCTS     = 0x706f6c76
	StreamLearned  = 0x706f6c77 // the learned player's, and the trainer's Afterstates
	StreamDial     = 0x706f6c78 // the dial's draws: its softmax and its mix with the search

	// StreamArc seeds the determinizations that split a decision's change
	// in win chance from the chance it set going (policy.Arc), and
	// StreamChanceFit the win chance's trainer: which positions of a game
	// it keeps, a net's initial weights and the order of its positions.
	StreamArc       = 0x61726373 // "arcs"
	StreamChanceFit = 0x63686674 // "chft"

	// keyRollout is xored into mcts's reset seed for its rollout policy
	// (RolloutSeed).
	keyRollout = 0x6d637473 // "mcts"

	// keyHint is xored into the game seed for the determinization of
	// `tallywood play`'s hints (HintSeed).
	keyHint = 0x68696e74 // "hint"

	// StreamScreen shuffles a sensitivity race's changes into the groups
	// of its screen, seeded by the scan's seed and the cell.
	StreamScreen = 0x7363726e // "scrn"

	// StreamTrain is the base of the trainer's stream (round<<8 |
	// candidate) + StreamTrain, seeded by its data seed: a net's initial
	// weights and the order of its decisions.
	StreamTrain = 0x7472616e // "tran"
)

// programSeedDomain is what ProgramSeed hashes the reset seed with.
const programSeedDomain = "tallywood/exec/player_seed/"
