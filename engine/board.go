package engine

// board is what a classic hand (Hand) and a 101 round (Game101) share: the
// seats in order of play, where every slot is (the stock, the racks, the
// discard piles, the indicator), the faces opened to everyone, and whose turn
// it is. Both games embed it; the moves that differ stay with each game.
//
// setPublic is the one place where a face enters the public state: a slot
// keeps its face and no face is on a third slot.
type board struct {
	rules  Ruleset
	n      int // number of seats at the table
	dealer int

	order     []int  // seats in order of play; order[0] plays first with one extra tile
	pending   []Slot // slots that must be opened to everyone next
	indicator Slot
	okey      Face
	stock     []Slot // next draw first
	racks     [][]Slot
	piles     [][]Slot
	public    [DeckSize]Face

	turn     int // index into order
	turns    int // discards so far
	drawn    bool
	lastFrom int // seat whose pile top may be taken now, -1
}

// Board is the public state a View reads in either game: the faces opened
// to everyone and the racks. *Hand and *Game101 are Boards.
type Board interface {
	PublicFace(s Slot) Face
	Rack(seat int) []Slot
}

// newBoard returns an empty board for n seats: no indicator, no okey, no
// face known, nothing discarded.
func newBoard(r Ruleset, n, dealer int) board {
	b := board{rules: r, n: n, dealer: dealer, indicator: NoSlot, okey: NoFace, lastFrom: -1,
		racks: make([][]Slot, n), piles: make([][]Slot, n)}
	for i := range b.public {
		b.public[i] = NoFace
	}
	return b
}

// clone returns a deep copy.
func (b *board) clone() board {
	c := *b
	c.order = append([]int(nil), b.order...)
	c.pending = append([]Slot(nil), b.pending...)
	c.stock = append([]Slot(nil), b.stock...)
	c.racks = make([][]Slot, len(b.racks))
	c.piles = make([][]Slot, len(b.piles))
	for i := range b.racks {
		c.racks[i] = append([]Slot(nil), b.racks[i]...)
		c.piles[i] = append([]Slot(nil), b.piles[i]...)
	}
	return c
}

// Rules returns the ruleset.
func (b *board) Rules() Ruleset { return b.rules }

// Dealer returns the dealer's seat.
func (b *board) Dealer() int { return b.dealer }

// Order returns the seats in order of play (first player first).
func (b *board) Order() []int { return append([]int(nil), b.order...) }

// Indicator returns the face-up slot and its face (NoSlot, NoFace before).
func (b *board) Indicator() (Slot, Face) {
	if b.indicator == NoSlot {
		return NoSlot, NoFace
	}
	return b.indicator, b.public[b.indicator]
}

// Okey returns the okey's face (NoFace before the indicator is known).
func (b *board) Okey() Face { return b.okey }

// Rack returns the slots in a seat's rack, in ascending order.
func (b *board) Rack(seat int) []Slot { return append([]Slot(nil), b.racks[seat]...) }

// Pile returns a seat's discard pile, bottom first.
func (b *board) Pile(seat int) []Slot { return append([]Slot(nil), b.piles[seat]...) }

// StockLen returns the number of tiles left to draw.
func (b *board) StockLen() int { return len(b.stock) }

// Stock returns the stock (101's bank), next draw first.
func (b *board) Stock() []Slot { return append([]Slot(nil), b.stock...) }

// PublicFace returns the face of a slot opened to everyone, or NoFace.
func (b *board) PublicFace(s Slot) Face {
	if int(s) >= DeckSize {
		return NoFace
	}
	return b.public[s]
}

// Turns returns the number of completed turns (discards) so far.
func (b *board) Turns() int { return b.turns }

// LastDiscard returns the seat whose pile top may be taken now, or -1.
func (b *board) LastDiscard() int { return b.lastFrom }

// Pending returns the slots that must be opened to everyone next (the
// indicator candidate; the order draw; in 101 the racks at the end).
func (b *board) Pending() []Slot { return append([]Slot(nil), b.pending...) }

// setPublic records a face opened to everyone, checking consistency: a slot
// keeps its face, and no face appears on more slots than the deck has.
func (b *board) setPublic(sf SlotFace) error {
	if int(sf.Slot) >= DeckSize || !sf.Face.Valid() {
		return errorf(ErrBadAction, "slot %d face %d", sf.Slot, sf.Face)
	}
	if cur := b.public[sf.Slot]; cur != NoFace {
		if cur != sf.Face {
			return errorf(ErrFace, "slot %d was %v, now %v", sf.Slot, cur, sf.Face)
		}
		return nil
	}
	count := 0
	for _, f := range b.public {
		if f == sf.Face {
			count++
		}
	}
	if count >= 2 {
		return errorf(ErrFace, "a third %v", sf.Face)
	}
	b.public[sf.Slot] = sf.Face
	return nil
}

// revealPending opens the pending slots to everyone: faces must name them
// in order.
func (b *board) revealPending(faces []SlotFace) error {
	if len(faces) != len(b.pending) {
		return errorf(ErrBadAction, "%d faces for %d pending slots", len(faces), len(b.pending))
	}
	for i, sf := range faces {
		if sf.Slot != b.pending[i] {
			return errorf(ErrBadAction, "revealed slot %d, expected %d", sf.Slot, b.pending[i])
		}
		if err := b.setPublic(sf); err != nil {
			return err
		}
	}
	return nil
}

// turnUpNext makes the stock's tile after s (a false joker turned up, no
// indicator) the next indicator candidate.
func (b *board) turnUpNext(s Slot) error {
	idx := -1
	for i, t := range b.stock {
		if t == s {
			idx = i
		}
	}
	if idx+1 >= len(b.stock) {
		return errorf(ErrEmptyStock, "no tile left to turn up")
	}
	b.pending = []Slot{b.stock[idx+1]}
	return nil
}

// setIndicator makes the public slot s the indicator, its successor the okey.
func (b *board) setIndicator(s Slot) {
	b.indicator = s
	b.okey, _ = OkeyFor(b.public[s])
	b.pending = nil
}

// draw moves the stock's first tile to seat's rack: the turn's draw. The
// caller has checked that seat is to play and has not drawn.
func (b *board) draw(seat int) error {
	if len(b.stock) == 0 {
		return errorf(ErrEmptyStock, "seat %d cannot draw", seat)
	}
	b.racks[seat] = insertSlot(b.racks[seat], b.stock[0])
	b.stock = b.stock[1:]
	b.drawn = true
	return nil
}

// take moves the top of the last discarded pile to seat's rack: the turn's
// draw. It returns the slot taken and the seat whose pile it topped. The
// caller has checked that seat is to play and has not drawn.
func (b *board) take(seat int) (Slot, int, error) {
	from := b.lastFrom
	if from < 0 || len(b.piles[from]) == 0 {
		return NoSlot, -1, errorf(ErrNoDiscard, "seat %d", seat)
	}
	p := b.piles[from]
	t := p[len(p)-1]
	b.piles[from] = p[:len(p)-1]
	b.racks[seat] = insertSlot(b.racks[seat], t)
	b.drawn, b.lastFrom = true, -1
	return t, from, nil
}

// discard puts s, already out of seat's rack (rack is what stays), on
// seat's pile, where the next player may take it.
func (b *board) discard(seat int, rack []Slot, s Slot) {
	b.racks[seat] = rack
	b.piles[seat] = append(b.piles[seat], s)
	b.lastFrom = seat
}

// pass ends the turn of the seat that discarded: the next seat in order of
// play is to draw.
func (b *board) pass() {
	b.turns++
	b.turn = (b.turn + 1) % len(b.order)
	b.drawn = false
}
