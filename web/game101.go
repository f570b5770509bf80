package web

import (
	"slices"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
	"github.com/okey-game/okey/table"
	"github.com/okey-game/okey/ui/tablemodel"
)

// Okey 101 at the web table: the same model the terminal's 101 table draws
// (tablemodel: the selection read as melds, Lay, Add, AddTo, the swap of an
// okey, GiveBack, the penalty question before a discard), its moves asked
// for by the page's clicks, drags and keys as the terminal's keys ask for
// them. Every move is tried on a copy of the match before it is sent.

var _ table.Mover101 = (*Game)(nil)

// Move101 implements table.Mover101: it asks the page for a 101 move and
// waits.
func (g *Game) Move101(_ *engine.Game101, _ *engine.View) (engine.Action101, error) {
	return await(g, tablemodel.NewRequest[engine.Action101]())
}

// question is a discard waiting for the player's yes: it costs a 101-point
// penalty (the model's DiscardQuestion).
type question struct {
	text string
	slot engine.Slot
	snap *tablemodel.Snapshot // the table it was asked at: a new step drops it
}

// is101 reports whether the model shows an Okey 101 match.
func (g *Game) is101() bool { return g.m.Snap != nil && g.m.Snap.Match101 != nil }

// apply101 runs a command of the page at a 101 table; it returns false for
// the commands both games share (apply runs them).
func (g *Game) apply101(c command) bool {
	m := g.m
	at := func(p int) engine.Slot {
		if p < 0 || p >= tablemodel.RackSize {
			return engine.NoSlot
		}
		return m.Rack.At(p)
	}
	if c.Op != "yes" {
		g.asking = nil
	}
	switch c.Op {
	case "toggle":
		// A click on the rack: with a tile picked up (m), it goes there;
		// otherwise the tile is selected or unselected.
		if c.Slot < 0 || c.Slot >= tablemodel.RackSize {
			return true
		}
		m.Rack.Cursor = c.Slot
		if m.Rack.Lifted >= 0 {
			m.Lift()
			return true
		}
		m.Toggle(c.Slot)
	case "select":
		// Space: the tile under the cursor.
		m.Toggle(m.Rack.Cursor)
	case "clear":
		m.ClearSel()
	case "liftcur":
		// m or Enter: pick up the tile under the cursor, or put it down.
		m.Lift()
	case "lay":
		if off := m.Off(tablemodel.Lay); off != "" {
			m.Refuse(off)
			return true
		}
		m.Lay()
	case "add":
		if off := m.Off(tablemodel.Add); off != "" {
			m.Refuse(off)
			return true
		}
		m.Add()
	case "addto":
		// A meld's handle (1-9, A-Z) or a click on the meld: the
		// selection, or the tile under the cursor, added to it (or
		// swapped for its okey).
		if off := m.Off(tablemodel.Lay); off != "" {
			m.Refuse(off)
			return true
		}
		m.AddTo(c.To)
	case "dropmeld":
		// A tile dragged onto a meld: the selection when the tile is in
		// it, else that tile alone.
		sl := at(c.Slot)
		if sl == engine.NoSlot {
			m.Refuse(i18n.T("no tile there"))
			return true
		}
		if off := m.Off(tablemodel.Lay); off != "" {
			m.Refuse(off)
			return true
		}
		if !m.Sel[sl] {
			m.Sel = nil
		}
		m.Rack.Cursor = c.Slot
		m.AddTo(c.To)
	case "droplay":
		// A selected tile dragged onto the table: the selection laid.
		sl := at(c.Slot)
		if sl != engine.NoSlot && !m.Sel[sl] {
			m.Toggle(c.Slot)
		}
		if off := m.Off(tablemodel.Lay); off != "" {
			m.Refuse(off)
			return true
		}
		m.Lay()
	case "giveback":
		if off := m.Off(tablemodel.GiveBack); off != "" {
			m.Refuse(off)
			return true
		}
		m.GiveBack()
	case "discard":
		if off := m.Off(tablemodel.Discard); off != "" {
			m.Refuse(off)
			return true
		}
		sl := m.DiscardTarget()
		if c.Slot >= 0 {
			sl = at(c.Slot)
			m.Rack.Cursor = c.Slot
		}
		// A discard that costs a penalty asks first, as at the terminal.
		if q := m.DiscardQuestion(sl); q != "" {
			g.asking = &question{text: q, slot: sl, snap: m.Snap}
			return true
		}
		m.Discard(sl)
	case "yes":
		q := g.asking
		g.asking = nil
		if q != nil && q.snap == m.Snap && slices.Contains(m.Rack.Tiles(), q.slot) {
			m.Discard(q.slot)
		}
	case "no":
		m.Say(i18n.T("the tile stays on your rack"))
	default:
		return false
	}
	return true
}
