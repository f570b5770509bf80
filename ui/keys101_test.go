package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestCtrlCLeaves101: ctrl-c leaves a 101 round as it leaves a classic
// hand: it asks first during the match, n stays, y leaves. (It did nothing
// in a 101 round before the key table was shared.)
func TestCtrlCLeaves101(t *testing.T) {
	hs := newHarness(t, fixture101(t), Palette256)
	hs.request101()
	hs.key(tcell.KeyCtrlC, 0)
	if hs.view.overlay != quitOverlay || !strings.Contains(hs.screen(), "leave the table?") {
		t.Fatalf("ctrl-c in a 101 round did not ask to leave:\n%s", hs.screen())
	}
	hs.keys("n")
	if hs.quit || hs.view.overlay != noOverlay {
		t.Fatal("n did not stay at the table")
	}
	hs.key(tcell.KeyCtrlC, 0)
	hs.keys("y")
	if !hs.quit {
		t.Fatal("ctrl-c then y did not leave the 101 round")
	}
}

// TestHelp101ListsEveryKey: the 101 help writes every key that works in a
// round: delete discards, ctrl-z undoes, home and end move the cursor (they
// did, unlisted, before the names were derived from the keys).
func TestHelp101ListsEveryKey(t *testing.T) {
	hs := newHarness(t, fixture101(t), Palette256)
	hs.keys("?")
	scr := hs.screen()
	for _, want := range []string{"x delete", "u ctrl-z", "arrows home end"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the 101 help lacks %q:\n%s", want, scr)
		}
	}
	// And they do what the help says.
	hs.keys(" ")
	hs.view.rack.Cursor = 3
	hs.key(tcell.KeyHome, 0)
	if hs.view.rack.Cursor != 0 {
		t.Errorf("home put the cursor at %d", hs.view.rack.Cursor)
	}
	hs.key(tcell.KeyEnd, 0)
	if hs.view.rack.Cursor != RackCols-1 {
		t.Errorf("end put the cursor at %d", hs.view.rack.Cursor)
	}
	hs.keys("r")
	hs.key(tcell.KeyCtrlZ, 0)
	if hs.view.Message() != "rack move undone" {
		t.Errorf("ctrl-z: %q", hs.view.Message())
	}
	reply := hs.request101()
	hs.key(tcell.KeyDelete, 0)
	if !strings.Contains(hs.view.Message(), "take a tile first") {
		t.Errorf("delete before the draw: %q", hs.view.Message())
	}
	noReply(t, reply)
}

// TestTooSmall101Waits: on a screen too small for the table, a 101 round
// says the table waits for the player's move, as a classic hand does.
func TestTooSmall101Waits(t *testing.T) {
	hs := newHarness(t, fixture101(t), Palette256)
	hs.request101()
	hs.scr.SetSize(60, 20)
	hs.view.SetRect(0, 0, 60, 20)
	hs.draw()
	if !strings.Contains(hs.screen(), "the table waits for your move") {
		t.Errorf("the small screen does not say the table waits:\n%s", hs.screen())
	}
}
