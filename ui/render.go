package ui

import (
	"fmt"
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
	g := t.game()
	// A table played over the network keeps a row, over the message
	// line, for each seat's link: the game has the rows above it.
	gh := h
	if t.networked() {
		gh--
		t.drawLinks(scr, x, y+h-3, w)
	}
	chatY := y + h - 2 // the chat line's row (the message line's without one)
	if t.chat != nil {
		gh--
		chatY = y + gh - 2
		t.drawChat(scr, x, chatY, w)
	}
	rackY := t.drawGame(scr, g, x, y, w, gh)
	t.drawMessage(scr, x, y+h-2, w)
	t.drawStatus(scr, x, y+h-1, w)
	if t.overlay == noOverlay {
		t.drawChatPanel(scr, x, y+1, w, chatY-y-1) // over the rack too: it is brief
	}
	switch t.overlay {
	case helpOverlay:
		t.drawHelp(scr, x, y, w, h-1)
	case quitOverlay:
		t.drawQuit(scr, x, y, w, rackY)
	case confirmOverlay:
		t.drawConfirm(scr, x, y, w, rackY)
	case handOverlay:
		g.drawHandEnd(t, scr, x, y, w, gh, rackY)
	case matchOverlay:
		t.drawMatchPanel(scr, x, y, w, gh, rackY)
	}
}

// drawMatchPanel draws the match's panel over the table above the rack,
// or over the rack too when it needs the rows (the transcript's path at
// 80x24), as the hand's panel does.
func (t *TableView) drawMatchPanel(scr tcell.Screen, x, y, w, h, rackY int) {
	ph := rackY - 1
	// Its text, the q line and the edges.
	if need := t.drawMatchEnd(measureScreen{scr}, x, y+1, w, 2*h) - (y + 1) + 2; need > ph {
		// Down to the rack's last row: the message line stays.
		ph = h - 3
	}
	t.drawMatchEnd(scr, x, y+1, w, ph)
}

func (t *TableView) drawHeader(scr tcell.Screen, x, y, w int) {
	p := t.pal
	st := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	fill(scr, x, y, w, 1, st)
	s := t.m.Snap
	hq := i18n.T("? help · q quit")
	// The title drops its least useful parts until it fits, never cut
	// in a word: the ruleset's options, then the game's detail, then
	// the ruleset.
	room := w - width(hq) - 2
	title := " okey"
	if s != nil {
		you := ""
		if s.Seat >= 0 && s.Seat < len(s.Names) {
			you = " · " + i18n.T("you are %s", s.Names[s.Seat])
			if r, ok := t.rules(); ok {
				if tm := team(r, len(s.Names), s.Seat); tm != "" {
					you += " (" + tm + ")"
				}
			}
		}
		preset, _, _ := strings.Cut(s.Ruleset, ":")
		detail := t.game().title(t)
		ctx := ""
		if t.context != "" {
			ctx = " · " + t.context
		}
		for _, c := range []string{
			" okey" + ctx + " · " + RulesetName(s.Ruleset) + detail + you,
			" okey" + ctx + " · " + PresetName(preset) + detail + you,
			" okey" + ctx + " · " + PresetName(preset) + you,
			" okey" + ctx + you,
			" okey" + you,
		} {
			title = c
			if width(c) <= room {
				break
			}
		}
	}
	put(scr, x, y, room, title, st.Bold(true))
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
			sl := t.m.Rack.At(pos)
			if sl == engine.NoSlot {
				put(scr, tx, ty, TileWidth, " .  ", wood.Foreground(p.Ledge))
			} else {
				face := p.Face
				if pos == t.m.Rack.Lifted || selected[sl] {
					face = p.Lifted
				}
				drawTile(scr, p, tx, ty, faceOf(sl), okey, face)
			}
			mark := ""
			mst := ledge
			switch {
			case pos == t.m.Rack.Cursor && t.m.Rack.Lifted >= 0 && pos != t.m.Rack.Lifted:
				mark, mst = i18n.T("^to^"), ledge.Foreground(p.Cursor).Bold(true)
			case pos == t.m.Rack.Cursor:
				mark, mst = "^^^^", ledge.Foreground(p.Cursor).Bold(true)
			case pos == t.m.Rack.Lifted:
				mark, mst = i18n.T("lift"), ledge.Foreground(p.Lifted)
			case sl != engine.NoSlot && selected[sl]:
				mark, mst = " ** ", ledge.Foreground(p.Lifted).Bold(true)
			case sl != engine.NoSlot && t.m.Hinted[sl]:
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
	if t.m.MsgBad {
		st = st.Foreground(p.Bad).Bold(true)
	}
	// A message too long for the line loses its last thoughts ("; next
	// best: ..."), never a word's letters, nor the part it keeps (MsgKeep).
	put(scr, x+1, y, w-2, fitKeep(t.m.Msg, t.m.MsgKeep, w-2), st)
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
	if title != "" {
		put(scr, x+2, y, w-4, " "+title+" ", st.Bold(true).Foreground(p.Accent))
	}
	return x + 2, y + 1, w - 4, h - 2
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
func (t *TableView) drawGroups(scr tcell.Screen, x, y, w int, groups []engine.Group, okey engine.Face) int {
	cx := x
	for _, g := range groups {
		l := groupSpans(g.Tiles, g.As, okey)
		need := spansWidth(l)
		if cx > x && cx+need > x+w {
			cx = x
			y++
		}
		cx = drawSpans(scr, t.pal, cx, y, x+w-cx, l, okey, tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text))
		cx += 3
	}
	return y + 1
}

// drawMatchEnd draws the match's panel at x, y, w x h and returns the
// row after its text (the q line aside).
func (t *TableView) drawMatchEnd(scr tcell.Screen, x, y, w, h int) int {
	m := t.m.Final
	ix, iy, iw, ih := t.panel(scr, x, y, w, h, i18n.T("the match is over"))
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	row := iy
	if m.Note != "" {
		for _, l := range wrap2(m.Note, iw) {
			put(scr, ix, row, iw, l, st.Foreground(t.pal.Accent).Bold(true))
			row++
		}
		row++
	}
	if m.Err != nil {
		put(scr, ix, row, iw, i18n.T("The match stopped: %s", Explain(m.Err)), st.Foreground(t.pal.Bad).Bold(true))
		row += 2
	}
	names := []string{}
	if t.m.Snap != nil {
		names = t.m.Snap.Names
	}
	// The headline: how the player did.
	for _, r := range m.Ranking {
		if t.m.Snap == nil || r.Seat != t.m.Snap.Seat || m.Err != nil {
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
		// Wrapped at words: a verdict is never cut inside one.
		for _, l := range wrap2(m.Verdict, iw) {
			put(scr, ix, row, iw, l, vst)
			row++
		}
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
	ql := i18n.T("q: quit")
	if t.back != nil {
		ql = i18n.T("q: back to the lobby (q there quits okey)")
	}
	put(scr, ix, iy+ih-1, iw, ql, st.Foreground(t.pal.Accent).Bold(true))
	return row
}

// wrap cuts s into lines of at most w cells: after a space or a path's
// separator where there is one (issue 37, 6: "folder/" and
// "r1-t0.transcript" stay whole), else at any character (a name longer
// than the line).
func wrap(s string, w int) []string {
	var out []string
	for width(s) > w && w > 0 {
		r := []rune(s)
		cut := w
		for i := w; i > w/2; i-- {
			if r[i-1] == '/' || r[i-1] == '\\' || r[i-1] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " "))
		s = string(r[cut:])
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
	if t.m.Snap == nil || t.m.Snap.Match == nil {
		return engine.Ruleset{}, false
	}
	return t.m.Snap.Match.Rules(), true
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
	if t.m.Snap != nil && t.m.Final == nil && t.overlay != quitOverlay {
		add("", felt)
		add(t.game().turnText(t), felt.Foreground(p.Accent).Bold(true))
		if left, ok := t.TimeLeft(); ok {
			secs := int((left + time.Second - 1) / time.Second)
			if seat := t.turnSeat(); seat == t.m.Snap.Seat {
				st := felt.Foreground(p.Accent).Bold(true)
				if secs <= 10 {
					st = felt.Foreground(p.Bad).Bold(true)
				}
				add(i18n.T("your time: %ds", secs), st)
				add(i18n.T("the table goes on: when your time runs out, the program moves for you (it draws, then discards the tile the hint recommends)"), felt)
			} else {
				add(i18n.T("%s has %ds left", t.m.Snap.Name(t.turnSeat()), secs), felt)
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
	if left := h - len(lines) - 1; left > 0 && len(t.m.Log) > 0 {
		add("", felt)
		recent := t.m.Log[max(len(t.m.Log)-left+1, 0):]
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
