package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
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
	hs.view.m.Rack.Cursor = 3
	hs.key(tcell.KeyHome, 0)
	if hs.view.m.Rack.Cursor != 0 {
		t.Errorf("home put the cursor at %d", hs.view.m.Rack.Cursor)
	}
	hs.key(tcell.KeyEnd, 0)
	if hs.view.m.Rack.Cursor != RackCols-1 {
		t.Errorf("end put the cursor at %d", hs.view.m.Rack.Cursor)
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

// TestDiscardPenaltyAsks101: x on a tile that fits a meld on the table (a
// 101-point penalty) asks first; n sends nothing, y discards it (issue 24
// point 5). An ordinary discard does not ask.
func TestDiscardPenaltyAsks101(t *testing.T) {
	s := fixture101(t)
	hs := newHarness(t, s, Palette256)
	hs.apply(s, engine.Action101{Kind: engine.Act101Draw, Seat: 0})
	slots, faces := s.View.Rack(s.Match101.Game())
	var groups []engine.Group
	for _, g := range []struct {
		kind  engine.GroupKind
		faces string
	}{{engine.Run, "R10 R11 R12 R13"}, {engine.Set, "Y10 B10 K10"}, {engine.Run, "K11 K12 K13"}} {
		fs := engine.MustParseFaces(g.faces)
		groups = append(groups, engine.Group{Kind: g.kind, Tiles: fs, As: fs})
	}
	lay, ok := engine.LayAction101(0, slots, faces, groups)
	if !ok {
		t.Fatal("no lay")
	}
	hs.apply(s, lay)
	// R9 fits the run R10-R13 on the table.
	reply := hs.request101()
	hs.selectFaces("R9")
	hs.keys("x")
	if hs.view.overlay != confirmOverlay || !strings.Contains(hs.screen(), "fits a meld on the table") {
		t.Fatalf("x on R9 did not ask first:\n%s", hs.screen())
	}
	hs.keys("n")
	noReply(t, reply)
	hs.keys("xy")
	a := <-reply
	if a.Kind != engine.Act101Discard || a.Faces[0].Face != engine.MustParseFaces("R9")[0] {
		t.Fatalf("x then y sent %+v", a)
	}
	// Y1 fits nothing: x discards it at once.
	hs2 := newHarness(t, fixture101(t), Palette256)
	s2 := hs2.view.m.Snap
	hs2.apply(s2, engine.Action101{Kind: engine.Act101Draw, Seat: 0})
	reply = hs2.request101()
	hs2.selectFaces("Y1")
	hs2.keys("x")
	if hs2.view.overlay == confirmOverlay {
		t.Fatal("an ordinary discard asked first")
	}
	if a := <-reply; a.Kind != engine.Act101Discard {
		t.Fatalf("x sent %+v", a)
	}
}

// TestDiscardBeforeDrawOnGap: x before the draw says to draw first, even
// with the cursor on a gap of the rack (issue 24 point 21).
func TestDiscardBeforeDrawOnGap(t *testing.T) {
	{
		hs := newHarness(t, fixture101(t), Palette256)
		reply := hs.request101()
		gap := -1
		for p := 0; p < RackSize && gap < 0; p++ {
			if hs.view.m.Rack.At(p) == engine.NoSlot {
				gap = p
			}
		}
		hs.view.m.Rack.Cursor = gap
		hs.keys("x")
		if msg := hs.view.Message(); strings.Contains(msg, "cursor") || !strings.Contains(msg, "first") {
			t.Errorf("x before the draw on a gap: %q", msg)
		}
		noReply(t, reply)
	}
}

// TestLastDiscardLabelTurkish: in Turkish the label over another seat's
// last discard is a noun ("son attığı"), not the discard key's order
// ("at"), which stays the key's word (issue 24 point 12).
func TestLastDiscardLabelTurkish(t *testing.T) {
	i18n.Set(i18n.Turkish)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	hs := newHarness(t, fixture101(t), Palette256)
	scr := hs.screen()
	if !strings.Contains(scr, "son attığı Y6") || strings.Contains(scr, "at Y6") {
		t.Errorf("the label over bot1's discard:\n%s", scr)
	}
	if got := i18n.T("discard"); got != "at" {
		t.Errorf("the discard key's word: %q", got)
	}
}

// TestHint101BeforeDraw: before the draw the 101 hint names the key, and
// advises taking the previous discard when it can be used this turn (the
// classic hint does both; issue 24 point 6).
func TestHint101BeforeDraw(t *testing.T) {
	s := fixture101(t)
	hs := newHarness(t, s, Palette256)
	reply := hs.request101()
	hs.keys("h")
	if msg := hs.view.Message(); !strings.Contains(msg, "draw from the bank (d)") {
		t.Errorf("the hint before the draw (Y6 fits nothing): %q", msg)
	}
	noReply(t, reply)
	// The player opens (R10-R13 among the melds) and discards Y1; bot1
	// discards R9, which the player can add to R10-R13 at once.
	hs.apply(s, engine.Action101{Kind: engine.Act101Draw, Seat: 0})
	slots, faces := s.View.Rack(s.Match101.Game())
	var groups []engine.Group
	for _, g := range []struct {
		kind  engine.GroupKind
		faces string
	}{{engine.Run, "R10 R11 R12 R13"}, {engine.Set, "Y10 B10 K10"}, {engine.Run, "K11 K12 K13"}} {
		fs := engine.MustParseFaces(g.faces)
		groups = append(groups, engine.Group{Kind: g.kind, Tiles: fs, As: fs})
	}
	lay, ok := engine.LayAction101(0, slots, faces, groups)
	if !ok {
		t.Fatal("no lay")
	}
	hs.apply(s, lay)
	y1 := slotOf(t, s, "Y1")
	hs.apply(s, engine.Action101{Kind: engine.Act101Discard, Seat: 0, Faces: []engine.SlotFace{{Slot: y1, Face: engine.MustParseFaces("Y1")[0]}}})
	hs.apply(s, engine.Action101{Kind: engine.Act101Draw, Seat: 1})
	bot := s.Match101.Game().Rack(1)[0]
	hs.apply(s, engine.Action101{Kind: engine.Act101Discard, Seat: 1, Faces: []engine.SlotFace{{Slot: bot, Face: engine.MustParseFaces("R9")[0]}}})
	reply = hs.request101()
	hs.keys("h")
	if msg := hs.view.Message(); !strings.Contains(msg, "take the previous discard R9 (t)") {
		t.Errorf("the hint with a discard to use: %q", msg)
	}
	noReply(t, reply)
}

// TestSpansText: tiles in a line are one space apart and punctuation
// follows a tile at once; an okey in a group is written as the face it
// stands for with a star, as okey analyze writes it (issue 24 points 9, 18).
func TestSpansText(t *testing.T) {
	f := func(s string) engine.Face { return engine.MustParseFaces(s)[0] }
	l := Line{txt("face-up tile "), tile(f("R6")), txt(", okey "), tile(f("R7"))}
	if got := l.String(); got != "face-up tile R6, okey R7" {
		t.Errorf("%q", got)
	}
	g := groupSpans(engine.MustParseFaces("R6 B2 R8 B2"), engine.MustParseFaces("R6 R7 R8 B2"), f("B2"))
	if got := g.String(); got != "R6 R7* R8 B2" {
		t.Errorf("a run with the okey: %q, want R6 R7* R8 B2", got)
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(40, 1)
	drawSpans(scr, Palette256, 0, 0, 40, append(l, txt(": "), g[0], g[1]), f("B2"), tcell.StyleDefault)
	scr.Show()
	if got := strings.TrimRight(screenLines(scr)[0], " "); got != "face-up tile R6, okey R7: R6 R7*" {
		t.Errorf("drawn: %q", got)
	}
}

// TestPluralOne: one meld is "1 meld", not "1 melds" (issue 24 point 18).
func TestPluralOne(t *testing.T) {
	s := fixture101(t)
	hs := newHarness(t, s, Palette256)
	hs.apply(s, engine.Action101{Kind: engine.Act101Draw, Seat: 0})
	hs.selectFaces("R10 R11 R12")
	if msg := hs.view.Message(); strings.Contains(msg, "1 melds") || !strings.Contains(msg, "1 meld") {
		t.Errorf("one meld selected: %q", msg)
	}
}

// TestSortPairs: p puts each pair of equal faces side by side, a gap
// after each pair, the okeys and the single tiles after them; u undoes
// it (issue 24 point 17).
func TestSortPairs(t *testing.T) {
	rack := "R5 Y7 R5 K2 B9 Y7 K2 B9 R1 Y3 K11 R13 K11 Y9 K5" // okey K5 (indicator K4)
	hs := newHarness(t, fixture(t, "K4", rack), Palette256)
	before := hs.view.m.Rack.Positions()
	hs.keys("p")
	if msg := hs.view.Message(); msg != "sorted by pairs" {
		t.Fatalf("p: %q", msg)
	}
	var got []string
	for p := 0; p < RackSize; p++ {
		if s := hs.view.m.Rack.At(p); s != engine.NoSlot {
			got = append(got, hs.view.face(s).String())
		} else {
			got = append(got, ".")
		}
	}
	line := strings.Join(got, " ")
	for _, want := range []string{"R5 R5 .", "Y7 Y7 .", "B9 B9 .", "K2 K2 .", "K11 K11 .", "K5 R1"} {
		if !strings.Contains(line, want) {
			t.Errorf("sorted by pairs: %s, lacks %q", line, want)
		}
	}
	hs.keys("u")
	if hs.view.m.Rack.Positions() != before {
		t.Error("u did not undo the sort")
	}
	if !strings.Contains(func() string { hs.keys("?"); return hs.screen() }(), "p pairs") {
		t.Errorf("the help lacks p:\n%s", hs.screen())
	}
}

// TestGöstermeMarkerStaysWithItsSeat: the seat at the right that showed
// the indicator's twin has its "(gösterme)" under its own line, not at the
// foot of its block right above "your discards" (issue 24 point 19).
func TestGostermeMarkerStaysWithItsSeat(t *testing.T) {
	s := fixture(t, "K4", winningRack)
	m := s.Match
	h := m.Hand()
	r0 := h.Rack(0)
	f := func(x string) engine.Face { return engine.MustParseFaces(x)[0] }
	if err := m.Apply(engine.Action{Kind: engine.ActDiscard, Seat: 0, Slot: r0[0], Faces: []engine.SlotFace{{Slot: r0[0], Face: f("R13")}}}); err != nil {
		t.Fatal(err)
	}
	r1 := m.Hand().Rack(1)
	if err := m.Apply(engine.Action{Kind: engine.ActShow, Seat: 1, Slot: r1[0], Faces: []engine.SlotFace{{Slot: r1[0], Face: f("K4")}}}); err != nil {
		t.Fatal(err)
	}
	s.Names[1] = "longername"
	hs := newHarness(t, s, Palette256)
	for _, size := range [][2]int{{100, 30}, {120, 36}} {
		hs.scr.SetSize(size[0], size[1])
		hs.view.SetRect(0, 0, size[0], size[1])
		hs.draw()
		gostermeNotAboveYourDiscards(t, hs)
	}
}

func gostermeNotAboveYourDiscards(t *testing.T, hs *harness) {
	t.Helper()
	lines := screenLines(hs.scr)
	found := false
	for i, l := range lines {
		if strings.Contains(l, "your discards") && i > 0 && strings.Contains(lines[i-1], "(gösterme)") {
			t.Errorf("(gösterme) right above your discards:\n%s", hs.screen())
		}
		found = found || strings.Contains(l, "(gösterme)")
	}
	if !found {
		t.Errorf("no (gösterme) on the screen:\n%s", hs.screen())
	}
}

// TestTurkishColourLegend: in Turkish the rack says what R/Y/B/K stand
// for (K is siyah, black), in both games; not in English (issue 24
// point 13).
func TestTurkishColourLegend(t *testing.T) {
	for _, tr := range []bool{false, true} {
		if tr {
			i18n.Set(i18n.Turkish)
			t.Cleanup(func() { i18n.Set(i18n.English) })
		}
		for _, hs := range []*harness{newHarness(t, fixture(t, "K4", winningRack), Palette256), newHarness(t, fixture101(t), Palette256)} {
			scr := hs.screen()
			if got := strings.Contains(scr, "K siyah"); got != tr {
				t.Errorf("Turkish %v: legend shown %v:\n%s", tr, got, scr)
			}
			if strings.Contains(scr, "K black") {
				t.Errorf("an English legend:\n%s", scr)
			}
		}
	}
}

// TestHeaderNotCut: the Turkish 101 header at 80x24 keeps the player's
// name whole ("adın: ays" was cut), dropping the ruleset's options first
// (issue 24 point 7, the case named).
func TestHeaderNotCut(t *testing.T) {
	i18n.Set(i18n.Turkish)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	hs := newHarness(t, fixture101(t), Palette256)
	if top := screenLines(hs.scr)[0]; !strings.Contains(top, "adın: ayse") {
		t.Errorf("the header: %q", top)
	}
}
