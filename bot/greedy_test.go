package bot

import (
	"testing"

	"github.com/okey-game/okey/engine"
)

// The constructed hands use classic:deal=simple with two players and seat 0
// dealing: seat 1 plays first (15 tiles), seat 0 second; the racks, the
// indicator candidate and the stock are known before the deal's reveal.
// The indicator is K13, so the okey is K1.
const winning14 = "R1 R2 R3 R4 B5 B6 B7 Y10 Y11 Y12 Y13 R9 Y9 B9"

type layout struct {
	first, second string // faces of the first rack's leading slots, the second's
	stock         string // the stock's first tiles, after the indicator
}

func simpleTable(t *testing.T, seed uint64, l layout) *table {
	t.Helper()
	tb := newTable(t, "classic:deal=simple", 2, 0, seed)
	h := tb.h()
	want := []engine.SlotFace{{Slot: h.Pending()[0], Face: faces("K13")[0]}}
	want = append(want, fill(h.Rack(1), faces(l.first))...)
	want = append(want, fill(h.Rack(0), faces(l.second))...)
	want = append(want, fill(h.Stock()[1:], faces(l.stock))...)
	tb.d.place(t, h, want)
	tb.settle()
	if h := tb.h(); h.Okey() != faces("K1")[0] || h.Order()[0] != 1 {
		t.Fatalf("layout: okey %v, order %v", h.Okey(), h.Order())
	}
	return tb
}

// move asks s for seat's move, checks its kind and applies it.
func move(t *testing.T, tb *table, s Strategy, seat int, want engine.ActionKind) engine.Action {
	t.Helper()
	a, err := s.Move(tb.h(), tb.views[seat])
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != want {
		t.Fatalf("%s seat %d: %v (slot %d %v), want %v", s.Name(), seat, a.Kind, a.Slot, a.Faces, want)
	}
	if err := tb.apply(a); err != nil {
		t.Fatalf("%v refused: %v", a.Kind, err)
	}
	return a
}

// drawAndThrow: seat draws from the stock and discards the drawn tile.
func drawAndThrow(t *testing.T, tb *table, seat int) {
	t.Helper()
	before := tb.h().Rack(seat)
	if err := tb.apply(engine.Action{Kind: engine.ActDraw, Seat: seat}); err != nil {
		t.Fatal(err)
	}
	for _, s := range tb.h().Rack(seat) {
		if !slicesContains(before, s) {
			throw(t, tb, seat, s)
			return
		}
	}
	t.Fatal("drawn tile not found")
}

func throw(t *testing.T, tb *table, seat int, s engine.Slot) {
	t.Helper()
	a := engine.Action{Kind: engine.ActDiscard, Seat: seat, Slot: s, Faces: tb.d.open(s)}
	if err := tb.apply(a); err != nil {
		t.Fatal(err)
	}
}

// slotWith returns the slot of seat's rack holding face f.
func slotWith(t *testing.T, tb *table, seat int, f string) engine.Slot {
	t.Helper()
	for _, s := range tb.h().Rack(seat) {
		if tb.d.face(s) == faces(f)[0] {
			return s
		}
	}
	t.Fatalf("seat %d holds no %s", seat, f)
	return engine.NoSlot
}

func slicesContains(ss []engine.Slot, x engine.Slot) bool {
	for _, s := range ss {
		if s == x {
			return true
		}
	}
	return false
}

func TestBotsDeclareWinOnFirstTurn(t *testing.T) {
	for _, name := range Names() {
		tb := simpleTable(t, 1, layout{first: winning14 + " R7"})
		a := move(t, tb, mustBot(t, name, 9), 1, engine.ActWin)
		if tb.d.face(a.Slot) != faces("R7")[0] {
			t.Fatalf("%s: final discard %v, want R7", name, tb.d.face(a.Slot))
		}
		if res, _ := tb.h().Result(); res.Winner != 1 || res.OkeyDiscard {
			t.Fatalf("%s: result %+v", name, res)
		}
	}
}

func TestGreedyDeclaresWinAfterDraw(t *testing.T) {
	tb := simpleTable(t, 2, layout{
		first:  "K5 K11 Y2",
		second: "R1 R2 R3 B5 B6 B7 Y10 Y11 Y12 Y13 R9 Y9 B9 K8",
		stock:  "R4",
	})
	throw(t, tb, 1, slotWith(t, tb, 1, "K5"))
	g := NewGreedy()
	move(t, tb, g, 0, engine.ActDraw) // K5 does not help: draw
	a := move(t, tb, g, 0, engine.ActWin)
	if tb.d.face(a.Slot) != faces("K8")[0] {
		t.Fatalf("final discard %v, want K8", tb.d.face(a.Slot))
	}
}

func TestGreedyTakesCompletingDiscard(t *testing.T) {
	tb := simpleTable(t, 3, layout{
		first:  "R4 K11 Y2",
		second: "R1 R2 R3 B5 B6 B7 Y10 Y11 Y12 Y13 R9 Y9 B9 K8",
		stock:  "Y3",
	})
	throw(t, tb, 1, slotWith(t, tb, 1, "R4"))
	g := NewGreedy()
	move(t, tb, g, 0, engine.ActTake)
	move(t, tb, g, 0, engine.ActWin)
	if res, _ := tb.h().Result(); res.Winner != 0 {
		t.Fatalf("result %+v", res)
	}
}

func TestGreedyTakesDiscardThatLowersDistance(t *testing.T) {
	// Two tiles from a win; R4 makes it one: take it, then throw K8 or K12.
	tb := simpleTable(t, 4, layout{
		first:  "R4 K11 Y2",
		second: "R1 R2 R3 B5 B6 B7 Y10 Y11 Y12 Y13 R9 Y9 K8 K12",
		stock:  "Y3",
	})
	throw(t, tb, 1, slotWith(t, tb, 1, "R4"))
	g := NewGreedy()
	move(t, tb, g, 0, engine.ActTake)
	a := move(t, tb, g, 0, engine.ActDiscard)
	if f := a.Faces[0].Face; f != faces("K8")[0] && f != faces("K12")[0] {
		t.Fatalf("discarded %v after the take", f)
	}
}

func TestGreedyShowsIndicator(t *testing.T) {
	for _, who := range []int{0, 1} { // the first player, the second
		tb := newTable(t, "classic", 4, 2, uint64(10+who))
		tb.settle()
		h := tb.h()
		_, ind := h.Indicator()
		seat := h.Order()[who]
		tb.d.place(t, h, []engine.SlotFace{{Slot: h.Rack(seat)[0], Face: ind}})
		tb.learn()
		g := NewGreedy()
		if who == 1 {
			first := h.Order()[0]
			a, err := g.Move(tb.h(), tb.views[first])
			if err != nil {
				t.Fatal(err)
			}
			if err := tb.apply(a); err != nil {
				t.Fatal(err)
			}
		}
		a := move(t, tb, g, seat, engine.ActShow)
		if a.Faces[0].Face != ind || !tb.h().Shown(seat) {
			t.Fatalf("showed %v, indicator %v", a.Faces, ind)
		}
		// Shown once: the next move is the turn itself.
		b, err := g.Move(tb.h(), tb.views[seat])
		if err != nil || b.Kind == engine.ActShow {
			t.Fatalf("after showing: %v, %v", b.Kind, err)
		}
	}
}

func TestGreedyGermanSevenPairsWithoutDiscard(t *testing.T) {
	tb := newTable(t, "german", 2, 0, 21)
	tb.settle()
	h := tb.h()
	_, ind := h.Indicator()
	var pairs []engine.Face
	for _, f := range faces("R2 R6 Y4 Y9 B1 B12 K7 K10 R11") {
		if f != ind && f != h.Okey() && len(pairs) < 14 {
			pairs = append(pairs, f, f)
		}
	}
	first := h.Order()[0]
	tb.d.place(t, h, fill(h.Rack(first), pairs))
	tb.learn()
	a := move(t, tb, NewGreedy(), first, engine.ActWin)
	res, _ := tb.h().Result()
	if a.Slot != engine.NoSlot || res.Kind != engine.Pairs || res.Winner != first {
		t.Fatalf("win slot %d, result %+v", a.Slot, res)
	}
}

// The okey wait. Seat 1 can win at once by throwing R7, keeping a winning
// hand whose okey (K1) stands in the set R9 Y9 _: B9 or K9 (four unseen
// tiles) would let the okey be the final discard.
const okeyHand = "R1 R2 R3 R4 B5 B6 B7 Y10 Y11 Y12 Y13 R9 Y9 K1 R7"

func TestGreedyWaitsForOkeyFinishThenTakesSureWin(t *testing.T) {
	tb := simpleTable(t, 5, layout{
		first: okeyHand,
		// Seat 0 holds the outs, so nothing it draws is one.
		second: "B9 B9 K9 K9",
		stock:  "R12 K5 K12 K7 Y6 Y5 B2 K6",
	})
	g := NewGreedy()
	a := move(t, tb, g, 1, engine.ActDiscard) // waits: throws R7, keeps the win
	if a.Faces[0].Face != faces("R7")[0] {
		t.Fatalf("threw %v, want R7", a.Faces[0].Face)
	}
	for wait := 2; wait <= OkeyWaitTurns; wait++ {
		drawAndThrow(t, tb, 0)
		move(t, tb, g, 1, engine.ActDraw)
		move(t, tb, g, 1, engine.ActDiscard)
	}
	drawAndThrow(t, tb, 0)
	move(t, tb, g, 1, engine.ActDraw)
	move(t, tb, g, 1, engine.ActWin)
	if res, _ := tb.h().Result(); res.Winner != 1 || res.OkeyDiscard {
		t.Fatalf("result %+v", res)
	}
}

func TestGreedyWinsWithOkeyDiscard(t *testing.T) {
	tb := simpleTable(t, 6, layout{
		first: okeyHand,
		stock: "R12 B9",
	})
	g := NewGreedy()
	move(t, tb, g, 1, engine.ActDiscard) // waits
	drawAndThrow(t, tb, 0)
	move(t, tb, g, 1, engine.ActDraw) // B9
	a := move(t, tb, g, 1, engine.ActWin)
	res, _ := tb.h().Result()
	if tb.d.face(a.Slot) != faces("K1")[0] || !res.OkeyDiscard {
		t.Fatalf("final discard %v, result %+v", tb.d.face(a.Slot), res)
	}
}

func TestGreedyTakesSureWinWhenStockIsShort(t *testing.T) {
	tb := simpleTable(t, 7, layout{first: okeyHand, second: "B9 B9 K9 K9"})
	throw(t, tb, 1, slotWith(t, tb, 1, "R7"))
	for {
		drawAndThrow(t, tb, 0)
		if tb.h().StockLen() <= OkeyWaitStock+1 {
			break
		}
		drawAndThrow(t, tb, 1)
	}
	g := NewGreedy()
	move(t, tb, g, 1, engine.ActDraw)
	move(t, tb, g, 1, engine.ActWin)
	if res, _ := tb.h().Result(); res.Winner != 1 || res.OkeyDiscard {
		t.Fatalf("result %+v", res)
	}
}
