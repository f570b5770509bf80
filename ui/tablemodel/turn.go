package tablemodel

import (
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// Whose says whose the turn line is about, for a front end to set it apart.
type Whose uint8

// Whose turn the line is about: the table's own work (shuffling, dealing,
// a peer's step), the player's move, another player's, or the end.
const (
	TurnTable Whose = iota
	TurnMine
	TurnOther
	TurnOver
)

// Turn is the turn line: what it says, and whose turn it is about.
type Turn struct {
	Text  string
	Whose Whose
}

// Turn says whose move it is, or who is working on what; on the player's
// move, what it may do (the keys named are the terminal's, the web page
// offers the same actions).
func (m *Table) Turn() Turn {
	if Game(m.Snap) == Okey101 {
		return m.turn101()
	}
	text := Progress(m.Snap)
	if !m.MyMove() {
		return Turn{Text: text, Whose: TurnTable}
	}
	switch {
	case !m.Drawn() && CanTake(m.Snap):
		text = i18n.T("your turn: draw from the stock (d) or take the discard (t)")
	case !m.Drawn():
		text = i18n.T("your turn: draw from the stock (d)")
	default:
		text = i18n.T("your turn: discard a tile (x), or declare a win (w)")
	}
	return Turn{Text: text, Whose: TurnMine}
}

// turn101 is the turn line of a 101 round.
func (m *Table) turn101() Turn {
	g := m.round()
	switch seat, drawn, taken := g.Turn(); {
	case m.Final != nil:
		return Turn{i18n.T("the match is over"), TurnOver}
	case seat < 0:
		return Turn{Progress(m.Snap), TurnTable}
	case seat == m.Snap.Seat && taken != engine.NoSlot:
		return Turn{i18n.T("your turn: use the %s you took, or give it back (b)", g.PublicFace(taken).String()), TurnMine}
	case seat == m.Snap.Seat && drawn && g.DealerFirst():
		// The engine takes no lay, add or swap before the dealer's first
		// discard (ErrDealerFirst).
		return Turn{i18n.T("your turn: discard a tile (x): the dealer starts by discarding"), TurnMine}
	case seat == m.Snap.Seat && drawn:
		return Turn{i18n.T("your turn: lay, add, then discard"), TurnMine}
	case seat == m.Snap.Seat:
		return Turn{i18n.T("your turn: draw (d) or take (t)"), TurnMine}
	default:
		return Turn{i18n.T("%s to play", m.Snap.Name(seat)), TurnOther}
	}
}
