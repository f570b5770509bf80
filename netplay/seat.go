package netplay

import (
	"context"
	"errors"

	"github.com/okey-game/okey/engine"
	"github.com/okey-game/okey/p2p"
	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// ErrNotSeated is PlaySeat's error for a table the player has no seat at.
var ErrNotSeated = errors.New("lan: the player has no seat at the table")

// SeatFront is a front end showing the player's seat at a lobby table
// (the terminal's table screen, the web page's): the steps, who is away,
// and the links to the others, as PlaySeat tells them.
type SeatFront interface {
	OnStep(m *table.Machine, v *engine.View)
	OnReplay(m *table.Machine, v *engine.View)
	SetAway(names []string)
	SetLinks(links []table.SeatLink)
}

// Seat is the player's seat at table a (-1: none).
func (c *Client) Seat(a lobby.Announcement) int {
	for i, m := range a.Members {
		if m.ID == c.ID() {
			return i
		}
	}
	return -1
}

// PlaySeat plays the started table a at the player's seat, as both front
// ends of the lobby do: mover moves for the seat (the front, or a test's
// mover), front is told each step, the names of the members whose peers
// are away and the state of the links to them, and opt's other fields go
// to Play. The table's creator closes it in the lobby once its match is
// over. ErrNotSeated when the player has no seat at a.
func (s *LobbyService) PlaySeat(ctx context.Context, a lobby.Announcement, mover table.Mover, front SeatFront, opt PlayOptions) (*Outcome, error) {
	if s.c.Seat(a) < 0 {
		return nil, ErrNotSeated
	}
	stopLinks := s.FollowLinks(ctx, a, front.SetLinks)
	opt.OnStep, opt.OnReplay, opt.OnPresence = front.OnStep, front.OnReplay, AwayNames(a, front.SetAway)
	o, err := s.c.Play(ctx, a, mover, opt)
	stopLinks()
	if err == nil {
		s.c.Done(a)
	}
	return o, err
}

// AwayNames is a PlayOptions.OnPresence that tells set the names of table
// a's members whose peers are not connected now (never this peer).
func AwayNames(a lobby.Announcement, set func([]string)) func([]p2p.MemberStatus) {
	names := map[string]string{}
	for _, m := range a.Members {
		names[m.ID] = m.Name
	}
	return func(ms []p2p.MemberStatus) {
		var away []string
		for _, m := range ms {
			if !m.Self && !m.Connected {
				away = append(away, names[string(m.ID)])
			}
		}
		set(away)
	}
}
