package tablemodel

import (
	"strings"

	"github.com/okey-game/okey/bot"
	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// Hints: what the game's analysis advises for the player's move, said on
// the message line; the tiles it is about are marked (Table.Hinted), the
// cursor goes to the tile to discard, and in Okey 101 the opening or the
// melds to lay are selected (Table.Sel).

// Hint shows what the game's analysis advises for the player's move.
func (m *Table) Hint() {
	switch Game(m.Snap) {
	case Okey101:
		m.hint101()
	default:
		m.hintClassic()
	}
}

// hint asks the expert bot (bot.Expert, from this seat's view only) what to
// do: before the draw, take the previous discard or draw; after it, the one
// tile to discard (the cursor goes to that tile, the only one marked), or
// the win to declare. The message gives the reason and the next-ranked
// choices.
func (m *Table) hintClassic() {
	s := m.Snap
	h := s.HandState()
	if h == nil || h.Phase() != engine.PhasePlay {
		m.Refuse(i18n.T("no hand is being played"))
		return
	}
	_, faces := s.View.Rack(h)
	for _, f := range faces {
		if f == engine.NoFace {
			m.Refuse(i18n.T("wait until all your tiles are open"))
			return
		}
	}
	m.Hinted = nil
	v := s.View
	adv, err := bot.NewExpert(0).Advise(h, &v)
	if err != nil || len(adv.Choices) == 0 {
		m.Refuse(i18n.T("no hint now: it is not your move"))
		return
	}
	m.Say(HintText(adv))
	if c := adv.Choices[0]; c.Slot != engine.NoSlot && (c.Kind == engine.ActDiscard || c.Kind == engine.ActWin || c.Kind == engine.ActShow) {
		m.Hinted = map[engine.Slot]bool{c.Slot: true}
		if p := m.Rack.Find(c.Slot); p >= 0 && m.Rack.Lifted < 0 {
			m.Rack.Cursor = p
		}
	}
}

// HintText is the hint's line: the advice's reason with the key to press
// after its move ("discard Y4 (x): 3 from a win..."), so that the key stays
// when a narrow screen drops the reason's last parts (issue 37, 5), then up
// to two next-ranked choices.
func HintText(adv bot.Advice) string {
	c := adv.Choices[0]
	msg := HintReason(c)
	key := ""
	switch c.Kind {
	case engine.ActDraw:
		key = " (d)"
	case engine.ActTake:
		key = " (t)"
	case engine.ActDiscard:
		key = " (x)"
	case engine.ActWin:
		key = " (w)"
	}
	if i := strings.Index(msg, ": "); i > 0 {
		msg = msg[:i] + key + msg[i:]
	} else {
		msg += key
	}
	var next []string
	for _, o := range adv.Choices[1:] {
		if len(next) == 2 {
			break
		}
		switch o.Kind {
		case engine.ActDiscard:
			next = append(next, o.Face.String())
		case engine.ActTake:
			next = append(next, i18n.T("take %s", o.Face))
		case engine.ActDraw:
			next = append(next, i18n.T("draw"))
		}
	}
	if len(next) > 0 {
		msg += i18n.T("; next best: %s", strings.Join(next, ", "))
	}
	return msg
}

// round is the 101 round on the table.
func (m *Table) round() *engine.Game101 { return m.Snap.Match101.Game() }
