package tablemodel

import (
	"fmt"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// okey101 is Okey 101's game in the model.
type okey101 struct{}

func (okey101) name() string           { return game101 }
func (okey101) plays(s *Snapshot) bool { return s.Match101 != nil }

func (okey101) events(prev, cur *Snapshot) ([]Line, *HandEnd) { return events101(prev, cur) }

func (okey101) turnOf(s *Snapshot) int {
	seat, _, _ := s.Match101.Game().Turn()
	return seat
}

func (okey101) handNumber(s *Snapshot) uint32 { return uint32(s.Match101.HandNumber()) }

func (okey101) ranking(s *Snapshot) ([]engine.Standing, []int) {
	return s.Match101.Ranking(), s.Match101.Scores()
}

func (okey101) turnKey(s *Snapshot) string {
	g := s.Match101.Game()
	seat, _, _ := g.Turn()
	if seat < 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d/%d", s.Match101.HandNumber(), g.Turns(), seat)
}

func (okey101) turnSeconds(s *Snapshot) int { return s.Match101.Rules().TurnSeconds }

func (okey101) face(s *Snapshot, sl engine.Slot) engine.Face {
	return s.View.Face(s.Match101.Game(), sl)
}

func (okey101) rackFaces(s *Snapshot) (slots []engine.Slot, faces []engine.Face, okey engine.Face, ok bool) {
	g := s.Match101.Game()
	if g.Phase() < engine.Phase101Play {
		return nil, nil, engine.NoFace, false
	}
	slots, faces = s.View.Rack(g)
	return slots, faces, g.Okey(), true
}

func (okey101) drawn(s *Snapshot) bool {
	_, d, _ := s.Match101.Game().Turn()
	return d
}

func (okey101) moveOff(m *Table) string {
	g := m.Snap.Match101.Game()
	switch {
	case m.Final != nil:
		return i18n.T("the match is over")
	case g.Phase() != engine.Phase101Play:
		return i18n.T("no round is being played")
	}
	seat, _, _ := g.Turn()
	return m.turnOff(seat)
}

func (o okey101) off(m *Table, a Action) string {
	switch a {
	case Discard:
		return discardOff(m, o)
	case GiveBack:
		return o.moveOff(m)
	case Draw, Take:
		// The dealer's first turn starts with a tile more and no draw (it
		// read "you have taken a tile already").
		if why := o.moveOff(m); why != "" {
			return why
		}
		if g := m.Snap.Match101.Game(); g.DealerFirst() && o.drawn(m.Snap) {
			return Refusal(game101, engine.ErrDealerFirst)
		}
		return ""
	case Lay, Add:
		// The dealer's first turn's only move is a discard.
		if why := o.moveOff(m); why != "" {
			return why
		}
		if g := m.Snap.Match101.Game(); g.DealerFirst() {
			return Refusal(game101, engine.ErrDealerFirst)
		}
		return ""
	}
	return i18n.T("not now")
}

func (o okey101) offered(m *Table, a Action) bool {
	s := m.Snap
	g := s.Match101.Game()
	switch a {
	case Draw:
		return m.MyMove() && !o.drawn(s)
	case Take:
		return m.MyMove() && !o.drawn(s) && PrevDiscard101(g) != engine.NoFace
	case GiveBack:
		_, d, tk := g.Turn()
		return m.MyMove() && d && tk != engine.NoSlot
	case Discard, Lay:
		return m.MyMove() && o.drawn(s)
	case Add:
		return m.MyMove() && o.drawn(s) && g.Opened(s.Seat) != engine.NotOpened
	}
	return false
}

// PrevDiscard101 is the discard the player may take, or NoFace.
func PrevDiscard101(g *engine.Game101) engine.Face {
	if from := g.LastDiscard(); from >= 0 {
		if p := g.Pile(from); len(p) > 0 {
			return g.PublicFace(p[len(p)-1])
		}
	}
	return engine.NoFace
}
