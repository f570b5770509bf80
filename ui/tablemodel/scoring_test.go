package tablemodel

import (
	"fmt"
	"testing"

	"github.com/okey-game/okey/engine"
)

// TestCausesWithoutScreen: each seat's score change reads with its causes,
// the winner named (ui's TestScoreCauses covers every scoring and the
// panel that shows them).
func TestCausesWithoutScreen(t *testing.T) {
	m, err := engine.NewMatch(engine.MustRuleset("classic", ""), 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	res := engine.HandResult{Winner: 1, Kind: engine.Groups, OkeyDiscard: true, OneColour: engine.NumColours, Shown: []int{2}, Upcard: -1}
	got := Causes(m, res, []string{"ayse", "bot1", "bot2", "bot3"})
	want := []string{"bot1 won (okey discard) -4, gösterme by bot2 -1", "gösterme by bot2 -1", "bot1 won (okey discard) -4", "bot1 won (okey discard) -4, gösterme by bot2 -1"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("causes %q, want %q", got, want)
	}
}

// TestHandEndFiguresWithoutScreen: the end of a classic hand, told from two
// snapshots: the winner, the final discard, each seat's change and score,
// every rack, and the log line.
func TestHandEndFiguresWithoutScreen(t *testing.T) {
	prev, cur := classicWin(t)
	lines, end := Events(prev, cur)
	if end == nil {
		t.Fatal("no hand end")
	}
	if end.Winner != "you" || end.Discard != engine.MustParseFaces("R13")[0] || end.At != cur {
		t.Errorf("winner %q, discard %v, at %p; want you, R13, %p", end.Winner, end.Discard, end.At, cur)
	}
	if len(end.Deltas) != 4 || len(end.Scores) != 4 || len(end.Racks) != 4 {
		t.Fatalf("figures for %d, %d, %d seats, want 4", len(end.Deltas), len(end.Scores), len(end.Racks))
	}
	for s, d := range end.Deltas {
		if (s == 0) != (d == 0) {
			t.Errorf("seat %d changed by %d (the winner keeps its score in classic)", s, d)
		}
	}
	if n := len(lines); n == 0 || lines[n-1].String() != "you win with groups, discarding R13" {
		t.Errorf("the log: %v", lines)
	}
}

// TestCauses101WithoutScreen: an Okey 101 round's points read with their
// causes, seat by seat, and the rounds left.
func TestCauses101WithoutScreen(t *testing.T) {
	res := engine.Result101{End: engine.EndFinish, Finisher: 1, JokerFinish: true, HandPoints: []int{40, -101},
		Penalties: []engine.Penalty101{{Seat: 0, Kind: engine.PenaltyJokerDiscard, Points: 101}}}
	opened := []engine.Opened{engine.NotOpened, engine.OpenedSets}
	if got, want := Causes101(res, opened, 0), "not opened 40, okey finish x2, okey discarded +101"; got != want {
		t.Errorf("seat 0: %q, want %q", got, want)
	}
	if got, want := Causes101(res, opened, 1), "finished -101, okey finish x2"; got != want {
		t.Errorf("seat 1: %q, want %q", got, want)
	}
	if got := Causes101(engine.Result101{End: engine.EndCancelled}, opened, 0); got != "cancelled" {
		t.Errorf("a cancelled round: %q", got)
	}
	if left := (&End101{Rounds: 3, Played: 1}).RoundsLeft(); left != 2 {
		t.Errorf("rounds left %d, want 2", left)
	}
}

// classicWin is classicSnap's hand before and after the player wins with
// R13.
func classicWin(t *testing.T) (prev, cur *Snapshot) {
	t.Helper()
	prev = classicSnap(t, "K4", winningRack)
	m := prev.Match.Clone()
	h := m.Hand()
	var last engine.Slot = engine.NoSlot
	for _, sl := range h.Rack(0) {
		if prev.View.Face(h, sl) == engine.MustParseFaces("R13")[0] {
			last = sl
		}
	}
	a, ok := prev.View.WinAction(h, last)
	if !ok {
		t.Fatal("the fixture's rack does not win with R13")
	}
	if err := m.Apply(a); err != nil {
		t.Fatal(err)
	}
	c := *prev
	c.Match = m
	return prev, &c
}

// TestEndsWithoutScreen: a hand's end waits to be shown with the table as
// it ended (its snapshot, the rack, the log); the next one after it is
// closed; the end of a hand long over is not shown.
func TestEndsWithoutScreen(t *testing.T) {
	prev, cur := classicWin(t)
	lines, end := Events(prev, cur)
	m := New()
	m.Update(prev)
	m.AddLog(lines)
	if !m.AddEnds(cur, []*HandEnd{end}) || len(m.Ends) != 1 {
		t.Fatalf("the end was not queued: %d ends", len(m.Ends))
	}
	m.Update(cur)
	at := m.EndedAt(end)
	if at == nil || at.Snap != cur || len(at.Log) != len(m.Log) || len(at.Rack.Tiles()) == 0 {
		t.Fatalf("the table as the hand ended: %+v", at)
	}
	m.NextEnd()
	if len(m.Ends) != 0 || m.EndedAt(end) != nil {
		t.Error("the closed end is still due")
	}
	old := *end
	old.Hand = 0
	later := *cur
	later.Hand = 2
	if m.AddEnds(&later, []*HandEnd{&old}) || len(m.Ends) != 0 {
		t.Error("the end of a hand long over was queued")
	}
}
