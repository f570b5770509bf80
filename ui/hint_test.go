package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel/modeltest"
)

// germanFixture: a german hand (13-tile racks), seat 0 second to play: the
// first player (seat 3) has discarded discard; seat 0 holds rack (13 tiles)
// and has not drawn.
func germanFixture(t *testing.T, rack, discard string) *Snapshot {
	t.Helper()
	r := engine.MustRuleset("german", "")
	m, err := engine.NewMatch(r, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	for m.Hand().Phase() != engine.PhasePlay {
		need := m.Hand().Need()
		a := engine.Action{Kind: engine.ActRoll, Value: 3}
		if need.Kind == engine.ActReveal {
			a = engine.Action{Kind: engine.ActReveal, Faces: []engine.SlotFace{{Slot: need.Slots[0], Face: engine.MustParseFaces("K4")[0]}}}
		}
		if err := m.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	h := m.Hand()
	if seat, _ := h.Turn(); seat != 3 {
		t.Fatalf("seat %d plays first", seat)
	}
	if err := m.Apply(engine.Action{Kind: engine.ActDraw, Seat: 3}); err == nil {
		t.Fatal("the first player drew")
	}
	d := h.Rack(3)[0]
	df := engine.MustParseFaces(discard)[0]
	if err := m.Apply(engine.Action{Kind: engine.ActDiscard, Seat: 3, Slot: d, Faces: []engine.SlotFace{{Slot: d, Face: df}}}); err != nil {
		t.Fatal(err)
	}
	v := modeltest.View(t, 0, m.Hand().Rack(0), rack)
	return &Snapshot{Seat: 0, Names: []string{"ayse", "bot1", "bot2", "bot3"}, Ruleset: r.String(), Match: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}
}

// TestHintGermanTake: before the draw in a 13-tile german hand, the hint
// advises taking the discard that completes a run (issue 15 item 2).
func TestHintGermanTake(t *testing.T) {
	// R5 R6 _ : R7 completes R5-R6-R7; the rest: K1 K2 K3 | Y9 B9 R9 | Y11 Y12 Y13 | B2.
	hs := newHarness(t, germanFixture(t, "R5 R6 K1 K2 K3 Y9 B9 R9 Y11 Y12 Y13 B2 B6", "R7"), Palette256)
	hs.request()
	hs.keys("h")
	msg := hs.view.Message()
	if !strings.HasPrefix(msg, "take R7") || !strings.Contains(msg, "(t)") {
		t.Fatalf("hint says %q, want the take of R7", msg)
	}
	if strings.Contains(msg, "no hint") {
		t.Fatalf("no hint in german: %q", msg)
	}
}

// TestHintGermanDraw: a discard that helps nothing: the hint says draw.
func TestHintGermanDraw(t *testing.T) {
	hs := newHarness(t, germanFixture(t, "R5 R6 K1 K2 K3 Y9 B9 R9 Y11 Y12 Y13 B2 B6", "K10"), Palette256)
	hs.request()
	hs.keys("h")
	if msg := hs.view.Message(); !strings.HasPrefix(msg, "draw") || !strings.Contains(msg, "(d)") {
		t.Fatalf("hint says %q, want draw", msg)
	}
}

// TestHintOneTile: after the draw the hint marks exactly one tile (not both
// copies of a face), puts the cursor on it and names it (issue 15 item 5).
func TestHintOneTile(t *testing.T) {
	// Two K13 (isolated, twins) and an isolated B5: the hint names one tile.
	rack := "R1 R2 R3 Y7 B7 K7 B9 B10 B11 Y1 Y2 Y3 K13 K13 B5"
	hs := newHarness(t, fixture(t, "K4", rack), Palette256)
	hs.request()
	hs.keys("h")
	msg := hs.view.Message()
	if !strings.HasPrefix(msg, "discard ") || !strings.Contains(msg, "(x)") {
		t.Fatalf("hint says %q", msg)
	}
	if len(hs.view.m.Hinted) != 1 {
		t.Fatalf("hint marks %d tiles, want 1", len(hs.view.m.Hinted))
	}
	var marked engine.Slot
	for s := range hs.view.m.Hinted {
		marked = s
	}
	named := strings.Fields(strings.TrimSuffix(strings.Fields(msg)[1], ":"))[0]
	if got := hs.view.face(marked).String(); got != named {
		t.Fatalf("hint names %s but marks %s", named, got)
	}
	if p := hs.view.m.Rack.Find(marked); p != hs.view.m.Rack.Cursor {
		t.Fatalf("cursor at %d, marked tile at %d", hs.view.m.Rack.Cursor, p)
	}
	if !strings.Contains(msg, "next best:") {
		t.Fatalf("no ranked alternatives in %q", msg)
	}
	// x discards exactly the named tile.
	reply := hs.request()
	hs.keys("x")
	select {
	case a := <-reply:
		if a.Kind != engine.ActDiscard || a.Slot != marked {
			t.Fatalf("x sent %+v, want the discard of slot %d", a, marked)
		}
	default:
		t.Fatalf("x sent nothing: %q", hs.view.Message())
	}
}
