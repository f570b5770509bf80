package bot

import (
	"reflect"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
)

// meld12 is four complete groups: R1-R2-R3, B5-B6-B7, Y10-Y11-Y12, R9-Y9-B9
// (the okey is K1 in simpleTable's layouts).
const meld12 = "R1 R2 R3 B5 B6 B7 Y10 Y11 Y12 R9 Y9 B9"

// meld11 is three complete runs: R1-R4, B5-B7, Y10-Y13 (the okey is K1 in
// simpleTable's layouts).
const meld11 = "R1 R2 R3 R4 B5 B6 B7 Y10 Y11 Y12 Y13"

// TestExpertKeepsTheLivePartial: with K3 K5 K7 K9 beside three runs, every
// discard leaves the hand one tile from a win; both K4 are seen on the
// piles. The expert throws K3 and keeps K5 K7 K9, which K6 or K8 (four live
// tiles) complete; greedy, which does not count tiles, throws K9 and waits
// for K6 alone (K3 K5 K7 waits for K4 too, but both are gone).
func TestExpertKeepsTheLivePartial(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Strategy
		want string
	}{{"expert", NewExpert(1), "K3"}, {"greedy", NewGreedy(), "K9"}} {
		tb := simpleTable(t, 3, layout{
			first:  meld11 + " K3 K5 K7 K4",
			second: "K4 R11",
			stock:  "Y3 K9",
		})
		throw(t, tb, 1, slotWith(t, tb, 1, "K4"))
		if err := tb.apply(engine.Action{Kind: engine.ActDraw, Seat: 0}); err != nil {
			t.Fatal(err)
		}
		throw(t, tb, 0, slotWith(t, tb, 0, "K4"))
		if err := tb.apply(engine.Action{Kind: engine.ActDraw, Seat: 1}); err != nil { // K9
			t.Fatal(err)
		}
		a := move(t, tb, tc.s, 1, engine.ActDiscard)
		if got := tb.d.face(a.Slot).String(); got != tc.want {
			t.Errorf("%s discards %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestExpertRefusesToFeed: B5 and B12 help the expert equally little. When
// the next player has taken R5 from the expert's pile, the expert keeps B5
// (it would give that player two thirds of a set of 5s) and throws B12;
// when that player drew instead, it throws B5.
func TestExpertRefusesToFeed(t *testing.T) {
	for _, took := range []bool{true, false} {
		l := layout{first: meld12 + " R5 B5 B12", second: "Y13", stock: "K9"}
		if !took {
			l.stock = "Y3 K9"
		}
		tb := simpleTable(t, 4, l)
		throw(t, tb, 1, slotWith(t, tb, 1, "R5"))
		kind := engine.ActTake
		if !took {
			kind = engine.ActDraw
		}
		if err := tb.apply(engine.Action{Kind: kind, Seat: 0}); err != nil {
			t.Fatal(err)
		}
		throw(t, tb, 0, slotWith(t, tb, 0, "Y13"))
		if err := tb.apply(engine.Action{Kind: engine.ActDraw, Seat: 1}); err != nil { // K9: R9 Y9 B9 K9
			t.Fatal(err)
		}
		a := move(t, tb, NewExpert(1), 1, engine.ActDiscard)
		want := "B12"
		if !took {
			want = "B5"
		}
		if got := tb.d.face(a.Slot).String(); got != want {
			t.Errorf("next player took R5 %v: expert discards %s, want %s", took, got, want)
		}
	}
}

// TestExpertTakes: the previous player's discard completes a run of the
// expert's rack: it takes it; a useless discard: it draws.
func TestExpertTakes(t *testing.T) {
	for _, tc := range []struct {
		thrown string
		want   engine.ActionKind
	}{{"Y6", engine.ActTake}, {"K6", engine.ActDraw}} {
		tb := simpleTable(t, 5, layout{
			first:  tc.thrown,
			second: "Y4 Y5 R7 R8 R9 B2 B3 B4 K10 K11 Y13 B13 R12 Y1",
		})
		throw(t, tb, 1, slotWith(t, tb, 1, tc.thrown))
		e := NewExpert(1)
		adv, err := e.Advise(tb.h(), tb.views[0])
		if err != nil {
			t.Fatal(err)
		}
		if adv.Action.Kind != tc.want {
			t.Errorf("discard %s: %v (%q), want %v", tc.thrown, adv.Action.Kind, adv.Choices[0].Reason, tc.want)
		}
	}
}

// TestExpertSeesOnlyItsView: at every expert move of whole hands, the
// advice from the seat's view equals the advice from a view rebuilt from
// nothing but the seat's own rack: the expert uses the public hand and its
// own tiles, nothing hidden (the hand holds no hidden faces, and a view
// only what its seat was shown).
func TestExpertSeesOnlyItsView(t *testing.T) {
	lane.NoRace(t) // the expert is pure code, no goroutine: whole hands of it
	for i, preset := range []string{"classic", "german"} {
		tb := newTable(t, preset, 4, i, uint64(40+i))
		tb.settle()
		e := NewExpert(7)
		bots := []Strategy{e, NewGreedy(), NewExpert(8), NewGreedy()}
		checked := 0
		tb.play(bots, func(h *engine.Hand, v *engine.View, b Strategy, a engine.Action) {
			if b.Name() != "expert" {
				return
			}
			fresh := engine.NewView(v.Seat)
			for _, s := range h.Rack(v.Seat) {
				fresh.Learn(s, tb.d.face(s))
			}
			a1, err1 := NewExpert(7).Advise(h, v)
			a2, err2 := NewExpert(7).Advise(h, fresh)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a1, a2) {
				t.Fatalf("%s: advice differs with a view of the rack alone: %v %v\n%+v\n%+v", preset, err1, err2, a1.Choices[0], a2.Choices[0])
			}
			checked++
		})
		if checked == 0 {
			t.Fatalf("%s: no expert move", preset)
		}
	}
}

// TestExpertDeterministic: the same seed and positions give the same moves.
func TestExpertDeterministic(t *testing.T) {
	lane.NoRace(t) // the expert is pure code, no goroutine
	pos := greedyPositions(t, "classic", 1, false)
	for i := 0; i < len(pos); i += 3 { // every third: seconds under -race
		p := &pos[i]
		a1, err1 := NewExpert(3).Advise(&p.h, &p.v)
		a2, err2 := NewExpert(3).Advise(&p.h, &p.v)
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a1, a2) {
			t.Fatalf("position %d: %v %v, advice differs", i, err1, err2)
		}
	}
}

// TestExpertAdviceRanked: after a draw the advice lists every distinct
// non-okey discard once, best first, each with a reason.
func TestExpertAdviceRanked(t *testing.T) {
	lane.NoRace(t) // the expert is pure code, no goroutine
	pos := greedyPositions(t, "classic", 1, true)
	for i := range pos {
		p := &pos[i]
		adv, err := NewExpert(3).Advise(&p.h, &p.v)
		if err != nil {
			t.Fatal(err)
		}
		if adv.Action.Kind != engine.ActDiscard {
			continue
		}
		seen := map[engine.Face]bool{}
		for j, c := range adv.Choices {
			if c.Kind != engine.ActDiscard || seen[c.Face] || c.Face == p.h.Okey() || c.Reason == "" {
				t.Fatalf("position %d choice %d: %+v", i, j, c)
			}
			seen[c.Face] = true
		}
		if adv.Action.Slot != adv.Choices[0].Slot {
			t.Fatalf("position %d: action slot %d, first choice %d", i, adv.Action.Slot, adv.Choices[0].Slot)
		}
	}
}

// TestExpertOkeyWait: holding a win that keeps the okey (K1) with live
// tiles (B9, K9, the other K1) that would let the okey be the final
// discard, at the start of the hand the expert with the okey wait throws
// R7 and keeps the winning hand; late in the hand, with only the second
// okey live (seat 0 threw both B9 and both K9), it declares the win.
func TestExpertOkeyWait(t *testing.T) {
	e := NewExpert(1)
	e.t.okeyWait, e.t.hazard = true, 0.036
	tb := simpleTable(t, 5, layout{first: okeyHand, stock: "R12 K5 K12 K7 Y6 Y5 B2 K6"})
	a := move(t, tb, e, 1, engine.ActDiscard)
	if a.Faces[0].Face != faces("R7")[0] {
		t.Fatalf("threw %v, want R7", a.Faces[0].Face)
	}
	if _, kept := tb.views[1].Rack(tb.h()); !isWin(tb.h().Okey(), kept, engine.WinSize) {
		t.Fatal("the kept hand does not win")
	}

	tb = simpleTable(t, 7, layout{first: okeyHand, second: "B9 B9 K9 K9"})
	throw(t, tb, 1, slotWith(t, tb, 1, "R7"))
	for i := 0; tb.h().StockLen() > 30; i++ {
		if i < 4 { // seat 0 throws its B9 and K9: seat 1 sees them gone
			if err := tb.apply(engine.Action{Kind: engine.ActDraw, Seat: 0}); err != nil {
				t.Fatal(err)
			}
			throw(t, tb, 0, slotWith(t, tb, 0, []string{"B9", "B9", "K9", "K9"}[i]))
		} else {
			drawAndThrow(t, tb, 0)
		}
		drawAndThrow(t, tb, 1)
	}
	drawAndThrow(t, tb, 0)
	move(t, tb, e, 1, engine.ActDraw)
	move(t, tb, e, 1, engine.ActWin)
	if res, _ := tb.h().Result(); res.Winner != 1 || res.OkeyDiscard {
		t.Fatalf("result %+v", res)
	}
}

// TestExpertOneOuts: R1-R4 B5-B7 Y10-Y13 R9 Y9 R7 is one tile from a win:
// B9 or K9 (two copies each, unseen) or an okey (K1: the seat holds one)
// complete R9 Y9, and R8 makes R7-R8-R9 (R2-R4 and Y9-Y13 stay runs);
// nothing else wins. oneOuts counts 7 copies, 6 when the drawn tile was a
// B9.
func TestExpertOneOuts(t *testing.T) {
	tb := simpleTable(t, 5, layout{first: okeyHand, stock: "R12"})
	p, err := read(tb.h(), tb.views[1])
	if err != nil {
		t.Fatal(err)
	}
	ev := &evaluator{p: p, k: know(p), t: defaultTuning}
	hand := faces("R1 R2 R3 R4 B5 B6 B7 Y10 Y11 Y12 Y13 R9 Y9 R7")
	if n := ev.oneOuts(hand, engine.NoFace); n != 7 {
		t.Errorf("oneOuts %d, want 7", n)
	}
	if n := ev.oneOuts(hand, faces("B9")[0]); n != 6 {
		t.Errorf("oneOuts after a B9 %d, want 6", n)
	}
	// Two away (Y9 gone for K5): a B9/K9/okey or a second 9 brings it one
	// closer, and then wins are live: the two-step term is positive.
	two := faces("R1 R2 R3 R4 B5 B6 B7 Y10 Y11 Y12 Y13 R9 K5 R7")
	if s := ev.twoStep(two); s <= 0 {
		t.Errorf("twoStep %v, want > 0", s)
	}
}
