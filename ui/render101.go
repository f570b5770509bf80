package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/ui/tablemodel"
)

// The Okey 101 table: the seat across on the top row, the others at the
// sides, the melds on the table in the middle (each with its handle and its
// owner), the bank, the indicator and the discard to take on the turn line,
// the player's own line (how it opened, the selection's value) over the
// rack.

func (pt *part101) title(t *TableView) string {
	m := t.m.Snap.Match101
	hand, played, rounds := m.HandNumber()+1, m.Played(), m.Rules().Rounds
	if t.overlay == handOverlay && len(t.m.Ends) > 0 {
		// The round the panel shows, with its own count (issue 37, 14:
		// the match may have gone on behind the panel).
		hand = int(t.m.Ends[0].Hand) + 1
		if r := t.m.Ends[0].R101; r != nil {
			played, rounds = r.Played, r.Rounds
		}
	}
	return " · " + i18n.T("round %d (%d of %d counted)", hand, played, rounds)
}

// seatWord is how a seat stands: its tiles, how it opened, its total.
func (pt *part101) seatWord(t *TableView, seat int) string {
	return tablemodel.SeatWord101(t.m.Snap.Match101, seat)
}

// packParts joins the " · "-separated parts of s into lines at most w
// cells wide, breaking only between parts (a part wider than w is cut
// by the drawing).
func packParts(s string, w int) []string {
	var out []string
	cur := ""
	for _, part := range strings.Split(s, " · ") {
		switch {
		case cur == "":
			cur = part
		case len([]rune(cur))+3+len([]rune(part)) <= w:
			cur += " · " + part
		default:
			out = append(out, cur)
			cur = part
		}
	}
	return append(out, cur)
}

func (pt *part101) draw(t *TableView, scr tcell.Screen, x, y, w, h int) int {
	p := t.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	dim := felt.Foreground(p.Dim)
	s := t.m.Snap
	g := round(t)
	rackY := y + h - 2 - rackH
	rackX := x + (w-rackW)/2
	me := rackY - 1
	turnY := me - 1
	top := y + 1
	sideW := min(22, (w-40)/2)
	sides := seatSides(s)
	turnSeat, _, _ := g.Turn()
	name := func(seat int) (string, tcell.Style) {
		st := felt.Bold(true)
		nm := s.Name(seat)
		if seat == turnSeat {
			st = st.Foreground(p.Accent)
			nm = "▶ " + nm
		}
		if seat == g.Dealer() {
			nm += " (" + i18n.T("dealer") + ")"
		}
		return nm, st
	}
	pileTop := func(seat int) engine.Face {
		if pl := g.Pile(seat); len(pl) > 0 {
			return g.PublicFace(pl[len(pl)-1])
		}
		return engine.NoFace
	}
	midTop := top
	for seat, sd := range sides {
		nm, st := name(seat)
		switch sd {
		case sideAcross:
			// The row is the across seat's alone: its line and the label
			// of its last discard may run to the screen's edge.
			room := w - sideW - 2
			f := pileTop(seat)
			label := i18n.T("last discard") + " "
			if f != engine.NoFace {
				room -= width(label) + 6
			}
			cx := put(scr, x+sideW+1, top, room, fitParts(nm+" · "+pt.seatWord(t, seat), room), st)
			if f != engine.NoFace {
				// The label is a noun (the seat's last discard), not the
				// discard key's order: in Turkish they differ.
				cx = put(scr, cx, top, width(label)+3, " · "+label, dim)
				drawSmall(scr, p, cx, top, f, g.Okey())
			}
			midTop = top + 1
		case sideLeft, sideRight:
			bx := x
			if sd == sideRight {
				bx = x + w - sideW
			}
			put(scr, bx, top+1, sideW, nm, st)
			for i, l := range packParts(pt.seatWord(t, seat), sideW) {
				if i == 3 {
					break
				}
				put(scr, bx, top+2+i, sideW, l, dim)
			}
			if f := pileTop(seat); f != engine.NoFace {
				cx := put(scr, bx, top+5, sideW, i18n.T("last discard")+" ", dim)
				drawSmall(scr, p, cx, top+5, f, g.Okey())
			}
		}
	}
	// The melds, in the middle, three cells from the side seats' columns
	// as from each other.
	mx, mw := x+sideW+3, w-2*sideW-6
	if len(sides) == 1 {
		mx, mw = x+1, w-2
	}
	// Beside the side seats (name, three lines, their discard) the melds
	// keep to the middle; under them they take the whole width.
	narrow := 0
	if len(sides) > 1 {
		narrow = top + 6 - midTop
	}
	pt.drawMelds(t, scr, mx, midTop, mw, turnY-1-midTop, narrow, x+1, w-2)
	pt.drawTurn(t, scr, x, turnY, w)
	pt.drawMe(t, scr, x, me, w)
	pt.drawRack(t, scr, rackX, rackY)
	return rackY
}

func (pt *part101) drawHandEnd(t *TableView, scr tcell.Screen, x, y, w, h, _ int) {
	if len(t.m.Ends) > 0 && t.m.Ends[0].R101 != nil {
		pt.drawEnd(t, scr, x, y+1, w, h-2)
	}
}

func (*part101) help(*TableView) helpPage {
	return helpPage{title: i18n.T("keys (Okey 101)"), keyWidth: 12, wrap: true, lines: []helpLine{
		{"1-9 A-Z", i18n.T("add the selection to that meld (or take its okey for your tile)")},
		{i18n.T("mouse"), i18n.T("click: select a tile, add to a meld; double click: discard;")},
		{"", i18n.T("click the bank: draw; the previous discard: take")},
		{i18n.T("scoring"), i18n.T("finish -101; others their sum, 202 unopened; lowest total wins")}}}
}

// meldText is a meld's label: its handle and its owner.
func (pt *part101) meldLabel(t *TableView, i int, m engine.Meld) string {
	nm := t.m.Snap.Name(m.Owner)
	if len([]rune(nm)) > 6 {
		nm = string([]rune(nm)[:5]) + "…"
	}
	return fmt.Sprintf("%c %s", handleOf(i), nm)
}

// drawMelds draws the melds on the table from row y on, as many to a
// row as fit, then the last log lines in the rows left. The first narrow
// rows (beside the side seats) are w cells wide from x; the rows after
// them the full width from wx.
func (pt *part101) drawMelds(t *TableView, scr tcell.Screen, x, y, w, rows, narrow, wx, ww int) {
	p := t.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	g := round(t)
	melds := g.Melds()
	pt.handles = pt.handles[:0]
	geom := func(row int) (int, int) {
		if row < narrow {
			return x, w
		}
		return wx, ww
	}
	labels := make([]string, len(melds))
	tiles := make([]Line, len(melds))
	widths := make([]int, len(melds))
	for i, m := range melds {
		for k, sl := range m.Tiles {
			tiles[i] = append(tiles[i], meldTile(g, m, k, sl))
		}
		labels[i] = pt.meldLabel(t, i, m)
		widths[i] = width(labels[i]) + 1 + spansWidth(tiles[i])
	}
	// The melds as many to a row as fit; those past the last row are
	// counted ("+2 more") after the last one shown, never over one.
	at, moreX, moreY := layMelds(widths, y, rows, narrow, geom)
	row := 0
	for i, pos := range at {
		cx := pos[0]
		row = pos[1] - y
		bx, bw := geom(row)
		st := felt.Foreground(p.Accent).Bold(true)
		start := cx
		// The owner's name, then a space, then the tiles: a long name is
		// cut with an ellipsis, never run into the tiles.
		cx = put(scr, cx, y+row, width(labels[i]), labels[i], st) + 1
		cx = drawSpans(scr, p, cx, y+row, bx+bw-cx, tiles[i], g.Okey(), felt)
		k := i
		t.regions = append(t.regions, region{start, y + row, cx - start, 1, func(t *TableView, _ bool) { pt.addTo(t, k) }})
		pt.handles = append(pt.handles, meldHandle{key: handleOf(i), x: start, y: y + row, w: cx - start, h: 1})
	}
	if len(melds) == 0 {
		put(scr, x, y, w, i18n.T("no melds on the table yet"), felt.Foreground(p.Dim))
	} else if len(at) < len(melds) {
		if moreY < y+rows {
			mx, mw := geom(moreY - y)
			put(scr, moreX, moreY, mx+mw-moreX, moreText(len(melds)-len(at)), felt.Foreground(p.Dim))
		}
		// No room for the log.
		return
	} else {
		row++
	}
	// The log in the rows left.
	left := rows - row - 1
	if left <= 0 {
		return
	}
	lines := t.m.Log
	if len(lines) > left {
		lines = lines[len(lines)-left:]
	}
	for i, l := range lines {
		lx, lw := geom(row + 1 + i)
		drawSpans(scr, p, lx, y+row+1+i, lw, l, g.Okey(), felt.Foreground(p.Dim))
	}
}

// drawTurn is the turn line: the bank, the indicator and the okey, the
// discard the player may take; whose turn it is on the row above.
func (pt *part101) drawTurn(t *TableView, scr tcell.Screen, x, y, w int) {
	p := t.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	g := round(t)
	cx := x + 1
	start := cx
	cx = put(scr, cx, y, 20, i18n.T("bank %d", len(g.Stock())), felt.Bold(true))
	t.regions = append(t.regions, region{start, y, cx - start, 1, func(t *TableView, _ bool) { pt.bank(t) }})
	// Each tile as wide as its text, two spaces after it: "indicator
	// Y10  okey Y11" as "indicator K3  okey K4" (3-cell slots left one).
	if _, ind := g.Indicator(); ind != engine.NoFace {
		cx = put(scr, cx+2, y, 12, i18n.T("indicator")+" ", felt)
		cx = drawTiles(scr, p, cx, y, []engine.Face{ind}, g.Okey(), false)
		cx = put(scr, cx+2, y, 6, "okey ", felt)
		cx = drawTiles(scr, p, cx, y, []engine.Face{g.Okey()}, g.Okey(), false)
	}
	if f := prevDiscard101(g); f != engine.NoFace {
		start := cx + 2
		cx = put(scr, start, y, 30, i18n.T("previous discard")+" ", felt)
		cx = drawTiles(scr, p, cx, y, []engine.Face{f}, g.Okey(), false)
		t.regions = append(t.regions, region{start, y, cx - start, 1, func(t *TableView, _ bool) { pt.take(t) }})
	}
	tl := t.m.Turn()
	turn := tl.Text
	st := felt.Foreground(p.Accent).Bold(true)
	switch tl.Whose {
	case tablemodel.TurnTable:
		st = felt.Foreground(p.Dim)
	case tablemodel.TurnOther:
		st = felt
	}
	if left, ok := t.TimeLeft(); ok {
		turn += " · " + i18n.T("%ds left", int((left+time.Second-1)/time.Second))
	}
	put(scr, x+1, y-1, w-2, turn, st)
}

// drawMe is the player's own line: how it opened, its total, the
// selection's value as melds.
func (pt *part101) drawMe(t *TableView, scr tcell.Screen, x, y, w int) {
	p := t.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	me := i18n.T("you") + " · " + pt.seatWord(t, t.m.Snap.Seat)
	if len(t.m.Sel) == 0 {
		put(scr, x+1, y, w-2, fitParts(me, w-2), felt.Bold(true))
		return
	}
	// With a selection the line gives the selection's value room first:
	// the seat's own details go, its tile count first (the rack shows
	// it), then its total.
	sel := pt.selText(t)
	if width(me)+2+width(sel) > w-2 {
		parts := strings.Split(me, " · ")
		me = strings.Join(slices.Delete(parts, 1, 2), " · ")
	}
	me = fitParts(me, w-4-width(sel))
	cx := put(scr, x+1, y, w-2, me, felt.Bold(true))
	put(scr, cx+2, y, x+w-cx-3, fitParts(sel, x+w-cx-3), felt.Foreground(p.Hint).Bold(true))
}

func (pt *part101) drawRack(t *TableView, scr tcell.Screen, x, y int) {
	p := t.pal
	wood := tcell.StyleDefault.Background(p.Wood).Foreground(p.Text)
	fill(scr, x, y, rackW, rackH, wood)
	put(scr, x+1, y, 20, " "+i18n.T("your rack")+" ", wood.Bold(true))
	drawLegend(scr, x+21, y, rackW-22, wood)
	g := round(t)
	okey := g.Okey()
	t.drawRackTiles(scr, x, y, okey, t.face, t.m.Sel, g.Phase() == engine.Phase101Play, func(t *TableView, p int, double bool) { pt.clickRack(t, p, double) })
}

// drawEnd is the round's end: how it ended, every seat's points with
// their causes, every rack, the score table of the rounds so far.
func (pt *part101) drawEnd(t *TableView, scr tcell.Screen, x, y, w, h int) {
	e := t.m.Ends[0]
	r := e.R101
	res := r.Result
	title := i18n.T("round %d is over", e.Hand+1)
	ix, iy, iw, ih := t.panel(scr, x, y, w, h, title)
	st := tcell.StyleDefault.Background(t.pal.Overlay).Foreground(t.pal.Text)
	bold := st.Bold(true)
	row := iy
	name := func(s int) string {
		if s < len(e.Names) {
			return e.Names[s]
		}
		return fmt.Sprintf("seat %d", s)
	}
	head := tablemodel.EndHead101(res, name)
	put(scr, ix, row, iw, head, bold.Foreground(t.pal.Good))
	row += 2
	for s := range r.Racks {
		if row >= iy+ih-4 {
			break
		}
		causes := causes101(res, r.Opened, s)
		pts := 0
		if s < len(res.Points) {
			pts = res.Points[s]
		}
		total := 0
		if s < len(e.Scores) {
			total = e.Scores[s]
		}
		lead := fmt.Sprintf("%-12.12s %+5d  %s %5d  ", name(s), pts, i18n.T("total"), total)
		for i, part := range wrap2(causes, iw-width(lead)) {
			if i > 0 && row >= iy+ih-4 {
				break
			}
			if i == 0 {
				put(scr, ix, row, iw, lead, st)
			}
			put(scr, ix+width(lead), row, iw-width(lead), part, st)
			row++
		}
		if len(r.Racks[s]) == 0 {
			put(scr, ix+3, row, iw-4, i18n.T("(empty rack)"), st.Foreground(t.pal.Dim))
			row++
		}
		// The rack in face order, its colours apart; a rack wider than
		// the panel goes on under itself.
		rack := slices.Clone(r.Racks[s])
		slices.SortFunc(rack, func(a, b engine.Face) int { return faceKey(a) - faceKey(b) })
		for i, rw := range tileRows(rack, iw-3, true) {
			if i > 0 && row >= iy+ih-2 {
				lost(scr, ix+3, row, engine.FormatFaces(rw))
				continue
			}
			drawTiles(scr, t.pal, ix+3, row, rw, e.Okey, true)
			row++
		}
	}
	row++
	// The score table: the rounds so far.
	if row < iy+ih-2 {
		hdr := fmt.Sprintf("%-8s", i18n.T("round"))
		for s := range r.Racks {
			hdr += fmt.Sprintf(" %8.8s", name(s))
		}
		put(scr, ix, row, iw, hdr, bold)
		row++
		counted := 0
		for i, rr := range r.Results {
			if row >= iy+ih-2 {
				break
			}
			label := fmt.Sprintf("%-8d", i+1)
			if rr.End == engine.EndCancelled {
				label = fmt.Sprintf("%-8s", i18n.T("void"))
			} else {
				counted++
			}
			for s := range r.Racks {
				v := 0
				if s < len(rr.Points) {
					v = rr.Points[s]
				}
				label += fmt.Sprintf(" %8d", v)
			}
			put(scr, ix, row, iw, label, st)
			row++
		}
	}
	foot := tablemodel.EndFoot101(e)
	put(scr, ix, iy+ih-1, iw, foot, st.Foreground(t.pal.Accent).Bold(true))
}

// causes101 lists why a seat scored what it did in a round
// (tablemodel.Causes101).
func causes101(res engine.Result101, opened []engine.Opened, s int) string {
	return tablemodel.Causes101(res, opened, s)
}
