package table

import (
	"math/rand/v2"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// TestCancelledRound101: a round cancelled because every seat opened with
// doubles (two wild players; seed 201 cancels hand 0) opens no rack: the
// audit round follows the cancelling lay at once, no seat's share of a tile
// in its own rack or in the bank is public until the audit, the scores and
// the rounds counted do not move, and the replay (the next hand number, the
// same dealer) keeps the secrecy invariant. Verify of the transcript names
// no one.
func TestCancelledRound101(t *testing.T) {
	lane.NoRace(t) // one goroutine drives every seat: nothing for the race detector
	const seed = 201
	l := newLockstep(t, "101", 2, seed)
	for i := range l.peers {
		l.peers[i].c.Mover = &wild101{rng: rand.New(rand.NewPCG(seed, uint64(i))), m: l.peers[i].n.m}
	}
	cancelled := func() bool {
		r, ok := l.g().Result()
		return ok && r.End == engine.EndCancelled
	}
	if !l.until(func() bool { return l.g() != nil && (cancelled() || l.m().HandNumber() > 0) }) || !cancelled() {
		t.Fatal("hand 0 is not cancelled")
	}
	m, g := l.m(), l.g()
	t.Logf("cancelled at step %d", m.Step())
	if m.phase != phAudit {
		t.Fatalf("after the cancelling lay the table is in phase %d, not the audit", m.phase)
	}
	for seat := 0; seat < 2; seat++ {
		if g.Opened(seat) != engine.OpenedDoubles {
			t.Fatalf("seat %d opened %v", seat, g.Opened(seat))
		}
		for _, s := range g.Rack(seat) {
			if g.PublicFace(s) == engine.NoFace && m.Shares(s)[seat] != nil {
				t.Fatalf("seat %d's share of slot %d in its rack is public in a cancelled round", seat, s)
			}
		}
	}
	for _, s := range g.Stock() {
		for k, sh := range m.Shares(s) {
			if sh != nil && g.PublicFace(s) == engine.NoFace {
				t.Fatalf("seat %d's share of bank slot %d is public", k, s)
			}
		}
	}
	dealer, scores := g.Dealer(), m.Scores()
	l.until(func() bool { return m.HandNumber() == 1 && m.phase == phMove })
	mt := m.Match101()
	if mt.Played() != 0 || mt.HandNumber() != 1 || l.g().Dealer() != dealer || !equalInts(m.Scores(), scores) {
		t.Fatalf("after the cancel: played %d, hand %d, dealer %d (was %d), scores %v (were %v)",
			mt.Played(), mt.HandNumber(), l.g().Dealer(), dealer, m.Scores(), scores)
	}
	if h := m.Hands(); len(h) != 1 || h[0].Result101 == nil || h[0].Result101.End != engine.EndCancelled {
		t.Fatalf("hand log %+v", h)
	}
	t.Logf("replay reached at step %d", m.Step())
	for i := 0; i < 60 && !m.Done(); i++ {
		l.step()
		checkSecrecy101(t, l)
	}
	if rep := Verify(l.transcript()); rep.Violation != nil || rep.Invalid != nil {
		t.Fatalf("verify: %v %v", rep.Violation, rep.Invalid)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
