package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
)

// TestWordsInNoLoneWord: a text cut to a width keeps whole words, and
// never ends on the lone first word of a clause (the 101 log at 80
// columns ended "…; sen …", issue 24).
func TestWordsInNoLoneWord(t *testing.T) {
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{"; sen başlıyorsun", 10, ""},
		{"; sen başlıyorsun", 30, "; sen başlıyorsun"},
		{"the table goes on, when your time runs out", 24, "the table goes on"},
		{"the table goes on, when your time runs out", 28, "the table goes on, when your"},
		{"the table goes on, when your time runs out", 21, "the table goes on"},
		{"bot1 draws · you take R5 from the pile", 17, "bot1 draws"},
		{"bot1 draws · you take R5 from the pile", 20, "bot1 draws"},
		{"bot1 draws · you take R5 from the pile", 22, "bot1 draws · you take"},
		{"one two three", 8, "one two"},
		{"one, ", 4, "one"},
	} {
		if got := wordsIn(c.s, c.w); got != c.want {
			t.Errorf("wordsIn(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
	}
}

// TestDrawSpansCutsAClause: a log line too long for its row ends with an
// ellipsis after its last whole clause, not after the pronoun that starts
// the next one ("gösterge Y12, okey Y13; sen …").
func TestDrawSpansCutsAClause(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(40, 1)
	f := engine.MustParseFaces("Y12 Y13")
	l := Line{txt("gösterge "), tile(f[0]), txt(", okey "), tile(f[1]), txt("; sen başlıyorsun")}
	drawSpans(scr, Palette256, 0, 0, 34, l, f[1], tcell.StyleDefault)
	scr.Show()
	if got, want := strings.TrimRight(screenLines(scr)[0], " "), "gösterge Y12, okey Y13 …"; got != want {
		t.Errorf("the cut line is %q, want %q", got, want)
	}
}

// TestDrawSpansNoSeparatorBeforeTheEllipsis: a line of melds cut before a
// tile ends after the last tile that fits, not on the separator before
// the next meld (the 101 log at 80 columns ended "B8 FJ B10 ·  …").
func TestDrawSpansNoSeparatorBeforeTheEllipsis(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(40, 1)
	f := engine.MustParseFaces("B8 B9 B10 K9 K10 K11")
	l := Line{txt("you lay "), tile(f[0]), tile(f[1]), tile(f[2]), txt(" · "), tile(f[3]), tile(f[4]), tile(f[5])}
	for _, w := range []int{22, 23} {
		scr.Clear()
		drawSpans(scr, Palette256, 0, 0, w, l, engine.NoFace, tcell.StyleDefault)
		scr.Show()
		if got, want := strings.TrimRight(screenLines(scr)[0], " "), "you lay B8 B9 B10 …"; got != want {
			t.Errorf("in %d cells the cut line is %q, want %q", w, got, want)
		}
	}
}

// TestPileTilesOneSpaceApart: the discard piles' one-line tiles stand one
// space apart, as in the log ("R13 K11"), not in 3-cell slots that read
// as doubled spaces ("R13 Y5  K11", issue 24).
func TestPileTilesOneSpaceApart(t *testing.T) {
	s := fixture(t, "K4", winningRack)
	m := s.Match
	f := func(x string) engine.Face { return engine.MustParseFaces(x)[0] }
	discard := func(seat int, face string) {
		t.Helper()
		r := m.Hand().Rack(seat)
		if err := m.Apply(engine.Action{Kind: engine.ActDiscard, Seat: seat, Slot: r[0], Faces: []engine.SlotFace{{Slot: r[0], Face: f(face)}}}); err != nil {
			t.Fatal(err)
		}
	}
	discard(0, "R13")
	for seat := 1; seat < 4; seat++ {
		if err := m.Apply(engine.Action{Kind: engine.ActDraw, Seat: seat}); err != nil {
			t.Fatal(err)
		}
		discard(seat, []string{"B2", "K9", "R5"}[seat-1])
	}
	if err := m.Apply(engine.Action{Kind: engine.ActDraw, Seat: 0}); err != nil {
		t.Fatal(err)
	}
	s.View.Learn(m.Hand().Rack(0)[14], f("Y5"))
	discard(0, "Y5")
	hs := newHarness(t, s, Palette256)
	for _, size := range [][2]int{{80, 24}, {120, 36}} {
		hs.scr.SetSize(size[0], size[1])
		hs.view.SetRect(0, 0, size[0], size[1])
		hs.draw()
		if scr := hs.screen(); !strings.Contains(scr, "R13 Y5 < just now") {
			t.Errorf("%dx%d: the player's pile is not R13 Y5, one space apart:\n%s", size[0], size[1], scr)
		}
	}
}
