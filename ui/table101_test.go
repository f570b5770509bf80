package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
	shared101 "github.com/okey-game/okey/ui/tablemodel/rig101"
)

// The player's rack in the 101 fixtures (rig101, shared with the web
// page's tests): an opening of 112 points in three melds (R10-R13, the
// 10s, K11-K13), R9 to add later, and ten loose tiles. The indicator is
// B1: the okey is B2.
const (
	opening101 = shared101.Opening
	rack101    = shared101.Rack
)

// fixture101 builds a 2-player 101 round where bot1 (seat 1) deals and
// has discarded Y6; the player (seat 0) holds rack101 and is to draw.
func fixture101(t *testing.T, options ...string) *Snapshot {
	t.Helper()
	return fixture101N(t, 2, strings.Join(append([]string{"rounds=3"}, options...), ","))
}

// fixture101N builds an n-player 101 round with the options text where the
// last seat deals and has discarded Y6; the player (seat 0) holds rack101
// and is to draw (shared101.Fixture).
func fixture101N(t *testing.T, n int, options string) *Snapshot {
	t.Helper()
	s, err := shared101.Fixture(n, options)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// request101 asks the view for a 101 move and returns the reply channel.
func (hs *harness) request101() chan engine.Action101 {
	r := &moveReq101{Reply: make(chan engine.Action101, 1)}
	hs.view.Request(r)
	hs.draw()
	return r.Reply
}

// selectFaces selects the rack's tiles of the faces given (by cursor and
// space, as a player does).
func (hs *harness) selectFaces(faces string) {
	hs.t.Helper()
	for _, f := range engine.MustParseFaces(faces) {
		p := -1
		for q := 0; q < RackSize && p < 0; q++ {
			if sl := hs.view.m.Rack.At(q); sl != engine.NoSlot && hs.view.face(sl) == f && !hs.view.m.Sel[sl] {
				p = q
			}
		}
		if p < 0 {
			hs.t.Fatalf("no %v on the rack", f)
		}
		hs.view.m.Rack.Cursor = p
		hs.key(tcell.KeyRune, ' ')
	}
}

// apply applies a to the fixture's match and shows the new state; a draw
// of the player's brings it the face "Y7".
func (hs *harness) apply(s *Snapshot, a engine.Action101) {
	hs.t.Helper()
	prev, err := shared101.Apply(s, a, "Y7")
	if err != nil {
		hs.t.Fatal(err)
	}
	lines, end := Events(prev, s)
	var ends []*HandEnd
	if end != nil {
		ends = append(ends, end)
	}
	hs.view.Update(s, lines, ends)
	hs.draw()
}

// p101 is the view's 101 part.
func (hs *harness) p101() *part101 { return hs.view.part.(*part101) }

// roundEnd101 is the end of fixture101's round: bot1 finished with the
// okey; ayse had not opened and discarded a tile that fit a meld.
func roundEnd101() *HandEnd {
	res := engine.Result101{End: engine.EndFinish, Finisher: 1, JokerFinish: true,
		Points: []int{404 + 101, -202}, HandPoints: []int{404, -202},
		Penalties: []engine.Penalty101{{Seat: 0, Kind: engine.PenaltyAddable, Slot: 3, Points: 101}}}
	return &HandEnd{Hand: 0, Names: []string{"ayse", "bot1"}, Scores: []int{505, -202}, Okey: engine.MustParseFaces("B2")[0],
		R101: &End101{Result: res, Opened: []engine.Opened{engine.NotOpened, engine.OpenedSets},
			Racks: [][]engine.Face{engine.MustParseFaces("R1 Y5 B2"), nil}, Results: []engine.Result101{res}, Played: 1, Rounds: 3}}
}

func noReply(t *testing.T, reply chan engine.Action101) {
	t.Helper()
	select {
	case a := <-reply:
		t.Fatalf("a move was sent: %+v", a)
	default:
	}
}

// TestTable101ScreenAndOpening: the 101 table shows the bank, the
// indicator and the okey, the seats and how they stand; the selection's
// value shows live (toward 101, and why a selection is no meld); the
// opening of three melds is laid in one move by l.
func TestTable101ScreenAndOpening(t *testing.T) {
	s := fixture101(t)
	hs := newHarness(t, s, Palette256)
	scr := hs.screen()
	for _, want := range []string{"bank 62", "indicator B1", "okey B2", "bot1 (dealer)", "21 tiles", "not opened", "you · 21 tiles · not opened",
		"no melds on the table yet", "round 1 (0 of 3 counted)", "previous discard Y6", "your turn: draw (d) or take (t)"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the screen lacks %q:\n%s", want, scr)
		}
	}
	reply := hs.request101()
	hs.keys("d")
	hs.apply(s, <-reply)
	reply = hs.request101()
	hs.selectFaces("R10 R11 R12")
	if got := hs.screen(); !strings.Contains(got, "selected: 1 meld, 33 points · 33 of 101 points to open") {
		t.Errorf("the selection's value is not shown:\n%s", got)
	}
	hs.selectFaces("Y3")
	if msg := hs.view.Message(); !strings.Contains(msg, "not in any meld: Y3") {
		t.Errorf("an invalid selection: %q", msg)
	}
	// l with a selection that is no opening: refused, nothing sent.
	hs.keys("l")
	if !hs.view.m.MsgBad {
		t.Errorf("a bad lay was not refused: %q", hs.view.Message())
	}
	noReply(t, reply)
	hs.keys("c")
	hs.selectFaces(opening101)
	if msg := hs.view.Message(); !strings.Contains(msg, "3 melds, 112 points · that opens") {
		t.Errorf("the opening's value: %q", msg)
	}
	hs.keys("l")
	var a engine.Action101
	select {
	case a = <-reply:
	default:
		t.Fatalf("the opening was not sent: %q", hs.view.Message())
	}
	if a.Kind != engine.Act101Lay || len(a.Melds) != 3 || a.Seat != 0 {
		t.Fatalf("the opening sent: %+v", a)
	}
	hs.apply(s, a)
	scr = hs.screen()
	for _, want := range []string{"1 you", "2 you", "3 you", "you · 12 tiles · opened", "you open with 112 points"} {
		if !strings.Contains(scr, want) {
			t.Errorf("after the opening the screen lacks %q:\n%s", want, scr)
		}
	}
}

// TestTable101BadMovesChangeNothing: moves the rules refuse get a clear
// message, send nothing and leave the rack and the selection as they were.
func TestTable101BadMovesChangeNothing(t *testing.T) {
	s := fixture101(t)
	hs := newHarness(t, s, Palette256)
	reply := hs.request101()
	hs.selectFaces("R9")
	before := hs.view.m.Rack.Positions()
	for _, c := range []struct {
		key  rune
		want string
	}{
		{'x', "take a tile first"},
		{'b', "take a tile first"},
		{'l', "a meld needs 3 tiles"},
		{'1', "no meld 1 on the table"},
		{'a', "you have not opened"},
	} {
		hs.keys(string(c.key))
		if !hs.view.m.MsgBad || !strings.Contains(hs.view.Message(), c.want) {
			t.Errorf("%c: message %q (bad %v), want %q", c.key, hs.view.Message(), hs.view.m.MsgBad, c.want)
		}
		noReply(t, reply)
		if hs.view.m.Rack.Positions() != before || len(hs.view.m.Sel) != 1 {
			t.Errorf("%c changed the rack or the selection", c.key)
		}
	}
	// Not the player's turn: refused with whose turn it is.
	hs.view.m.Cancel()
	hs.keys("x")
	if !strings.Contains(hs.view.Message(), "wait") {
		t.Errorf("a move with none asked for: %q", hs.view.Message())
	}
}

// TestTable101AddByClickAndHandle: once open, a tile is added to a meld
// on the table by its handle or by a click on the meld; the taken discard
// must be used or given back.
func TestTable101AddByClickAndHandle(t *testing.T) {
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
	a, ok := engine.LayAction101(0, slots, faces, groups)
	if !ok {
		t.Fatal("no lay")
	}
	hs.apply(s, a)
	// The player discards Y1; bot1 draws and discards Y11.
	y1 := slotOf(t, s, "Y1")
	hs.apply(s, engine.Action101{Kind: engine.Act101Discard, Seat: 0, Faces: []engine.SlotFace{{Slot: y1, Face: engine.MustParseFaces("Y1")[0]}}})
	hs.apply(s, engine.Action101{Kind: engine.Act101Draw, Seat: 1})
	bot := s.Match101.Game().Rack(1)[0]
	hs.apply(s, engine.Action101{Kind: engine.Act101Discard, Seat: 1, Faces: []engine.SlotFace{{Slot: bot, Face: engine.MustParseFaces("Y11")[0]}}})
	if !strings.Contains(hs.screen(), "previous discard Y11") {
		t.Errorf("the discard to take is not shown:\n%s", hs.screen())
	}
	// Take Y11: it fits the set of 11s? No: the table has R10-R13, the
	// 10s and K11-K13; Y11 fits none, so it must be given back.
	reply := hs.request101()
	hs.keys("t")
	a = <-reply
	if a.Kind != engine.Act101Take {
		t.Fatalf("t sent %+v", a)
	}
	hs.apply(s, a)
	reply = hs.request101()
	hs.keys("x")
	if !strings.Contains(hs.view.Message(), "must be used this turn") {
		t.Errorf("a discard keeping the taken tile: %q", hs.view.Message())
	}
	noReply(t, reply)
	hs.keys("b")
	a = <-reply
	if a.Kind != engine.Act101GiveBack {
		t.Fatalf("b sent %+v", a)
	}
	hs.apply(s, a)
	reply = hs.request101()
	hs.keys("d")
	hs.apply(s, <-reply)
	// R9 goes on the run R10-R13 (meld 1) by its handle.
	reply = hs.request101()
	hs.keys("c")
	hs.selectFaces("R9")
	if msg := hs.view.Message(); !strings.Contains(msg, "R9: add it to meld 1") {
		t.Errorf("the selection's targets: %q", msg)
	}
	hs.keys("1")
	a = <-reply
	if a.Kind != engine.Act101Add || a.Meld != 0 || len(a.Melds) != 1 || a.Melds[0].Tiles[0].Slot != slotOf(t, s, "R9") {
		t.Fatalf("1 sent %+v", a)
	}
	hs.apply(s, a)
	if !strings.Contains(hs.screen(), "R9 R10 R11 R12 R13") {
		t.Errorf("the run with R9:\n%s", hs.screen())
	}
	// K5 is no fit for meld 2 (the 10s): a click on it refuses.
	reply = hs.request101()
	hs.selectFaces("K5")
	x, y := meldCell(hs, '2')
	hs.view.Click(x, y, false)
	hs.draw()
	if !hs.view.m.MsgBad {
		t.Errorf("K5 on the 10s was not refused: %q", hs.view.Message())
	}
	noReply(t, reply)
	// The hint (now open) names the discard and puts the cursor on it.
	hs.keys("c")
	hs.keys("h")
	if msg := hs.view.Message(); !strings.Contains(msg, "discard the") {
		t.Errorf("the hint once open: %q", msg)
	}
}

// slotOf is the slot of the first tile of face f on the player's rack.
func slotOf(t *testing.T, s *Snapshot, f string) engine.Slot {
	t.Helper()
	slots, faces := s.View.Rack(s.Match101.Game())
	want := engine.MustParseFaces(f)[0]
	for i, sl := range slots {
		if faces[i] == want {
			return sl
		}
	}
	t.Fatalf("no %s on the rack", f)
	return engine.NoSlot
}

// meldCell is a screen cell of the meld with handle h.
func meldCell(hs *harness, h rune) (int, int) {
	for _, m := range hs.p101().handles {
		if m.key == h {
			return m.x + 1, m.y
		}
	}
	hs.t.Fatalf("no meld %c on screen", h)
	return 0, 0
}

// TestTable101HintAndBlocks: the hint before opening selects the best
// opening and says that it opens; the player's own blocks on the rack
// decide the melds laid when each block is a meld.
func TestTable101HintAndBlocks(t *testing.T) {
	s := fixture101(t)
	hs := newHarness(t, s, Palette256)
	reply := hs.request101()
	hs.keys("h")
	if msg := hs.view.Message(); !strings.Contains(msg, "you can open: 121 points in 3 melds") {
		t.Errorf("the hint: %q", msg)
	}
	if len(hs.view.m.Sel) != 11 {
		t.Errorf("the hint selected %d tiles, want the opening's 11 (R9-R13, the 10s, K11-K13)", len(hs.view.m.Sel))
	}
	hs.keys("d")
	hs.apply(s, <-reply)
	// Lay the tiles out as the player wants them: R10-R13 | Y10 B10 K10 |
	// K11-K13, blocks separated by gaps, then select them all.
	var pos [RackSize]engine.Slot
	for i := range pos {
		pos[i] = engine.NoSlot
	}
	at := 0
	used := map[engine.Slot]bool{}
	for _, block := range []string{"R10 R11 R12 R13", "Y10 B10 K10", "K11 K12 K13"} {
		for _, f := range engine.MustParseFaces(block) {
			for _, sl := range hs.view.m.Rack.Tiles() {
				if !used[sl] && hs.view.face(sl) == f {
					used[sl] = true
					pos[at] = sl
					at++
					break
				}
			}
		}
		at++
	}
	at = RackCols
	for _, sl := range hs.view.m.Rack.Tiles() {
		if !used[sl] {
			pos[at] = sl
			at++
		}
	}
	if !hs.view.m.Rack.Restore(pos, hs.view.m.Rack.Tiles()) {
		t.Fatal("the blocks' arrangement does not hold the rack's tiles")
	}
	hs.view.m.Sel = nil
	reply = hs.request101()
	hs.selectFaces(opening101)
	hs.keys("l")
	a := <-reply
	if len(a.Melds) != 3 || len(a.Melds[0].Tiles) != 4 || len(a.Melds[1].Tiles) != 3 || a.Melds[1].As[0].Number() != 10 {
		t.Fatalf("the melds laid are not the player's blocks: %+v", a.Melds)
	}
}

// TestTable101RoundEndPanel: the round's panel names the finisher, every
// seat's points with their causes (finish, unopened, penalties, doubles),
// every rack, the score table and the rounds left.
func TestTable101RoundEndPanel(t *testing.T) {
	s := fixture101(t)
	hs := newHarness(t, s, Palette256)
	hs.view.Update(s, nil, []*HandEnd{roundEnd101()})
	hs.draw()
	scr := hs.screen()
	for _, want := range []string{"round 1 is over", "bot1 finished with the okey", "not opened 404", "okey finish x2",
		"that fit a meld +101", "finished -202", "R1  Y5  B2", "(empty rack)",
		"total   505", "2 rounds left", "lowest total wins"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the round's panel lacks %q:\n%s", want, scr)
		}
	}
	hs.key(tcell.KeyEnter, 0)
	if hs.view.overlay != noOverlay {
		t.Errorf("enter did not close the panel")
	}
}

// TestTable101TurnTimer: with a turn timer the turn line counts down, and
// when the player's time runs out the program moves for it (B101's move).
func TestTable101TurnTimer(t *testing.T) {
	s := fixture101(t, "timer=5")
	hs := newHarness(t, s, Palette256)
	now := time.Unix(1000, 0)
	hs.view.m.Now = func() time.Time { return now }
	hs.view.Update(s, nil, nil)
	reply := hs.request101()
	if !strings.Contains(hs.screen(), "5s left") {
		t.Errorf("the turn line has no time left:\n%s", hs.screen())
	}
	now = now.Add(3 * time.Second)
	hs.view.Tick()
	noReply(t, reply)
	now = now.Add(3 * time.Second)
	hs.view.Tick()
	select {
	case a := <-reply:
		if a.Kind != engine.Act101Draw && a.Kind != engine.Act101Take {
			t.Fatalf("the program's move when the time ran out: %+v", a)
		}
	default:
		t.Fatalf("no move when the time ran out: %q", hs.view.Message())
	}
	if !strings.Contains(hs.view.Message(), "time is up") {
		t.Errorf("message %q", hs.view.Message())
	}
}

// TestTable101Help: ? shows the 101 keys; any key closes it.
func TestTable101Help(t *testing.T) {
	hs := newHarness(t, fixture101(t), Palette256)
	hs.keys("?")
	for _, want := range []string{"keys (Okey 101)", "give the taken discard back", "1-9 A-Z", "lowest total wins"} {
		if !strings.Contains(hs.screen(), want) {
			t.Errorf("the help lacks %q:\n%s", want, hs.screen())
		}
	}
	hs.keys("x")
	if hs.view.overlay != noOverlay {
		t.Error("a key did not close the help")
	}
}

// TestTable101Mouse: a click on the bank draws, a click on a tile selects
// it, a double click discards it.
func TestTable101Mouse(t *testing.T) {
	s := fixture101(t)
	hs := newHarness(t, s, Palette256)
	reply := hs.request101()
	turnRow := 24 - 2 - rackH - 2
	hs.view.Click(2, turnRow, false)
	a := <-reply
	if a.Kind != engine.Act101Draw {
		t.Fatalf("a click on the bank sent %+v", a)
	}
	hs.apply(s, a)
	reply = hs.request101()
	x, y := rackCell(0)
	hs.view.Click(x, y, false)
	hs.draw()
	if len(hs.view.m.Sel) != 1 {
		t.Fatalf("a click selected %d tiles", len(hs.view.m.Sel))
	}
	noReply(t, reply)
	want := hs.view.m.Rack.At(0)
	hs.view.Click(x, y, true)
	a = <-reply
	if a.Kind != engine.Act101Discard || a.Faces[0].Slot != want {
		t.Fatalf("a double click sent %+v, want the discard of slot %d", a, want)
	}
}

// TestTable101SwapOkey: a tile that an okey on the table stands for takes
// the okey off the table (pressing the meld's handle): the move sent is a
// swap, and the log says so.
func TestTable101SwapOkey(t *testing.T) {
	s := fixture101(t)
	s.Names[1] = "Longname"
	hs := newHarness(t, s, Palette256)
	// The player opens and discards Y1.
	hs.apply(s, engine.Action101{Kind: engine.Act101Draw, Seat: 0})
	reply := hs.request101()
	hs.selectFaces(opening101)
	hs.keys("l")
	hs.apply(s, <-reply)
	y1 := slotOf(t, s, "Y1")
	hs.apply(s, engine.Action101{Kind: engine.Act101Discard, Seat: 0, Faces: []engine.SlotFace{{Slot: y1, Face: engine.MustParseFaces("Y1")[0]}}})
	// bot1 draws and opens: Y6 okey(Y7) Y8, R10-R13, K10-K13.
	hs.apply(s, engine.Action101{Kind: engine.Act101Draw, Seat: 1})
	lay, err := shared101.Lay(s.Match101.Game(), 1, shared101.Meld{Tiles: "Y6 B2 Y8", As: "Y6 Y7 Y8"},
		shared101.Meld{Tiles: "R10 R11 R12 R13"}, shared101.Meld{Tiles: "K10 K11 K12 K13"})
	if err != nil {
		t.Fatal(err)
	}
	rack, k := s.Match101.Game().Rack(1), 11
	hs.apply(s, lay)
	// The okey in bot1's run is marked with the face it stands for, on
	// the table and in the log (issue 24 point 9), and a long owner name
	// is cut, never run into the tiles (point 8).
	if scr := hs.screen(); !strings.Contains(scr, "4 Longn… Y6 Y7* Y8") || !strings.Contains(scr, ": Y6 Y7* Y8 · R10 R11 R12 R13") {
		t.Errorf("the okey in bot1's meld is not marked Y7*, or the owner runs into it:\n%s", scr)
	}
	hs.apply(s, engine.Action101{Kind: engine.Act101Discard, Seat: 1, Faces: []engine.SlotFace{{Slot: rack[k], Face: engine.MustParseFaces("R3")[0]}}})
	// The player draws Y7 (the fixture's draw) and swaps it for the okey
	// of meld 4.
	reply = hs.request101()
	hs.keys("d")
	hs.apply(s, <-reply)
	reply = hs.request101()
	hs.selectFaces("Y7")
	if msg := hs.view.Message(); !strings.Contains(msg, "Y7: add it to meld 4⇄") {
		t.Errorf("the selection's targets: %q", msg)
	}
	hs.keys("4")
	a := <-reply
	if a.Kind != engine.Act101Swap || a.Meld != 3 || a.Pos != 1 {
		t.Fatalf("4 sent %+v, want the swap of meld 4's okey", a)
	}
	hs.apply(s, a)
	if scr := hs.screen(); !strings.Contains(scr, "you take the okey of meld 4") || !strings.Contains(scr, "Y6 Y7 Y8") {
		t.Errorf("after the swap:\n%s", scr)
	}
	if _, faces := s.View.Rack(s.Match101.Game()); !containsFace(faces, engine.MustParseFaces("B2")[0]) {
		t.Errorf("the okey is not on the player's rack: %v", faces)
	}
}

func containsFace(fs []engine.Face, f engine.Face) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

// fixture101Three is a 3-player 101 round (bot2 deals, the okey is K4)
// where ayse, after the dealer, has opened with R12 Y12 B12 K12, R13 Y13
// B13 and K9 K10 K11 (or the melds given); the player is bot1 (seat 1).
func fixture101Three(t *testing.T, melds ...string) *Snapshot {
	t.Helper()
	rg := newRig101(t, 3, 2)
	rg.discard(2, "B6")
	seat, _, _ := rg.g().Turn()
	rg.draw(seat)
	if len(melds) == 0 {
		melds = []string{"R12 Y12 B12 K12", "R13 Y13 B13", "K9 K10 K11"}
	}
	var lay [][2]string
	for _, ml := range melds {
		lay = append(lay, [2]string{ml, ""})
	}
	rg.lay(seat, lay)
	rg.discard(seat, "Y2")
	r, m := rg.r, rg.m
	v := engine.NewView(1)
	return &Snapshot{Seat: 1, Names: []string{"ayse", "bot1", "bot2"}, Ruleset: r.String(), Match101: m,
		View: *v, Expect: 0, Kind: table.KindMove, At: time.Now()}
}

// TestTable101MeldsKeepClearOfTheSideSeats: beside the side seats the melds
// keep three cells from their columns, as melds keep from each other (at
// 80x24 a meld ended a cell before the right seat's column: "K11 ▶ bot1").
func TestTable101MeldsKeepClearOfTheSideSeats(t *testing.T) {
	s := fixture101Three(t)
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 36}} {
		w, h := sz[0], sz[1]
		hs := goldenHarness(t, s, w, h)
		hs.view.Update(s, nil, nil)
		hs.draw()
		lines := screenLines(hs.scr)
		if !strings.Contains(strings.Join(lines, "\n"), "K9 K10 K11") {
			t.Fatalf("%dx%d: the melds are not on the table:\n%s", w, h, strings.Join(lines, "\n"))
		}
		sideW := min(22, (w-40)/2)
		for y := 1; y <= 6; y++ {
			l := []rune(lines[y])
			for _, x := range []int{sideW, sideW + 1, sideW + 2, w - sideW - 3, w - sideW - 2, w - sideW - 1} {
				if l[x] != ' ' {
					t.Errorf("%dx%d row %d: text at column %d, within three cells of a side seat's column:\n%s", w, h, y, x, string(l))
					break
				}
			}
		}
	}
}

// TestTable101WideMeldGoesUnderTheSideSeats: a meld too wide for the
// middle beside the side seats is drawn whole under them, not cut.
func TestTable101WideMeldGoesUnderTheSideSeats(t *testing.T) {
	s := fixture101Three(t, "Y12 B12 K12", "R5 R6 R7 R8 R9 R10 R11 R12 R13")
	hs := goldenHarness(t, s, 80, 24)
	hs.view.Update(s, nil, nil)
	hs.draw()
	scr := hs.screen()
	if !strings.Contains(scr, "2 ayse R5 R6 R7 R8 R9 R10 R11 R12 R13") || !strings.Contains(scr, "1 ayse Y12 B12 K12") {
		t.Fatalf("the melds are not whole on the table:\n%s", scr)
	}
}
