package ui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
)

// Lists of one-line tiles in the panels (a round's end, the replay): each
// tile as wide as its text and one space apart, as the log writes tiles
// ("R2 K11 Y5"), never in 3-cell slots that read as doubled spaces. A rack
// in face order leaves two spaces between colours, so that each colour
// reads as a group ("R1 R5  Y2 Y7  K3").

// tileText is a tile in a list: its face ("R7", "K13", "FJ"), "??" for a
// face not known.
func tileText(f engine.Face) string {
	if f == engine.NoFace || !f.Valid() {
		return "??"
	}
	return f.String()
}

// tileColour is the group a tile belongs to in a rack in face order: its
// colour, the false joker and unknown faces their own.
func tileColour(f engine.Face) int {
	switch {
	case f == engine.FalseJoker:
		return engine.NumColours
	case !f.Valid():
		return engine.NumColours + 1
	}
	return int(f.Colour())
}

// tileGap is the cells between two tiles side by side: one, two between
// colours when byColour.
func tileGap(a, b engine.Face, byColour bool) int {
	if byColour && tileColour(a) != tileColour(b) {
		return 2
	}
	return 1
}

// tilesWidth is the cells faces take in a list.
func tilesWidth(faces []engine.Face, byColour bool) int {
	n := 0
	for i, f := range faces {
		if i > 0 {
			n += tileGap(faces[i-1], f, byColour)
		}
		n += width(tileText(f))
	}
	return n
}

// tileRows splits faces into rows of at most w cells, a row breaking
// between two tiles; a tile wider than w has a row of its own.
func tileRows(faces []engine.Face, w int, byColour bool) [][]engine.Face {
	var rows [][]engine.Face
	start, n := 0, 0
	for i, f := range faces {
		tw := width(tileText(f))
		if i > start {
			if n+tileGap(faces[i-1], f, byColour)+tw > w {
				rows = append(rows, faces[start:i])
				start, n = i, tw
				continue
			}
			n += tileGap(faces[i-1], f, byColour)
		}
		n += tw
	}
	if start < len(faces) {
		rows = append(rows, faces[start:])
	}
	return rows
}

// drawTiles draws faces in a list on one row from x (no bound: see
// tileRows and drawTileLine) and returns the column after the last.
func drawTiles(scr tcell.Screen, p Palette, x, y int, faces []engine.Face, okey engine.Face, byColour bool) int {
	cx := x
	for i, f := range faces {
		if i > 0 {
			cx += tileGap(faces[i-1], f, byColour)
		}
		s := tileText(f)
		cx = put(scr, cx, y, width(s), s, smallStyle(p, f, okey))
	}
	return cx
}

// drawTileLine draws faces in a list on one row of w cells from x and
// returns the column after it. When they do not all fit it draws those
// that do and says how many it left out: the first of a rack and "+N"
// after them, or (latest, a discard pile) the last ones and "+N" before
// them, as the table writes a pile whose oldest tiles are not shown.
func drawTileLine(scr tcell.Screen, p Palette, x, y, w int, faces []engine.Face, okey engine.Face, byColour, latest bool, st tcell.Style) int {
	if tilesWidth(faces, byColour) <= w {
		return drawTiles(scr, p, x, y, faces, okey, byColour)
	}
	for k := 1; k <= len(faces); k++ {
		more := fmt.Sprintf("+%d", k)
		shown := faces[:len(faces)-k]
		if latest {
			shown = faces[k:]
		}
		if len(shown) > 0 && tilesWidth(shown, byColour)+1+width(more) > w {
			continue
		}
		if latest {
			cx := put(scr, x, y, width(more), more, st)
			if len(shown) == 0 {
				return cx
			}
			return drawTiles(scr, p, cx+1, y, shown, okey, byColour)
		}
		cx := drawTiles(scr, p, x, y, shown, okey, byColour)
		if len(shown) > 0 {
			cx++
		}
		return put(scr, cx, y, width(more), more, st)
	}
	return x
}
