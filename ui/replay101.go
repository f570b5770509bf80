package ui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// draw101 draws a replay frame of an Okey 101 round: the indicator, the
// okey and the bank, every seat with its total, how it opened, its
// discards and its rack (open from the audit), the melds on the table as
// they are laid, and what happened in the round so far.
func (v *ReplayView) draw101(scr tcell.Screen, x, y, w, h int, f Frame) {
	p := v.pal
	felt := tcell.StyleDefault.Background(p.Felt).Foreground(p.Text)
	dim := felt.Foreground(p.Dim)
	m := f.Match101
	g := m.Game()
	bar := tcell.StyleDefault.Background(p.Ledge).Foreground(p.Text)
	fill(scr, x, y, w, 1, bar)
	put(scr, x+1, y, w-2, i18n.T("okey replay · %s · round %d · move %d/%d · message %d", v.r.Ruleset, f.Hand+1, v.at+1, len(v.r.Frames), f.Step), bar.Bold(true))
	row := y + 1
	okey := g.Okey()
	if g.Phase() < engine.Phase101Play {
		put(scr, x+1, row, w-2, i18n.T("dealer %s: the tiles are being shuffled and dealt", v.name(g.Dealer())), dim)
	} else {
		_, ind := g.Indicator()
		cx := put(scr, x+1, row, 12, i18n.T("indicator")+" ", dim)
		cx = drawTiles(scr, p, cx, row, []engine.Face{ind}, okey, false)
		cx = put(scr, cx+2, row, 6, "okey ", dim)
		cx = drawTiles(scr, p, cx, row, []engine.Face{okey}, okey, false)
		put(scr, cx+2, row, x+w-cx-3, i18n.T("bank %d · dealer %s · %d turns", len(g.Stock()), v.name(g.Dealer()), g.Turns()), dim)
	}
	row++
	turn, _, _ := g.Turn()
	scores := m.Scores()
	for seat := range v.r.Names {
		st := felt
		mark := "  "
		if seat == turn {
			mark, st = "> ", st.Foreground(p.Accent).Bold(true)
		}
		how := i18n.T("not opened")
		switch g.Opened(seat) {
		case engine.OpenedSets:
			how = i18n.T("opened")
		case engine.OpenedDoubles:
			how = i18n.T("opened with doubles")
		}
		cx := put(scr, x+1, row, w-2, fmt.Sprintf("%s%-12.12s %5d · %-19s ", mark, v.r.Names[seat], scores[seat], how), st)
		// The latest discards that fit, the rack in face order.
		drawTileLine(scr, p, cx, row, x+w-1-cx, pileFaces(g, seat), okey, false, true, dim)
		row++
		drawTileLine(scr, p, x+3, row, w-4, v.rack(g, seat), okey, true, false, dim)
		row++
	}
	// The melds on the table, as many to a row as fit; those past the
	// last row are counted ("+2 more"), as the table does.
	melds := g.Melds()
	bottom := y + h - 3
	if len(melds) > 0 {
		row++
	}
	lines := make([]Line, len(melds))
	widths := make([]int, len(melds))
	for i, md := range melds {
		// As the table writes a meld: an okey as the face it stands
		// for, starred ("B7*").
		for k, s := range md.Tiles {
			lines[i] = append(lines[i], meldTile(g, md, k, s))
		}
		widths[i] = 9 + spansWidth(lines[i])
	}
	at, moreX, moreY := layMelds(widths, row, bottom-row, 0, func(int) (int, int) { return x + 1, w - 2 })
	for i, pos := range at {
		md := melds[i]
		nm := v.name(md.Owner)
		if len([]rune(nm)) > 6 {
			nm = string([]rune(nm)[:6])
		}
		cx := put(scr, pos[0], pos[1], 9, fmt.Sprintf("%c %-6s ", handleOf(i), nm), felt.Foreground(p.Accent).Bold(true))
		drawSpans(scr, p, cx, pos[1], x+w-1-cx, lines[i], okey, felt)
		row = pos[1]
	}
	if len(at) < len(melds) {
		put(scr, moreX, moreY, x+w-1-moreX, moreText(len(melds)-len(at)), dim)
		row = moreY
	}
	row += 2
	// What happened in this round, latest last.
	v.drawHandLog(scr, x, row, w, bottom-row, f.Hand, okey, dim, felt.Bold(true))
	v.drawFoot(scr, x, y, w, h, i18n.T("right next  left back  down next round  up round start  home end  q quit"))
}

// moreText counts the melds left out for want of room.
func moreText(n int) string { return i18n.T("+%d more", n) }

// layMelds lays out melds of the given widths three cells apart, as many
// to a row as fit, on rows rows from top: row r is geom(r) (x, w) cells,
// the first narrow rows (beside the side seats on the table) maybe
// narrower than those after them, where a meld too wide for them goes,
// whole, with the melds after it. It returns where each meld shown goes
// (x, y), the first ones; when some do not fit, the count of the rest
// ("+2 more", moreText) goes at moreX, moreY after the last one shown,
// which gives its place up when the count would not fit after it: the
// count never covers a meld.
func layMelds(widths []int, top, rows, narrow int, geom func(row int) (x, w int)) (at [][2]int, moreX, moreY int) {
	row := 0
	bx, bw := geom(row)
	cx := bx
	for _, need := range widths {
		if cx > bx && cx+need > bx+bw {
			row++
			bx, bw = geom(row)
			cx = bx
		}
		if _, ww := geom(narrow); row < narrow && need > bw && need <= ww {
			row = narrow
			bx, bw = geom(row)
			cx = bx
		}
		if row >= rows {
			break
		}
		at = append(at, [2]int{cx, top + row})
		cx += need + 3
	}
	if len(at) == len(widths) {
		return at, 0, 0
	}
	for len(at) > 0 {
		last := at[len(at)-1]
		moreX, moreY = last[0]+widths[len(at)-1]+3, last[1]
		if x, w := geom(moreY - top); moreX+width(moreText(len(widths)-len(at))) <= x+w {
			return at, moreX, moreY
		}
		at = at[:len(at)-1]
	}
	x, _ := geom(0)
	return at, x, top
}
