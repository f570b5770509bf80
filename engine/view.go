package engine

// View is what one seat knows of a hand: the public state plus the faces
// opened to it alone (its own tiles). Each peer keeps its view beside the
// shared Hand; the view never enters the state hash.
type View struct {
	Seat  int
	known [DeckSize]Face
}

// NewView returns an empty view for seat.
func NewView(seat int) *View {
	v := &View{Seat: seat}
	for i := range v.known {
		v.known[i] = NoFace
	}
	return v
}

// Learn records the face of a slot opened to this seat.
func (v *View) Learn(s Slot, f Face) {
	if int(s) < DeckSize {
		v.known[s] = f
	}
}

// Face returns the face of slot s as this seat knows it: public faces
// first, then its private ones; NoFace when unknown.
func (v *View) Face(b Board, s Slot) Face {
	if f := b.PublicFace(s); f != NoFace {
		return f
	}
	if int(s) < DeckSize {
		return v.known[s]
	}
	return NoFace
}

// Rack returns the seat's rack slots and their faces (NoFace where a face
// has not been opened to it yet).
func (v *View) Rack(b Board) ([]Slot, []Face) {
	slots := b.Rack(v.Seat)
	faces := make([]Face, len(slots))
	for i, s := range slots {
		faces[i] = v.Face(b, s)
	}
	return slots, faces
}

// Face101 is Face in a 101 round.
//
// Deprecated: use Face, which reads either game.
func (v *View) Face101(g *Game101, s Slot) Face { return v.Face(g, s) }

// Rack101 is Rack in a 101 round.
//
// Deprecated: use Rack, which reads either game.
func (v *View) Rack101(g *Game101) ([]Slot, []Face) { return v.Rack(g) }

// WinAction returns the win the seat can declare now by discarding the tile
// at slot (NoSlot: a no-discard seven pairs where the ruleset allows it),
// with every face of its rack opened; ok is false when that is no win.
func (v *View) WinAction(h *Hand, slot Slot) (Action, bool) {
	seat, drawn := h.Turn()
	if seat != v.Seat || !drawn {
		return Action{}, false
	}
	slots, faces := v.Rack(h)
	a := Action{Kind: ActWin, Seat: seat, Slot: slot}
	var keep []Face
	for i, s := range slots {
		if faces[i] == NoFace {
			return Action{}, false
		}
		a.Faces = append(a.Faces, SlotFace{s, faces[i]})
		if s != slot {
			keep = append(keep, faces[i])
		}
	}
	if slot == NoSlot {
		if !h.rules.PairsNoDiscard {
			return Action{}, false
		}
		arr, ok := WinningArrangement(h.okey, keep)
		return a, ok && arr.Kind == Pairs
	}
	if len(keep) != len(slots)-1 {
		return Action{}, false
	}
	_, ok := winningGroups(h.okey, keep)
	return a, ok
}
