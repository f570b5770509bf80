package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// finish101 is the position of TestHint101NeverAdvisesAPenalty's seed 12,
// frame 73 (issue 24, reopened): the okey is K4, bot1 has laid five melds
// (K8 K4 K4 K11 K12 K13 holds both okeys, as K9 and K10) and the player,
// not opened, has drawn its 22nd tile. B101 opens with six melds, swaps K9
// for the okey of meld 4, lays that okey with Y1 B1 (as R1) and finishes
// with Y11, which fits meld 3 (Y8 Y9 Y10) until its last tile goes.
func finish101(t *testing.T) *Snapshot {
	t.Helper()
	rg := newRig101(t, 2, 1)
	rg.discard(1, "B12")
	rg.draw(0)
	rg.discard(0, "B12")
	rg.draw(1)
	rg.lay(1, [][2]string{{"R10 R11 R12", ""}, {"R13 Y13 B13 K13", ""}, {"Y8 Y9 Y10", ""},
		{"K8 K4 K4 K11 K12 K13", "K8 K9 K10 K11 K12 K13"}, {"R1 Y1 K1", ""}})
	rg.discard(1, "B6")
	rg.draw(0)
	g, r, m := rg.g, rg.r, rg.m
	faces := engine.MustParseFaces("K9 Y2 R5 K9 Y7 Y1 B1 B9 R2 K8 Y11 K3 K5 R9 FJ R8 K7 K5 B8 B5 K2 B7")
	slots := g().Rack(0)
	if len(slots) != len(faces) {
		t.Fatalf("rack of %d tiles, the position has %d", len(slots), len(faces))
	}
	v := engine.NewView(0)
	for i, s := range slots {
		v.Learn(s, faces[i])
	}
	return &Snapshot{Seat: 0, Names: []string{"ayse", "bot1"}, Ruleset: r.String(), Match101: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}
}

// TestHint101NamesEveryMoveBeforeTheDiscard: the hint's discard may be
// free only after moves of the turn (a swap, a lay, adds); it names every
// one of them, in order, and says when the discard finishes. The hint
// named the opening and then "discard the Y11", which fits meld 3 until
// the swap and the lay are made: a 101-point penalty for a player who
// follows it (issue 24, reopened).
func TestHint101NamesEveryMoveBeforeTheDiscard(t *testing.T) {
	s := finish101(t)
	hs := newHarness(t, s, Palette256)
	reply := hs.request101()
	hs.keys("h")
	msg := hs.view.Message()
	if want := "selected: l lays it · swap K9⇄4 · lay R1* Y1 B1 · then discard the Y11 (x): you finish"; !strings.Contains(msg, want) {
		t.Errorf("the hint before opening:\n%q\nwants\n%q", msg, want)
	}
	// At 80 columns the whole plan has no room: the line keeps its first
	// move and the discard (the cut tmux e2e's 101 round met).
	if scr := hs.screen(); !strings.Contains(scr, "you can open: 105 points in 6 melds · … · then discard the Y11 (x): you finish") {
		t.Errorf("the hint's line at 80 columns drops the first move or the discard:\n%s", scr)
	}
	// The player follows it: l lays the opening; the hint then starts with
	// the swap and still names the lay before the discard.
	hs.keys("l")
	a := <-reply
	if a.Kind != engine.Act101Lay || len(a.Melds) != 6 {
		t.Fatalf("l sent %v with %d melds, want the opening's 6", a.Kind, len(a.Melds))
	}
	hs.apply(s, a)
	hs.request101()
	hs.keys("h")
	msg = hs.view.Message()
	if want := "swap: your K9 takes the okey of meld 4 · lay R1* Y1 B1 · then discard the Y11 (x): you finish"; !strings.HasPrefix(msg, want) {
		t.Errorf("the hint once open:\n%q\nwants\n%q", msg, want)
	}
}
