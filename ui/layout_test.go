package ui

import (
	"strings"
	"testing"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/table"
)

// playedFixture is fixture's hand after one round of play: ayse (seat 0)
// discarded R13, then bot1, bot2 and bot3 each drew and discarded (K1, B5,
// Y9); ayse is to draw. Seen from ayse, bot3 sits on her left (she may take
// its Y9), bot1 on her right and bot2 across.
func playedFixture(t *testing.T) (*Snapshot, []Line) {
	t.Helper()
	s := fixture(t, "K4", "R13 Y7 B9 R1 Y1 B7 B10 R2 Y2 K7 B11 R5 Y3 B12 K12")
	m := s.Match
	h := m.Hand()
	r13 := engine.MustParseFaces("R13")[0]
	var slot engine.Slot
	for _, sl := range h.Rack(0) {
		if s.View.Face(h, sl) == r13 {
			slot = sl
		}
	}
	prev := &Snapshot{Seat: s.Seat, Names: s.Names, Ruleset: s.Ruleset, Match: m.Clone(), View: s.View}
	var lines []Line
	step := func(a engine.Action) {
		t.Helper()
		if err := m.Apply(a); err != nil {
			t.Fatal(err)
		}
		cur := &Snapshot{Seat: s.Seat, Names: s.Names, Ruleset: s.Ruleset, Match: m.Clone(), View: s.View}
		l, _ := Events(prev, cur)
		lines = append(lines, l...)
		prev = cur
	}
	step(engine.Action{Kind: engine.ActDiscard, Seat: 0, Slot: slot, Faces: []engine.SlotFace{{Slot: slot, Face: r13}}})
	for seat, f := range []string{"", "K1", "B5", "Y9"} {
		if seat == 0 {
			continue
		}
		step(engine.Action{Kind: engine.ActDraw, Seat: seat, Slot: engine.NoSlot})
		sl := m.Hand().Rack(seat)[0]
		face := engine.MustParseFaces(f)[0]
		step(engine.Action{Kind: engine.ActDiscard, Seat: seat, Slot: sl, Faces: []engine.SlotFace{{Slot: sl, Face: face}}})
	}
	s.Match = m
	return s, lines
}

// find returns the row and column of the first occurrence of sub, or -1s.
func find(lines []string, sub string) (int, int) {
	for y, l := range lines {
		if x := strings.Index(l, sub); x >= 0 {
			return y, len([]rune(l[:x]))
		}
	}
	return -1, -1
}

// TestLayoutAroundTheTable: at 80x24, 120x36 and 160x48 the other players
// sit around the table as on a real one (bot3, whose discard ayse may take,
// on her left; bot1 on her right; bot2 across), each with its discard pile
// beside it; the tile just discarded is marked at its player's pile; the
// last moves stay readable; and the rows the terminal gives are used.
func TestLayoutAroundTheTable(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 36}, {160, 48}} {
		w, h := sz[0], sz[1]
		s, log := playedFixture(t)
		hs := newHarness(t, nil, Palette16)
		hs.view.Update(s, log, nil)
		hs.resize(w, h)
		all := screenLines(hs.scr)
		scr := hs.screen()
		// The table's columns (wide screens give the log a column).
		tw := layoutFor(0, 0, w, h).tw
		lines := make([]string, len(all))
		for y, l := range all {
			lines[y] = string([]rune(l)[:tw])
		}
		cy, cx := find(lines, "face-up")
		ly, lx := find(lines, "bot3")
		ry, rx := find(lines, "bot1 ")
		ay, ax := find(lines, "bot2 ")
		my, _ := find(lines, "ayse (you)")
		rackY, _ := find(lines, "your rack")
		switch {
		case cy < 0 || ly < 0 || ry < 0 || ay < 0 || my < 0:
			t.Fatalf("%dx%d: a seat or the centre is missing:\n%s", w, h, scr)
		case !(lx < cx && ly >= cy-1 && ly <= cy+1):
			t.Errorf("%dx%d: bot3 (the player before) is not on the left of the centre: (%d,%d) vs (%d,%d)\n%s", w, h, lx, ly, cx, cy, scr)
		case !(rx > cx+24 && ry >= cy-1 && ry <= cy+1):
			t.Errorf("%dx%d: bot1 (the player after) is not on the right of the centre: (%d,%d)\n%s", w, h, rx, ry, scr)
		case !(ay < cy && ax > lx && ax < rx):
			t.Errorf("%dx%d: bot2 is not across, above the centre: (%d,%d)\n%s", w, h, ax, ay, scr)
		case !(my > cy && my < rackY):
			t.Errorf("%dx%d: the player's own line is not between the centre and the rack\n%s", w, h, scr)
		}
		// The just-discarded tile: at bot3's pile, in the accent colour.
		jy, jx := find(lines, "just now")
		if jy < ly || jy > ly+4 || jx < lx || jx > cx {
			t.Errorf("%dx%d: the mark is not at bot3's pile (%d,%d):\n%s", w, h, jx, jy, scr)
		} else if _, fg, _ := hs.cell(jx, jy); fg != Palette16.Accent {
			t.Errorf("%dx%d: the mark is not in the accent colour", w, h)
		}
		// Each pile beside its player: Y9 at bot3, K1 at bot1, B5 across.
		for _, c := range []struct {
			who, small, num, letter string
			x, y                    int
		}{{"bot3", "Y9", " 9", "Y", lx, ly}, {"bot1", "K1", " 1", "K", rx, ry}, {"bot2", "B5", " 5", "B", ax, ay}} {
			if !pileNear(lines, c.small, c.num, c.letter, c.x, c.y) {
				t.Errorf("%dx%d: %s's discard %s is not beside it:\n%s", w, h, c.who, c.small, scr)
			}
		}
		// The last moves: every line of the round is on the screen.
		scr = strings.Join(all, "\n")
		for _, l := range log[len(log)-6:] {
			if !strings.Contains(scr, l.String()) {
				t.Errorf("%dx%d: the move %q is not shown:\n%s", w, h, l.String(), scr)
			}
		}
		// The space: no run of empty rows above the rack longer than a
		// quarter of the screen (the old layout left 25 at 160x48).
		run, worst := 0, 0
		for y := 1; y < rackY; y++ {
			if strings.TrimSpace(lines[y]) == "" {
				run++
				worst = max(worst, run)
			} else {
				run = 0
			}
		}
		if worst > h/4 {
			t.Errorf("%dx%d: %d empty rows in a row above the rack:\n%s", w, h, worst, scr)
		}
	}
}

// pileNear reports whether a discard is drawn within a few rows under or
// right of (x, y): as a one-line tile (small), or a rack-size tile (its
// number over its colour's letter).
func pileNear(lines []string, small, num, letter string, x, y int) bool {
	for dy := 0; dy <= 4 && y+dy < len(lines); dy++ {
		l := []rune(lines[y+dy])
		if x >= len(l) {
			continue
		}
		rest := string(l[x:])
		if i := strings.Index(rest, small+" "); i >= 0 && i < 60 {
			return true
		}
		if i := strings.Index(rest, num+" "); i >= 0 && i < 60 && y+dy+1 < len(lines) {
			below := []rune(lines[y+dy+1])
			if x+i+len(num)+1 < len(below) && strings.Contains(string(below[x+i:x+i+len(num)+2]), letter) {
				return true
			}
		}
	}
	return false
}

// TestLayoutTwoAndThreePlayers: with two players the other sits across;
// with three, on the left and the right.
func TestLayoutTwoAndThreePlayers(t *testing.T) {
	s := fixture(t, "K4", winningRack)
	for _, c := range []struct {
		n    int
		want map[int]side
	}{{2, map[int]side{1: sideAcross}}, {3, map[int]side{2: sideLeft, 1: sideRight}}, {4, map[int]side{3: sideLeft, 1: sideRight, 2: sideAcross}}} {
		ss := *s
		ss.Match = nil
		ss.Names = s.Names[:c.n]
		got := seatSides(&ss)
		for seat, sd := range c.want {
			if got[seat] != sd {
				t.Errorf("%d players: seat %d at %v, want %v", c.n, seat, got[seat], sd)
			}
		}
		if _, ok := got[0]; ok {
			t.Errorf("%d players: the player has a side", c.n)
		}
	}
}

// TestScoreSheetOnWideScreens: from 120 columns the column beside the table
// shows the totals after each hand played, above the moves.
func TestScoreSheetOnWideScreens(t *testing.T) {
	s, log := playedFixture(t)
	s.Finished = []table.HandLog{{Hand: 0, Scores: []int{18, 18, 20, 18}}, {Hand: 1, Scores: []int{16, 18, 18, 16}}}
	hs := newHarness(t, nil, Palette16)
	hs.view.Update(s, log, nil)
	hs.resize(120, 36)
	lines := screenLines(hs.scr)
	y, x := find(lines, "scores after each hand")
	if y < 0 || x < 80 {
		t.Fatalf("no score sheet beside the table:\n%s", hs.screen())
	}
	for i, want := range [][]string{{"you", "bot1", "bot2", "bot3"}, {"1", "18", "18", "20", "18"}, {"2", "16", "18", "18", "16"}} {
		if got := strings.Fields(string([]rune(lines[y+1+i])[x:])); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("score sheet row %d: %q, want %q", i, got, want)
		}
	}
	if my, mx := find(lines, "moves"); my <= y+3 || mx != x {
		t.Errorf("the moves are not under the score sheet:\n%s", hs.screen())
	}
	// At 80 columns there is no room: the log runs under the turn line.
	hs.resize(80, 24)
	if strings.Contains(hs.screen(), "scores after each hand") {
		t.Errorf("a score sheet at 80x24:\n%s", hs.screen())
	}
}

// TestLayoutEverySize: from 80x24 to 200x60 nothing of the table is drawn
// over another part: the seats and the centre above the turn line, the
// turn line above the player's line, that line above the rack.
func TestLayoutEverySize(t *testing.T) {
	for w := MinWidth; w <= 200; w += 7 {
		for h := MinHeight; h <= 60; h += 3 {
			l := layoutFor(0, 0, w, h)
			bottom := max(l.mid+l.sideH, l.mid+4)
			if l.frame {
				bottom = l.frameBottom
			}
			switch {
			case l.across < 1 || l.across >= l.mid:
				t.Errorf("%dx%d: across at %d, centre at %d", w, h, l.across, l.mid)
			case bottom > l.turn:
				t.Errorf("%dx%d: the seats end at %d, the turn line is at %d", w, h, bottom, l.turn)
			case l.turn >= l.me || l.me >= l.rackY:
				t.Errorf("%dx%d: turn %d, player %d, rack %d", w, h, l.turn, l.me, l.rackY)
			case l.logH < 4:
				t.Errorf("%dx%d: %d log lines", w, h, l.logH)
			case l.sideW < 18:
				t.Errorf("%dx%d: side seats %d wide", w, h, l.sideW)
			case l.rackX < 0 || l.rackX+rackW > w:
				t.Errorf("%dx%d: rack at %d", w, h, l.rackX)
			}
			if l.frame && max(l.frameBottom-7, l.mid+l.sideH)+1 >= l.frameBottom {
				t.Errorf("%dx%d: no row for the player's pile", w, h)
			}
		}
	}
}

// TestClickThePileToTake: a click on the top tile of the pile on the
// player's left takes it; a click on the stock draws.
func TestClickThePileToTake(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		for _, c := range []struct {
			what string
			at   func(lines []string) (int, int)
			want engine.ActionKind
		}{
			{"the left pile's Y9", func(lines []string) (int, int) {
				y, x := find(lines, "bot3")
				for dy := 2; dy <= 4; dy++ {
					l := []rune(lines[y+dy])
					if i := strings.Index(string(l[x:min(len(l), x+40)]), "Y9"); i >= 0 {
						return x + i, y + dy
					}
					if i := strings.Index(string(l[x:min(len(l), x+40)]), " 9 "); i >= 0 {
						return x + i + 1, y + dy
					}
				}
				return -1, -1
			}, engine.ActTake},
			{"the stock", func(lines []string) (int, int) {
				y, x := find(lines, "stock")
				return x + 1, y + 1
			}, engine.ActDraw},
		} {
			s, log := playedFixture(t)
			hs := newHarness(t, nil, Palette16)
			hs.view.Update(s, log, nil)
			hs.resize(sz[0], sz[1])
			reply := hs.request()
			tw := layoutFor(0, 0, sz[0], sz[1]).tw
			var lines []string
			for _, l := range screenLines(hs.scr) {
				lines = append(lines, string([]rune(l)[:tw]))
			}
			x, y := c.at(lines)
			if x < 0 {
				t.Fatalf("%dx%d: %s not found:\n%s", sz[0], sz[1], c.what, hs.screen())
			}
			hs.view.Click(x, y, false)
			select {
			case a := <-reply:
				if a.Kind != c.want {
					t.Errorf("%dx%d: a click on %s sent %v, want %v", sz[0], sz[1], c.what, a.Kind, c.want)
				}
			default:
				t.Errorf("%dx%d: a click on %s at (%d,%d) sent nothing; message %q", sz[0], sz[1], c.what, x, y, hs.view.Message())
			}
		}
	}
}

// TestLayoutBeforeTheDeal: before the first hand (no match yet) and for a
// view with no seat, the table draws the seats it knows without failing.
func TestLayoutBeforeTheDeal(t *testing.T) {
	for _, seat := range []int{0, -1} {
		s := &Snapshot{Seat: seat, Names: []string{"ayse", "bot1", "bot2", "bot3"}, Ruleset: "classic"}
		hs := newHarness(t, s, Palette16)
		for _, sz := range [][2]int{{80, 24}, {160, 48}} {
			hs.resize(sz[0], sz[1])
			if scr := hs.screen(); !strings.Contains(scr, "bot2") || !strings.Contains(scr, "bot1") {
				t.Errorf("seat %d, %dx%d: the seats are not shown before the deal:\n%s", seat, sz[0], sz[1], scr)
			}
		}
	}
}
