package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// timedFixture is fixture's hand at a table with a 30-second turn timer,
// shown on a harness whose clock only moves when the test moves it.
func timedFixture(t *testing.T, players int, rack string) (*harness, *time.Time) {
	t.Helper()
	r := engine.MustRuleset("classic", "deal=simple,timer=30")
	m, err := engine.NewMatch(r, players, players-1)
	if err != nil {
		t.Fatal(err)
	}
	ind := engine.MustParseFaces("K4")[0]
	if err := m.Apply(engine.Action{Kind: engine.ActReveal, Faces: []engine.SlotFace{{Slot: m.Hand().Pending()[0], Face: ind}}}); err != nil {
		t.Fatal(err)
	}
	faces := engine.MustParseFaces(rack)
	v := engine.NewView(0)
	for i, s := range m.Hand().Rack(0) {
		v.Learn(s, faces[i])
	}
	names := []string{"ayse", "bot1", "bot2", "bot3"}[:players]
	s := &Snapshot{Seat: 0, Names: names, Ruleset: r.String(), Match: m, View: *v, Expect: 0, Kind: table.KindMove}
	clock := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	s.At = clock
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(80, 24)
	hs := &harness{t: t, scr: scr}
	hs.view = NewTableView(func() { hs.quit = true })
	hs.view.m.Now = func() time.Time { return clock }
	hs.view.SetPalette(Palette16)
	hs.view.SetRect(0, 0, 80, 24)
	hs.view.Update(s, nil, nil)
	hs.draw()
	return hs, &clock
}

// badge returns the turn timer's text and background on the turn line.
func (hs *harness) badge() (string, tcell.Color) {
	lines := screenLines(hs.scr)
	y := turnRow(lines)
	if y < 0 {
		return "", tcell.ColorDefault
	}
	line := lines[y]
	i := strings.Index(line, " your time ")
	if i < 0 {
		i = strings.LastIndex(line, "  ")
		return strings.TrimSpace(line[i:]), tcell.ColorDefault
	}
	_, _, bg := hs.cell(i+2, y)
	return strings.TrimSpace(line[i:]), bg
}

func TestTurnTimerCountsDownAndDiscardsTheHint(t *testing.T) {
	// Not a winning rack: the hint recommends a discard.
	rack := "R13 Y7 B9 R1 Y1 B7 B10 R2 Y2 K7 B11 R5 Y3 B12 K12"
	hs, clock := timedFixture(t, 4, rack)
	// Before the table asks, the player's clock does not run.
	*clock = clock.Add(2 * time.Second)
	reply := hs.request()
	if b, bg := hs.badge(); b != "your time 30s" || bg != Palette16.Accent {
		t.Fatalf("badge %q on %v, want \"your time 30s\" on the accent colour\n%s", b, bg, hs.screen())
	}
	*clock = clock.Add(21 * time.Second)
	hs.view.Tick()
	hs.draw()
	if b, bg := hs.badge(); b != "your time 9s" || bg != Palette16.Bad {
		t.Fatalf("badge %q on %v, want \"your time 9s\" in red", b, bg)
	}
	if len(reply) != 0 {
		t.Fatal("moved before the time was up")
	}
	*clock = clock.Add(9 * time.Second)
	hs.view.Tick()
	hs.draw()
	var a engine.Action
	select {
	case a = <-reply:
	default:
		t.Fatalf("nothing sent when the time ran out; message %q", hs.view.Message())
	}
	h := hs.view.m.Snap.HandState()
	v := hs.view.m.Snap.View
	adv, err := bot.NewExpert(0).Advise(h, &v)
	if err != nil {
		t.Fatal(err)
	}
	if want := adv.Choices[0].Face; a.Kind != engine.ActDiscard || len(a.Faces) != 1 || a.Faces[0].Face != want {
		t.Fatalf("sent %+v, want the discard of the hint's %v", a, want)
	}
	if !strings.Contains(hs.view.Message(), "time is up") || !strings.Contains(hs.screen(), "time is up: the program discards") {
		t.Fatalf("the log does not say the program moved:\n%s", hs.screen())
	}
}

func TestTurnTimerDeclaresAWin(t *testing.T) {
	hs, clock := timedFixture(t, 4, winningRack)
	reply := hs.request()
	*clock = clock.Add(31 * time.Second)
	hs.view.Tick()
	select {
	case a := <-reply:
		if a.Kind != engine.ActWin {
			t.Fatalf("sent %+v, want the win the hint sees", a)
		}
	default:
		t.Fatalf("nothing sent; message %q", hs.view.Message())
	}
}

func TestTurnTimerDrawsThenDiscardsTheDrawnTile(t *testing.T) {
	rack := "R13 Y7 B9 R1 Y1 B7 B10 R2 Y2 K7 B11 R5 Y3 B12 K12"
	hs, clock := timedFixture(t, 2, rack)
	// The player discards R13 in time; the bot draws and discards.
	reply := hs.request()
	r13 := engine.MustParseFaces("R13")[0]
	for hs.view.face(hs.view.m.Rack.At(hs.view.m.Rack.Cursor)) != r13 {
		hs.key(tcell.KeyRight, 0)
	}
	hs.keys("x")
	m := hs.view.m.Snap.Match.Clone()
	for _, a := range []engine.Action{<-reply, {Kind: engine.ActDraw, Seat: 1, Slot: engine.NoSlot}} {
		if err := m.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	bot := m.Hand().Rack(1)
	k1 := engine.MustParseFaces("K1")[0]
	if err := m.Apply(engine.Action{Kind: engine.ActDiscard, Seat: 1, Slot: bot[0], Faces: []engine.SlotFace{{Slot: bot[0], Face: k1}}}); err != nil {
		t.Fatal(err)
	}
	s := *hs.view.m.Snap
	s.Match = m
	*clock = clock.Add(5 * time.Second)
	hs.view.Update(&s, nil, nil)
	// The bot's turn is timed too, in plain text.
	reply = hs.request()
	hs.draw()
	if b, _ := hs.badge(); b != "your time 30s" {
		t.Fatalf("a new turn did not restart the timer: %q\n%s", b, hs.screen())
	}
	*clock = clock.Add(30 * time.Second)
	hs.view.Tick()
	var a engine.Action
	select {
	case a = <-reply:
	default:
		t.Fatalf("nothing sent; message %q", hs.view.Message())
	}
	if a.Kind != engine.ActDraw {
		t.Fatalf("sent %+v, want a draw", a)
	}
	// The table opens the drawn tile (Y13) and asks again: the time is
	// still up, so the program discards at once.
	if err := m.Apply(a); err != nil {
		t.Fatal(err)
	}
	v := s.View
	slots := m.Hand().Rack(0)
	drawn := slots[len(slots)-1]
	y13 := engine.MustParseFaces("Y13")[0]
	v.Learn(drawn, y13)
	s2 := s
	s2.Match, s2.View = m, v
	hs.view.Update(&s2, nil, nil)
	hs.draw()
	if !strings.Contains(hs.screen(), "new!") {
		t.Errorf("the drawn tile is not marked new:\n%s", hs.screen())
	}
	reply = hs.request()
	select {
	case a = <-reply:
	default:
		t.Fatalf("no discard after the automatic draw; message %q", hs.view.Message())
	}
	if a.Kind != engine.ActDiscard || a.Seat != 0 {
		t.Fatalf("sent %+v, want a discard", a)
	}
}

func TestOtherPlayersTimer(t *testing.T) {
	hs, clock := timedFixture(t, 4, winningRack)
	s := *hs.view.m.Snap
	s.Seat = 1 // the view of a player who waits for ayse
	s.Names = []string{"ayse", "you", "bot2", "bot3"}
	hs.view.Update(&s, nil, nil)
	*clock = clock.Add(12 * time.Second)
	hs.draw()
	lines := screenLines(hs.scr)
	if line := lines[max(turnRow(lines), 0)]; !strings.Contains(line, "18s left") || strings.Contains(line, "your time") {
		t.Fatalf("turn line %q, want ayse's 18s left", line)
	}
}

func TestHelpExplainsTheTimer(t *testing.T) {
	hs, _ := timedFixture(t, 4, winningRack)
	hs.keys("?")
	if s := hs.screen(); !strings.Contains(s, "30 s a turn") {
		t.Fatalf("the help does not explain the timer:\n%s", s)
	}
}

// resize draws the view on a screen of w x h cells.
func (hs *harness) resize(w, h int) {
	hs.scr.SetSize(w, h)
	hs.view.SetRect(0, 0, w, h)
	hs.draw()
}

func TestTooSmallShowsTheTimerAndMovesForThePlayer(t *testing.T) {
	rack := "R13 Y7 B9 R1 Y1 B7 B10 R2 Y2 K7 B11 R5 Y3 B12 K12"
	hs, clock := timedFixture(t, 4, rack)
	hs.view.Update(hs.view.m.Snap, []Line{{txt("bot3 discards "), tile(engine.MustParseFaces("K5")[0])}}, nil)
	reply := hs.request()
	hs.resize(60, 16)
	*clock = clock.Add(12 * time.Second)
	hs.draw()
	scr := hs.screen()
	for _, want := range []string{"okey needs 80x24, this terminal is 60x16", "your turn: discard a tile (x)",
		"your time: 18s", "moves for you", "bot3 discards K5"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the too-small screen lacks %q:\n%s", want, scr)
		}
	}
	// The table goes on: when the time runs out the program discards.
	*clock = clock.Add(18 * time.Second)
	hs.view.Tick()
	select {
	case a := <-reply:
		if a.Kind != engine.ActDiscard {
			t.Fatalf("sent %+v, want a discard", a)
		}
	default:
		t.Fatal("nothing sent when the time ran out on a too-small screen")
	}
	// Another seat's turn: its countdown, and what happens at the player's.
	s := *hs.view.m.Snap
	s.Seat = 1
	s.Names = []string{"ayse", "you", "bot2", "bot3"}
	hs.view.Update(&s, nil, nil)
	hs.draw()
	if scr := hs.screen(); !strings.Contains(scr, "ayse has 0s left") || !strings.Contains(scr, "ayse to play") {
		t.Fatalf("the too-small screen does not show the other seat's turn and timer:\n%s", scr)
	}
}

// turnRow is the row of the turn line (whose move it is), or -1.
func turnRow(lines []string) int {
	for y, l := range lines {
		if strings.Contains(l, "your turn") || strings.Contains(l, " to play") {
			return y
		}
	}
	return -1
}
