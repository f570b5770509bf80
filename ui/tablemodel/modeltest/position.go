// Package modeltest builds the positions the tests of the table's model
// (ui/tablemodel) and of the terminal (ui) start from: a classic hand or an
// Okey 101 round at a given point, and the player's view of its rack. It
// holds engine values only (the model's own tests cannot import a package
// that imports the model): each test wraps them in its Snapshot.
package modeltest

import (
	"testing"

	"github.com/okey-game/okey/engine"
)

// The player's rack in the 101 positions: an opening of 112 points in three
// melds (R10-R13, the 10s, K11-K13), R9 to add later, and ten loose tiles.
// With the indicator B1, the okey is B2.
const (
	Opening101 = "R10 R11 R12 R13 Y10 B10 K10 K11 K12 K13"
	Rack101    = Opening101 + " R9 Y3 Y5 B7 K2 R1 Y8 B4 R6 Y1 K5"
)

// WinningRack is a classic winning hand: R1 R2 R3 | Y7 B7 K7 | B9 B10 B11
// B12 | Y1 Y2 Y3 Y4, plus R13 to discard.
const WinningRack = "R13 Y7 B9 R1 Y1 B7 B10 R2 Y2 K7 B11 R3 Y3 B12 Y4"

// Classic is a classic hand (simple deal, four seats) where seat 0 plays
// first, the face-up tile is ind and seat 0 holds rack (15 tiles); the
// other seats hold what the deck has left. It returns the match, seat 0's
// view and the ruleset.
func Classic(t testing.TB, ind, rack string) (*engine.Match, *engine.View, engine.Ruleset) {
	t.Helper()
	r := engine.MustRuleset("classic", "deal=simple")
	m, err := engine.NewMatch(r, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	pend := m.Hand().Pending()
	if err := m.Apply(engine.Action{Kind: engine.ActReveal, Faces: []engine.SlotFace{{Slot: pend[0], Face: face(t, ind)}}}); err != nil {
		t.Fatal(err)
	}
	return m, View(t, 0, m.Hand().Rack(0), rack), r
}

// Deal101 is an n-player Okey 101 round of r dealt by dealer, its
// indicator ind face up: the dealer is to discard.
func Deal101(t testing.TB, r engine.Ruleset, n, dealer int, ind string) *engine.Match101 {
	t.Helper()
	m, err := engine.NewMatch101(r, n, dealer)
	if err != nil {
		t.Fatal(err)
	}
	pend := m.Game().Pending()
	if err := m.Apply(engine.Action101{Kind: engine.Act101Reveal, Seat: -1,
		Faces: []engine.SlotFace{{Slot: pend[0], Face: face(t, ind)}}}); err != nil {
		t.Fatal(err)
	}
	return m
}

// Discard101 makes seat discard its rack's first slot, which shows f.
func Discard101(t testing.TB, m *engine.Match101, seat int, f string) {
	t.Helper()
	if err := m.Apply(engine.Action101{Kind: engine.Act101Discard, Seat: seat,
		Faces: []engine.SlotFace{{Slot: m.Game().Rack(seat)[0], Face: face(t, f)}}}); err != nil {
		t.Fatal(err)
	}
}

// View is seat's view of its rack: slots, in order, hold the faces of rack
// (a rack of another length fails t).
func View(t testing.TB, seat int, slots []engine.Slot, rack string) *engine.View {
	t.Helper()
	faces := engine.MustParseFaces(rack)
	if len(slots) != len(faces) {
		t.Fatalf("rack of %d tiles, fixture has %d", len(slots), len(faces))
	}
	v := engine.NewView(seat)
	for i, s := range slots {
		v.Learn(s, faces[i])
	}
	return v
}

func face(t testing.TB, s string) engine.Face {
	t.Helper()
	f, err := engine.ParseFace(s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
