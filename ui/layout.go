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

// Where a seat sits, seen from the player: the player before it in the
// order of play on its left (the pile it may take from lies there), the one
// after it on its right, the other across.
type side uint8

const (
	sideLeft side = iota
	sideAcross
	sideRight
)

// sideLogMin is the terminal width from which the log gets a column of its
// own at the right of the table (from sideLogMinH rows).
const sideLogMin = 120

// sideLogMinH is the height from which the seats spread around a table
// with an edge (with the log in its own column).
const sideLogMinH = 32

// tableLayout is where the parts of the table screen go, for one size.
type tableLayout struct {
	// The table: the other seats around it, the centre (face-up tile, okey,
	// stock, the discard to take) in the middle.
	tx, tw       int // the table's columns
	across       int // the row of the seat across
	mid          int // the first row of the side seats and the centre
	sideW        int // the width of a side seat's block
	sideH        int // its rows (name, tiles and points, pile rows)
	turn         int // the turn line's row
	logX, logY   int
	logW, logH   int
	me           int // the player's own line (its pile), above the rack
	rackX, rackY int
	// The table's wooden edge (wide layouts).
	frame                 bool
	frameTop, frameBottom int
}

// layoutFor lays the table out in a w x h screen at (x, y) (at least
// MinWidth x MinHeight). Up to sideLogMin columns the log runs under the
// turn line; wider, it has a column at the right, and the seats spread
// over the rows the terminal gives.
func layoutFor(x, y, w, h int) tableLayout {
	var l tableLayout
	l.rackY = y + h - 2 - rackH
	l.rackX = x + (w-rackW)/2
	l.me = l.rackY - 1
	top := y + 1
	l.tx, l.tw = x, w
	if w >= sideLogMin && h >= sideLogMinH {
		l.logW = min(56, w/3)
		l.tw = w - l.logW
		l.logX, l.logY = x+l.tw, top
		l.logH = l.me - top
	}
	l.sideW = min((l.tw-36)/2, 44)
	l.across = top
	if l.logW == 0 {
		// 80 x 24 and the like: the seats and the centre in 5 rows, the
		// turn line, then as many log lines as are left.
		l.sideH = 4
		l.mid = top + 1
		l.turn = l.mid + l.sideH
		l.logX, l.logY, l.logW = x, l.turn+1, w
		l.logH = l.me - l.logY
		return l
	}
	// Wider: the log has a column of its own; the seats sit around a
	// table with a wooden edge, the side seats and the centre halfway
	// down it, their piles on as many rows as fit; the turn line and the
	// player's own line are under the table, over the rack.
	l.turn = l.me - 1
	l.frame = true
	l.frameTop, l.frameBottom = top, l.turn-1
	inner := l.frameBottom - l.frameTop - 1 // rows inside the edge
	l.across = l.frameTop + 1
	// The centre (4 rows) in the middle of the table; the side seats from
	// its top down, under the seat across (name, points, its pile).
	l.mid = max(l.across+8, l.frameTop+(inner-4)/2)
	l.sideH = min(max(4, l.frameBottom-l.mid-3), 10)
	l.sideW = min((l.tw-2-36)/2, 44)
	l.logH = y + h - 2 - top
	if l.tw >= rackW+2 {
		l.rackX = x + (l.tw-rackW)/2
	}
	return l
}

// seatSides maps each other seat to where it sits, from the order of play
// (seat numbers before the first hand).
func seatSides(s *Snapshot) map[int]side {
	n := len(s.Names)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if h := s.HandState(); h != nil && len(h.Order()) > 0 {
		order = h.Order()
	}
	i := slices.Index(order, s.Seat)
	if i < 0 {
		i = 0
	}
	k := len(order)
	at := func(d int) int { return order[(i+d+k)%k] }
	out := map[int]side{}
	switch k {
	case 2:
		out[at(1)] = sideAcross
	case 3:
		out[at(-1)], out[at(1)] = sideLeft, sideRight
	default:
		out[at(-1)], out[at(1)], out[at(2)] = sideLeft, sideRight, sideAcross
		for d := 3; d < k-1; d++ {
			out[at(d)] = sideAcross
		}
	}
	return out
}

// justNow marks the tile just discarded.
const justNow = "< just now"

// justNowText is justNow in the interface's language.
func justNowText() string { return i18n.T(justNow) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// drawTable draws the other seats around the table, the centre, and the
// player's own line.
func (cl *classicPart) drawTable(t *TableView, scr tcell.Screen, l tableLayout) {
	s := t.m.Snap
	p := t.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	if s == nil {
		put(scr, l.tx+1, l.mid, l.tw-2, i18n.T("starting the table..."), felt)
		return
	}
	in := 1 // the margin at the table's sides
	if l.frame {
		wood := tcell.StyleDefault.Background(p.Wood)
		fill(scr, l.tx, l.frameTop, l.tw, 1, wood)
		fill(scr, l.tx, l.frameBottom, l.tw, 1, wood)
		fill(scr, l.tx, l.frameTop, 1, l.frameBottom-l.frameTop, wood)
		fill(scr, l.tx+l.tw-1, l.frameTop, 1, l.frameBottom-l.frameTop, wood)
		in = 2
	}
	sides := seatSides(s)
	for seat := range s.Names {
		sd, ok := sides[seat]
		if !ok || seat == s.Seat {
			continue
		}
		switch sd {
		case sideLeft:
			cl.drawSeatBlock(t, scr, seat, l.tx+in, l.mid, l.sideW, l.sideH)
		case sideRight:
			cl.drawSeatBlock(t, scr, seat, l.tx+l.tw-in-l.sideW, l.mid, l.sideW, l.sideH)
		case sideAcross:
			if l.frame {
				// Room for a block, its pile in rack-size tiles.
				bw := min(l.tw-2*in, 40)
				cl.drawSeatBlock(t, scr, seat, l.tx+(l.tw-bw)/2, l.across, bw, 7)
				continue
			}
			cl.drawSeatLine(t, scr, seat, l.tx+in, l.across, l.tw-2*in, true)
		}
	}
	cw := l.tw - 2*(l.sideW+in+1)
	cl.drawCentre(t, scr, l.tx+in+l.sideW+1, l.mid, cw)
	if s.Seat < 0 || s.Seat >= len(s.Names) {
		return // not seated: no line of its own
	}
	if l.frame {
		// The player's own pile lies at its right hand, on the table.
		dim := tcell.StyleDefault.Background(p.Felt).Foreground(p.Dim)
		py := max(l.frameBottom-7, l.mid+l.sideH)
		px := l.tx + l.tw - in - l.sideW
		put(scr, px, py, l.sideW, i18n.T("your discards"), dim)
		cl.drawPile(t, scr, s.Seat, px, py+1, l.sideW, l.frameBottom-py-1)
		name, info, st := cl.seatInfo(t, s.Seat, 24)
		cx := put(scr, l.tx+1, l.me, l.tw-2, name, st)
		put(scr, cx, l.me, l.tx+l.tw-1-cx, " · "+info, dim)
		return
	}
	cl.drawSeatLine(t, scr, s.Seat, l.tx+1, l.me, l.tw-2, false)
}

// seatInfo is a seat's name (with its team) and its tiles, points and
// gösterme, as shown beside it.
func (cl *classicPart) seatInfo(t *TableView, seat, w int) (name, info string, st tcell.Style) {
	p := t.pal
	s := t.m.Snap
	st = tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	h := s.HandState()
	names := s.Names
	if seat == s.Seat {
		names = slices.Clone(s.Names)
		names[seat] += " " + i18n.T("(you)")
	}
	name = names[seat]
	if r, ok := t.rules(); ok {
		if tm := team(r, len(names), seat); tm != "" {
			name += " · " + tm
		}
	}
	if h != nil && h.Phase() == engine.PhasePlay {
		if turn, _ := h.Turn(); turn == seat {
			name = "> " + name
			st = st.Foreground(p.Accent).Bold(true)
		}
	}
	var parts []string
	if h != nil && h.Phase() >= engine.PhasePlay {
		parts = append(parts, i18n.T("%d tiles", len(h.Rack(seat))))
	}
	if s.Match != nil {
		parts = append(parts, i18n.T("%d pts", s.Match.Scores()[seat]))
	}
	if h != nil && h.Shown(seat) {
		parts = append(parts, "(gösterme)")
	}
	return name, strings.Join(parts, " · "), st
}

// drawSeatBlock draws a seat at the side of the table: its name, its tiles
// and points, and its discard pile on the rows left.
func (cl *classicPart) drawSeatBlock(t *TableView, scr tcell.Screen, seat, x, y, w, rows int) {
	name, info, st := cl.seatInfo(t, seat, w)
	dim := tcell.StyleDefault.Background(t.pal.Felt).Foreground(t.pal.Dim)
	put(scr, x, y, w, name, st)
	const shown = " · (gösterme)"
	pileY := y + 2
	if strings.HasSuffix(info, shown) && width(info) > w {
		// No room on the line: the gösterme goes on the next line, with
		// its seat (under the pile it could sit right above another
		// seat's label, "your discards").
		info = strings.TrimSuffix(info, shown)
		put(scr, x, pileY, w, "(gösterme)", dim.Foreground(t.pal.Good))
		pileY++
	}
	put(scr, x, y+1, w, info, dim)
	cl.drawPile(t, scr, seat, x, pileY, w, rows-(pileY-y))
}

// drawSeatLine draws a seat on one line: the seat across, or the player's
// own above its rack, with its discard pile after it.
func (cl *classicPart) drawSeatLine(t *TableView, scr tcell.Screen, seat, x, y, w int, centred bool) {
	name, info, st := cl.seatInfo(t, seat, 24)
	dim := tcell.StyleDefault.Background(t.pal.Felt).Foreground(t.pal.Dim)
	label := ""
	if seat == t.m.Snap.Seat {
		label = i18n.T("your discards") + " "
	}
	need := width(name) + 3 + width(info) + 3 + width(label) + 4*cl.pileShown(t, seat, 99) + 12
	if centred && need < w {
		x += (w - need) / 2
		w = need
	}
	end := x + w
	cx := put(scr, x, y, end-x, name, st)
	if info != "" {
		cx = put(scr, cx, y, end-cx, " · "+info, dim)
	}
	cx += 3
	if label != "" {
		cx = put(scr, cx, y, end-cx, label, dim)
	}
	cl.drawPile(t, scr, seat, cx, y, end-cx, 1)
}

// pileShown is how many tiles of a seat's pile are shown with room for n:
// the rules let a player look through its own pile and the pile of the
// player before it; of the others it sees the top tile.
func (cl *classicPart) pileShown(t *TableView, seat, n int) int {
	h := t.m.Snap.HandState()
	if h == nil {
		return 0
	}
	pile := h.Pile(seat)
	if seat == t.m.Snap.Seat || seat == prevSeat(h, t.m.Snap.Seat) {
		return min(len(pile), n)
	}
	return min(len(pile), 1, n)
}

// drawPile draws a seat's discard pile in w columns and up to rows rows,
// the top tile last; the tile just discarded is marked, the top tile of
// the pile the player may take is a click to take it, and the player's own
// pile a click to discard.
func (cl *classicPart) drawPile(t *TableView, scr tcell.Screen, seat, x, y, w, rows int) {
	s := t.m.Snap
	h := s.HandState()
	p := t.pal
	dim := tcell.StyleDefault.Background(p.Felt).Foreground(p.Dim)
	if seat == s.Seat {
		// A click on the own pile discards the picked-up tile.
		t.regions = append(t.regions, region{x, y, max(w, 4), 1, func(t *TableView, _ bool) { cl.discard(t) }})
	}
	if h == nil || rows <= 0 || w < 4 {
		return
	}
	pile := h.Pile(seat)
	if len(pile) == 0 {
		if h.Phase() >= engine.PhasePlay {
			put(scr, x, y, w, i18n.T("no discards"), dim)
		}
		return
	}
	last := h.LastDiscard() == seat && h.Phase() == engine.PhasePlay
	// Rack-size tiles where there are rows for them, else one-line tiles.
	big := rows >= 5
	cw, ch := 4, 1
	if big {
		cw, ch = TileWidth+1, TileHeight+1
	}
	room := (w / cw) * max(rows/ch, 1)
	if last && !big {
		// The mark goes after the top tile (under it for rack-size tiles).
		room -= (width(justNowText()) + cw) / cw
	}
	n := cl.pileShown(t, seat, max(room, 1))
	if n < len(pile) {
		// Room for the count of the tiles not shown.
		n = cl.pileShown(t, seat, max(room-1, 1))
	}
	shown := pile[len(pile)-n:]
	cx, row := x, y
	if hidden := len(pile) - n; hidden > 0 {
		lab := fmt.Sprintf("+%d", hidden)
		if seat == s.Seat || seat == prevSeat(h, s.Seat) {
			lab = "..."
		}
		put(scr, x, y, cw, lab, dim)
		cx += cw
		if !big {
			cx = x + width(lab) + 1
		}
	}
	take := seat == prevSeat(h, s.Seat) && seat != s.Seat && h.LastDiscard() == seat
	lastX := cx
	for i, sl := range shown {
		f := h.PublicFace(sl)
		// A one-line tile takes its text and one space ("R2 K11 Y5"): a
		// 3-cell slot for each read as doubled spaces ("R2  Y5"); the same
		// as the log draws tiles.
		tw, small := cw, strings.TrimRight(SmallText(f), " ")
		if !big {
			tw = width(small) + 1
		}
		if cx+tw-1 > x+w {
			cx, row = x, row+ch
		}
		if big {
			drawTile(scr, p, cx, row, f, h.Okey(), p.Face)
		} else {
			put(scr, cx, row, tw-1, small, smallStyle(p, f, h.Okey()))
		}
		if i == len(shown)-1 && take {
			t.regions = append(t.regions, region{cx, row, tw - 1, ch - boolInt(big), func(t *TableView, _ bool) { cl.take(t) }})
		}
		lastX = cx
		cx += tw
	}
	if last && big {
		mark := tcell.StyleDefault.Background(p.Felt).Foreground(p.Accent).Bold(true)
		put(scr, lastX, row+TileHeight, x+w-lastX, i18n.T("^ just now"), mark)
	} else if last {
		mark := tcell.StyleDefault.Background(p.Felt).Foreground(p.Accent).Bold(true)
		if cx+width(justNowText()) > x+w {
			cx, row = x, row+ch
		}
		put(scr, cx, row, x+w-cx, justNowText(), mark)
	}
}

// drawSideColumn fills the column at the right of a wide table: the score
// sheet of the hands played (their totals, newest last), then the moves.
func (cl *classicPart) drawSideColumn(t *TableView, scr tcell.Screen, l tableLayout) {
	p := t.pal
	head := tcell.StyleDefault.Background(p.Felt).Foreground(p.Accent).Bold(true)
	txt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	x, y, w := l.logX+1, l.logY, l.logW-2
	row := y
	if s := t.m.Snap; s != nil && len(s.Finished) > 0 && len(s.Names) > 0 {
		put(scr, x, row, w, i18n.T("scores after each hand"), head)
		row++
		cw := max(min((w-4)/len(s.Names), 10), 5)
		cx := x + 4
		for seat := range s.Names {
			cx = put(scr, cx, row, cw, fmt.Sprintf("%*.*s", cw-1, cw-1, s.Name(seat)), txt.Foreground(p.Dim)) + 1
		}
		row++
		hands := s.Finished
		if most := max(l.logH/3-2, 1); len(hands) > most {
			hands = hands[len(hands)-most:]
		}
		for _, hl := range hands {
			cx := put(scr, x, row, 4, fmt.Sprintf("%-4s", fmt.Sprintf("%d", hl.Hand+1)), txt.Foreground(p.Dim))
			for seat := range s.Names {
				v := ""
				if seat < len(hl.Scores) {
					v = fmt.Sprintf("%d", hl.Scores[seat])
				}
				cx = put(scr, cx, row, cw, fmt.Sprintf("%*s", cw-1, v), txt) + 1
			}
			row++
		}
		row++
	}
	put(scr, x, row, w, i18n.T("moves"), head)
	row++
	cl.drawLog(t, scr, x-1, row, w+1, y+l.logH-row)
}

// drawCentre draws the middle of the table in w columns: the face-up
// tile, the okey, the stock, the discard the player may take (where there
// is room), and under them the dealer and the turns played.
func (cl *classicPart) drawCentre(t *TableView, scr tcell.Screen, x, y, w int) {
	p := t.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	dim := felt.Foreground(p.Dim)
	s := t.m.Snap
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
		t.regions = append(t.regions, region{cx, y + 1, 4, 2, func(t *TableView, _ bool) { cl.drawFromStock(t) }})
	}
	cx += 8
	if cols == 4 {
		put(scr, max(cx, end+1), y, 8, i18n.T("to take"), dim)
		prev := prevSeat(h, s.Seat)
		if from := h.LastDiscard(); from >= 0 && from == prev {
			if pile := h.Pile(from); len(pile) > 0 {
				drawTile(scr, p, cx, y+1, h.PublicFace(pile[len(pile)-1]), h.Okey(), p.Face)
				t.regions = append(t.regions, region{cx, y + 1, 4, 2, func(t *TableView, _ bool) { cl.take(t) }})
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
func (cl *classicPart) drawTurn(t *TableView, scr tcell.Screen, x, y, w int) {
	p := t.pal
	st := tcell.StyleDefault.Background(p.Felt).Foreground(p.Accent).Bold(true)
	s := t.m.Snap
	text := cl.turnText(t)
	if s != nil && !s.Done && !s.At.IsZero() {
		if el := t.m.Now().Sub(s.At); el >= 3e9 {
			if s.Expect != s.Seat {
				text += "  " + i18n.T("(waiting %ds)", int(el.Seconds()))
			}
		}
	}
	room := w - 2
	if left, ok := t.TimeLeft(); ok {
		// The turn timer, at the right: the player's own is a badge that
		// turns red in its last 10 seconds.
		secs := int((left + time.Second - 1) / time.Second)
		badge := " " + i18n.T("%ds left", secs) + " "
		bst := st.Foreground(p.Dim).Bold(false)
		if mine := t.m.Snap.Seat; mine >= 0 {
			if seat, _ := t.m.Snap.HandState().Turn(); seat == mine {
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

func (cl *classicPart) drawLog(t *TableView, scr tcell.Screen, x, y, w, h int) {
	if h <= 0 {
		return
	}
	p := t.pal
	dim := tcell.StyleDefault.Background(p.Felt).Foreground(p.Dim)
	lines := t.m.Log
	if len(lines) > h {
		lines = lines[len(lines)-h:]
	}
	okey := engine.NoFace
	if hs := t.m.Snap.HandState(); hs != nil {
		okey = hs.Okey()
	}
	for i, l := range lines {
		drawSpans(scr, p, x+1, y+i, w-2, l, okey, dim)
	}
}

func (cl *classicPart) drawRack(t *TableView, scr tcell.Screen, x, y int) {
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
	drawLegend(scr, x+11, y, bx-1-(x+11), wood)
	s := t.m.Snap
	h := s.HandState()
	okey := engine.NoFace
	if h != nil {
		okey = h.Okey()
	}
	playing := h != nil && h.Phase() == engine.PhasePlay
	t.drawRackTiles(scr, x, y, okey, func(sl engine.Slot) engine.Face { return s.View.Face(h, sl) }, nil, playing, func(t *TableView, p int, double bool) { cl.clickRack(t, p, double) })
}

// drawEnd draws the hand's panel at x, y, w x h and returns the row after
// its text (the enter line aside).
func (cl *classicPart) drawEnd(t *TableView, scr tcell.Screen, x, y, w, h int) int {
	if len(t.m.Ends) == 0 {
		return y
	}
	e := t.m.Ends[0]
	ix, iy, iw, ih := t.panel(scr, x, y, w, h, i18n.T("hand %d is over", e.Hand+1))
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	good := st.Foreground(t.pal.Good).Bold(true)
	row := iy
	if e.Result.Winner < 0 {
		put(scr, ix, row, iw, i18n.T("The stock ran out: no one won this hand."), good)
		row += 2
	} else {
		// The player's own win is said to the player ("yedi çiftle
		// bitirdin"), not of "you" in the third person.
		mine := t.m.Snap != nil && e.Result.Winner == t.m.Snap.Seat
		line := i18n.T("%s won with groups", e.Winner)
		switch {
		case mine && e.Result.Kind == engine.Pairs:
			line = i18n.T("you won with seven pairs")
		case mine:
			line = i18n.T("you won with groups")
		case e.Result.Kind == engine.Pairs:
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
			cx = put(scr, cx, row, ix+iw-cx, " · "+i18n.T("final discard")+" ", st)
			drawSmall(scr, t.pal, cx, row, e.Discard, e.Okey)
		}
		row++
		row = t.drawGroups(scr, ix, row+1, iw, e.Result.Groups, e.Okey) + 1
	}
	var why []string
	if t.m.Snap != nil && t.m.Snap.Match != nil {
		why = causes(t.m.Snap.Match, e.Result, e.Names)
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
	row = cl.drawOpenRacks(t, scr, ix, row, iw, iy+ih-1, e, st)
	next := i18n.T("enter: next hand")
	if e.Over {
		next = i18n.T("enter: the match result")
	}
	put(scr, ix, iy+ih-1, iw, next, st.Foreground(t.pal.Accent).Bold(true))
	return row
}

// drawOpenRacks shows what every player held when the hand ended, once the
// audit has opened all the tiles (the winner's hand is shown above).
func (cl *classicPart) drawOpenRacks(t *TableView, scr tcell.Screen, x, row, w, bottom int, e *HandEnd, st tcell.Style) int {
	if t.m.Snap == nil || len(e.Racks) == 0 {
		return row
	}
	var tiles []int
	for _, l := range t.m.Snap.Finished {
		if l.Hand == e.Hand {
			tiles = l.Tiles
		}
	}
	if tiles == nil {
		return row
	}
	if row+1 >= bottom {
		lost(scr, x, row, i18n.T("the other hands, opened by the audit:"))
		return row
	}
	put(scr, x, row, w, i18n.T("the other hands, opened by the audit:"), st.Foreground(t.pal.Dim))
	row++
	for seat, rack := range e.Racks {
		if seat == e.Result.Winner || len(rack) == 0 {
			continue
		}
		if row >= bottom {
			// No room for this rack: the tests' screens fail on it.
			lost(scr, x, row, e.Names[min(seat, len(e.Names)-1)])
			continue
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
		put(scr, x, row, 11, fmt.Sprintf("%-10.10s ", name), st)
		// Its colours apart; a rack wider than the panel goes on under
		// itself.
		for i, rw := range tileRows(faces, w-11, true) {
			if i > 0 && row >= bottom {
				lost(scr, x+11, row, engine.FormatFaces(rw))
				continue
			}
			drawTiles(scr, t.pal, x+11, row, rw, e.Okey, true)
			row++
		}
	}
	return row
}

// turnText says whose move it is, or who is working on what; on the
// player's move, what it may do (the model's turn line).
func (*classicPart) turnText(t *TableView) string { return t.m.Turn().Text }
