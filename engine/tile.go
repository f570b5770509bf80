// Package engine holds okey's rules of Okey: tiles and their notation, hand
// analysis (winning hands, arrangements, winning discards, distance to a win),
// rulesets as data, and the game as a deterministic state machine with hidden
// information.
//
// Two games are played on the same tiles: the classic family (Hand, Match)
// and Okey 101 (Game101, Match101). Both embed one board (board.go): the
// order of play, the stock, racks, discard piles, the indicator, the faces
// opened to everyone (where a third copy of a face is refused) and whose turn
// it is. A View reads either (View.Face, View.Rack take a Board).
//
// The package is pure: no I/O, no clocks, no randomness, no goroutines, and no
// map iteration decides any order. Every peer at a table runs it on the same
// inputs and gets the same outputs.
package engine

import (
	"strconv"
	"strings"
)

// DeckSize is the number of tiles in an Okey set: two copies of four colours
// times thirteen numbers, and two false jokers.
const DeckSize = 106

// Colour is a tile colour.
type Colour uint8

// The four colours, in notation order.
const (
	Red Colour = iota
	Yellow
	Blue
	Black
)

// NumColours is the number of colours.
const NumColours = 4

var colourLetters = [NumColours]byte{'R', 'Y', 'B', 'K'}
var colourNames = [NumColours]string{"red", "yellow", "blue", "black"}

// Letter returns the colour's notation letter.
func (c Colour) Letter() byte { return colourLetters[c] }

// String returns the colour's English name.
func (c Colour) String() string {
	if c >= NumColours {
		return "Colour(" + strconv.Itoa(int(c)) + ")"
	}
	return colourNames[c]
}

// Face is what is printed on a tile: a colour and a number, or the false joker.
// Faces 0..51 are colour*13 + number-1; FalseJoker is 52.
type Face uint8

// FalseJoker is the face of the two false jokers (sahte okey).
const FalseJoker Face = 52

// NumFaces is the number of distinct faces, counting the false joker.
const NumFaces = 53

// NoFace marks a face that is not known.
const NoFace Face = 0xFF

// NewFace returns the face of colour c and number n (1..13).
func NewFace(c Colour, n int) Face {
	if c >= NumColours || n < 1 || n > 13 {
		panic("engine: internal error: NewFace out of range")
	}
	return Face(int(c)*13 + n - 1)
}

// Valid reports whether f is one of the 53 faces.
func (f Face) Valid() bool { return f < NumFaces }

// IsFalseJoker reports whether f is the false joker.
func (f Face) IsFalseJoker() bool { return f == FalseJoker }

// Colour returns the colour of a numbered face.
func (f Face) Colour() Colour { return Colour(f / 13) }

// Number returns the number (1..13) of a numbered face.
func (f Face) Number() int { return int(f%13) + 1 }

// String formats the face in okey notation: R7, K13, FJ.
func (f Face) String() string {
	switch {
	case f == FalseJoker:
		return "FJ"
	case f < FalseJoker:
		return string(colourLetters[f.Colour()]) + strconv.Itoa(f.Number())
	default:
		return "?"
	}
}

// ErrBadTile is returned (wrapped) for a token that is not a tile.
var ErrBadTile = sentinel("not a tile")

// ParseFace parses a tile in notation: R, Y, B or K followed by 1..13, or FJ,
// in any case.
func ParseFace(s string) (Face, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	if t == "FJ" {
		return FalseJoker, nil
	}
	if len(t) < 2 || len(t) > 3 {
		return NoFace, errorf(ErrBadTile, "%q", s)
	}
	c := strings.IndexByte("RYBK", t[0])
	if c < 0 {
		return NoFace, errorf(ErrBadTile, "%q (colour must be R, Y, B or K)", s)
	}
	if t[1] == '0' || t[1] == '+' || t[1] == '-' {
		return NoFace, errorf(ErrBadTile, "%q", s)
	}
	n, err := strconv.Atoi(t[1:])
	if err != nil || n < 1 || n > 13 {
		return NoFace, errorf(ErrBadTile, "%q (number must be 1..13)", s)
	}
	return NewFace(Colour(c), n), nil
}

// MustParseFaces parses space-separated faces and panics on error. For tests
// and examples.
func MustParseFaces(s string) []Face {
	fs, err := ParseFaces(s)
	if err != nil {
		panic(err)
	}
	return fs
}

// ParseFaces parses space- or comma-separated faces.
func ParseFaces(s string) ([]Face, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	out := make([]Face, 0, len(fields))
	for _, f := range fields {
		face, err := ParseFace(f)
		if err != nil {
			return nil, err
		}
		out = append(out, face)
	}
	return out, nil
}

// FormatFaces formats faces separated by single spaces.
func FormatFaces(fs []Face) string {
	var b strings.Builder
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.String())
	}
	return b.String()
}

// OkeyFor returns the okey (the wild tile's face) for an indicator: same
// colour, number plus one, 13 wrapping to 1. A false joker is never an
// indicator.
func OkeyFor(indicator Face) (Face, error) {
	if !indicator.Valid() || indicator.IsFalseJoker() {
		return NoFace, errorf(nil, "indicator %v is not a numbered tile", indicator)
	}
	n := indicator.Number() + 1
	if n > 13 {
		n = 1
	}
	return NewFace(indicator.Colour(), n), nil
}

// IndicatorFor returns the indicator that makes okey the okey (number minus one).
func IndicatorFor(okey Face) Face {
	n := okey.Number() - 1
	if n < 1 {
		n = 13
	}
	return NewFace(okey.Colour(), n)
}

// Tile is a deck index, 0..105. Index j < 104 has face j%52 (so indices j and
// j+52 are the two copies of one face); 104 and 105 are the false jokers.
// The face of an index is fixed; what is secret is which index sits where.
type Tile uint8

// Face returns the face printed on deck index t.
func (t Tile) Face() Face {
	if t >= 104 {
		return FalseJoker
	}
	return Face(t % 52)
}

// Valid reports whether t is a deck index.
func (t Tile) Valid() bool { return t < DeckSize }

// TilesOf returns the deck indices that carry face f (two of them).
func TilesOf(f Face) [2]Tile {
	if f == FalseJoker {
		return [2]Tile{104, 105}
	}
	return [2]Tile{Tile(f), Tile(f) + 52}
}
