package table

import (
	"math/rand/v2"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// TestSwapTakenBeforeOpeningNamed101: at a swap-before-open table, a seat
// that has not opened takes the previous discard and trades it for an okey
// on the table instead of opening with it. Every honest peer and Verify name
// it kept-discard (two wild players reach the position; seed 46 does within
// a round).
func TestSwapTakenBeforeOpeningNamed101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	const seed = 46
	l := newLockstep(t, "101:swap-before-open", 2, seed)
	for i := range l.peers {
		l.peers[i].c.Mover = &wild101{rng: rand.New(rand.NewPCG(seed, uint64(i))), m: l.peers[i].n.m}
	}
	var swap engine.Action101
	if !l.until(func() bool {
		g := l.g()
		if g == nil || l.m().phase != phMove {
			return false
		}
		seat, drawn, taken := g.Turn()
		if seat < 0 || !drawn || taken == engine.NoSlot || g.Opened(seat) != engine.NotOpened {
			return false
		}
		f := g.PublicFace(taken)
		for i, m := range g.Melds() {
			for k, s := range m.Tiles {
				if g.IsOkeySlot(s) && (m.As[k] == f || f == engine.FalseJoker && m.As[k] == g.Okey()) {
					swap = engine.Action101{Kind: engine.Act101Swap, Seat: seat, Meld: i, Pos: k,
						Faces: []engine.SlotFace{{Slot: taken, Face: f}}}
					return true
				}
			}
		}
		return false
	}) {
		t.Fatal("the wild players never reach the position")
	}
	l.attack("a swap of the taken discard before opening", swap.Seat, l.craft(swap.Seat, swap), "kept-discard")
}
