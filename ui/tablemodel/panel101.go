package tablemodel

import (
	"strings"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/internal/i18n"
)

// The words of Okey 101's table that both front ends draw: how a seat
// stands, and the round's panel's first and last lines.

// SeatWord101 is how a seat stands in a 101 round: its tiles, how it
// opened, its total.
func SeatWord101(m *engine.Match101, seat int) string {
	g := m.Game()
	parts := []string{i18n.T("%d tiles", len(g.Rack(seat)))}
	switch g.Opened(seat) {
	case engine.OpenedSets:
		parts = append(parts, i18n.T("opened"))
	case engine.OpenedDoubles:
		parts = append(parts, i18n.T("opened with doubles"))
	default:
		parts = append(parts, i18n.T("not opened"))
	}
	parts = append(parts, i18n.T("%d pts", m.Scores()[seat]))
	return strings.Join(parts, " · ")
}

// EndHead101 is the round's panel's first line: who finished and how, or
// why nobody did; name names a seat.
func EndHead101(res engine.Result101, name func(int) string) string {
	switch res.End {
	case engine.EndFinish:
		head := i18n.T("%s finished", name(res.Finisher))
		if res.JokerFinish {
			head += i18n.T(" with the okey: points doubled")
		}
		if res.OneTurn {
			head += i18n.T(" · opened and finished in one turn: doubled again")
		}
		return head
	case engine.EndCancelled:
		return i18n.T("every player opened with doubles: the round is cancelled, no points, dealt again")
	}
	return i18n.T("the bank ran out: nobody finished")
}

// EndFoot101 is the round's panel's last line: the rounds left, or the
// match's end.
func EndFoot101(e *HandEnd) string {
	if e.Over {
		return i18n.T("the match is over · lowest total wins · enter: the result")
	}
	return i18n.T("%d rounds left · lowest total wins · enter: next round", e.R101.RoundsLeft())
}
