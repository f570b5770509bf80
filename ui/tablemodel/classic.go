package tablemodel

import (
	"fmt"
	"slices"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// classic is the classic family's game in the model.
type classic struct{}

func (classic) name() string           { return classicGame }
func (classic) plays(s *Snapshot) bool { return s.Match != nil }

// events tells what happened between two snapshots of a classic match.
func (classic) events(prev, cur *Snapshot) (lines []Line, end *HandEnd) {
	ch := cur.Match.Hand()
	if prev == nil || prev.Match == nil || prev.Match.HandNumber() != cur.Match.HandNumber() {
		hn, dealer := cur.Match.HandNumber()+1, ch.Dealer()
		lines = append(lines, Line{txt(cur.Pick(dealer, i18n.T("hand %d: you deal", hn), i18n.T("hand %d: %s deals", hn, cur.Name(dealer))))})
		if prev == nil || prev.Match == nil {
			return lines, nil
		}
		// The previous hand's end was reported at its last move.
		return lines, nil
	}
	ph := prev.Match.Hand()
	if ph.Phase() < engine.PhasePlay && ch.Phase() >= engine.PhasePlay {
		_, ind := ch.Indicator()
		first := ch.Order()[0]
		lines = append(lines, Line{txt(i18n.T("face-up tile") + " "), tile(ind), txt(", okey "), tile(ch.Okey()),
			txt("; " + cur.Pick(first, i18n.T("you start"), i18n.T("%s starts", cur.Name(first))))})
	}
	if ph.Phase() != engine.PhasePlay {
		return lines, nil
	}
	n := cur.Match.Players()
	grew := -1
	for s := 0; s < n; s++ {
		if len(ch.Rack(s)) > len(ph.Rack(s)) {
			grew = s
		}
	}
	for s := 0; s < n; s++ {
		pp, cp := ph.Pile(s), ch.Pile(s)
		switch {
		case len(cp) > len(pp):
			lines = append(lines, Line{txt(cur.Pick(s, i18n.T("you discard "), i18n.T("%s discards ", cur.Name(s)))), tile(ch.PublicFace(cp[len(cp)-1]))})
		case len(cp) < len(pp) && grew >= 0:
			lines = append(lines, Line{txt(cur.Pick(grew, i18n.T("you take "), i18n.T("%s takes ", cur.Name(grew)))), tile(ch.PublicFace(pp[len(pp)-1]))})
		}
		if ch.Shown(s) && !ph.Shown(s) {
			_, ind := ch.Indicator()
			lines = append(lines, Line{txt(cur.Pick(s, i18n.T("you show "), i18n.T("%s shows ", cur.Name(s)))), tile(ind), txt(" (gösterme)")})
		}
	}
	if ch.StockLen() < ph.StockLen() && grew >= 0 {
		lines = append(lines, Line{txt(cur.Pick(grew, i18n.T("you draw from the stock"), i18n.T("%s draws from the stock", cur.Name(grew))))})
	}
	if res, ok := ch.Result(); ok && ph.Phase() == engine.PhasePlay {
		end = &HandEnd{Hand: cur.Hand, Result: res, Names: cur.Names, Scores: cur.Match.Scores(),
			Over: cur.Match.Over(), Discard: engine.NoFace, Okey: ch.Okey()}
		for s := range cur.Names {
			end.Racks = append(end.Racks, slices.Clone(ch.Rack(s)))
		}
		before := prev.Match.Scores()
		for i, sc := range end.Scores {
			end.Deltas = append(end.Deltas, sc-before[i])
		}
		if end.Over {
			end.Ranking = cur.Match.Ranking()
		}
		if res.Winner >= 0 {
			end.Winner = cur.Name(res.Winner)
			kept := map[engine.Slot]bool{}
			for _, s := range ch.Rack(res.Winner) {
				kept[s] = true
			}
			for _, s := range ph.Rack(res.Winner) {
				if !kept[s] {
					end.Discard = ch.PublicFace(s)
				}
			}
			w := res.Winner
			l := Line{txt(cur.Pick(w, i18n.T("you win with groups"), i18n.T("%s wins with groups", cur.Name(w))))}
			if res.Kind == engine.Pairs {
				l = Line{txt(cur.Pick(w, i18n.T("you win with seven pairs"), i18n.T("%s wins with seven pairs", cur.Name(w))))}
			}
			if end.Discard != engine.NoFace {
				l = append(l, txt(i18n.T(", discarding ")), tile(end.Discard))
			}
			lines = append(lines, l)
		} else {
			lines = append(lines, Line{txt(i18n.T("the stock is empty: the hand ends with no winner"))})
		}
	}
	return lines, end
}

func (classic) turnOf(s *Snapshot) int {
	if h := s.HandState(); h != nil {
		seat, _ := h.Turn()
		return seat
	}
	return -1
}

func (classic) handNumber(s *Snapshot) uint32 { return uint32(s.Match.HandNumber()) }

func (classic) ranking(s *Snapshot) ([]engine.Standing, []int) {
	return s.Match.Ranking(), s.Match.Scores()
}

func (classic) turnKey(s *Snapshot) string {
	h := s.HandState()
	if h == nil || h.Phase() != engine.PhasePlay {
		return ""
	}
	seat, _ := h.Turn()
	return fmt.Sprintf("%d/%d/%d", s.Hand, h.Turns(), seat)
}

func (classic) turnSeconds(s *Snapshot) int {
	if s == nil || s.Match == nil {
		return 0
	}
	return s.Match.Rules().TurnSeconds
}

func (classic) face(s *Snapshot, sl engine.Slot) engine.Face {
	return s.View.Face(s.HandState(), sl)
}

func (classic) rackFaces(s *Snapshot) (slots []engine.Slot, faces []engine.Face, okey engine.Face, ok bool) {
	h := s.HandState()
	if h == nil || h.Phase() < engine.PhasePlay {
		return nil, nil, engine.NoFace, false
	}
	slots, faces = s.View.Rack(h)
	return slots, faces, h.Okey(), true
}

func (classic) drawn(s *Snapshot) bool {
	if h := s.HandState(); h != nil {
		_, d := h.Turn()
		return d
	}
	return false
}

func (classic) moveOff(m *Table) string {
	h := m.Snap.HandState()
	switch {
	case h == nil || h.Phase() != engine.PhasePlay:
		return i18n.T("no hand is being played")
	case m.Final != nil:
		return i18n.T("the match is over")
	}
	seat, _ := h.Turn()
	return m.turnOff(seat)
}

func (cl classic) off(m *Table, a Action) string {
	switch a {
	case Discard:
		return discardOff(m, cl)
	case Draw, Take, Win, Show:
		return cl.moveOff(m)
	}
	return i18n.T("not now")
}

func (cl classic) offered(m *Table, a Action) bool {
	s := m.Snap
	switch a {
	case Draw:
		return m.MyMove() && !cl.drawn(s)
	case Take:
		return m.MyMove() && !cl.drawn(s) && CanTake(s)
	case Discard, Win:
		return m.MyMove() && cl.drawn(s)
	case Show:
		return canShow(m)
	}
	return false
}

// canShow reports whether the player may show a tile like the face-up one.
func canShow(m *Table) bool {
	h := m.Snap.HandState()
	if !m.MyMove() || h == nil || !h.CanShow(m.Snap.Seat) {
		return false
	}
	_, ind := h.Indicator()
	_, faces := m.Snap.View.Rack(h)
	return slices.Contains(faces, ind)
}

// CanTake reports whether there is a discard to take.
func CanTake(s *Snapshot) bool {
	h := s.HandState()
	if h == nil {
		return false
	}
	from := h.LastDiscard()
	return from >= 0 && len(h.Pile(from)) > 0
}
