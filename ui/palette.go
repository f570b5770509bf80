package ui

import (
	"github.com/gdamore/tcell/v2"

	"github.com/okey-game/okey/engine"
)

// Palette is the set of colours the table is drawn with. Two are built in:
// one for terminals with 256 colours and one for the 16 basic colours, where
// the tile face is bright white and the numbers use the darker basic colours
// so that they stay readable on it.
type Palette struct {
	Face    tcell.Color // the ivory face of a tile
	Number  [engine.NumColours]tcell.Color
	Joker   tcell.Color // the false joker's mark
	Okey    tcell.Color // background of the okey's mark
	Wood    tcell.Color // the rack
	Ledge   tcell.Color // the rack's ledge (the cursor line)
	Felt    tcell.Color // the table around the rack
	Text    tcell.Color
	Dim     tcell.Color
	Accent  tcell.Color // whose turn, titles
	Bad     tcell.Color // refusals
	Good    tcell.Color // wins, honest verdicts
	Cursor  tcell.Color // the cursor marks on the ledge
	Lifted  tcell.Color // the face of a picked-up tile
	Hint    tcell.Color // hint marks on the ledge
	Overlay tcell.Color // background of help and result panels
	// Mono is set when the screen shows no colour (NO_COLOR, or a
	// terminal without colours): what colour alone sets apart, such as
	// the help's key names from their text, is set apart by layout.
	Mono bool
}

// Palette256 is the palette for terminals with 256 colours or more.
var Palette256 = Palette{
	Face:    tcell.PaletteColor(230), // #ffffd7, ivory
	Number:  [engine.NumColours]tcell.Color{tcell.PaletteColor(160), tcell.PaletteColor(172), tcell.PaletteColor(25), tcell.PaletteColor(16)},
	Joker:   tcell.PaletteColor(28),
	Okey:    tcell.PaletteColor(127),
	Wood:    tcell.PaletteColor(94),
	Ledge:   tcell.PaletteColor(58),
	Felt:    tcell.PaletteColor(22),
	Text:    tcell.PaletteColor(255),
	Dim:     tcell.PaletteColor(249),
	Accent:  tcell.PaletteColor(220),
	Bad:     tcell.PaletteColor(203),
	Good:    tcell.PaletteColor(120),
	Cursor:  tcell.PaletteColor(226),
	Lifted:  tcell.PaletteColor(153),
	Hint:    tcell.PaletteColor(51),
	Overlay: tcell.PaletteColor(236),
}

// Palette16 is the palette for terminals with the 16 basic colours.
var Palette16 = Palette{
	Face:    tcell.ColorWhite,
	Number:  [engine.NumColours]tcell.Color{tcell.ColorMaroon, tcell.ColorOlive, tcell.ColorNavy, tcell.ColorBlack},
	Joker:   tcell.ColorGreen,
	Okey:    tcell.ColorPurple,
	Wood:    tcell.ColorOlive,
	Ledge:   tcell.ColorMaroon,
	Felt:    tcell.ColorGreen,
	Text:    tcell.ColorWhite,
	Dim:     tcell.ColorSilver,
	Accent:  tcell.ColorYellow,
	Bad:     tcell.ColorRed,
	Good:    tcell.ColorLime,
	Cursor:  tcell.ColorYellow,
	Lifted:  tcell.ColorAqua,
	Hint:    tcell.ColorAqua,
	Overlay: tcell.ColorNavy,
}

// PaletteFor returns the palette for a screen that shows colors colours:
// Palette256, Palette16, or below 8 colours (tcell says 0 under NO_COLOR)
// Palette16 marked Mono.
func PaletteFor(colors int) Palette {
	switch {
	case colors >= 256:
		return Palette256
	case colors < 8:
		p := Palette16
		p.Mono = true
		return p
	}
	return Palette16
}
