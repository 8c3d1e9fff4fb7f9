package policy

import (
	"runtime"
	"testing"
	"unsafe"

	"tallywood/engine"
)

// TestMCTSRetainedMemoryLevelsOff plays 300 games with one search player
// (the retained heap of mcts:iters=400 grew from 2 to
// 12 MB over 40 games). The tree's arenas are reused from game to game,
// so what they hold is bounded by the largest tree searched (append
// doubles, hence the factor 2), never by the number of games; and the
// process's live heap does not grow from game 100 to game 300.
func TestMCTSRetainedMemoryLevelsOff(t *testing.T) {
	if testing.Short() {
		t.Skip("300 games")
	}
	const games = 300
	p := NewMCTS(MCTSConfig{Iters: 8, Rollout: "random", Depth: 16, C: 0.7, Scale: 10, Reuse: true})
	buf := make([]engine.Option, 0, engine.MaxOptions)
	var peakNodes, peakEdges, peakOutcomes int
	var heapAt100 uint64
	for seed := uint64(1); seed <= games; seed++ {
		g := newGame(t, seed, engine.Mode(seed%2))
		p.Reset(seed)
		for !g.Over() {
			o := p.Choose(g, g.Legal(buf[:0]))
			peakNodes = max(peakNodes, len(p.nodes))
			peakEdges = max(peakEdges, len(p.edges))
			peakOutcomes = max(peakOutcomes, len(p.outcomes))
			if err := g.Apply(o); err != nil {
				t.Fatal(err)
			}
		}
		if seed%50 == 0 {
			t.Logf("after %d games: tree arenas %d KB (largest tree %d nodes, %d edges)", seed, retained(p)>>10, peakNodes, peakEdges)
		}
		if seed == 100 {
			heapAt100 = liveHeap()
		}
	}
	if cap(p.nodes) > 2*peakNodes || cap(p.edges) > 2*peakEdges+4 || cap(p.outcomes) > 2*peakOutcomes {
		t.Errorf("arenas hold %d nodes, %d edges, %d outcomes; the largest tree had %d, %d, %d",
			cap(p.nodes), cap(p.edges), cap(p.outcomes), peakNodes, peakEdges, peakOutcomes)
	}
	if h := liveHeap(); h > heapAt100+1<<20 {
		t.Errorf("live heap grew from %d KB after 100 games to %d KB after %d", heapAt100>>10, h>>10, games)
	}
	runtime.KeepAlive(p)
}

// retained is the memory the tree's arenas hold.
func retained(p *MCTS) int {
	return cap(p.nodes)*int(unsafe.Sizeof(node{})) + cap(p.edges)*int(unsafe.Sizeof(edge{})) +
		cap(p.outcomes)*int(unsafe.Sizeof(outcome{})) + cap(p.path)*4
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
