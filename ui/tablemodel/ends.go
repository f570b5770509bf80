package tablemodel

// The ends of hands (rounds) waiting to be shown: a front end shows the
// first one's panel (Table.Ends[0]) over the table as that hand ended
// (Table.EndedAt), and the next when the player closes it (NextEnd).

// EndedTable is the table as a hand (a round) ended: while the hand's
// panel is up the table under it shows that hand, its final rack, piles
// and turn line, not the next one, whose dealing goes on underneath (the
// other peers do not wait for the panel); the next hand shows when the
// panel is closed.
type EndedTable struct {
	Snap *Snapshot
	Rack *Rack
	Log  []Line
}

// AddEnds queues the ends of hands that led to s (Events' HandEnd), each
// with the table as it ended, and reports whether it queued any: the ends
// of hands long over (a resumed match replaying its steps) are not shown.
// Call it before Update(s).
func (m *Table) AddEnds(s *Snapshot, ends []*HandEnd) bool {
	added := false
	for _, e := range ends {
		if s != nil && e.Hand+1 < s.Hand {
			continue
		}
		if m.ended == nil {
			m.ended = map[*HandEnd]*EndedTable{}
		}
		m.ended[e] = m.endedTable(e, s)
		m.Ends = append(m.Ends, e)
		added = true
	}
	return added
}

// EndedAt is the table as e ended (nil when it cannot be told).
func (m *Table) EndedAt(e *HandEnd) *EndedTable { return m.ended[e] }

// NextEnd drops the first end shown.
func (m *Table) NextEnd() {
	if len(m.Ends) > 0 {
		delete(m.ended, m.Ends[0])
		m.Ends = m.Ends[1:]
	}
}

// endedTable is the table at e's end: e's snapshot (s, the one shown with
// it, when e does not say), the player's rack arrangement brought up to
// it, the log so far.
func (m *Table) endedTable(e *HandEnd, s *Snapshot) *EndedTable {
	at := e.At
	if at == nil || (s != nil && at.Seat != s.Seat) {
		// A hand end told from another seat (a replay's): the table as
		// this view sees it.
		at = s
	}
	if at == nil || gameOf(at) == nil {
		return nil
	}
	r := m.Rack.Still()
	if at.Seat >= 0 && at.Seat < len(at.Names) {
		live := m.Snap
		m.Snap = at
		if slots, faces, _, ok := m.RackFaces(); ok {
			r.Sync(slots, faces)
		}
		m.Snap = live
	}
	return &EndedTable{Snap: at, Rack: r, Log: m.Log}
}
