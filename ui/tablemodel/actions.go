package tablemodel

import (
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// Action is a move a player may ask for at the table, in the games that
// have it: a front end maps its keys, clicks or drags to these.
type Action uint8

// The actions. Draw takes from the stock (the bank in 101; the stock or
// bank empty: it ends the hand); Take takes the previous player's discard;
// Discard throws a tile; Win declares a classic win; Show is the classic
// gösterme; GiveBack returns a taken 101 discard; Lay lays 101 melds; Add
// adds to a 101 meld on the table.
const (
	Draw Action = iota + 1
	Take
	Discard
	Win
	Show
	GiveBack
	Lay
	Add
)

// Off says why the player may not take a now, as a sentence for the
// message line ("" when it may). An action the game does not have is
// off too.
func (m *Table) Off(a Action) string {
	g := m.game()
	if g == nil {
		return i18n.T("no hand is being played")
	}
	return g.off(m, a)
}

// Offered reports whether a is a move of this moment, one a front end
// offers (the terminal's status bar): the player is asked for a move and
// the turn is at the point where a belongs. An offered action may still
// be refused with a reason (a discard of a tile not open yet).
func (m *Table) Offered(a Action) bool {
	g := m.game()
	return g != nil && g.offered(m, a)
}

// MoveOff says why the player may not move now ("" when it may).
func (m *Table) MoveOff() string {
	g := m.game()
	if g == nil {
		return i18n.T("no hand is being played")
	}
	return g.moveOff(m)
}

// discardOff is why a discard does nothing now, in every game: moveOff,
// then the draw that comes first (whatever the tile).
func discardOff(m *Table, g game) string {
	if why := g.moveOff(m); why != "" {
		return why
	}
	if !g.drawn(m.Snap) {
		return Refusal(g.name(), engine.ErrMustDraw)
	}
	return ""
}

// myHand returns the classic hand when the player may move; otherwise it
// refuses with the reason and returns nil.
func (m *Table) myHand() *engine.Hand {
	if why := m.MoveOff(); why != "" {
		m.Refuse(why)
		return nil
	}
	return m.Snap.HandState()
}

// myRound returns the 101 round when the player may move; otherwise it
// refuses with the reason and returns nil.
func (m *Table) myRound() *engine.Game101 {
	if why := m.MoveOff(); why != "" {
		m.Refuse(why)
		return nil
	}
	return m.Snap.Match101.Game()
}

// Draw draws from the stock (the bank in 101), or ends the hand when it is
// empty.
func (m *Table) Draw() bool {
	if m.Snap != nil && m.Snap.Match101 != nil {
		g := m.myRound()
		if g == nil {
			return false
		}
		if len(g.Stock()) == 0 {
			return m.Send101(engine.Action101{Kind: engine.Act101Exhaust, Seat: m.Snap.Seat}, i18n.T("the bank is empty: the round ends"))
		}
		return m.Send101(engine.Action101{Kind: engine.Act101Draw, Seat: m.Snap.Seat}, i18n.T("you draw from the bank"))
	}
	h := m.myHand()
	if h == nil {
		return false
	}
	if h.StockLen() == 0 {
		return m.Send(engine.Action{Kind: engine.ActExhaust, Seat: m.Snap.Seat, Slot: engine.NoSlot},
			i18n.T("the stock is empty: the hand ends"))
	}
	return m.Send(engine.Action{Kind: engine.ActDraw, Seat: m.Snap.Seat, Slot: engine.NoSlot}, i18n.T("you draw from the stock"))
}

// Take takes the previous player's discard.
func (m *Table) Take() bool {
	if m.Snap != nil && m.Snap.Match101 != nil {
		g := m.myRound()
		if g == nil {
			return false
		}
		f := PrevDiscard101(g)
		return m.Send101(engine.Action101{Kind: engine.Act101Take, Seat: m.Snap.Seat},
			i18n.T("you take the %s: use it this turn, or give it back (b)", f.String()))
	}
	h := m.myHand()
	if h == nil {
		return false
	}
	f := engine.NoFace
	if from := h.LastDiscard(); from >= 0 {
		if p := h.Pile(from); len(p) > 0 {
			f = h.PublicFace(p[len(p)-1])
		}
	}
	return m.Send(engine.Action{Kind: engine.ActTake, Seat: m.Snap.Seat, Slot: engine.NoSlot}, i18n.T("you take the %s", f))
}

// GiveBack gives a taken 101 discard back.
func (m *Table) GiveBack() bool {
	if m.myRound() == nil {
		return false
	}
	return m.Send101(engine.Action101{Kind: engine.Act101GiveBack, Seat: m.Snap.Seat}, i18n.T("you give the discard back: draw from the bank (d)"))
}

// Discard throws the tile s.
func (m *Table) Discard(s engine.Slot) bool {
	if m.Snap != nil && m.Snap.Match101 != nil {
		return m.discard101(s)
	}
	if m.myHand() == nil {
		return false
	}
	f, ok := m.DiscardFace(s)
	if !ok {
		return false
	}
	return m.Send(engine.Action{Kind: engine.ActDiscard, Seat: m.Snap.Seat, Slot: s,
		Faces: []engine.SlotFace{{Slot: s, Face: f}}}, i18n.T("you discard the %s", f))
}

func (m *Table) discard101(s engine.Slot) bool {
	g := m.myRound()
	if g == nil {
		return false
	}
	f, ok := m.DiscardFace(s)
	if !ok {
		return false
	}
	a := engine.Action101{Kind: engine.Act101Discard, Seat: m.Snap.Seat, Faces: []engine.SlotFace{{Slot: s, Face: f}}}
	last := len(g.Rack(m.Snap.Seat)) == 1
	done := i18n.T("you discard the %s", f.String())
	switch {
	case last:
		done = i18n.T("you finish, discarding the %s", f.String())
	case f == g.Okey():
		done = i18n.T("you discard the okey: a 101-point penalty")
	case g.Fits(f):
		done = i18n.T("you discard the %s, which fits a meld on the table: a 101-point penalty", f.String())
	}
	return m.Send101(a, done)
}

// DiscardQuestion is the question to ask before discarding s when it
// costs a 101-point penalty (the okey, or a tile that fits a meld on the
// table); "" otherwise.
func (m *Table) DiscardQuestion(s engine.Slot) string {
	if m.Snap == nil || m.Snap.Match101 == nil {
		return ""
	}
	g := m.Snap.Match101.Game()
	if s == engine.NoSlot || len(g.Rack(m.Snap.Seat)) == 1 {
		return ""
	}
	f := m.Face(s)
	switch {
	case f == engine.NoFace:
		return ""
	case f == g.Okey():
		return i18n.T("discard the okey? it costs a 101-point penalty")
	case g.Fits(f):
		return i18n.T("discard the %s? it fits a meld on the table: a 101-point penalty", f.String())
	}
	return ""
}

// Win declares a classic win finishing with the tile s (NoSlot: seven
// pairs with no final discard).
func (m *Table) Win(s engine.Slot) bool {
	h := m.myHand()
	if h == nil {
		return false
	}
	if _, drawn := h.Turn(); !drawn {
		m.Refuse(Refusal(classicGame, engine.ErrMustDraw))
		return false
	}
	a, ok := m.Snap.View.WinAction(h, s)
	if !ok {
		if s == engine.NoSlot {
			m.Refuse(i18n.T("put the cursor on the tile to finish with"))
			return false
		}
		m.Refuse(i18n.T("no win: the rest is not a winning hand when you finish with the %v", m.Face(s)))
		return false
	}
	what := i18n.T("you declare a win")
	if s != engine.NoSlot {
		what = i18n.T("you declare a win, finishing with the %s", m.Face(s))
	}
	return m.Send(a, what)
}

// Show shows a tile like the face-up one (gösterme).
func (m *Table) Show() bool {
	h := m.myHand()
	if h == nil {
		return false
	}
	_, ind := h.Indicator()
	slots, faces := m.Snap.View.Rack(h)
	for i, s := range slots {
		if faces[i] == ind {
			return m.Send(engine.Action{Kind: engine.ActShow, Seat: m.Snap.Seat, Slot: s,
				Faces: []engine.SlotFace{{Slot: s, Face: ind}}}, i18n.T("you show the %s (gösterme)", ind))
		}
	}
	m.Refuse(i18n.T("gösterme needs a tile like the face-up %s on your rack", ind))
	return false
}
