package netplay

import (
	"context"

	"github.com/okey-game/okey/p2p/lobby"
	"github.com/okey-game/okey/table"
)

// FollowLinks runs WatchLinks on a goroutine of its own: set is told the
// player's link to each other member of table a, at once and then every
// 2s, until ctx ends or stop is called; stop returns once set is no longer
// called.
func (s *LobbyService) FollowLinks(ctx context.Context, a lobby.Announcement, set func([]table.SeatLink)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.WatchLinks(ctx, a, set)
	}()
	return func() {
		cancel()
		<-done
	}
}
