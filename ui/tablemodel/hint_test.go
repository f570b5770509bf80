package tablemodel

import (
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
)

// TestHintClassicWithoutScreen: the classic hint on a winning rack says to
// win with the odd tile (its key after the move), marks that one tile and puts the cursor on it.
func TestHintClassicWithoutScreen(t *testing.T) {
	m, _, _ := seatModel(classicSnap(t, "K4", winningRack), true)
	m.Update(m.Snap)
	m.Hint()
	if want := "you can win (w): finish with the R13 and declare"; m.MsgBad || !strings.HasPrefix(m.Msg, want) {
		t.Fatalf("hint %q (bad %v), want %q: the key after the move", m.Msg, m.MsgBad, want)
	}
	if len(m.Hinted) != 1 {
		t.Fatalf("the hint marks %d tiles, want 1", len(m.Hinted))
	}
	for sl := range m.Hinted {
		if m.Face(sl) != engine.MustParseFaces("R13")[0] {
			t.Errorf("the hint marks %v, want R13", m.Face(sl))
		}
		if m.Rack.At(m.Rack.Cursor) != sl {
			t.Error("the cursor is not on the hinted tile")
		}
	}
}

// TestHint101WithoutScreen: before the draw, Okey 101's hint names the
// draw first, the opening the rack holds, and selects its tiles; before
// the tiles are in play it refuses.
func TestHint101WithoutScreen(t *testing.T) {
	m, _, _ := seatModel(snap101(t, false), true)
	m.Update(m.Snap)
	m.Hint()
	if m.MsgBad || !strings.HasPrefix(m.Msg, "take the previous discard Y6 (t)") && !strings.HasPrefix(m.Msg, "draw from the bank (d)") {
		t.Fatalf("hint %q (bad %v), want the draw or the take first", m.Msg, m.MsgBad)
	}
	if !strings.Contains(m.Msg, "you can open: 121 points in 3 melds") {
		t.Errorf("hint %q does not name the opening", m.Msg)
	}
	var sel []engine.Face
	for sl := range m.Sel {
		sel = append(sel, m.Face(sl))
	}
	if len(sel) != 11 {
		t.Errorf("the hint selects %v, want the opening's 11 tiles (R9 joins the run)", sel)
	}

	empty := New()
	empty.Hint()
	if !empty.MsgBad || empty.Msg != "no hand is being played" {
		t.Errorf("a hint before any hand: %q (bad %v)", empty.Msg, empty.MsgBad)
	}
}
