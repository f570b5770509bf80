package engine

import (
	"slices"
	"testing"
)

// Tests of protocol.md 3.6 points the rule text leaves open, as the
// protocol answers them (give back, exhaust, cancel, the penalties' slots).

// TestGiveBackState101: a give back puts the taken tile back on the pile it
// came from (that seat is the last discarder again), leaves the player
// undrawn with no taken tile, and then only a draw is allowed; discarding
// the taken tile itself is kept-discard.
func TestGiveBackState101(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{racks: []string{"Y8", open128 + " " + rest10}, indicator: "Y1", bank: "Y9"})
	rg.ok(rg.discard(0, "Y8"))
	y8 := rg.g().Pile(0)[0]
	rg.ok(rg.take(1))
	if seat, drawn, taken := rg.g().Turn(); seat != 1 || !drawn || taken != y8 || rg.g().LastDiscard() != -1 {
		t.Fatalf("after the take: seat %d drawn %v taken %d last discarder %d", seat, drawn, taken, rg.g().LastDiscard())
	}
	rg.refused(rg.discard(1, "Y8"), ErrMustUse)
	rg.ok(rg.giveBack(1))
	g := rg.g()
	if seat, drawn, taken := g.Turn(); seat != 1 || drawn || taken != NoSlot {
		t.Fatalf("after the give back: seat %d drawn %v taken %d", seat, drawn, taken)
	}
	if !slices.Equal(g.Pile(0), []Slot{y8}) || g.LastDiscard() != 0 || slices.Contains(g.Rack(1), y8) || len(g.Rack(1)) != 21 {
		t.Fatalf("after the give back: pile %v last discarder %d rack %v", g.Pile(0), g.LastDiscard(), g.Rack(1))
	}
	if p := g.Penalties(); len(p) != 0 {
		t.Fatalf("a give back costs nothing: %v", p)
	}
	rg.refused(rg.take(1), ErrNoDiscard)
	rg.refused(rg.giveBack(1), ErrMustDraw)
	rg.refused(rg.exhaust(1), ErrStockLeft)
	rg.refused(rg.lay(1, layOpen), ErrMustDraw)
	rg.refused(rg.discard(1, "K1"), ErrMustDraw)
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layOpen)) // the tile given back is not owed any more
	rg.ok(rg.discard(1, "Y9"))
}

// TestGiveBackEmptyBank101: with the bank empty a give back ends the round,
// exhausted, in that step; the turn stays with the seat that gave back and
// unopened seats get 202.
func TestGiveBackEmptyBank101(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{racks: []string{"Y8"}, indicator: "Y1"})
	rg.ok(rg.discard(0, "Y8"))
	for len(rg.g().Stock()) > 0 {
		seat, _, _ := rg.g().Turn()
		drawn := rg.deck[rg.g().Stock()[0]]
		rg.ok(rg.draw(seat))
		rg.ok(rg.discard(seat, drawn.String()))
	}
	seat, _, _ := rg.g().Turn()
	prev := 1 - seat
	top := rg.g().Pile(prev)[len(rg.g().Pile(prev))-1]
	rg.ok(rg.take(seat))
	rg.ok(rg.giveBack(seat))
	g := rg.g()
	if g.Phase() != Phase101Reveal || g.Pile(prev)[len(g.Pile(prev))-1] != top || g.LastDiscard() != prev {
		t.Fatalf("phase %v, pile top %d (want %d), last discarder %d", g.Phase(), g.Pile(prev)[len(g.Pile(prev))-1], top, g.LastDiscard())
	}
	res := rg.result()
	if res.End != EndExhausted || res.Finisher != -1 || res.JokerFinish || res.OneTurn {
		t.Fatalf("result %+v", res)
	}
	if !slices.Equal(res.HandPoints, []int{202, 202}) {
		t.Fatalf("hand points %v", res.HandPoints)
	}
}

// stateBytes101 returns from a match's state encoding the rounds counted,
// the cancellations in a row and the hand's cancel-allowed byte.
func stateBytes101(m *Match101) (played, replays, cancel byte) {
	b := m.AppendState(nil)
	i := 16 + 2 + len(m.rules.String()) + 2 + 4
	played, replays = b[i], b[i+1]
	i += 2 + 4*m.n + 1 // totals, match over
	return played, replays, b[i+2]
}

// TestCancelState101: a cancel ends the round in the lay's step (phase
// over, every seat's points 0 with the count n), the penalties recorded
// before it stay listed but score nothing, and cancellations in a row grow;
// a hand dealt after 3 in a row cannot be cancelled.
func TestCancelState101(t *testing.T) {
	d := deal101{racks: []string{"Y8 R2 R2 Y10 Y10 B4 B4 K7 K7 R6 R6 Y2", pairs5a + " " + pairs5b + " R9"},
		indicator: "Y1", bank: "Y5 K2 Y3"}
	rg := newRig101(t, "101", 2, 0, d)
	for k := 0; k <= MaxReplays101; k++ {
		if _, _, c := stateBytes101(rg.m); c != byte(btoi(k < MaxReplays101)) {
			t.Fatalf("hand %d: cancel allowed %d", k, c)
		}
		rg.ok(rg.discard(0, "Y2")) // okey-discard
		rg.ok(rg.draw(1))
		rg.ok(rg.lay(1, layPairA))
		rg.ok(rg.discard(1, "Y5"))
		rg.ok(rg.draw(0))
		rg.ok(rg.lay(0, "R2 R2 | Y10 Y10 | B4 B4 | K7 K7 | R6 R6"))
		if k == MaxReplays101 {
			break
		}
		g := rg.g()
		res, ok := g.Result()
		if !ok || g.Phase() != Phase101Over || res.End != EndCancelled || len(res.Penalties) != 0 ||
			!slices.Equal(res.Points, []int{0, 0}) || !slices.Equal(res.HandPoints, []int{0, 0}) {
			t.Fatalf("hand %d: phase %v result %+v", k, g.Phase(), res)
		}
		if p := g.Penalties(); len(p) != 1 || p[0].Kind != PenaltyJokerDiscard || p[0].Seat != 0 {
			t.Fatalf("hand %d: the state keeps the round's penalties: %v", k, p)
		}
		if played, replays, _ := stateBytes101(rg.m); played != 0 || replays != byte(k+1) {
			t.Fatalf("hand %d: rounds counted %d, cancellations in a row %d", k, played, replays)
		}
		if !slices.Equal(rg.m.Scores(), []int{0, 0}) {
			t.Fatalf("hand %d: totals %v", k, rg.m.Scores())
		}
		if err := rg.m.NextHand(); err != nil {
			t.Fatal(err)
		}
		rg.setDeck(d)
	}
	if rg.g().Phase() != Phase101Play {
		t.Fatalf("the fourth hand must go on: phase %v", rg.g().Phase())
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestTwoOkeysInHand101: an opened rack with both okeys gets two
// okey-in-hand penalties, each with slot none.
func TestTwoOkeysInHand101(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{racks: []string{"Y8 " + open128 + " " + rest10, "Y2 Y2 " + pairs5a},
		indicator: "Y1", bank: "Y9 Y7"})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layPairA))
	rg.ok(rg.discard(1, "Y9"))
	rg.ok(rg.draw(0))
	rg.ok(rg.lay(0, layOpen+" | "+layRest))
	sum1 := rg.sum(1)
	rg.ok(rg.discard(0, "Y7"))
	res := rg.result()
	want := []Penalty101{{1, PenaltyJokerInHand, NoSlot, 101}, {1, PenaltyJokerInHand, NoSlot, 101}}
	if !slices.Equal(res.Penalties, want) || res.OneTurn {
		t.Fatalf("penalties %v one-turn %v", res.Penalties, res.OneTurn)
	}
	checkPoints(t, res, []int{-101, 2*sum1 + 202})
}

// TestAddableOkeyInDouble101: a discard that could replace an okey in a
// double costs addable-discard, with the discarded slot.
func TestAddableOkeyInDouble101(t *testing.T) {
	rg := newRig101(t, "101", 2, 0, deal101{racks: []string{"Y8 K9", pairs5a + " Y2 K9"}, indicator: "Y1", bank: "Y9 Y7"})
	rg.ok(rg.discard(0, "Y8"))
	rg.ok(rg.draw(1))
	rg.ok(rg.lay(1, layPairA+" | Y2=K9 K9"))
	rg.ok(rg.discard(1, "Y9"))
	rg.ok(rg.draw(0))
	k9 := rg.slots(0, MustParseFaces("K9"))[0].Slot
	rg.ok(rg.discard(0, "K9"))
	if p := rg.g().Penalties(); !slices.Equal(p, []Penalty101{{0, PenaltyAddable, k9, 101}}) {
		t.Fatalf("penalties %v", p)
	}
}
