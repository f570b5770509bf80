package table

import (
	"math/rand/v2"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// wildTable is a 2-seat 101 table of two wild players.
func wildTable(t *testing.T, seed uint64) *lockstep {
	l := newLockstep(t, "101", 2, seed)
	for i := range l.peers {
		l.peers[i].c.Mover = &wild101{rng: rand.New(rand.NewPCG(seed, uint64(i))), m: l.peers[i].n.m}
	}
	return l
}

// moverAfterDraw returns the seat to move when it has drawn (not taken),
// past the dealer's first discard, in hand 0; -1 otherwise.
func moverAfterDraw(l *lockstep) int {
	g := l.g()
	if g == nil || l.m().phase != phMove || l.m().HandNumber() > 0 {
		return -1
	}
	seat, drawn, taken := g.Turn()
	if seat < 0 || !drawn || taken != engine.NoSlot || g.Turns() == 0 {
		return -1
	}
	return seat
}

// TestWrapAndDoublesOpenerSets101: a run laid across 13-1 (12 13 1 of a
// colour, which okey-classic.txt forbids in 101) and a set or run laid by a
// player who opened with doubles are each named bad-meld, live and by
// Verify, the engine unchanged. Wild players reach the positions: seed 300
// gives a rack with red 12, 13 and 1; seed 301 a doubles opener holding a
// set or run.
func TestWrapAndDoublesOpenerSets101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	l := wildTable(t, 300)
	var wrap engine.Action101
	if !l.until(func() bool {
		seat := moverAfterDraw(l)
		if seat < 0 {
			return false
		}
		slots, faces := l.rack(seat)
		if len(slots) <= 3 {
			return false
		}
		for col := 0; col < engine.NumColours; col++ {
			var mp engine.MeldPlay
			for _, n := range []int{12, 13, 1} {
				want := engine.NewFace(engine.Colour(col), n)
				for i, f := range faces {
					if f == want {
						mp.Tiles = append(mp.Tiles, engine.SlotFace{Slot: slots[i], Face: f})
						mp.As = append(mp.As, f)
						break
					}
				}
			}
			if len(mp.Tiles) == 3 {
				wrap = engine.Action101{Kind: engine.Act101Lay, Seat: seat, Melds: []engine.MeldPlay{mp}}
				return true
			}
		}
		return false
	}) {
		t.Fatal("seed 300: no rack with 12, 13 and 1 of a colour")
	}
	l.attack("a run 12-13-1", wrap.Seat, l.craft(wrap.Seat, wrap), "bad-meld")
	l = wildTable(t, 301)
	var sets engine.Action101
	if !l.until(func() bool {
		seat := moverAfterDraw(l)
		if seat < 0 || l.g().Opened(seat) != engine.OpenedDoubles {
			return false
		}
		slots, faces := l.rack(seat)
		o, err := engine.BestOpening101(l.g().Okey(), faces, true)
		if err != nil || len(o.Groups) == 0 || len(slots) <= len(o.Groups[0].Tiles) {
			return false
		}
		a, ok := engine.LayAction101(seat, slots, faces, o.Groups[:1])
		sets = a
		return ok
	}) {
		t.Fatal("seed 301: no doubles opener holding a set or run")
	}
	l.attack("a doubles opener lays a "+sets.Melds[0].As[0].String()+"... meld", sets.Seat, l.craft(sets.Seat, sets), "bad-meld")
}
