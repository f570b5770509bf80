package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// TestDealerFirstSelectionSaysDiscard: at the dealer's first turn of a 101
// round the engine refuses a lay (the dealer starts by discarding), so a
// selection worth an opening must not offer l: the status says the dealer
// discards first, and l changes nothing. The status said "that opens: l
// lays the opening" and the tmux e2e, following it, waited for a lay that
// never came.
func TestDealerFirstSelectionSaysDiscard(t *testing.T) {
	r := engine.MustRuleset(engine.Preset101, "rounds=3")
	m, err := engine.NewMatch101(r, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := m.Game()
	if err := m.Apply(engine.Action101{Kind: engine.Act101Reveal, Seat: -1,
		Faces: []engine.SlotFace{{Slot: g.Pending()[0], Face: engine.MustParseFaces("K3")[0]}}}); err != nil {
		t.Fatal(err)
	}
	faces := engine.MustParseFaces("R10 R11 R12 R13 Y10 Y11 Y12 Y13 B10 B11 B12 B13 K10 K11 K12 K13 R1 Y2 B3 K5 R7 Y8")
	slots := m.Game().Rack(0)
	if len(slots) != len(faces) {
		t.Fatalf("the dealer holds %d tiles, the position %d", len(slots), len(faces))
	}
	v := engine.NewView(0)
	for i, s := range slots {
		v.Learn(s, faces[i])
	}
	s := &Snapshot{Seat: 0, Names: []string{"ayse", "bot1"}, Ruleset: r.String(), Match101: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}
	hs := newHarness(t, s, Palette256)
	hs.request101()
	hs.selectFaces("R10 R11 R12 R13 Y10 Y11 Y12 Y13 B10 B11 B12 B13 K10 K11 K12 K13")
	status := hs.p101().selText(hs.view)
	if strings.Contains(status, "l lays") || !strings.Contains(status, "the dealer starts by discarding (x)") {
		t.Errorf("the dealer's first turn, an opening selected: %q", status)
	}
	sent := hs.p101().sent
	hs.keys("l")
	if hs.p101().sent != sent {
		t.Error("l sent a move at the dealer's first turn")
	}
}
