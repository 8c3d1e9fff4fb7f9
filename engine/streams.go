package engine

// Stream ids of the engine's generators, in one list. The values are part
// of every seeded game: changing one changes the games. The generators of
// the harness and the policies are listed in tallywood/sim/deal, whose test
// checks that no id there equals one of StreamIDs: a policy seeded on the
// solo deck's stream, say, would draw that deck's shuffle.
const (
	// The setup streams, seeded from the game seed alone, one per
	// purpose, so that two rule sets played on one seed see the same
	// cards and tiles wherever the rules allow.
	streamStrategy = 0x5452 << 8   // + deck
	streamTiles    = 0x54494c << 8 // + pile: kind×NumTiers + tier
	streamSupport  = 0x495350
	streamBag      = 0x424147
	streamSolo     = 0x534f4c4f
	// streamInitiative deals the Initiative tokens at a table (Player
	// Board Setup 7): a stream of its own, so the cards and tiles of a
	// seed are those of the solo game on that seed.
	streamInitiative = 0x494e4954
	// streamAutomaton is a scripted Opposition's chance (AutomatonIntN):
	// its own stream, so a script that draws changes no deck or tile.
	streamAutomaton = 0x4155544f

	// streamDeterminize is Determinize's generator, seeded by the
	// caller's seed.
	streamDeterminize = 0x44455445 << 8
	// streamRandomPlayer is RandomPlayer's, seeded by its own seed.
	streamRandomPlayer = 0x52414e44
)

// StreamIDs returns every stream id the engine seeds a generator with,
// each deck's and each tile pile's included. A generator outside the
// engine seeded from a game seed must use none of them.
func StreamIDs() []uint64 {
	var ids []uint64
	for d := range NumDecks {
		ids = append(ids, streamStrategy+uint64(d))
	}
	for p := range len(Game{}.Piles) * NumTiers {
		ids = append(ids, streamTiles+uint64(p))
	}
	return append(ids, streamSupport, streamBag, streamSolo, streamInitiative, streamAutomaton, streamDeterminize, streamRandomPlayer)
}
