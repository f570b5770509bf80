package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// MinWidth and MinHeight are the smallest terminal the table fits in.
const (
	MinWidth  = 80
	MinHeight = 24
)

// The rack's size on screen: a wooden frame around RackCols positions of a
// tile and a one-cell gap, each row of tiles over a ledge.
const (
	rackW = RackCols*(TileWidth+1) + 1
	rackH = 1 + RackRows*(TileHeight+1)
)

// Draw implements tview.Primitive.
func (t *TableView) Draw(scr tcell.Screen) {
	t.Box.DrawForSubclass(scr, t)
	x, y, w, h := t.GetRect()
	if !t.palFixed {
		t.pal = PaletteFor(scr.Colors())
	}
	t.regions = t.regions[:0]
	t.lastFrame.w, t.lastFrame.h = w, h
	p := t.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	fill(scr, x, y, w, h, felt)
	if w < MinWidth || h < MinHeight {
		t.drawTooSmall(scr, x, y, w, h)
		return
	}
	t.drawHeader(scr, x, y, w)
	if t.is101() {
		t.draw101(scr, x, y, w, h)
		return
	}
	l := layoutFor(x, y, w, h)
	rackY := l.rackY
	t.drawTable(scr, l)
	t.drawTurn(scr, l.tx, l.turn, l.tw)
	if l.frame {
		t.drawSideColumn(scr, l)
	} else {
		t.drawLog(scr, l.logX, l.logY, l.logW, l.logH)
	}
	t.drawRack(scr, l.rackX, rackY)
	t.drawMessage(scr, x, y+h-2, w)
	t.drawStatus(scr, x, y+h-1, w)
	switch t.overlay {
	case helpOverlay:
		t.drawHelp(scr, x, y, w, h-1)
	case quitOverlay:
		t.drawQuit(scr, x, y, w, rackY)
	case handOverlay:
		t.drawHandEnd(scr, x, y+1, w, rackY-1)
	case matchOverlay:
		t.drawMatchEnd(scr, x, y+1, w, rackY-1)
	}
}

func (t *TableView) drawHeader(scr tcell.Screen, x, y, w int) {
	p := t.pal
	st := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	fill(scr, x, y, w, 1, st)
	s := t.snap
	title := " okey"
	if s != nil {
		title += " · " + s.Ruleset
		if s.Match101 != nil {
			title += t.title101()
		}
		if s.Match != nil {
			hand := s.Match.HandNumber() + 1
			if t.overlay == handOverlay && len(t.ends) > 0 {
				// The panel of a hand that is over: its number, not the next.
				hand = int(t.ends[0].Hand) + 1
			}
			title += " · " + i18n.T("hand %d", hand)
			if r := s.Match.Rules().Rounds; r > 0 {
				title += fmt.Sprintf("/%d", r)
			}
		}
		if s.Seat >= 0 && s.Seat < len(s.Names) {
			title += " · " + i18n.T("you are %s", s.Names[s.Seat])
			if r, ok := t.rules(); ok {
				if tm := team(r, len(s.Names), s.Seat); tm != "" {
					title += " (" + tm + ")"
				}
			}
		}
	}
	hq := i18n.T("? help · q quit")
	put(scr, x, y, w-width(hq)-2, title, st.Bold(true))
	put(scr, x+w-width(hq)-1, y, width(hq)+1, hq, st)
}

// prevSeat is the seat whose pile the player may take from: the one before
// it in the order of play.
func prevSeat(h *engine.Hand, seat int) int {
	order := h.Order()
	for i, s := range order {
		if s == seat {
			return order[(i+len(order)-1)%len(order)]
		}
	}
	return -1
}

// drawCentre draws the middle of the table in w columns: the face-up
// tile, the okey, the stock, the discard the player may take (where there
// is room), and under them the dealer and the turns played.
func (t *TableView) drawCentre(scr tcell.Screen, x, y, w int) {
	p := t.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	dim := felt.Foreground(p.Dim)
	s := t.snap
	h := s.HandState()
	if h == nil {
		return
	}
	cols := min(4, max(w/8, 3))
	cx := x + (w-cols*8)/2
	_, ind := h.Indicator()
	// A label as wide as its column (Turkish "gösterge") pushes the next
	// one a cell right, so that two never touch.
	end := put(scr, cx, y, 8, i18n.T("face-up"), dim)
	if ind != engine.NoFace {
		drawTile(scr, p, cx, y+1, ind, engine.NoFace, p.Face)
	}
	cx += 8
	end = put(scr, max(cx, end+1), y, 8, "okey", dim)
	if ok := h.Okey(); ok.Valid() {
		drawTile(scr, p, cx, y+1, ok, ok, p.Face)
	}
	cx += 8
	end = put(scr, max(cx, end+1), y, 8, i18n.T("stock"), dim)
	if h.Phase() >= engine.PhasePlay {
		back := tcell.StyleDefault.Background(p.Wood).Foreground(p.Text).Bold(true)
		put(scr, cx, y+1, 4, fmt.Sprintf("%3d ", h.StockLen()), back)
		put(scr, cx, y+2, 4, "    ", back)
		t.regions = append(t.regions, region{cx, y + 1, 4, 2, func(t *TableView, _ bool) { t.draw() }})
	}
	cx += 8
	if cols == 4 {
		put(scr, max(cx, end+1), y, 8, i18n.T("to take"), dim)
		prev := prevSeat(h, s.Seat)
		if from := h.LastDiscard(); from >= 0 && from == prev {
			if pile := h.Pile(from); len(pile) > 0 {
				drawTile(scr, p, cx, y+1, h.PublicFace(pile[len(pile)-1]), h.Okey(), p.Face)
				t.regions = append(t.regions, region{cx, y + 1, 4, 2, func(t *TableView, _ bool) { t.take() }})
			}
		}
	}
	info := []string{i18n.T("dealer %s", s.Name(h.Dealer()))}
	if h.Phase() == engine.PhasePlay {
		info = append(info, i18n.T("%d turns", h.Turns()))
	}
	line := strings.Join(info, " · ")
	put(scr, x+max(0, (w-width(line))/2), y+3, w, line, dim)
}

// drawTurn shows whose move it is, or who is working on what, with the
// time since the table last moved.
func (t *TableView) drawTurn(scr tcell.Screen, x, y, w int) {
	p := t.pal
	st := tcell.StyleDefault.Background(p.Felt).Foreground(p.Accent).Bold(true)
	s := t.snap
	text := t.turnText()
	if s != nil && !s.Done && !s.At.IsZero() {
		if el := t.now().Sub(s.At); el >= 3e9 {
			if s.Expect != s.Seat {
				text += "  " + i18n.T("(waiting %ds)", int(el.Seconds()))
			}
		}
	}
	if len(t.away) > 0 && s != nil && !s.Done {
		text = i18n.T("%s dropped out: the table waits for them to come back", strings.Join(t.away, ", "))
		st = st.Foreground(t.pal.Bad)
	}
	room := w - 2
	if left, ok := t.TimeLeft(); ok {
		// The turn timer, at the right: the player's own is a badge that
		// turns red in its last 10 seconds.
		secs := int((left + time.Second - 1) / time.Second)
		badge := " " + i18n.T("%ds left", secs) + " "
		bst := st.Foreground(p.Dim).Bold(false)
		if mine := t.snap.Seat; mine >= 0 {
			if seat, _ := t.snap.HandState().Turn(); seat == mine {
				badge = " " + i18n.T("your time %ds", secs) + " "
				bst = tcell.StyleDefault.Background(p.Accent).Foreground(tcell.ColorBlack).Bold(true)
				if secs <= 10 {
					bst = tcell.StyleDefault.Background(p.Bad).Foreground(p.Text).Bold(true)
				}
			}
		}
		room -= width(badge) + 1
		put(scr, x+w-1-width(badge), y, width(badge), badge, bst)
	}
	put(scr, x+1, y, room, text, st)
}

func (t *TableView) drawLog(scr tcell.Screen, x, y, w, h int) {
	if h <= 0 {
		return
	}
	p := t.pal
	dim := tcell.StyleDefault.Background(p.Felt).Foreground(p.Dim)
	lines := t.log
	if len(lines) > h {
		lines = lines[len(lines)-h:]
	}
	okey := engine.NoFace
	if hs := t.snap.HandState(); hs != nil {
		okey = hs.Okey()
	}
	for i, l := range lines {
		cx := x + 1
		for _, sp := range l {
			if sp.Face != engine.NoFace {
				if cx+3 > x+w-1 {
					break
				}
				cx = drawSmall(scr, p, cx, y+i, sp.Face, okey)
				continue
			}
			cx = put(scr, cx, y+i, x+w-1-cx, sp.Text, dim)
		}
	}
}

func (t *TableView) drawRack(scr tcell.Screen, x, y int) {
	p := t.pal
	wood := tcell.StyleDefault.Background(p.Wood).Foreground(p.Text)
	fill(scr, x, y, rackW, rackH, wood)
	put(scr, x+1, y, 16, " "+i18n.T("your rack")+" ", wood.Bold(true))
	// The sort buttons of the rule text, and undo.
	bx := x + rackW - 1
	for _, b := range []struct {
		label string
		do    func(t *TableView)
	}{{" " + i18n.T("u undo") + " ", (*TableView).undo}, {" " + i18n.T("r sort runs") + " ", func(t *TableView) { t.sort(true) }}, {" " + i18n.T("s sort sets") + " ", func(t *TableView) { t.sort(false) }}} {
		bx -= width(b.label) + 1
		put(scr, bx, y, width(b.label), b.label, tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text))
		do := b.do
		t.regions = append(t.regions, region{bx, y, width(b.label), 1, func(t *TableView, _ bool) { do(t) }})
	}
	s := t.snap
	h := s.HandState()
	okey := engine.NoFace
	if h != nil {
		okey = h.Okey()
	}
	playing := h != nil && h.Phase() == engine.PhasePlay
	t.drawRackTiles(scr, x, y, okey, func(sl engine.Slot) engine.Face { return s.View.Face(h, sl) }, nil, playing, (*TableView).clickRack)
}

// drawRackTiles draws the rack's two rows of tiles at x, y (below the
// rack's title row) and the mark under each: the cursor, the lifted tile,
// a selected tile (selected may be nil), a hinted one, a tile just arrived
// while playing. A click on a tile calls click with its position.
func (t *TableView) drawRackTiles(scr tcell.Screen, x, y int, okey engine.Face, faceOf func(engine.Slot) engine.Face,
	selected map[engine.Slot]bool, playing bool, click func(t *TableView, pos int, double bool)) {
	p := t.pal
	wood := tcell.StyleDefault.Background(p.Wood).Foreground(p.Text)
	ledge := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Dim)
	for row := 0; row < RackRows; row++ {
		ty := y + 1 + row*(TileHeight+1)
		fill(scr, x, ty+TileHeight, rackW, 1, ledge)
		for col := 0; col < RackCols; col++ {
			pos := row*RackCols + col
			tx := x + 1 + col*(TileWidth+1)
			sl := t.rack.At(pos)
			if sl == engine.NoSlot {
				put(scr, tx, ty, TileWidth, " .  ", wood.Foreground(p.Ledge))
			} else {
				face := p.Face
				if pos == t.rack.Lifted || selected[sl] {
					face = p.Lifted
				}
				drawTile(scr, p, tx, ty, faceOf(sl), okey, face)
			}
			mark := ""
			mst := ledge
			switch {
			case pos == t.rack.Cursor && t.rack.Lifted >= 0 && pos != t.rack.Lifted:
				mark, mst = i18n.T("^to^"), ledge.Foreground(p.Cursor).Bold(true)
			case pos == t.rack.Cursor:
				mark, mst = "^^^^", ledge.Foreground(p.Cursor).Bold(true)
			case pos == t.rack.Lifted:
				mark, mst = i18n.T("lift"), ledge.Foreground(p.Lifted)
			case sl != engine.NoSlot && selected[sl]:
				mark, mst = " ** ", ledge.Foreground(p.Lifted).Bold(true)
			case sl != engine.NoSlot && t.hint[sl]:
				mark, mst = i18n.T("hint"), ledge.Foreground(p.Hint).Bold(true)
			case sl != engine.NoSlot && playing && t.isFresh(sl):
				mark, mst = i18n.T("new!"), ledge.Foreground(p.Good).Bold(true)
			}
			if mark != "" {
				put(scr, tx, ty+TileHeight, TileWidth, mark, mst)
			}
			t.regions = append(t.regions, region{tx, ty, TileWidth + 1, TileHeight + 1, func(t *TableView, double bool) { click(t, pos, double) }})
		}
	}
}

func (t *TableView) drawMessage(scr tcell.Screen, x, y, w int) {
	p := t.pal
	st := tcell.StyleDefault.Background(p.Felt).Foreground(p.Hint)
	if t.msgBad {
		st = st.Foreground(p.Bad).Bold(true)
	}
	if t.msg == "" && len(t.links) > 0 {
		put(scr, x+1, y, w-2, linksText(t.links), tcell.StyleDefault.Background(p.Felt).Foreground(p.Dim))
		return
	}
	put(scr, x+1, y, w-2, t.msg, st)
}

func (t *TableView) drawStatus(scr tcell.Screen, x, y, w int) {
	items, ok := t.overlayBindings()
	if !ok {
		if t.rack.Lifted >= 0 {
			items = append(items, binding{name: keyName("arrows"), label: i18n.T("move")}, binding{name: keyName("space"), label: i18n.T("put down")})
		}
		for _, b := range bindings {
			if b.now != nil && b.now(t) && !(b.name == "space" && t.rack.Lifted >= 0) {
				items = append(items, binding{name: keyName(b.name), label: i18n.TKey(b.label), do: b.do})
			}
		}
	}
	t.drawBindings(scr, x, y, w, items)
}

// overlayBindings are the status bar's keys while a panel is open; ok is
// false when none is.
func (t *TableView) overlayBindings() ([]binding, bool) {
	switch t.overlay {
	case helpOverlay:
		return []binding{{name: keyName("any key"), label: i18n.T("close")}}, true
	case quitOverlay:
		return []binding{{name: "y", label: i18n.T("leave")}, {name: "n", label: i18n.T("stay")}}, true
	case handOverlay:
		return []binding{{name: keyName("enter"), label: i18n.T("continue")}, {name: "?", label: i18n.T("help")}, {name: "q", label: i18n.T("quit")}}, true
	case matchOverlay:
		return []binding{{name: "q", label: i18n.T("quit")}}, true
	}
	return nil, false
}

// drawBindings draws the status bar: each key's name and label as given
// (already in the interface's language), as many as fit, each clickable
// when it has an action.
func (t *TableView) drawBindings(scr tcell.Screen, x, y, w int, items []binding) {
	p := t.pal
	bar := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	key := bar.Foreground(p.Accent).Bold(true)
	fill(scr, x, y, w, 1, bar)
	cx := x + 1
	for _, b := range items {
		need := width(b.name) + 1 + width(b.label) + 2
		if cx+need > x+w {
			break
		}
		start := cx
		cx = put(scr, cx, y, w, b.name, key)
		cx = put(scr, cx, y, w, " "+b.label, bar)
		cx += 2
		if b.do != nil {
			do := b.do
			t.regions = append(t.regions, region{start, y, cx - start - 1, 1, func(t *TableView, _ bool) { do(t) }})
		}
	}
}

// panel draws an overlay box and returns its inner area.
func (t *TableView) panel(scr tcell.Screen, x, y, w, h int, title string) (int, int, int, int) {
	p := t.pal
	st := tcell.StyleDefault.Background(p.Overlay).Foreground(p.Text)
	fill(scr, x, y, w, h, st)
	for i := x; i < x+w; i++ {
		scr.SetContent(i, y, tcell.RuneHLine, nil, st)
		scr.SetContent(i, y+h-1, tcell.RuneHLine, nil, st)
	}
	for j := y; j < y+h; j++ {
		scr.SetContent(x, j, tcell.RuneVLine, nil, st)
		scr.SetContent(x+w-1, j, tcell.RuneVLine, nil, st)
	}
	scr.SetContent(x, y, tcell.RuneULCorner, nil, st)
	scr.SetContent(x+w-1, y, tcell.RuneURCorner, nil, st)
	scr.SetContent(x, y+h-1, tcell.RuneLLCorner, nil, st)
	scr.SetContent(x+w-1, y+h-1, tcell.RuneLRCorner, nil, st)
	put(scr, x+2, y, w-4, " "+title+" ", st.Bold(true).Foreground(p.Accent))
	return x + 2, y + 1, w - 4, h - 2
}

func (t *TableView) drawHelp(scr tcell.Screen, x, y, w, h int) {
	ix, iy, iw, ih := t.panel(scr, x, y, w, h, i18n.T("keys"))
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	key := st.Foreground(t.pal.Accent).Bold(true)
	lines := []struct{ k, v string }{}
	for _, b := range bindings {
		name := keyName(b.name)
		switch b.name {
		case "arrows":
			name = i18n.T("arrows home end")
		case "space":
			name = i18n.T("space enter")
		case "u":
			name = "u ctrl-z"
		case "x":
			name = "x delete"
		}
		lines = append(lines, struct{ k, v string }{name, i18n.TKey(b.help)})
	}
	lines = append(lines,
		struct{ k, v string }{i18n.T("mouse"), i18n.T("click a tile: pick up / put down; double click: discard;")},
		struct{ k, v string }{"", i18n.T("click the stock: draw; the discard to take: take; your pile: discard")},
		struct{ k, v string }{"", i18n.T("you may look through your own pile and the one before you")})
	if secs := t.turnSeconds(); secs > 0 {
		lines = append(lines, struct{ k, v string }{i18n.T("timer"), i18n.T("%d s a turn; when yours runs out the program draws, then discards", secs)},
			struct{ k, v string }{"", i18n.T("the tile the hint recommends (or declares the win it sees)")})
	}
	lines = append(lines,
		struct{ k, v string }{i18n.T("piles"), i18n.T("+3 before a pile: 3 more tiles lie under the ones shown")},
		struct{ k, v string }{"", i18n.T("(gösterme): that player showed the indicator's twin")})
	if r, ok := t.rules(); ok {
		lines = append(lines, struct{ k, v string }{i18n.T("scoring"), scoringLine(r)})
		if tl := teamsLine(r, t.snap.Names); tl != "" {
			lines = append(lines, struct{ k, v string }{i18n.T("teams"), tl})
		}
		lines = append(lines, struct{ k, v string }{i18n.T("rules"), i18n.T("okey help rules %s (or docs/rules.md)", r.Preset)})
	}
	for i, l := range lines {
		if i >= ih {
			break
		}
		put(scr, ix, iy+i, 16, l.k, key)
		put(scr, ix+17, iy+i, iw-17, l.v, st)
	}
}

func (t *TableView) drawQuit(scr tcell.Screen, x, y, w, h int) {
	pw, ph := 60, 7
	ix, iy, iw, _ := t.panel(scr, x+(w-pw)/2, y+(h-ph)/2, pw, ph, i18n.T("leave the table?"))
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	put(scr, ix, iy, iw, i18n.T("The match is not over. If you leave, the table stops;"), st)
	put(scr, ix, iy+1, iw, i18n.T("what was played so far stays saved in the data dir."), st)
	note := t.leaveNote
	if note == "" {
		note = i18n.Mark("okey play offers to resume it later.")
	}
	put(scr, ix, iy+2, iw, i18n.TKey(note), st)
	put(scr, ix, iy+4, iw, i18n.T("y: leave   n: stay"), st.Foreground(t.pal.Accent).Bold(true))
}

// drawGroups draws groups of tiles in a line, wrapping, and returns the row
// after the last.
func (t *TableView) drawGroups(scr tcell.Screen, x, y, w int, groups [][]engine.Face, okey engine.Face) int {
	cx := x
	for _, g := range groups {
		need := len(g)*4 + 1
		if cx > x && cx+need > x+w {
			cx = x
			y++
		}
		for _, f := range g {
			cx = drawSmall(scr, t.pal, cx, y, f, okey) + 1
		}
		cx += 2
	}
	return y + 1
}

func (t *TableView) drawHandEnd(scr tcell.Screen, x, y, w, h int) {
	if len(t.ends) == 0 {
		return
	}
	e := t.ends[0]
	ix, iy, iw, ih := t.panel(scr, x, y, w, h, i18n.T("hand %d is over", e.Hand+1))
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	good := st.Foreground(t.pal.Good).Bold(true)
	row := iy
	if e.Result.Winner < 0 {
		put(scr, ix, row, iw, i18n.T("The stock ran out: no one won this hand."), good)
		row += 2
	} else {
		line := i18n.T("%s won with groups", e.Winner)
		if e.Result.Kind == engine.Pairs {
			line = i18n.T("%s won with seven pairs", e.Winner)
		}
		if e.Result.OkeyDiscard {
			line += i18n.T(", finishing with an okey")
		}
		if e.Result.OneColour < engine.NumColours {
			line += i18n.T(", all %s", ColourName(e.Result.OneColour))
		}
		cx := put(scr, ix, row, iw, line, good)
		if e.Discard != engine.NoFace {
			cx = put(scr, cx, row, iw, "  "+i18n.T("final discard")+" ", st)
			drawSmall(scr, t.pal, cx, row, e.Discard, e.Okey)
		}
		row++
		var gs [][]engine.Face
		for _, g := range e.Result.Groups {
			gs = append(gs, g.Tiles)
		}
		row = t.drawGroups(scr, ix, row+1, iw, gs, e.Okey) + 1
	}
	var why []string
	if t.snap != nil && t.snap.Match != nil {
		why = causes(t.snap.Match, e.Result, e.Names)
	}
	head := fmt.Sprintf("%-18s %7s %7s", "", i18n.T("change"), i18n.T("score"))
	if strings.Join(why, "") != "" {
		head += "   " + i18n.T("why")
	}
	put(scr, ix, row, iw, head, st.Foreground(t.pal.Dim))
	row++
	for seat, name := range e.Names {
		if row >= iy+ih-1 {
			break
		}
		if r, ok := t.rules(); ok {
			name = teamName(r, e.Names, seat, 18)
		}
		line := fmt.Sprintf("%-18.18s %+7d %7d", name, e.Deltas[seat], e.Scores[seat])
		if seat < len(why) && why[seat] != "" {
			line += "   " + why[seat]
		}
		put(scr, ix, row, iw, line, st)
		row++
	}
	row = t.drawScoring(scr, ix, row, iw, iy+ih-1, e.Names, st.Foreground(t.pal.Dim))
	t.drawOpenRacks(scr, ix, row, iw, iy+ih-1, e, st)
	next := i18n.T("enter: next hand")
	if e.Over {
		next = i18n.T("enter: the match result")
	}
	put(scr, ix, iy+ih-1, iw, next, st.Foreground(t.pal.Accent).Bold(true))
}

func (t *TableView) drawMatchEnd(scr tcell.Screen, x, y, w, h int) {
	m := t.final
	ix, iy, iw, ih := t.panel(scr, x, y, w, h, i18n.T("the match is over"))
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	row := iy
	if m.Err != nil {
		put(scr, ix, row, iw, i18n.T("The match stopped: %s", Explain(m.Err)), st.Foreground(t.pal.Bad).Bold(true))
		row += 2
	}
	names := []string{}
	if t.snap != nil {
		names = t.snap.Names
	}
	// The headline: how the player did.
	for _, r := range m.Ranking {
		if t.snap == nil || r.Seat != t.snap.Seat || m.Err != nil {
			continue
		}
		head := i18n.T("You finished %s of %d.", ordinal(r.Place), len(m.Ranking))
		hst := st.Bold(true)
		if r.Place == 1 {
			head = i18n.T("You won the match!")
			if shared := countPlace(m.Ranking, 1); shared > 1 {
				head = i18n.T("You share first place with %d others.", shared-1)
			}
			hst = st.Foreground(t.pal.Good).Bold(true)
		}
		put(scr, ix, row, iw, head, hst)
		row += 2
	}
	for _, r := range m.Ranking {
		name := i18n.T("seat %d", r.Seat)
		if r.Seat < len(names) {
			name = names[r.Seat]
		}
		if rs, ok := t.rules(); ok {
			name = teamName(rs, names, r.Seat, 18)
		}
		line := fmt.Sprintf("%d. %-18.18s %5d", r.Place, name, r.Score)
		if r.Prize {
			line += "  " + i18n.T("prize")
		}
		s := st
		if r.Place == 1 {
			s = s.Foreground(t.pal.Good).Bold(true)
		}
		put(scr, ix, row, iw, line, s)
		row++
	}
	if rs, ok := t.rules(); ok && rs.PrizeLimit() > 0 && m.Err == nil {
		for _, l := range wrap2(i18n.T("the prize: the winner takes at least 75%% of the pool; the others under %d points share the rest", rs.PrizeLimit()), iw) {
			put(scr, ix, row, iw, l, st.Foreground(t.pal.Dim))
			row++
		}
	}
	row = t.drawScoring(scr, ix, row, iw, iy+ih-3, names, st.Foreground(t.pal.Dim))
	row++
	vst := st.Foreground(t.pal.Good).Bold(true)
	switch {
	case m.Unfinished:
		vst = st.Foreground(t.pal.Accent).Bold(true)
	case !m.Verified:
		vst = st.Foreground(t.pal.Bad).Bold(true)
	}
	if m.Verdict != "" {
		put(scr, ix, row, iw, m.Verdict, vst)
		row++
	}
	if m.Transcript != "" {
		for _, l := range wrap(i18n.T("transcript saved: %s", m.Transcript), iw) {
			if row >= iy+ih-1 {
				break
			}
			put(scr, ix, row, iw, l, st)
			row++
		}
	}
	put(scr, ix, iy+ih-1, iw, i18n.T("q: quit"), st.Foreground(t.pal.Accent).Bold(true))
}

// wrap cuts s into lines of at most w cells (at any character: paths).
func wrap(s string, w int) []string {
	var out []string
	for width(s) > w && w > 0 {
		r := []rune(s)
		out = append(out, string(r[:w]))
		s = string(r[w:])
	}
	return append(out, strings.TrimSpace(s))
}

func ordinal(n int) string {
	if i18n.Current() == i18n.Turkish {
		return i18n.T("%d.", n)
	}
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

func countPlace(rs []engine.Standing, place int) int {
	n := 0
	for _, r := range rs {
		if r.Place == place {
			n++
		}
	}
	return n
}

// rules returns the table's ruleset, when a match is on screen.
func (t *TableView) rules() (engine.Ruleset, bool) {
	if t.snap == nil || t.snap.Match == nil {
		return engine.Ruleset{}, false
	}
	return t.snap.Match.Rules(), true
}

// drawScoring writes, below a score table, how the preset scores and who
// plays with whom, in the rows left above bottom. It returns the next row.
func (t *TableView) drawScoring(scr tcell.Screen, x, row, w, bottom int, names []string, st tcell.Style) int {
	r, ok := t.rules()
	if !ok {
		return row
	}
	for _, l := range []string{scoringLine(r), teamsLine(r, names)} {
		for _, part := range wrap2(l, w) {
			if row >= bottom || part == "" {
				break
			}
			put(scr, x, row, w, part, st)
			row++
		}
	}
	return row
}

// wrap2 cuts s at spaces into lines of at most w cells.
func wrap2(s string, w int) []string {
	var out []string
	rs := []rune(s)
	for len(rs) > w && w > 0 {
		cut := w
		for i := w; i > 0; i-- {
			if rs[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, string(rs[:cut]))
		rs = []rune(strings.TrimLeft(string(rs[cut:]), " "))
	}
	return append(out, string(rs))
}

// drawOpenRacks shows what every player held when the hand ended, once the
// audit has opened all the tiles (the winner's hand is shown above).
func (t *TableView) drawOpenRacks(scr tcell.Screen, x, row, w, bottom int, e *HandEnd, st tcell.Style) int {
	if t.snap == nil || len(e.Racks) == 0 {
		return row
	}
	var tiles []int
	for _, l := range t.snap.Finished {
		if l.Hand == e.Hand {
			tiles = l.Tiles
		}
	}
	if tiles == nil || row+1 >= bottom {
		return row
	}
	put(scr, x, row, w, i18n.T("the other hands, opened by the audit:"), st.Foreground(t.pal.Dim))
	row++
	for seat, rack := range e.Racks {
		if seat == e.Result.Winner || len(rack) == 0 {
			continue
		}
		if row >= bottom {
			break
		}
		var faces []engine.Face
		for _, sl := range rack {
			if int(sl) < len(tiles) {
				faces = append(faces, engine.Tile(tiles[sl]).Face())
			}
		}
		slices.SortFunc(faces, func(a, b engine.Face) int { return faceKey(a) - faceKey(b) })
		name := i18n.T("seat %d", seat)
		if seat < len(e.Names) {
			name = e.Names[seat]
		}
		cx := put(scr, x, row, 11, fmt.Sprintf("%-10.10s ", name), st)
		for _, f := range faces {
			if cx+3 > x+w {
				break
			}
			cx = drawSmall(scr, t.pal, cx, row, f, e.Okey) + 1
		}
		row++
	}
	return row
}

// drawTooSmall is the screen of a terminal too small for the table. The
// table goes on meanwhile (the others wait only the turn timer and the
// withhold margin), so it says whose turn it is, the time left, and that
// the program moves for the player when its time runs out.
func (t *TableView) drawTooSmall(scr tcell.Screen, x, y, w, h int) {
	p := t.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	var lines []struct {
		s  string
		st tcell.Style
	}
	add := func(s string, st tcell.Style) {
		for _, l := range wrap2(s, w-1) {
			lines = append(lines, struct {
				s  string
				st tcell.Style
			}{l, st})
		}
	}
	add(i18n.T("okey needs %dx%d, this terminal is %dx%d", MinWidth, MinHeight, w, h), felt.Foreground(p.Bad))
	add(i18n.T("make it larger, or press q to leave"), felt)
	if t.snap != nil && t.final == nil && t.overlay != quitOverlay {
		add("", felt)
		add(t.turnText(), felt.Foreground(p.Accent).Bold(true))
		if left, ok := t.TimeLeft(); ok {
			secs := int((left + time.Second - 1) / time.Second)
			if seat := t.turnSeat(); seat == t.snap.Seat {
				st := felt.Foreground(p.Accent).Bold(true)
				if secs <= 10 {
					st = felt.Foreground(p.Bad).Bold(true)
				}
				add(i18n.T("your time: %ds", secs), st)
				add(i18n.T("the table goes on: when your time runs out, the program moves for you (it draws, then discards the tile the hint recommends)"), felt)
			} else {
				add(i18n.T("%s has %ds left", t.snap.Name(t.turnSeat()), secs), felt)
				add(i18n.T("the table goes on: when your turn's time runs out, the program moves for you"), felt)
			}
		} else if t.myMove() {
			add(i18n.T("the table waits for your move"), felt)
		}
	}
	if t.overlay == quitOverlay {
		add("", felt)
		add(i18n.T("leave the table? y: leave   n: stay"), felt.Foreground(p.Accent).Bold(true))
	}
	// The last moves, in the rows left.
	if left := h - len(lines) - 1; left > 0 && len(t.log) > 0 {
		add("", felt)
		recent := t.log[max(len(t.log)-left+1, 0):]
		for _, l := range recent {
			lines = append(lines, struct {
				s  string
				st tcell.Style
			}{l.String(), felt.Foreground(p.Dim)})
		}
	}
	for i, l := range lines {
		if i >= h {
			break
		}
		put(scr, x, y+i, w, l.s, l.st)
	}
}

// turnText says whose move it is, or who is working on what; on the
// player's move, what it may do.
func (t *TableView) turnText() string {
	text := Progress(t.snap)
	if t.myMove() {
		switch {
		case !t.drawn() && t.canTake():
			text = i18n.T("your turn: draw from the stock (d) or take the discard (t)")
		case !t.drawn():
			text = i18n.T("your turn: draw from the stock (d)")
		default:
			text = i18n.T("your turn: discard a tile (x), or declare a win (w)")
		}
	}
	return text
}

// SeatLink is how this player's peer reaches another seat.
type SeatLink struct {
	Name string
	// Kind is "direct", "relayed" (through a relay), "via-member" (only
	// through another member's gossip) or "none" (the link dropped: the
	// peer is reconnecting).
	Kind string
	RTT  time.Duration // 0: not measured
}

// linksText is the table screen's line about the seats' links.
func linksText(links []SeatLink) string {
	var parts []string
	for _, l := range links {
		var kind string
		switch l.Kind {
		case "direct":
			kind = i18n.T("direct")
		case "relayed":
			kind = i18n.T("relayed")
		case "via-member":
			kind = i18n.T("through a member")
		default:
			parts = append(parts, i18n.T("%s reconnecting", l.Name))
			continue
		}
		if l.RTT > 0 {
			kind += " " + i18n.T("%d ms", l.RTT.Milliseconds())
		}
		parts = append(parts, l.Name+" "+kind)
	}
	return i18n.T("links: %s", strings.Join(parts, " · "))
}
