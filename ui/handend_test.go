package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/lane"
	"github.com/okey-game/okey/table"
)

// rackRows are the screen's rows of the rack (80x24).
func (hs *harness) rackRows() string {
	lines := screenLines(hs.scr)
	y := 24 - 2 - rackH
	return strings.Join(lines[y:y+rackH], "\n")
}

// TestHandEndPanelKeepsTheEndedHand: while the panel of a hand that is
// over is up, the rack under it shows that hand's final tiles, not the
// next hand's ("??" while it is dealt, then its faces), though the next
// hand's snapshots keep coming; closing the panel shows the next hand.
func TestHandEndPanelKeepsTheEndedHand(t *testing.T) {
	s0 := fixture(t, "K4", winningRack)
	hs := newHarness(t, s0, Palette256)
	reply := hs.request()
	hs.keys("h")
	hs.keys("w")
	var a engine.Action
	select {
	case a = <-reply:
	default:
		t.Fatalf("the win was not sent: %q", hs.view.Message())
	}
	snap := func(m *engine.Match, v *engine.View, hand uint32, kind table.Kind) *Snapshot {
		return &Snapshot{Seat: 0, Names: s0.Names, Ruleset: s0.Ruleset, Match: m, View: *v, Hand: hand,
			Expect: 0, Kind: kind, At: s0.At}
	}
	m1 := s0.Match.Clone()
	if err := m1.Apply(a); err != nil {
		t.Fatal(err)
	}
	s1 := snap(m1, &s0.View, 0, table.KindAudit)
	lines, end := Events(s0, s1)
	if end == nil {
		t.Fatal("no hand end")
	}
	hs.view.Update(s1, lines, []*HandEnd{end})
	hs.draw()
	final := hs.rackRows()
	if strings.Contains(final, "??") || !strings.Contains(final, " 1 ") {
		t.Fatalf("the final rack is not shown:\n%s", final)
	}

	// The next hand is dealt underneath: its indicator opens, its tiles
	// are closed to the player, then open.
	m2 := m1.Clone()
	if err := m2.NextHand(); err != nil {
		t.Fatal(err)
	}
	pend := m2.Hand().Pending()
	if err := m2.Apply(engine.Action{Kind: engine.ActReveal, Faces: []engine.SlotFace{{Slot: pend[0], Face: engine.MustParseFaces("Y5")[0]}}}); err != nil {
		t.Fatal(err)
	}
	s2 := snap(m2, engine.NewView(0), 1, table.KindDeal)
	lines, _ = Events(s1, s2)
	hs.view.Update(s2, lines, nil)
	hs.draw()
	if got := hs.rackRows(); got != final {
		t.Fatalf("under the hand's panel the rack shows the next hand being dealt:\n%s\nnot the final rack:\n%s", got, final)
	}
	v := engine.NewView(0)
	next := engine.MustParseFaces("K2 K3 K4 K5 K6 K8 K9 K10 K11 K12 K13 K1 B1 B2 B3")
	for i, sl := range m2.Hand().Rack(0) {
		v.Learn(sl, next[i%len(next)])
	}
	s3 := snap(m2, v, 1, table.KindDeal)
	lines, _ = Events(s2, s3)
	hs.view.Update(s3, lines, nil)
	hs.draw()
	if got := hs.rackRows(); got != final {
		t.Fatalf("under the hand's panel the rack shows the next hand:\n%s\nnot the final rack:\n%s", got, final)
	}
	if !strings.Contains(hs.screen(), "hand 1 is over") {
		t.Fatalf("the hand's panel is not up:\n%s", hs.screen())
	}

	// Closed, the panel leaves the next hand on the table.
	hs.key(tcell.KeyEnter, 0)
	got := hs.rackRows()
	if got == final || strings.Contains(got, "??") || !strings.Contains(got, "K") {
		t.Fatalf("after the panel the rack does not show the next hand:\n%s", got)
	}
}

// TestQuitQuestionOverHandEndGivesThePanelBack: staying at the table after
// the leave question asked over a hand's panel brings the panel back (the
// table under it shows the hand that ended until it is closed).
func TestQuitQuestionOverHandEndGivesThePanelBack(t *testing.T) {
	s := fixture(t, "K4", winningRack)
	hs := newHarness(t, s, Palette256)
	hs.view.Update(s, nil, []*HandEnd{{Hand: 0, Result: engine.HandResult{Winner: -1}, Names: s.Names,
		Deltas: make([]int, 4), Scores: []int{20, 20, 20, 20}}})
	hs.draw()
	hs.keys("q")
	if hs.view.overlay != quitOverlay {
		t.Fatalf("q over the hand's panel does not ask to leave")
	}
	hs.keys("n")
	if hs.view.overlay != handOverlay || !strings.Contains(hs.screen(), "hand 1 is over") {
		t.Fatalf("after staying, the hand's panel is not back:\n%s", hs.screen())
	}
}

// rackRE is a line of tiles.
var rackRE = regexp.MustCompile(`^(FJ|[RYBK]\d+)( +(FJ|[RYBK]\d+))* *│?$`)

// TestHandEndPanelShowsEveryRackAt80x24: at every supported size, in
// either language, the panel of a four-player hand shows the hands the
// audit opened, every player's but the winner's, whole (at 80x24 they had
// no room and were left out).
func TestHandEndPanelShowsEveryRackAt80x24(t *testing.T) {
	lane.NoRace(t) // a screen's layout over whole matches: the race line plays matches in the ui in TestScreens, TestQuitResumeAndFinish, TestAskResumeDrops, TestReplay
	end, m := lastHandEnd(t, greedyMatchN(t, "turkish-rummy:rounds=1", 4, 11), 4)
	everyCut(t, func(t *testing.T, scr *cutScreen, w, h int) {
		snap := TakeSnapshot(m, nil, 0)
		v := NewTableView(func() {})
		v.SetPalette(Palette256)
		v.SetRect(0, 0, w, h)
		v.Update(snap, nil, []*HandEnd{end})
		scr.Clear()
		v.Draw(scr)
		scr.Show()
		lines := screenLines(scr)
		s := strings.Join(lines, "\n")
		for seat, name := range end.Names {
			if seat == end.Result.Winner {
				continue
			}
			found := false
			for _, l := range lines {
				// The name in its column, then the tiles ("seat1      R1 R4").
				if rest, ok := strings.CutPrefix(strings.TrimLeft(l, " │"), fmt.Sprintf("%-10.10s ", name)); ok && rackRE.MatchString(rest) {
					found = true
				}
			}
			if !found {
				t.Errorf("the hand's panel does not show %s's rack:\n%s", name, s)
			}
		}
	})
}
