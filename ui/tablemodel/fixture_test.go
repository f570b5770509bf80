package tablemodel

import (
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// winningRack: R1 R2 R3 | Y7 B7 K7 | B9 B10 B11 B12 | Y1 Y2 Y3 Y4, plus R13.
const winningRack = "R13 Y7 B9 R1 Y1 B7 B10 R2 Y2 K7 B11 R3 Y3 B12 Y4"

// classicSnap is a classic hand (simple deal) where seat 0 plays first
// and holds rack (15 tiles) and the face-up tile is ind.
func classicSnap(t *testing.T, ind, rack string) *Snapshot {
	t.Helper()
	r := engine.MustRuleset("classic", "deal=simple")
	m, err := engine.NewMatch(r, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	pend := m.Hand().Pending()
	if err := m.Apply(engine.Action{Kind: engine.ActReveal, Faces: []engine.SlotFace{{Slot: pend[0], Face: engine.MustParseFaces(ind)[0]}}}); err != nil {
		t.Fatal(err)
	}
	faces := engine.MustParseFaces(rack)
	slots := m.Hand().Rack(0)
	if len(slots) != len(faces) {
		t.Fatalf("rack of %d tiles, fixture has %d", len(slots), len(faces))
	}
	v := engine.NewView(0)
	for i, s := range slots {
		v.Learn(s, faces[i])
	}
	return &Snapshot{Seat: 0, Names: []string{"ayse", "bot1", "bot2", "bot3"}, Ruleset: r.String(), Match: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}
}

// The player's rack in the 101 fixture: an opening of 112 points in three
// melds (R10-R13, the 10s, K11-K13), R9 to add later, and ten loose
// tiles. The indicator is B1: the okey is B2.
const (
	opening101 = "R10 R11 R12 R13 Y10 B10 K10 K11 K12 K13"
	rack101    = opening101 + " R9 Y3 Y5 B7 K2 R1 Y8 B4 R6 Y1 K5"
)

// snap101 is a 2-player 101 round where seat 1 deals and has discarded
// Y6; the player (seat 0) holds rack101 and is to draw. With dealerFirst
// the player is the dealer instead, before its first discard.
func snap101(t *testing.T, dealerFirst bool) *Snapshot {
	t.Helper()
	r := engine.MustRuleset(engine.Preset101, "rounds=3")
	dealer := 1
	if dealerFirst {
		dealer = 0
	}
	m, err := engine.NewMatch101(r, 2, dealer)
	if err != nil {
		t.Fatal(err)
	}
	pend := m.Game().Pending()
	if err := m.Apply(engine.Action101{Kind: engine.Act101Reveal, Seat: -1,
		Faces: []engine.SlotFace{{Slot: pend[0], Face: engine.MustParseFaces("B1")[0]}}}); err != nil {
		t.Fatal(err)
	}
	faces := engine.MustParseFaces(rack101)
	if dealerFirst {
		faces = append(faces, engine.MustParseFaces("Y9")...)
	}
	slots := m.Game().Rack(0)
	if len(slots) != len(faces) {
		t.Fatalf("rack of %d tiles, fixture has %d", len(slots), len(faces))
	}
	v := engine.NewView(0)
	for i, s := range slots {
		v.Learn(s, faces[i])
	}
	if !dealerFirst {
		if err := m.Apply(engine.Action101{Kind: engine.Act101Discard, Seat: dealer,
			Faces: []engine.SlotFace{{Slot: m.Game().Rack(dealer)[0], Face: engine.MustParseFaces("Y6")[0]}}}); err != nil {
			t.Fatal(err)
		}
	}
	return &Snapshot{Seat: 0, Names: []string{"ayse", "bot1"}, Ruleset: r.String(), Match101: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}
}

// seatModel is a model showing s, with a classic or 101 move asked for
// when ask; the requests' reply channels are returned.
func seatModel(s *Snapshot, ask bool) (*Table, chan engine.Action, chan engine.Action101) {
	m := New()
	m.Snap = s
	r, r101 := NewRequest[engine.Action](), NewRequest[engine.Action101]()
	if ask {
		if s.Match101 != nil {
			m.Ask(r101)
		} else {
			m.Ask(r)
		}
	}
	return m, r.Reply, r101.Reply
}

// nextSeat is s after seat 0 discards its first tile, seen from seat 1
// (whose tiles it does not know), asked to move.
func nextSeat(t *testing.T, s *Snapshot) *Snapshot {
	t.Helper()
	m := s.Match.Clone()
	sl := m.Hand().Rack(0)[0]
	if err := m.Apply(engine.Action{Kind: engine.ActDiscard, Seat: 0, Slot: sl,
		Faces: []engine.SlotFace{{Slot: sl, Face: s.View.Face(m.Hand(), sl)}}}); err != nil {
		t.Fatal(err)
	}
	n := *s
	n.Seat, n.Match, n.View, n.Expect = 1, m, *engine.NewView(1), 1
	return &n
}
