package tablemodel

import (
	"slices"
	"time"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// TimeUp moves for the player when the time of its turn ran out (a front
// end calls it when TimeLeft reaches zero while the player is asked for a
// move), and says so in the log: in the classic game it draws from the
// stock if the player has not drawn, then discards the tile the hint
// recommends (declares the win the hint sees), or the tile it drew; in
// Okey 101 the move B101 would make, one a call, so that the turn always
// ends. It reports false when no hand is being played (nothing to do).
func (m *Table) TimeUp() bool {
	switch Game(m.Snap) {
	case Okey101:
		return m.timeUp101()
	case Classic:
		return m.timeUpClassic()
	}
	return false
}

func (m *Table) timeUpClassic() bool {
	h := m.Snap.HandState()
	if h == nil || h.Phase() != engine.PhasePlay {
		return false
	}
	m.Rack.Lifted = -1
	if !m.Drawn() {
		m.Log = append(m.Log, Line{txt(i18n.T("time is up: the program draws from the stock for you"))})
		m.Draw()
		if !m.Asked() {
			m.Say(i18n.T("time is up: the program drew for you"))
		}
		return true
	}
	slots, faces := m.Snap.View.Rack(h)
	pick := engine.NoSlot
	win := false
	if !slices.Contains(faces, engine.NoFace) {
		// The hint's move: the expert's discard or win.
		v := m.Snap.View
		if adv, err := bot.NewExpert(0).Advise(h, &v); err == nil && len(adv.Choices) > 0 {
			switch c := adv.Choices[0]; c.Kind {
			case engine.ActWin:
				if c.Slot == engine.NoSlot { // seven pairs, no final discard
					m.Log = append(m.Log, Line{txt(i18n.T("time is up: the program declares your win"))})
					m.Send(adv.Action, i18n.T("time is up: the program declared your seven pairs"))
					return true
				}
				pick, win = c.Slot, true
			case engine.ActDiscard:
				pick = c.Slot
				// Of equal tiles, the one just drawn.
				for _, sl := range slots {
					if m.IsFresh(sl) && m.Face(sl) == c.Face {
						pick = sl
					}
				}
			}
		}
	}
	if pick == engine.NoSlot {
		// No analysis (a tile still closed): the newest open tile.
		var at time.Time
		for i, sl := range slots {
			if faces[i] != engine.NoFace && (pick == engine.NoSlot || m.ArrivedAt(sl).After(at)) {
				pick, at = sl, m.ArrivedAt(sl)
			}
		}
	}
	if pick == engine.NoSlot {
		return true
	}
	if win {
		if a, ok := m.Snap.View.WinAction(h, pick); ok {
			m.Log = append(m.Log, Line{txt(i18n.T("time is up: the program declares your win"))})
			m.Send(a, i18n.T("time is up: the program declared your win, finishing with the %s", m.Face(pick)))
			return true
		}
	}
	f := m.Face(pick)
	m.Log = append(m.Log, Line{txt(i18n.T("time is up: the program discards ")), tile(f), txt(i18n.T(" for you"))})
	m.Send(engine.Action{Kind: engine.ActDiscard, Seat: m.Snap.Seat, Slot: pick,
		Faces: []engine.SlotFace{{Slot: pick, Face: f}}}, i18n.T("time is up: the program discarded the %s for you", f))
	return true
}

// timeUp101 moves for the player when the time of its turn ran out: the
// move B101 would make (draw, use or give back a taken discard, lay, add,
// discard), one a tick, so that the turn always ends.
func (m *Table) timeUp101() bool {
	m.Rack.Lifted = -1
	v := m.Snap.View
	a, err := bot.NewB101().Move101(m.round(), &v)
	if err != nil {
		if _, drawn, _ := m.round().Turn(); !drawn {
			m.Draw()
		}
		return true
	}
	m.Log = append(m.Log, Line{txt(i18n.T("time is up: the program plays %v for you", a.Kind))})
	m.Send101(a, i18n.T("time is up: the program played %v for you", a.Kind))
	return true
}

// plain101 is the face a tile plays as when it plays as itself: a false
// joker plays as the okey's face.
func plain101(okey, f engine.Face) engine.Face {
	if f == engine.FalseJoker {
		return okey
	}
	return f
}
