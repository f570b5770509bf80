package tablemodel

import (
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel/modeltest"
)

const (
	winningRack = modeltest.WinningRack
	opening101  = modeltest.Opening101
	rack101     = modeltest.Rack101
)

// classicSnap is a classic hand (simple deal) where seat 0 plays first
// and holds rack (15 tiles) and the face-up tile is ind.
func classicSnap(t *testing.T, ind, rack string) *Snapshot {
	t.Helper()
	m, v, r := modeltest.Classic(t, ind, rack)
	return &Snapshot{Seat: 0, Names: []string{"ayse", "bot1", "bot2", "bot3"}, Ruleset: r.String(), Match: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}
}

// snap101 is a 2-player 101 round where seat 1 deals and has discarded
// Y6; the player (seat 0) holds rack101 and is to draw. With dealerFirst
// the player is the dealer instead, before its first discard.
func snap101(t *testing.T, dealerFirst bool) *Snapshot {
	t.Helper()
	r := engine.MustRuleset(engine.Preset101, "rounds=3")
	dealer, rack := 1, rack101
	if dealerFirst {
		dealer, rack = 0, rack101+" Y9"
	}
	m := modeltest.Deal101(t, r, 2, dealer, "B1")
	v := modeltest.View(t, 0, m.Game().Rack(0), rack)
	if !dealerFirst {
		modeltest.Discard101(t, m, dealer, "Y6")
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
