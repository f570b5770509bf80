package engine

import (
	"fmt"
)

// Hand analysis: which hands win, how, and how far a hand is from a win.
//
// Terms (protocol.md, section 2, has them in full):
//
//   - The okey is the face OkeyFor(indicator). Its two tiles are wild: in a set,
//     a run or a pair an okey stands for any face, its own included.
//   - A false joker (FJ) is a plain tile of the okey's face and nothing else.
//   - A set is 3 or 4 tiles of one number in distinct colours. A run is 3 or
//     more tiles of one colour with consecutive numbers, where a 1 may follow
//     13 but nothing may follow that 1; a 1 is low or high, never both, so a
//     run has at most 13 tiles. A pair is two identical tiles.
//   - A hand of 14 tiles wins with groups when its tiles split into sets and
//     runs, each tile in exactly one group, and with pairs when they split
//     into seven pairs. A hand that does both counts as pairs.
//
// The functions take the okey's face, not the indicator: okey, _ := OkeyFor(ind).
// They treat a hand as a multiset of faces; the order of hand does not matter
// and hand is never modified. Everything here is deterministic.

// GroupKind says what a Group is.
type GroupKind uint8

// The kinds of group.
const (
	Set  GroupKind = iota + 1 // 3 or 4 tiles of one number, distinct colours
	Run                       // 3..13 consecutive tiles of one colour
	Pair                      // two identical tiles
)

func (k GroupKind) String() string {
	switch k {
	case Set:
		return "set"
	case Run:
		return "run"
	case Pair:
		return "pair"
	}
	return fmt.Sprintf("GroupKind(%d)", uint8(k))
}

// Group is one set, run or pair of an arrangement.
//
// Tiles are the faces printed on the tiles, in display order: a set in colour
// order (R, Y, B, K), a run in sequence order (11 12 13 1), a pair as it is.
// An okey is shown as its own face (the okey's face) at the place it fills; a
// false joker is shown as FJ. As gives, index for index, the face each tile
// plays as: its own face for a plain tile, the okey's face for a false joker,
// the face it stands for for an okey.
type Group struct {
	Kind  GroupKind
	Tiles []Face
	As    []Face
}

// HandKind says whether and how a hand wins.
type HandKind uint8

// The kinds of hand.
const (
	NotWinning HandKind = iota
	Groups              // all tiles in sets and runs
	Pairs               // seven pairs
)

func (k HandKind) String() string {
	switch k {
	case NotWinning:
		return "not winning"
	case Groups:
		return "groups"
	case Pairs:
		return "pairs"
	}
	return fmt.Sprintf("HandKind(%d)", uint8(k))
}

// Arrangement is a winning hand laid out in groups or pairs.
type Arrangement struct {
	Kind   HandKind
	Groups []Group
}

// WinSize is the number of tiles in a winning hand.
const WinSize = 14

// ErrTooManyCopies is returned (wrapped) by ValidateHand for a third copy
// of a face.
var ErrTooManyCopies = sentinel("more than two copies of a tile")

// ValidateHand checks that every face is a tile (0..52) and that no face
// occurs more than twice (there are two of each in the deck, two false
// jokers). The error names the first offending tile.
func ValidateHand(hand []Face) error {
	var n [NumFaces]uint8
	for _, f := range hand {
		if !f.Valid() {
			return errorf(ErrBadTile, "face %d", uint8(f))
		}
		n[f]++
		if n[f] > 2 {
			return errorf(ErrTooManyCopies, "a third %v", f)
		}
	}
	return nil
}

// tally is a hand as counts: c[colour][number] counts the plain tiles
// (numbers 1..13; false jokers count as the okey's face), wild the okeys.
// Index 0, 14 and 15 of each row stay zero.
type tally struct {
	c    [NumColours][16]int8
	wild int8
	real int8 // number of plain tiles
}

// tallyOf counts hand. ok is false when the okey or a face is invalid or a
// face occurs more than twice.
func tallyOf(okey Face, hand []Face) (t tally, ok bool) {
	if okey >= FalseJoker {
		return t, false
	}
	// The okey's tiles go to wild, so the okey's face row counts only the
	// false jokers: every row entry is one face's plain tiles, at most two.
	okeyRow := &t.c[okey/13][okey%13+1]
	for _, f := range hand {
		var p *int8
		switch {
		case f == okey:
			t.wild++
			if t.wild > 2 {
				return t, false
			}
			continue
		case f == FalseJoker:
			p = okeyRow
		case f < FalseJoker:
			p = &t.c[f/13][f%13+1]
		default:
			return t, false
		}
		*p++
		if *p > 2 {
			return t, false
		}
		t.real++
	}
	return t, true
}

// pairsWin reports whether the tally makes seven pairs (any even count of
// tiles: count/2 pairs): every plain face has an even count, except at most
// wild faces with one tile, which pair with an okey; spare okeys pair
// together.
func (t *tally) pairsWin() bool {
	singles := int8(0)
	for c := 0; c < NumColours; c++ {
		for n := 1; n <= 13; n++ {
			singles += t.c[c][n] & 1
		}
	}
	return singles <= t.wild
}

// IsWinning reports whether hand (14 tiles) wins with groups or seven pairs
// when okey is the okey's face. It returns false for a hand that is not 14
// valid tiles (see ValidateHand) or an okey that is not a numbered face. It
// does not allocate.
func IsWinning(okey Face, hand []Face) bool {
	if len(hand) != WinSize {
		return false
	}
	t, ok := tallyOf(okey, hand)
	if !ok {
		return false
	}
	if t.pairsWin() {
		return true
	}
	var s winSearch
	s.t = t
	return s.win(0)
}

// IsGrouped reports whether all of hand (any number of tiles, for rulesets
// whose winning hand is not 14 tiles) splits into sets and runs. Seven pairs
// are not considered. False for invalid input. It does not allocate.
func IsGrouped(okey Face, hand []Face) bool {
	t, ok := tallyOf(okey, hand)
	if !ok || len(hand) == 0 {
		return false
	}
	var s winSearch
	s.t = t
	return s.win(0)
}

// WinningArrangement returns how hand (14 tiles) wins: seven pairs if it
// makes them (they score more), otherwise its sets and runs. The groups are
// in a fixed order (by their lowest tile); among several ways to group a
// hand it returns the first found in a fixed search order (for the lowest
// tile: sets before runs, fewer okeys first, shorter runs first). ok is false
// for a losing or invalid hand.
func WinningArrangement(okey Face, hand []Face) (Arrangement, bool) {
	if len(hand) != WinSize {
		return Arrangement{}, false
	}
	t, ok := tallyOf(okey, hand)
	if !ok {
		return Arrangement{}, false
	}
	if t.pairsWin() {
		return Arrangement{Kind: Pairs, Groups: pairGroups(okey, &t)}, true
	}
	var s winSearch
	s.t = t
	s.record = true
	if !s.win(0) {
		return Arrangement{}, false
	}
	return Arrangement{Kind: Groups, Groups: s.groups(okey)}, true
}

// WinningDiscards returns, for a hand of 15 tiles, every distinct face whose
// discard leaves a winning 14 (groups or pairs), sorted by face. It returns
// nil when there is none and for invalid input.
func WinningDiscards(okey Face, hand []Face) []Face {
	if len(hand) != WinSize+1 {
		return nil
	}
	t, ok := tallyOf(okey, hand)
	if !ok {
		return nil
	}
	var out []Face
	var s winSearch
	for f := Face(0); f < NumFaces; f++ {
		rest, ok := t.without(okey, f)
		if !ok {
			continue
		}
		if rest.pairsWin() {
			out = append(out, f)
			continue
		}
		s.t = rest
		if s.win(0) {
			out = append(out, f)
		}
	}
	return out
}

// without returns the tally without one tile of face f; ok is false when
// the hand has none.
func (t *tally) without(okey, f Face) (rest tally, ok bool) {
	rest = *t
	switch {
	case f == okey:
		if rest.wild == 0 {
			return rest, false
		}
		rest.wild--
		return rest, true
	case f == FalseJoker:
		f = okey // the okey's face row holds exactly the false jokers
	}
	p := &rest.c[f/13][f%13+1]
	if *p == 0 {
		return rest, false
	}
	*p--
	rest.real--
	return rest, true
}

// pairGroups lays out a tally that makes seven pairs: plain pairs in face
// order, then single tiles with an okey, then two okeys.
func pairGroups(okey Face, t *tally) []Group {
	var gs []Group
	wild := t.wild
	show := func(f Face) Face {
		if f == okey {
			return FalseJoker
		}
		return f
	}
	for c := 0; c < NumColours; c++ {
		for n := 1; n <= 13; n++ {
			f := NewFace(Colour(c), n)
			switch t.c[c][n] {
			case 2:
				gs = append(gs, Group{Kind: Pair, Tiles: []Face{show(f), show(f)}, As: []Face{f, f}})
			case 1:
				gs = append(gs, Group{Kind: Pair, Tiles: []Face{show(f), okey}, As: []Face{f, f}})
				wild--
			}
		}
	}
	for ; wild >= 2; wild -= 2 {
		gs = append(gs, Group{Kind: Pair, Tiles: []Face{okey, okey}, As: []Face{okey, okey}})
	}
	return gs
}
