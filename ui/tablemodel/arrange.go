package tablemodel

import (
	"slices"
	"time"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// The rack's arrangement in the model: where the player's tiles stand
// (Rack, the player's own and kept in the RackFile), the tiles that just
// arrived, and Okey 101's selection.

// Update shows a new snapshot: the rack follows the seat's tiles (laid out
// in face order, or as the RackFile kept them, once the dealt tiles are
// open), the turn timer follows the turn, and a new hand clears the last
// one's rack, hint, message and selection. A nil snapshot changes
// nothing.
func (m *Table) Update(s *Snapshot) {
	if s == nil {
		return
	}
	m.Snap = s
	if g := m.game(); g != nil {
		g.update(m)
	}
}

// newHand clears what belongs to the last hand (round) when the snapshot
// is of a new one (key: its number + 1).
func (m *Table) newHand(key int) bool {
	if m.handKey == key {
		return false
	}
	m.Rack.Clear()
	m.handKey = key
	m.Hinted = nil
	m.laidOut = false
	// The last hand's message (a refusal, a hint) does not carry over.
	m.Say("")
	return true
}

// syncRack brings the rack up to the seat's tiles. Once the dealt tiles are
// all open they are laid out in face order, or where the player had them
// before leaving the match; a tile that arrives during play is then fresh
// for a moment.
func (m *Table) syncRack(slots []engine.Slot, faces []engine.Face) {
	if !m.laidOut && !slices.Contains(faces, engine.NoFace) {
		m.Rack.Clear()
		m.laidOut = true
		m.fresh = nil
		m.restoreRack(slots)
	} else if m.laidOut {
		before := m.Rack.Tiles()
		for _, sl := range slots {
			if !slices.Contains(before, sl) {
				if m.fresh == nil {
					m.fresh = map[engine.Slot]time.Time{}
				}
				m.fresh[sl] = m.Now()
			}
		}
	}
	m.Rack.Sync(slots, faces)
}

// FreshFor is how long a tile that arrived on the rack is fresh.
const FreshFor = 3 * time.Second

// IsFresh reports whether a tile arrived on the rack a moment ago.
func (m *Table) IsFresh(sl engine.Slot) bool {
	at, ok := m.fresh[sl]
	return ok && m.Now().Sub(at) < FreshFor
}

// ArrivedAt is when a tile arrived on the rack during play (zero: it was
// dealt, or is not there).
func (m *Table) ArrivedAt(sl engine.Slot) time.Time { return m.fresh[sl] }

// Target is the tile a discard or a win is about: the picked-up tile, or
// the one under the cursor.
func (m *Table) Target() engine.Slot {
	if m.Rack.Lifted >= 0 {
		return m.Rack.At(m.Rack.Lifted)
	}
	return m.Rack.At(m.Rack.Cursor)
}

// Sort sorts the rack by runs or by sets.
func (m *Table) Sort(runs bool) {
	slots, faces, okey, ok := m.RackFaces()
	if !ok {
		m.Refuse(i18n.T("no tiles to sort yet"))
		return
	}
	m.Rack.Sort(okey, slots, faces, runs)
	if runs {
		m.Say(i18n.T("sorted by runs"))
	} else {
		m.Say(i18n.T("sorted by sets"))
	}
}

// SortPairs sorts the rack for seven pairs.
func (m *Table) SortPairs() {
	slots, faces, okey, ok := m.RackFaces()
	if !ok {
		m.Refuse(i18n.T("no tiles to sort yet"))
		return
	}
	m.Rack.SortPairs(okey, slots, faces)
	m.Say(i18n.T("sorted by pairs"))
}

// Undo undoes the last rack move or sort.
func (m *Table) Undo() {
	if !m.Rack.Undo() {
		m.Refuse(i18n.T("nothing to undo"))
		return
	}
	if slots, faces, _, ok := m.RackFaces(); ok {
		m.Rack.Sync(slots, faces)
	}
	m.Say(i18n.T("rack move undone"))
}

// Lift picks up the tile at the cursor, or puts the picked-up tile down
// at the cursor (a front end's drag is a Lift at the start and one at the
// end).
func (m *Table) Lift() {
	if m.Rack.Lifted >= 0 {
		if m.Rack.Drop() {
			m.Say(i18n.T("tile moved"))
		} else {
			m.Say(i18n.T("tile put back"))
		}
		return
	}
	if !m.Rack.Lift() {
		m.Refuse(i18n.T("no tile there to pick up"))
		return
	}
	m.Say(i18n.T("tile picked up: move it with the arrows, put it down with space"))
}

func (classic) update(m *Table) {
	s := m.Snap
	h := s.HandState()
	if h == nil || h.Phase() < engine.PhasePlay {
		return
	}
	m.newHand(int(s.Hand) + 1)
	m.syncRack(s.View.Rack(h))
	m.TimeTurn()
}

func (okey101) update(m *Table) {
	s := m.Snap
	g := s.Match101.Game()
	if m.newHand(s.Match101.HandNumber() + 1) {
		m.Sel = nil
	}
	if g.Phase() < engine.Phase101Play {
		return
	}
	slots, faces := s.View.Rack(g)
	m.syncRack(slots, faces)
	m.TimeTurn()
	for sl := range m.Sel {
		if !slices.Contains(slots, sl) {
			delete(m.Sel, sl)
		}
	}
}
