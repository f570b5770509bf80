package table

import (
	"errors"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// TestJunkInTheDealersExtraTile101: with the shuffle proof switched off (to
// test the defence behind it), the last locker puts junk where the 101 deal
// gives the dealer its 22nd tile. The dealer's peer claims it in place of
// its first move (its mover is never asked to move with it), the slot opens
// in public, the audit follows and names the shuffler, live at every honest
// peer (and by Verify, which checks the shuffle proof, at the lock); the
// victim is never named.
func TestJunkInTheDealersExtraTile101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	const n, cheater = 2, 1
	// Seed 62 makes seat 0 the dealer (the dealer comes from the seats'
	// committed randomness, which the junk does not change); checked below.
	const seed = 62
	l := newLockstep(t, "101", n, seed)
	for _, p := range l.peers {
		p.n.m.noLockProofs = true
	}
	victim := 1 - cheater
	extra := engine.Slot(l.m().rules.HandSize) // the dealer's 22nd tile: slots 0..21 are the dealer's
	l.peers[cheater].c.junkSlots = []int{int(extra)}
	l.peers[cheater].setCheat(CheatJunkPrivate)
	var errs []error
	claimed := false
	for !l.m().Done() && errs == nil {
		seat, kind, body := l.honest()
		if kind == KindJunk {
			if seat != victim {
				t.Fatalf("seat %d claims junk, want the victim %d", seat, victim)
			}
			if r := l.g().Rack(victim); len(r) != int(extra)+1 || r[extra] != extra || l.g().Dealer() != victim {
				t.Fatalf("the victim's rack %v does not hold the 22nd tile", r)
			}
			claimed = true
		}
		out := l.deliver(l.seal(seat, kind, body).Raw, -1)
		for _, err := range out {
			if err != nil {
				errs = out
			}
		}
	}
	if !claimed {
		t.Fatal("the victim never claimed its junk tile")
	}
	for i, err := range errs {
		var v *Violation
		if i != cheater && (!errors.As(err, &v) || v.Seat != cheater || v.Rule != "audit") {
			t.Fatalf("peer %d: %v; want the shuffler named for audit", i, err)
		}
	}
	// Verify checks every shuffle proof: it names the shuffler at its lock.
	rep := Verify(l.transcript())
	if rep.Violation == nil || rep.Violation.Seat != cheater || rep.Violation.Rule != "bad-shuffle-proof" {
		t.Fatalf("verify: status %v violation %v invalid %v", rep.Status(), rep.Violation, rep.Invalid)
	}
}
