package table

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/okey-game/okey/internal/lane"
)

// TestWildMatches101: whole matches where every seat is a wild player (every
// legal move at random), 2 to 4 seats, under every 101 option: the secrecy
// invariant at every step, every peer in the same state, verify honest. It
// takes about a minute: run it with OKEY_LONG101=1 (not in make test).
func TestWildMatches101(t *testing.T) {
	lane.NoRace(t)
	if os.Getenv("OKEY_LONG101") == "" {
		t.Skip("a minute of wild matches: OKEY_LONG101=1")
	}
	opts := []string{"101:rounds=3", "101:rounds=3,swap-before-open", "101:no-joker-doubles,no-joker-swap,rounds=3", "101:finish-joker-penalty,joker-finish-single-sums,no-cancel,rounds=3,unopened-joker-penalty"}
	for seed := uint64(100); seed < 124; seed++ {
		n := 2 + int(seed%3)
		rs := opts[seed%4]
		l := newLockstep(t, rs, n, seed)
		for i := range l.peers {
			l.peers[i].c.Mover = &wild101{rng: rand.New(rand.NewPCG(seed, uint64(i))), m: l.peers[i].n.m}
		}
		for !l.m().Done() {
			l.step()
			checkSecrecy101(t, l)
		}
		rep := Verify(l.transcript())
		if !rep.Honest {
			t.Fatalf("seed %d %s: %v %v %v", seed, rs, rep.Status(), rep.Violation, rep.Invalid)
		}
		for i, p := range l.peers {
			if p.n.m.StateHash() != l.m().StateHash() {
				t.Fatalf("peer %d differs", i)
			}
		}
		t.Logf("seed %d n=%d %s: steps %d scores %v", seed, n, rs, rep.Steps, l.m().Scores())
	}
}
