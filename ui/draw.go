package ui

import (
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// put writes s at (x, y) in style, at most maxw cells wide, and returns the
// column after it. Wide characters take their width; nothing is written
// past x+maxw.
func put(scr tcell.Screen, x, y, maxw int, s string, st tcell.Style) int {
	end := x + maxw
	watch, _ := scr.(cutWatcher)
	sw := 0
	if watch != nil {
		sw, _ = scr.Size()
	}
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		rs := g.Runes()
		w := g.Width()
		if w == 0 {
			continue
		}
		if watch != nil && (x+w > end || x+w > sw) {
			if from, _ := g.Positions(); strings.TrimSpace(s[from:]) != "" {
				watch.cut(x, y, s, from)
			}
			watch = nil
		}
		if x+w > end {
			break
		}
		scr.SetContent(x, y, rs[0], rs[1:], st)
		for k := 1; k < w; k++ {
			scr.SetContent(x+k, y, ' ', nil, st)
		}
		x += w
	}
	return x
}

// measureScreen draws nothing: a panel drawn on it tells the rows it
// needs (put and fill write through SetContent only).
type measureScreen struct{ tcell.Screen }

// SetContent implements tcell.Screen, keeping nothing.
func (measureScreen) SetContent(int, int, rune, []rune, tcell.Style) {}

// cutWatcher is a screen that is told when put leaves out some of a text
// (a word cut at a box's or the screen's edge): the tests' screens are, and
// fail on it.
type cutWatcher interface {
	// cut reports that s, written at (x, y), lost its text from byte from.
	cut(x, y int, s string, from int)
}

// width returns the cells s takes.
func width(s string) int { return uniseg.StringWidth(s) }

// fill paints a rectangle.
func fill(scr tcell.Screen, x, y, w, h int, st tcell.Style) {
	for j := y; j < y+h; j++ {
		for i := x; i < x+w; i++ {
			scr.SetContent(i, j, ' ', nil, st)
		}
	}
}

// TileWidth and TileHeight are the size of a tile on the rack.
const (
	TileWidth  = 4
	TileHeight = 2
)

// TileText returns the two lines printed on a rack tile: the number (or FJ,
// or ?? for a face not yet opened) and a mark: the colour's letter, OKEY on
// an okey, and on a false joker the face it plays as.
func TileText(f, okey engine.Face) (top, bottom string) {
	switch {
	case f == engine.NoFace || !f.Valid():
		return " ?? ", "    "
	case f == engine.FalseJoker:
		if okey.Valid() {
			return " FJ ", pad4("=" + okey.String())
		}
		return " FJ ", "    "
	}
	top = pad4(" " + strconv.Itoa(f.Number()))
	if f == okey {
		return top, "OKEY"
	}
	return top, "  " + string(f.Colour().Letter()) + " "
}

func pad4(s string) string {
	for len(s) < 4 {
		s += " "
	}
	return s
}

// tileStyles returns the styles of a tile's two lines.
func tileStyles(p Palette, f, okey engine.Face, face tcell.Color) (top, bottom tcell.Style) {
	base := tcell.StyleDefault.Background(face)
	switch {
	case f == engine.NoFace || !f.Valid():
		return base.Foreground(p.Dim), base
	case f == engine.FalseJoker:
		top = base.Foreground(p.Joker).Bold(true)
		if okey.Valid() {
			return top, base.Foreground(p.Number[okey.Colour()])
		}
		return top, base
	}
	top = base.Foreground(p.Number[f.Colour()]).Bold(true)
	if f == okey {
		return top, tcell.StyleDefault.Background(p.Okey).Foreground(face).Bold(true)
	}
	return top, base.Foreground(p.Number[f.Colour()])
}

// drawTile draws a rack-size tile at (x, y).
func drawTile(scr tcell.Screen, p Palette, x, y int, f, okey engine.Face, face tcell.Color) {
	t, b := TileText(f, okey)
	ts, bs := tileStyles(p, f, okey, face)
	put(scr, x, y, TileWidth, t, ts)
	put(scr, x, y+1, TileWidth, b, bs)
}

// SmallText is a tile in one line of three cells: R7 , K13, FJ .
func SmallText(f engine.Face) string {
	s := f.String()
	if f == engine.NoFace || !f.Valid() {
		s = "??"
	}
	for len(s) < 3 {
		s += " "
	}
	return s
}

// drawSmall draws a one-line tile and returns the column after it.
func drawSmall(scr tcell.Screen, p Palette, x, y int, f, okey engine.Face) int {
	return put(scr, x, y, 3, SmallText(f), smallStyle(p, f, okey))
}

// smallStyle is the style of a one-line tile.
func smallStyle(p Palette, f, okey engine.Face) tcell.Style {
	st := tcell.StyleDefault.Background(p.Face).Foreground(p.Dim)
	switch {
	case f == engine.FalseJoker:
		st = st.Foreground(p.Joker).Bold(true)
	case f.Valid() && f == okey:
		st = tcell.StyleDefault.Background(p.Okey).Foreground(p.Face).Bold(true)
	case f.Valid():
		st = st.Foreground(p.Number[f.Colour()]).Bold(true)
	}
	return st
}

// drawLegend writes, right-aligned in w cells from x, what the colour
// letters R/Y/B/K stand for, in Turkish only (there they are no initials,
// and K, black, reads as kırmızı, red); the short form when the whole one
// does not fit, nothing when neither does. Files, --json and okey analyze
// keep R/Y/B/K in both languages.
func drawLegend(scr tcell.Screen, x, y, w int, st tcell.Style) {
	if i18n.Current() != i18n.Turkish {
		return
	}
	for _, l := range []string{i18n.T("R red · Y yellow · B blue · K black"), i18n.T("R red · K black")} {
		if width(l) <= w {
			put(scr, x+w-width(l), y, width(l), l, st)
			return
		}
	}
}

// drawSpans draws a line of text and tiles from x in at most w cells: each
// tile as wide as its text (an okey standing for a face as "R8*"), one
// space between two tiles, and returns the column after it. A tile that
// does not fit whole ends the line.
func drawSpans(scr tcell.Screen, p Palette, x, y, w int, l Line, okey engine.Face, st tcell.Style) int {
	cx := x
	prev := false
	end := x + w
	short := spansWidth(l) > w
	if short {
		// Too long for the row: it ends with an ellipsis after the last
		// word or tile that fits, never inside one.
		end = x + w - 2
	}
	sepAt := -1 // where a separator (" · ", ", ") was drawn last, if last
	for _, sp := range l {
		if sp.Face == engine.NoFace {
			s := sp.Text
			if short && cx+width(s) > end {
				s = wordsIn(s, end-cx)
				cx = put(scr, cx, y, end-cx, s, st)
				break
			}
			sepAt = -1
			if strings.Trim(s, " ·,;") == "" {
				sepAt = cx
			}
			cx = put(scr, cx, y, end-cx, s, st)
			prev = false
			continue
		}
		s := sp.FaceText()
		gap := 0
		if prev {
			gap = 1
		}
		if cx+gap+width(s) > end {
			if sepAt >= 0 {
				// The line ends after the last tile, not on the
				// separator before the tile that did not fit.
				fill(scr, sepAt, y, cx-sepAt, 1, st)
				cx = sepAt
			}
			break
		}
		sepAt = -1
		cx += gap
		cx = put(scr, cx, y, width(s), s, smallStyle(p, sp.Face, okey))
		prev = true
	}
	if short {
		cx = put(scr, cx+1, y, 1, "…", st)
	}
	return cx
}

// wordsIn is the words of s that fit w cells, cut at a space; when the
// last clause kept would be a lone word (a clause starts after "; ", " · "
// or ", "), the cut goes back to that clause's start: "…; sen …" never
// ends a line.
func wordsIn(s string, w int) string {
	if width(s) <= w {
		return s
	}
	rs := []rune(s)
	if w < len(rs) {
		rs = rs[:w+1]
	}
	i := strings.LastIndex(string(rs), " ")
	if i <= 0 {
		return ""
	}
	kept := strings.TrimRight(string(rs)[:i], " ;,·")
	at, sep := -1, ""
	for _, c := range []string{"; ", " · ", ", "} {
		if j := strings.LastIndex(kept, c); j > at {
			at, sep = j, c
		}
	}
	if at >= 0 && !strings.Contains(strings.TrimSpace(kept[at+len(sep):]), " ") {
		return strings.TrimRight(kept[:at], " ;,·")
	}
	return kept
}

// spansWidth is the cells drawSpans takes for l.
func spansWidth(l Line) int { return width(l.String()) }
