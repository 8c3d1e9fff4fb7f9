package policy

// Stream ids of the policies' generators, distinct from the engine's.
const (
	streamRandom = 0x706f6c72 + iota
	streamGreedy
	streamPollster
	streamBuilder
	streamMCTS
	streamLearned
)
