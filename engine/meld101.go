package engine

// Melds of Okey 101 (okey-classic.txt, "Okey 101"; protocol.md 3.6).
//
// A tile in a meld plays as a face: a plain tile as its own face, a false
// joker as the okey's face, an okey as any numbered face the player names.
// A meld is
//   - a set: 3 or 4 tiles playing as one number in distinct colours;
//   - a run: 3 to 13 tiles playing as one colour at consecutive numbers
//     1..13; unlike the classic game nothing follows 13 (12-13-1 and 13-1-2
//     are not runs);
//   - a double (pair): two tiles playing as one face; with the option
//     no-joker-doubles both must play as their own face.
//
// The value of a set or a run is the sum of the numbers its tiles play as
// (an okey counts as the tile it stands for).

// ErrMeld is wrapped by every error about a meld that is not valid.
var ErrMeld = sentinel("not a valid meld")

// plays reports whether tile face f may play as face as, with okey the
// okey's face.
func plays(okey, f, as Face) bool {
	if as >= FalseJoker {
		return false
	}
	switch f {
	case okey:
		return true
	case FalseJoker:
		return as == okey
	}
	return f == as
}

// natural is the face a tile plays as when it is not wild: a false joker
// plays as the okey's face.
func natural(okey, f Face) Face {
	if f == FalseJoker {
		return okey
	}
	return f
}

// meldKind101 checks that faces, playing as as (index for index), form a
// meld of 101 and returns its kind. jokerDoubles allows an okey to stand for
// another face in a double. The order of the tiles does not matter.
func meldKind101(okey Face, faces, as []Face, jokerDoubles bool) (GroupKind, error) {
	if len(faces) != len(as) {
		return 0, errorf(ErrMeld, "%d tiles, %d faces played", len(faces), len(as))
	}
	for i, f := range faces {
		if !f.Valid() || !plays(okey, f, as[i]) {
			return 0, errorf(ErrMeld, "%v cannot play as %v", f, as[i])
		}
	}
	n := len(as)
	switch {
	case n == 2:
		if as[0] != as[1] {
			return 0, errorf(ErrMeld, "a double is two identical tiles")
		}
		if !jokerDoubles && (faces[0] == okey && as[0] != okey || faces[1] == okey && as[1] != okey) {
			return 0, errorf(ErrMeld, "an okey may not stand for another tile in a double (no-joker-doubles)")
		}
		return Pair, nil
	case n < 3 || n > 13:
		return 0, errorf(ErrMeld, "%d tiles", n)
	}
	if isSet101(as) {
		return Set, nil
	}
	if isRun101(as) {
		return Run, nil
	}
	return 0, errorf(ErrMeld, "%s is neither a set nor a run", FormatFaces(as))
}

// isSet101: 3 or 4 faces of one number in distinct colours.
func isSet101(as []Face) bool {
	if len(as) < 3 || len(as) > 4 {
		return false
	}
	var seen [NumColours]bool
	for _, f := range as {
		if f >= FalseJoker || f.Number() != as[0].Number() || seen[f.Colour()] {
			return false
		}
		seen[f.Colour()] = true
	}
	return true
}

// isRun101: 3..13 faces of one colour whose numbers, in some order, are
// consecutive within 1..13.
func isRun101(as []Face) bool {
	if len(as) < 3 || len(as) > 13 {
		return false
	}
	var seen [14]bool
	lo, hi := 14, 0
	for _, f := range as {
		if f >= FalseJoker || f.Colour() != as[0].Colour() || seen[f.Number()] {
			return false
		}
		seen[f.Number()] = true
		lo, hi = min(lo, f.Number()), max(hi, f.Number())
	}
	return hi-lo+1 == len(as)
}

// meldValue101 is the opening value of a set or run: the sum of the numbers
// its tiles play as. A double has no value.
func meldValue101(kind GroupKind, as []Face) int {
	if kind == Pair {
		return 0
	}
	v := 0
	for _, f := range as {
		v += f.Number()
	}
	return v
}

// Meld is a meld on the table: who laid it (its first tiles), its kind, and
// its tiles in canonical order (a set by colour, a run by number, a double
// as laid) with the face each plays as.
type Meld struct {
	Owner int
	Kind  GroupKind
	Tiles []Slot
	As    []Face
}

func (m Meld) clone() Meld {
	m.Tiles = append([]Slot(nil), m.Tiles...)
	m.As = append([]Face(nil), m.As...)
	return m
}

// sortMeld puts a set's or run's tiles in canonical order: by the face they
// play as (for a set that is colour order, for a run number order).
func sortMeld(tiles []Slot, as []Face) {
	for i := 1; i < len(as); i++ {
		for j := i; j > 0 && as[j] < as[j-1]; j-- {
			as[j], as[j-1] = as[j-1], as[j]
			tiles[j], tiles[j-1] = tiles[j-1], tiles[j]
		}
	}
}

// fits101 reports whether a tile playing as face f could be added to a
// meld (a set of three without f's colour, a run one short of f at either
// end) or, when swap is true, could replace an okey in it that stands for f.
// isOkey reports whether a slot of the meld holds an okey.
func fits101(m *Meld, f Face, swap bool, isOkey func(Slot) bool) bool {
	if f >= FalseJoker {
		return false
	}
	if swap {
		for i, as := range m.As {
			if as == f && isOkey(m.Tiles[i]) {
				return true
			}
		}
	}
	switch m.Kind {
	case Set:
		if len(m.As) >= 4 || f.Number() != m.As[0].Number() {
			return false
		}
		for _, a := range m.As {
			if a.Colour() == f.Colour() {
				return false
			}
		}
		return true
	case Run:
		if f.Colour() != m.As[0].Colour() {
			return false
		}
		lo, hi := m.As[0].Number(), m.As[len(m.As)-1].Number()
		return f.Number() == lo-1 || f.Number() == hi+1
	}
	return false
}
