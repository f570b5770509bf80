package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel/modeltest"
)

// fixture builds a snapshot of a classic hand (simple deal) where seat 0
// plays first and holds rack (15 tiles), the face-up tile is ind, and the
// other seats hold what the deck has left.
func fixture(t *testing.T, ind string, rack string) *Snapshot {
	t.Helper()
	m, v, r := modeltest.Classic(t, ind, rack)
	return &Snapshot{Seat: 0, Names: []string{"ayse", "bot1", "bot2", "bot3"}, Ruleset: r.String(), Match: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}
}

// winning: R1 R2 R3 | Y7 B7 K7 | B9 B10 B11 B12 | Y1 Y2 Y3 Y4, plus R13.
const winningRack = modeltest.WinningRack

type harness struct {
	t    *testing.T
	scr  tcell.SimulationScreen
	view *TableView
	quit bool
}

func newHarness(t *testing.T, s *Snapshot, p Palette) *harness {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(80, 24)
	hs := &harness{t: t, scr: scr}
	hs.view = NewTableView(func() { hs.quit = true })
	hs.view.SetPalette(p)
	hs.view.SetRect(0, 0, 80, 24)
	hs.view.Update(s, nil, nil)
	hs.draw()
	return hs
}

func (hs *harness) draw() {
	hs.scr.Clear()
	hs.view.Draw(hs.scr)
	hs.scr.Show()
}

func (hs *harness) key(k tcell.Key, r rune) {
	hs.view.Key(tcell.NewEventKey(k, r, tcell.ModNone))
	hs.draw()
}

func (hs *harness) keys(s string) {
	for _, r := range s {
		hs.key(tcell.KeyRune, r)
	}
}

// request asks the view for a move and returns the reply channel.
func (hs *harness) request() chan engine.Action {
	r := &moveReq{Reply: make(chan engine.Action, 1)}
	hs.view.Request(r)
	hs.draw()
	return r.Reply
}

func screenLines(scr tcell.SimulationScreen) []string {
	cells, w, h := scr.GetContents()
	out := make([]string, h)
	for y := 0; y < h; y++ {
		var b strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				b.WriteByte(' ')
			} else {
				b.WriteString(string(c.Runes))
			}
		}
		out[y] = b.String()
	}
	return out
}

func (hs *harness) screen() string { return strings.Join(screenLines(hs.scr), "\n") }

func (hs *harness) cell(x, y int) (string, tcell.Color, tcell.Color) {
	cells, w, _ := hs.scr.GetContents()
	c := cells[y*w+x]
	fg, bg, _ := c.Style.Decompose()
	return string(c.Runes), fg, bg
}

// tileAt returns the text and colours of the tile at rack position p.
func (hs *harness) tileAt(p int) (top, bottom string, fg, bg tcell.Color) {
	x := (80-rackW)/2 + 1 + (p%RackCols)*(TileWidth+1)
	y := 24 - 2 - rackH + 1 + (p/RackCols)*(TileHeight+1)
	var tb, bb strings.Builder
	for i := 0; i < TileWidth; i++ {
		s, _, _ := hs.cell(x+i, y)
		tb.WriteString(s)
		s, _, _ = hs.cell(x+i, y+1)
		bb.WriteString(s)
	}
	_, fg, bg = hs.cell(x+1, y)
	return tb.String(), bb.String(), fg, bg
}

// rackFaces returns the faces at each rack position (NoFace for gaps).
func (hs *harness) rackFaces() []engine.Face {
	var out []engine.Face
	for p := 0; p < RackSize; p++ {
		s := hs.view.m.Rack.At(p)
		if s == engine.NoSlot {
			out = append(out, engine.NoFace)
			continue
		}
		out = append(out, hs.view.face(s))
	}
	return out
}

// blocks returns the runs of tiles between gaps, row by row.
func blocks(fs []engine.Face) [][]engine.Face {
	var out [][]engine.Face
	var cur []engine.Face
	for p, f := range fs {
		if p%RackCols == 0 && len(cur) > 0 {
			out, cur = append(out, cur), nil
		}
		if f == engine.NoFace {
			if len(cur) > 0 {
				out, cur = append(out, cur), nil
			}
			continue
		}
		cur = append(cur, f)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func TestRackShowsTilesInColours(t *testing.T) {
	for _, tc := range []struct {
		name string
		pal  Palette
	}{{"256", Palette256}, {"16", Palette16}} {
		t.Run(tc.name, func(t *testing.T) {
			// K4 face-up: K5 is the okey; the false joker plays as K5.
			hs := newHarness(t, fixture(t, "K4", "R13 Y7 B9 R1 Y1 B7 B10 R2 Y2 K7 FJ K5 Y3 B12 Y4"), tc.pal)
			hs.request()
			// Laid out in face order: R1 R2 R13 Y1 Y2 Y3 Y4 Y7 B7 B9 B10 B12 K5 K7 FJ.
			want := []struct {
				top, bottom string
				colour      engine.Colour
			}{
				{" 1  ", "  R ", engine.Red}, {" 2  ", "  R ", engine.Red}, {" 13 ", "  R ", engine.Red},
				{" 1  ", "  Y ", engine.Yellow}, {" 2  ", "  Y ", engine.Yellow}, {" 3  ", "  Y ", engine.Yellow},
				{" 4  ", "  Y ", engine.Yellow}, {" 7  ", "  Y ", engine.Yellow}, {" 7  ", "  B ", engine.Blue},
				{" 9  ", "  B ", engine.Blue}, {" 10 ", "  B ", engine.Blue}, {" 12 ", "  B ", engine.Blue},
				{" 5  ", "OKEY", engine.Black}, {" 7  ", "  K ", engine.Black},
			}
			for p, w := range want {
				top, bottom, fg, bg := hs.tileAt(p)
				if top != w.top || bottom != w.bottom {
					t.Errorf("position %d: tile %q/%q, want %q/%q\n%s", p, top, bottom, w.top, w.bottom, hs.screen())
				}
				if fg != tc.pal.Number[w.colour] || bg != tc.pal.Face {
					t.Errorf("position %d: colours %v on %v, want %v on %v", p, fg, bg, tc.pal.Number[w.colour], tc.pal.Face)
				}
			}
			top, bottom, fg, _ := hs.tileAt(14)
			if top != " FJ " || bottom != "=K5 " || fg != tc.pal.Joker {
				t.Errorf("false joker drawn as %q/%q in %v", top, bottom, fg)
			}
			if top, _, _, _ := hs.tileAt(15); top != " .  " {
				t.Errorf("the second row should be empty, position 15 shows %q", top)
			}
			scr := hs.screen()
			for _, s := range []string{"face-up", "okey", "stock", "your turn: discard a tile (x)", "bot3", "15 tiles", "20 pts"} {
				if !strings.Contains(scr, s) {
					t.Errorf("screen lacks %q:\n%s", s, scr)
				}
			}
		})
	}
}

func TestKeysMoveTilesAndUndo(t *testing.T) {
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
	before := hs.rackFaces()
	// Pick up the first tile (R1) and put it on position 3 (R13): the row
	// is full but for the gap R1 leaves, so R2 R3 R13 move left into it.
	hs.key(tcell.KeyRune, ' ')
	if hs.view.m.Rack.Lifted != 0 {
		t.Fatalf("space did not pick up the tile under the cursor")
	}
	hs.key(tcell.KeyRight, 0)
	hs.key(tcell.KeyRight, 0)
	hs.key(tcell.KeyRight, 0)
	if !strings.Contains(hs.screen(), "^to^") {
		t.Errorf("the destination is not marked:\n%s", hs.screen())
	}
	hs.key(tcell.KeyEnter, 0)
	after := hs.rackFaces()
	if after[3] != before[0] || after[0] != before[1] || after[2] != before[3] || after[4] != before[4] {
		t.Fatalf("after the move: %v (before %v)", after[:16], before[:16])
	}
	// Move it down to the second row, into a gap.
	hs.keys(" ")
	hs.key(tcell.KeyDown, 0)
	hs.keys(" ")
	if f := hs.rackFaces(); f[RackCols+3] != before[0] || f[3] != engine.NoFace || f[2] != before[3] {
		t.Fatalf("down a row: %v", f)
	}
	hs.keys("u")
	hs.keys("u")
	if got := hs.rackFaces(); !equalFaces(got, before) {
		t.Fatalf("two undos: %v, want %v", got, before)
	}
	hs.keys("u")
	if !strings.Contains(hs.view.Message(), "nothing to undo") {
		t.Errorf("a third undo says %q", hs.view.Message())
	}
}

func equalFaces(a, b []engine.Face) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDiscardByKey(t *testing.T) {
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
	reply := hs.request()
	// R13 stands fourth in face order: R1 R2 R3 R13.
	hs.key(tcell.KeyRight, 0)
	hs.key(tcell.KeyRight, 0)
	hs.key(tcell.KeyRight, 0)
	hs.keys("x")
	select {
	case a := <-reply:
		r13, _ := engine.ParseFace("R13")
		if a.Kind != engine.ActDiscard || len(a.Faces) != 1 || a.Faces[0].Face != r13 || a.Slot != a.Faces[0].Slot {
			t.Fatalf("sent %+v, want the discard of R13", a)
		}
	default:
		t.Fatalf("nothing sent; message %q", hs.view.Message())
	}
	// The request is answered: a second key sends nothing.
	hs.keys("x")
	if !hs.view.m.MsgBad {
		t.Errorf("a discard with no request pending was not refused: %q", hs.view.Message())
	}
}

func TestDoubleClickDiscards(t *testing.T) {
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
	reply := hs.request()
	x := (80-rackW)/2 + 1 + 3*(TileWidth+1) + 1
	y := 24 - 2 - rackH + 1
	hs.view.Click(x, y, false)
	hs.view.Click(x, y, true)
	select {
	case a := <-reply:
		if a.Kind != engine.ActDiscard || a.Faces[0].Face.String() != "R13" {
			t.Fatalf("sent %+v", a)
		}
	default:
		t.Fatalf("a double click sent nothing: %q", hs.view.Message())
	}
}

func TestWinAndHint(t *testing.T) {
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
	reply := hs.request()
	hs.keys("h")
	if msg := hs.view.Message(); !strings.Contains(msg, "you can win") || !strings.Contains(msg, "R13") {
		t.Fatalf("hint says %q", msg)
	}
	if !strings.Contains(hs.screen(), "^^^^") || hs.view.m.Rack.Cursor != 3 {
		t.Fatalf("the hint did not put the cursor on R13 (cursor %d)", hs.view.m.Rack.Cursor)
	}
	// Finishing with R1 is no win: refused, nothing sent.
	hs.key(tcell.KeyHome, 0)
	hs.keys("w")
	if !hs.view.m.MsgBad || !strings.Contains(hs.view.Message(), "no win") {
		t.Fatalf("a false win was not refused: %q", hs.view.Message())
	}
	if len(reply) != 0 {
		t.Fatal("a false win was sent")
	}
	hs.keys("h")
	hs.keys("w")
	select {
	case a := <-reply:
		if a.Kind != engine.ActWin || len(a.Faces) != 15 || a.Slot == engine.NoSlot {
			t.Fatalf("sent %+v", a)
		}
	default:
		t.Fatalf("the win was not sent: %q", hs.view.Message())
	}
}

func TestSortButtons(t *testing.T) {
	// Y7 B7 K7 and R7 R8 R9 compete for R7... keep it simple: a rack with
	// both a set and runs, and loose tiles.
	hs := newHarness(t, fixture(t, "K4", "Y7 B7 K7 R1 R2 R3 Y10 Y11 Y12 K1 B13 R9 Y2 B4 K11"), Palette256)
	isSet := func(g []engine.Face) bool {
		if len(g) < 3 {
			return false
		}
		for _, f := range g {
			if f.Number() != g[0].Number() {
				return false
			}
		}
		return true
	}
	isRun := func(g []engine.Face) bool {
		if len(g) < 3 {
			return false
		}
		for i, f := range g {
			if f.Colour() != g[0].Colour() || (i > 0 && f.Number() != g[i-1].Number()+1) {
				return false
			}
		}
		return true
	}
	hs.keys("s")
	bs := blocks(hs.rackFaces())
	if len(bs) < 4 || !isSet(bs[0]) || !isRun(bs[1]) || !isRun(bs[2]) {
		t.Fatalf("sort sets: %v", bs)
	}
	hs.keys("r")
	bs = blocks(hs.rackFaces())
	if len(bs) < 4 || !isRun(bs[0]) || !isRun(bs[1]) || !isSet(bs[2]) {
		t.Fatalf("sort runs: %v", bs)
	}
	// The buttons on the rack do the same: click "sort sets".
	lines := screenLines(hs.scr)
	y := 24 - 2 - rackH
	x := strings.Index(lines[y], "s sort sets")
	if x < 0 {
		t.Fatalf("no sort sets button:\n%s", hs.screen())
	}
	hs.view.Click(x+2, y, false)
	hs.draw()
	if bs = blocks(hs.rackFaces()); !isSet(bs[0]) {
		t.Fatalf("click on sort sets: %v", bs)
	}
	if !strings.Contains(hs.view.Message(), "sorted by sets") {
		t.Errorf("message %q", hs.view.Message())
	}
}

func TestIllegalActionsRefused(t *testing.T) {
	s := fixture(t, "K4", winningRack)
	hs := newHarness(t, s, Palette256)
	reply := hs.request()
	for _, tc := range []struct {
		keys string
		want string
	}{
		{"d", "you have drawn already"}, // the first player starts by discarding
		{"t", "you have drawn already"},
		{"g", "gösterme needs a tile like the face-up K4"},
		{"z", "does nothing here"},
	} {
		hs.keys(tc.keys)
		if !hs.view.m.MsgBad || !strings.Contains(hs.view.Message(), tc.want) {
			t.Errorf("%q: message %q, want %q", tc.keys, hs.view.Message(), tc.want)
		}
		if len(reply) != 0 {
			t.Fatalf("%q: an illegal action was sent: %+v", tc.keys, <-reply)
		}
	}
	// Not the player's turn: seat 1 plays.
	r0 := hs.rackFaces()
	a := engine.Action{Kind: engine.ActDiscard, Seat: 0, Slot: hs.view.m.Rack.At(2),
		Faces: []engine.SlotFace{{Slot: hs.view.m.Rack.At(2), Face: r0[2]}}}
	next := &Snapshot{}
	*next = *s
	next.Match = s.Match.Clone()
	if err := next.Match.Apply(a); err != nil {
		t.Fatal(err)
	}
	next.Expect = 1
	hs.view.Cancel()
	hs.view.Update(next, nil, nil)
	hs.draw()
	for _, k := range "dtxwg" {
		hs.keys(string(k))
		if !hs.view.m.MsgBad || !strings.Contains(hs.view.Message(), "not your turn") {
			t.Errorf("%q out of turn: message %q", k, hs.view.Message())
		}
	}
	if !strings.Contains(hs.screen(), "bot1 to play") {
		t.Errorf("the turn line does not say who plays:\n%s", hs.screen())
	}
	// The discarded tile left the rack, and a gap took its place.
	if got := hs.rackFaces(); got[2] != engine.NoFace {
		t.Errorf("the discarded R13 is still on the rack: %v", got)
	}
}

func TestHelpAndQuit(t *testing.T) {
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
	hs.keys("?")
	scr := hs.screen()
	for _, b := range classicBindings {
		if !strings.Contains(scr, b.help[:min(len(b.help), 30)]) {
			t.Errorf("help lacks %q:\n%s", b.help, scr)
		}
	}
	hs.keys(" ")
	hs.keys("q")
	if hs.quit || !strings.Contains(hs.screen(), "leave the table?") {
		t.Fatalf("q during a match did not ask:\n%s", hs.screen())
	}
	hs.keys("n")
	if hs.quit {
		t.Fatal("n left the table")
	}
	hs.key(tcell.KeyCtrlC, 0)
	hs.keys("y")
	if !hs.quit {
		t.Fatal("y did not leave")
	}
}

func TestSmallTerminal(t *testing.T) {
	hs := newHarness(t, fixture(t, "K4", winningRack), Palette256)
	hs.scr.SetSize(60, 20)
	hs.view.SetRect(0, 0, 60, 20)
	hs.draw()
	if !strings.Contains(hs.screen(), "okey needs 80x24") {
		t.Fatalf("a small terminal is not explained:\n%s", hs.screen())
	}
	hs.scr.SetSize(120, 40)
	hs.view.SetRect(0, 0, 120, 40)
	hs.draw()
	if !strings.Contains(hs.screen(), "your rack") {
		t.Fatalf("no rack at 120x40:\n%s", hs.screen())
	}
}

func TestEventsLog(t *testing.T) {
	s := fixture(t, "K4", winningRack)
	next := *s
	next.Match = s.Match.Clone()
	slot := s.Match.Hand().Rack(0)[0] // R13
	r13, _ := engine.ParseFace("R13")
	if err := next.Match.Apply(engine.Action{Kind: engine.ActDiscard, Seat: 0, Slot: slot,
		Faces: []engine.SlotFace{{Slot: slot, Face: r13}}}); err != nil {
		t.Fatal(err)
	}
	lines, end := Events(s, &next)
	if len(lines) != 1 || lines[0].String() != "you discard R13" || end != nil {
		t.Fatalf("events %v %v", lines, end)
	}
	third := next
	third.Match = next.Match.Clone()
	if err := third.Match.Apply(engine.Action{Kind: engine.ActTake, Seat: 1}); err != nil {
		t.Fatal(err)
	}
	lines, _ = Events(&next, &third)
	if len(lines) != 1 || lines[0].String() != "bot1 takes R13" {
		t.Fatalf("events %v", lines)
	}
}

// TestWording: counts agree with their number, the help explains the "+N"
// before a pile, and no text has double spaces inside it (issue 15,
// point 13).
func TestWording(t *testing.T) {
	s := fixture(t, "K4", winningRack)
	next := *s
	next.Match = s.Match.Clone()
	slot := s.Match.Hand().Rack(0)[0]
	r13, _ := engine.ParseFace("R13")
	if err := next.Match.Apply(engine.Action{Kind: engine.ActDiscard, Seat: 0, Slot: slot,
		Faces: []engine.SlotFace{{Slot: slot, Face: r13}}}); err != nil {
		t.Fatal(err)
	}
	hs := newHarness(t, &next, Palette256)
	scr := hs.screen()
	if n := next.Match.Hand().Turns(); n != 1 {
		t.Fatalf("the fixture has %d turns after one discard, want 1", n)
	}
	if !strings.Contains(scr, "1 turn") || strings.Contains(scr, "1 turns") {
		t.Errorf("one turn reads wrong:\n%s", scr)
	}
	hs.keys("?")
	if scr := hs.screen(); !strings.Contains(scr, "+3 before a pile") || !strings.Contains(scr, "higher is better") ||
		!strings.Contains(scr, "okey help rules classic") {
		t.Errorf("the help does not explain +N on a pile, the scoring, where the rules are:\n%s", scr)
	}
	if got := i18n.T("%d turns", 1) + "/" + i18n.T("%d turns", 2) + "/" + i18n.T("%d hands", 0); got != "1 turn/2 turns/0 hands" {
		t.Errorf("plural: %q", got)
	}
}

// TestTeamsAndScoring: in german with four players the partners are shown on
// the table, in the hand's score table and in the ranking, with how the
// preset scores; a preset without teams shows none (issue 15, point 3).
func TestTeamsAndScoring(t *testing.T) {
	for _, tc := range []struct {
		rules   engine.Ruleset
		players int
		teams   bool
		scoring string
	}{
		{engine.MustRuleset("german", ""), 4, true, "lower is better"},
		{engine.MustRuleset("german", "no-partnerships"), 4, false, "lower is better"},
		{engine.MustRuleset("german", ""), 3, false, "lower is better"},
		{engine.MustRuleset("classic", ""), 4, false, "higher is better"},
		{engine.MustRuleset("turkish-rummy", ""), 2, false, "lower is better"},
	} {
		m, err := engine.NewMatch(tc.rules, tc.players, 1)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"ayse", "bot1", "bot2", "bot3"}[:tc.players]
		s := &Snapshot{Seat: 0, Names: names, Ruleset: tc.rules.String(), Match: m, View: *engine.NewView(0), Expect: -1, At: time.Now()}
		hs := newHarness(t, s, Palette256)
		scr := hs.screen()
		if got := strings.Contains(scr, "team A") && strings.Contains(scr, "team B"); got != tc.teams {
			t.Errorf("%s, %d players: teams on the table %v, want %v:\n%s", tc.rules, tc.players, got, tc.teams, scr)
		}
		zero := make([]int, tc.players)
		hs.view.Update(s, nil, []*HandEnd{{Hand: 0, Result: engine.HandResult{Winner: -1}, Names: names, Deltas: zero, Scores: zero}})
		hs.draw()
		scr = hs.screen()
		if !strings.Contains(scr, "hand 1 is over") || !strings.Contains(scr, tc.scoring) {
			t.Errorf("%s: the score table lacks %q:\n%s", tc.rules, tc.scoring, scr)
		}
		if got := strings.Contains(scr, "A: ayse and bot2, B: bot1 and bot3; partners share a score"); got != tc.teams {
			t.Errorf("%s, %d players: who plays with whom shown %v, want %v:\n%s", tc.rules, tc.players, got, tc.teams, scr)
		}
		var ranking []engine.Standing
		for seat := range names {
			ranking = append(ranking, engine.Standing{Seat: seat, Place: seat + 1})
		}
		hs.view.Finish(&MatchEnd{Ranking: ranking, Verified: true, Verdict: "verified: honest"})
		hs.view.m.Ends = nil
		hs.view.overlay = matchOverlay
		hs.draw()
		scr = hs.screen()
		if got := strings.Contains(scr, "1. ayse") && strings.Contains(scr, "team A"); got != tc.teams {
			t.Errorf("%s, %d players: teams in the ranking %v, want %v:\n%s", tc.rules, tc.players, got, tc.teams, scr)
		}
		if !strings.Contains(scr, tc.scoring) {
			t.Errorf("%s: the ranking lacks %q:\n%s", tc.rules, tc.scoring, scr)
		}
	}
}

// TestScoreCauses: the hand's score table says why each score changed, and
// the parts add up to the change (issue 15, point 4).
func TestScoreCauses(t *testing.T) {
	for _, tc := range []struct {
		rules engine.Ruleset
		res   engine.HandResult
		want  []string // per seat, "" for no change
	}{
		{engine.MustRuleset("classic", ""), engine.HandResult{Winner: 1, Kind: engine.Groups, OkeyDiscard: true, OneColour: engine.NumColours, Shown: []int{2}, Upcard: -1},
			[]string{"bot1 won (okey discard) -4, gösterme by bot2 -1", "gösterme by bot2 -1", "bot1 won (okey discard) -4", "bot1 won (okey discard) -4, gösterme by bot2 -1"}},
		{engine.MustRuleset("turkish-rummy", ""), engine.HandResult{Winner: -1, OneColour: engine.NumColours, Upcard: -1},
			[]string{"stalemate +10", "stalemate +10", "stalemate +10", "stalemate +10"}},
		{engine.MustRuleset("turkish-rummy", ""), engine.HandResult{Winner: 0, Kind: engine.Groups, OneColour: engine.NumColours, Upcard: 2},
			[]string{"upcard held by bot2 +10", "ayse won +20, upcard held by bot2 +10", "ayse won +20", "ayse won +20, upcard held by bot2 +10"}},
		{engine.MustRuleset("german", ""), engine.HandResult{Winner: 0, Kind: engine.Pairs, OneColour: engine.NumColours, Upcard: -1},
			[]string{"won (seven pairs) -4", "", "partner won (seven pairs) -4", ""}},
		{engine.MustRuleset("classic", "one-colour=any"), engine.HandResult{Winner: 3, Kind: engine.Groups, OneColour: engine.Red, Upcard: -1},
			[]string{"bot3 won (one colour) -4", "bot3 won (one colour) -4", "bot3 won (one colour) -4", ""}},
	} {
		m, err := engine.NewMatch(tc.rules, 4, 1)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"ayse", "bot1", "bot2", "bot3"}
		got := causes(m, tc.res, names)
		deltas := m.Deltas(tc.res)
		for seat := range names {
			if got[seat] != tc.want[seat] {
				t.Errorf("%s %+v seat %d: %q, want %q", tc.rules, tc.res, seat, got[seat], tc.want[seat])
			}
			// The parts add up to the change.
			sum := 0
			for _, part := range strings.Split(got[seat], ", ") {
				if f := strings.Fields(part); len(f) > 0 {
					var n int
					fmt.Sscanf(f[len(f)-1], "%d", &n)
					sum += n
				}
			}
			if sum != deltas[seat] {
				t.Errorf("%s %+v seat %d: parts %q add to %d, the change is %d", tc.rules, tc.res, seat, got[seat], sum, deltas[seat])
			}
		}
		s := &Snapshot{Seat: 0, Names: names, Ruleset: tc.rules.String(), Match: m, View: *engine.NewView(0), Expect: -1, At: time.Now()}
		hs := newHarness(t, s, Palette256)
		hs.view.Update(s, nil, []*HandEnd{{Hand: 0, Result: tc.res, Names: names, Deltas: deltas, Scores: m.Scores()}})
		hs.draw()
		if scr := hs.screen(); !strings.Contains(scr, "why") || !strings.Contains(scr, tc.want[2]) {
			t.Errorf("%s: the score table lacks %q:\n%s", tc.rules, tc.want[2], scr)
		}
	}
}

// TestPrizeInRanking: turkish-rummy's prize rule (the winner takes at least
// 75% of the pool, the others under the limit share the rest) is marked in
// the final ranking and explained in one line; classic has no prize.
func TestPrizeInRanking(t *testing.T) {
	for _, tc := range []struct {
		rules engine.Ruleset
		want  bool
	}{
		{engine.MustRuleset("turkish-rummy", "rounds=1"), true},
		{engine.MustRuleset("classic", ""), false},
	} {
		m, err := engine.NewMatch(tc.rules, 3, 1)
		if err != nil {
			t.Fatal(err)
		}
		names := []string{"ayse", "bot1", "bot2"}
		s := &Snapshot{Seat: 0, Names: names, Ruleset: tc.rules.String(), Match: m, View: *engine.NewView(0), Expect: -1, At: time.Now()}
		hs := newHarness(t, s, Palette256)
		ranking := []engine.Standing{
			{Seat: 1, Place: 1, Score: 0, Prize: tc.want},
			{Seat: 0, Place: 2, Score: 20, Prize: tc.want},
			{Seat: 2, Place: 3, Score: 60},
		}
		hs.view.Finish(&MatchEnd{Ranking: ranking, Verified: true, Verdict: "verified: honest"})
		hs.view.overlay = matchOverlay
		hs.draw()
		scr := hs.screen()
		lines := strings.Split(scr, "\n")
		prized := 0
		for _, l := range lines {
			if strings.Contains(l, "prize") && (strings.Contains(l, "1. bot1") || strings.Contains(l, "2. ayse")) {
				prized++
			}
			if strings.Contains(l, "3. bot2") && strings.Contains(l, "prize") {
				t.Errorf("%s: a seat over the limit is marked:\n%s", tc.rules, scr)
			}
		}
		explained := strings.Contains(scr, "the prize: the winner takes at least 75% of the pool") && strings.Contains(scr, "the others under 40") && strings.Contains(scr, "points share the rest")
		if (prized == 2) != tc.want || explained != tc.want {
			t.Errorf("%s: %d seats marked, explained %v; want prize %v:\n%s", tc.rules, prized, explained, tc.want, scr)
		}
	}
}
